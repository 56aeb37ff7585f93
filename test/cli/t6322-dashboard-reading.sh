#!/bin/bash
# The dashboard as a user reads it (issue 30), in Debian's chromium through
# playwright-core: a series of instruction counts only is no failure and
# gets no empty block of times; an axis starts at zero or says that it
# zooms, with its range; the commits are named under the x axis and link
# to them; a segment id comes with its fields, and two series of one
# workload say what tells them apart. Screenshots are kept under
# artifacts/test/t6322-dashboard-reading/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 25

# A segment key as a run of prof writes it: all the fields, most of them
# null on a CPU, so that it is a long line (the key of its env, as every
# reader checks: JQ_SEGMENT).
long_key='.env += {workload_compiler_major: "gcc 12",
	workload_optimized: true} | .segment = (.env | segment_key)'
# Three runs: test.step takes 10, 10.2, 10.5 ms (close together: a zoom),
# test.flat 4, 8, 16 ms (an axis from zero); prof-count's counts of
# test.step are a series of their own (their segment keys valgrind), the
# last one 0.1% more.
c=(1111111111111111111111111111111111111111
	2222222222222222222222222222222222222222
	3333333333333333333333333333333333333333)
step=(10 10.2 10.5)
flat=(4 8 16)
ir=(58021144 58021144 58079165)
mkdir -p "$T/runs"
for i in 0 1 2; do
	f=$T/runs/r$i.json
	mkrun "$f" "run-$i" "${c[$i]}" "2026-02-0$((i + 1))T00:00:00Z" \
		"${step[$i]}" "${step[$i]}" "${step[$i]}"
	jq --argjson flat "${flat[$i]}" --argjson ir "${ir[$i]}" "$JQ_SEGMENT
	.samples |= map($long_key) |
	.samples += [.samples[] | .workload = \"test.flat\" |
		.duration_ms = \$flat] |
	.samples += [.samples[0] | .phase = \"instructions\" | .index = 0 |
		.instructions = \$ir | .env.valgrind = \"3.19.0\" |
		.segment = (.env | segment_key)]" \
		"$f" >"$T/x.json" && mv "$T/x.json" "$f"
done
db=$T/h.sqlite
"$BIN/prof-history" import --db "$db" "$T/runs" 2>/dev/null
run prof-dashboard --db "$db" --repo-url https://example.invalid/o/r \
	-o "$T/dash"
is "$rc:$(cat "$err")" \
	"0:prof-dashboard: wrote 3 series over 3 runs to '$T/dash/index.html'" \
	"three series: test.flat, test.step's times and its counts"

shots=$ROOT/artifacts/test/t6322-dashboard-reading
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/dashboard.mjs --dir "$T/dash" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == [] and .outside == []' \
	"$T/seen.json" "with no console errors and no request leaving it"
# The series in the index's order, with their pages: the count series is
# the one whose page says so.
jq '[.series_pages | to_entries[] | {i: .key} + .value]' "$T/seen.json" \
	>"$T/pages.json"
ci=$(jq '.[] | select(.kind == "count") | .i' "$T/pages.json")
si=$(jq '.[] | select(.kind == "time" and (.title | test("test.step"))) |
	.i' "$T/pages.json")
fi=$(jq '.[] | select(.title | test("test.flat")) | .i' "$T/pages.json")
is "$(printf '%s\n' "$ci" "$si" "$fi" | sort | tr '\n' ' ')" "0 1 2 " \
	"a page of counts only, one of times, and test.flat's"

# A series of counts only: ok, with no trend of times.
jq_ok '.statuses == ["ok", "ok", "ok"]' "$T/seen.json" \
	"every latest status is ok: a count series is not 'failed'"
jq_ok ".sparks[$ci] == 0 and .instr_sparks[$ci] == 1" "$T/seen.json" \
	"its row has the trend of its counts and none of times"
jq_ok ".[$ci] | .charts == 0 and .instr_charts == 1 and
	(.sections | any(test(\"Median\")) | not) and
	(.header | index(\"median ms\") == null and index(\"n\") == null and
	index(\"instructions\") != null)" "$T/pages.json" \
	"its page has no block and no columns of times, its counts' chart"
like "$(cat "$T/dash/index.html")" \
	'<span class="bad">+0.10%</span> <span class="mono">2222222..3333333</span> <span class="none">(count)</span>' \
	"its last change is the run whose count changed"

# Axes: from zero, or a zoom that says so.
jq_ok ".[$fi] | .zoom == [0] and .y_lowest == [\"0\"] and
	.zoom_words == [null] and .zoom_breaks == [0]" "$T/pages.json" \
	"4 to 16 ms: the axis starts at 0"
jq_ok ".[$si] | .zoom == [1] and .zoom_breaks == [1] and
	(.zoom_words[0] | test(\"^y axis zoomed: [0-9.]+ ms to [0-9.]+ ms, not from 0$\"))" \
	"$T/pages.json" "10 to 10.5 ms: a zoom, said in the chart, with a break"
jq_ok ".[$ci] | .zoom == [1] and
	(.zoom_words[0] | test(\"^y axis zoomed: 5[0-9.]+M to [56][0-9.]+M, not from 0$\"))" \
	"$T/pages.json" "counts 0.1% apart: a zoom with its range"
svg=$(grep -o '<svg class="chart trend instr"[^>]*>' "$T/dash"/s-*.html |
	head -n 1)
lo=$(printf '%s' "$svg" | sed 's/.*data-y-lo="\([^"]*\)".*/\1/')
hi=$(printf '%s' "$svg" | sed 's/.*data-y-hi="\([^"]*\)".*/\1/')
ok "$(awk -v l="$lo" -v h="$hi" 'BEGIN { exit !((h - l) / 58040000 > 0.099 &&
	l < 58021144 && h > 58079165) }'; echo $?)" \
	"which spans a tenth of the counts' level: +0.1% is no cliff"
jq_ok '.spark_zoom[0] == [0]' "$T/seen.json" \
	"the index's small trend of test.flat starts at zero too"

# Commits under the x axis, linked.
jq_ok ".[$fi] | .x_labels == [[\"3333333\", \"2222222\", \"1111111\"]] and
	.x_links == [[\"https://example.invalid/o/r/commit/${c[2]}\",
	\"https://example.invalid/o/r/commit/${c[1]}\",
	\"https://example.invalid/o/r/commit/${c[0]}\"]] and .x_drawn" \
	"$T/pages.json" "each run's short commit under the x axis, linked"
jq_ok '.series_pages | all(.overflow | not)' "$T/seen.json" \
	"and no page is wider than the window, a long segment key and all"

# A segment id with its fields; two series of one workload told apart.
jq_ok ".differs[$ci] == \"valgrind 3.19.0\" and
	.differs[$si] == \"no valgrind\" and .differs[$fi] == null" \
	"$T/seen.json" "the index names what tells test.step's series apart"
jq_ok ".[$ci] | (.segment_fields | index(\"cpu_model\") != null and
	index(\"valgrind\") != null) and .segment_marked == [\"valgrind\"] and
	.told_by == \"valgrind 3.19.0\"" "$T/pages.json" \
	"a series page lists its segment's fields, the one that differs marked"
jq_ok ".[$ci].siblings == [\"cpu · Test CPU · gcc 12 · size 1000 no valgrind\"]
	and .[$ci].sibling_ids == [.[$si].title_id]" "$T/pages.json" \
	"and names the workload's other series in words (its id on hover), with what differs"
jq_ok ".series_pages[$ci].sibling_links == [.pages[$si]]" "$T/seen.json" \
	"linked to its page"
jq_ok ".[$si].told_by == \"no valgrind\" and .[$fi].told_by == null and
	.[$fi].siblings == []" "$T/pages.json" \
	"the time series says it too; a workload's only series needs not"

# Thirty runs: at most 12 commits under the axis, the latest among them.
mkdir -p "$T/many"
for i in $(seq 1 30); do
	mkrun "$T/many/r$i.json" "m$i" "$(printf '%07x%033d' "$i" 0)" \
		"2026-03-$(printf %02d "$i")T00:00:00Z" 10
done
"$BIN/prof-history" import --db "$T/many.sqlite" "$T/many" 2>/dev/null
run prof-dashboard --db "$T/many.sqlite" -o "$T/dm"
is "$rc" 0 "a history of 30 runs"
page=$(ls "$T"/dm/s-*.html)
is "$(grep -o 'class="tick xc mono"[^>]*>[^<]*' "$page" | wc -l)" 10 \
	"every third run's commit is named: 10 labels"
like "$(grep -o 'class="tick xc mono"[^>]*>[^<]*' "$page" | head -n 1)" \
	'text-anchor="end">000001e' \
	"the latest first, at the right end"
is "$(grep -o 'href="[^"]*"' "$page" | sort -u)" 'href="index.html"' \
	"with no repository URL, no links"

ok "$(for f in index.png series-1.png series-2.png series-3.png; do
	[ "$(head -c 8 "$shots/$f" | od -An -tx1 | tr -d ' \n')" = \
		89504e470d0a1a0a ] || echo "$f"; done | grep -c .)" \
	"screenshots of the index and each series under artifacts/test/"
finish
