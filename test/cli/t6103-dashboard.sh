#!/bin/bash
# make dashboard: a folder of static pages from the history, opened in
# Debian's chromium through playwright-core: one chart per series, no
# console errors, no request leaving the folder, every field escaped;
# change points marked; an axis of numbers a double cannot tell apart
# still ends. Screenshots are kept under artifacts/test/t6103-dashboard/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 33

mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}

# Three runs of two series; the last run counts test.step's instructions
# and has a commit that is not an object name (a tag and more).
c1=1111111111111111111111111111111111111111
c2=2222222222222222222222222222222222222222
mkrun "$T/r1.json" run-1 "$c1" 2026-02-01T00:00:00Z 10 11 12
mkrun "$T/r2.json" run-2 "$c2" 2026-02-02T00:00:00Z 10.5 11.5 12.5
mkrun "$T/r3.json" run-3 v1.2-dirty 2026-02-03T00:00:00Z 11 12 13
for f in "$T"/r[123].json; do
	jq '.samples += [.samples[] | .workload = "test.flat" |
		.duration_ms = .duration_ms / 2]' "$f" >"$T/x.json" &&
		mv "$T/x.json" "$f"
done
jq '.samples += [.samples[0] | .phase = "instructions" | .index = 0 |
	.instructions = 123456789]' "$T/r3.json" >"$T/x.json" &&
	mv "$T/x.json" "$T/r3.json"
mkdir -p "$T/runs"
mv "$T"/r[123].json "$T/runs/"
db=$T/h.sqlite
"$BIN/prof-history" import --db "$db" "$T/runs" 2>/dev/null

dash=$T/dash
mk dashboard HISTORY="$db" OUTPUT="$dash" REPO_URL=https://example.invalid/o/r
is "$rc:$(cat "$err")" \
	"0:prof-dashboard: wrote 2 series over 3 runs to '$dash/index.html'" \
	"make dashboard writes the folder"
is "$(cd "$dash" && ls | grep -c '^s-[0-9a-f]\{16\}\.html$')" 2 \
	"a page per series beside index.html"
is "$(cat "$dash"/*.html | grep -cE '(src|href|action)="?(https?:)?//[^e]')" \
	0 "the pages name nothing on the network but commit links"
like "$(head -c 600 "$dash/index.html")" "default-src 'none'; style-src 'sha256-" \
	"and their content policy allows nothing but their own style"
like "$(cat "$dash"/s-*.html)" '<td class="mono">v1.2-dirty</td>' \
	"a commit that is not an object name is shown, not linked"

# In the browser, where there is one (else its 13 checks are skipped,
# as t6006's are).
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	why="chromium is not installed (make deps installs it)"
elif [ ! -d node_modules/playwright-core ]; then
	why="playwright-core is not installed (make deps runs npm ci)"
else
	why=
fi
if [ -n "$why" ]; then
	for i in $(seq 1 13); do skip "$why"; done
else
	shots=$ROOT/artifacts/test/t6103-dashboard
	rm -rf "$shots"
	mkdir -p "$shots"
	node test/browser/dashboard.mjs --dir "$dash" --shots "$shots" \
		>"$T/seen.json" 2>"$err"
	is "$?" 0 "chromium opens it"
	jq_ok '.console_errors == [] and .page_errors == [] and .dialogs == []' \
		"$T/seen.json" "with no console errors and no dialog"
	jq_ok '.outside == [] and (.requests | all(test("^(index|s-[0-9a-f]{16})\\.html$")))' \
		"$T/seen.json" "and no request leaving the folder"
	jq_ok '.rows == 2 and .series == ["test.flat cpu", "test.step cpu"]' \
		"$T/seen.json" "the index has a row per series"
	jq_ok '.sparks == [1, 1] and .spark_points == [3, 3] and .spark_drawn' \
		"$T/seen.json" "each with a small trend of its three runs, drawn"
	jq_ok '.instr_sparks == [0, 1]' "$T/seen.json" \
		"and one of its instruction counts where there are some"
	jq_ok '.statuses == ["ok", "ok"]' "$T/seen.json" "the latest status"
	jq_ok '(.overflow | not) and (.overflow_narrow | not)' "$T/seen.json" \
		"the index fits at 1280 and at 800 pixels"
	jq_ok '[.series_pages[].charts] == [1, 1] and
		[.series_pages[].points] == [[3], [3]] and
		[.series_pages[].p90_lines] == [[1], [1]] and
		(.series_pages | all(.drawn))' "$T/seen.json" \
		"one chart per series page: median points and the p90, drawn"
	jq_ok '[.series_pages[].instr_charts] == [0, 1]' "$T/seen.json" \
		"and an instruction chart where counted"
	jq_ok ".series_pages[0].point_links == [
		\"https://example.invalid/o/r/commit/$c1\",
		\"https://example.invalid/o/r/commit/$c2\"]" "$T/seen.json" \
		"each point links to its commit (not the one that is no object name)"
	jq_ok '.series_pages | all(.table_rows == 3 and .back == "index.html" and
		(.overflow | not))' "$T/seen.json" \
		"a table of the runs and a way back, fitting the width"
	ok "$(for f in index.png index-print.png series.png; do
		[ "$(head -c 8 "$shots/$f" | od -An -tx1 | tr -d ' \n')" = \
			89504e470d0a1a0a ] || echo "$f"; done | grep -c .)" \
		"screenshots (index, printed index, a series) under artifacts/test/"
fi

# Without a repository URL, no links; a bad one is refused.
mk dashboard HISTORY="$db" OUTPUT="$T/d2" REPO_URL=
is "$rc:$(cat "$T/d2"/s-*.html | grep -c 'href="http')" 0:0 \
	"without REPO_URL the points link nowhere"
run prof-dashboard --db "$db" --repo-url 'javascript:alert(1)' -o "$T/d3"
is "$rc:$(cat "$err")" \
	"2:prof-dashboard: --repo-url: 'javascript:alert(1)' is not an http(s) address" \
	"a repository URL that is not http(s) is refused"
is "$(ls "$T/d3" 2>/dev/null | wc -l)" 0 "and nothing is written"

# A segment key (a CPU model) that is markup is escaped, in text and in
# attributes.
img='<img src=x onerror=alert(1)>'
mkdir -p "$T/xss"
mkrun "$T/xss/a.json" x1 "$c1" 2026-05-01T00:00:00Z 1 2 3
jq --arg m "$img" '.samples |= map(.env.cpu_model = $m |
	.segment = (.segment | fromjson | .cpu_model = $m | tojson))' \
	"$T/xss/a.json" >"$T/xss/b.json" && rm "$T/xss/a.json"
"$BIN/prof-history" import --db "$T/xss.sqlite" "$T/xss" 2>/dev/null
mk dashboard HISTORY="$T/xss.sqlite" OUTPUT="$T/dx"
is "$rc:$(cat "$T"/dx/*.html | grep -c '<img')" 0:0 \
	"a segment key that is markup is never markup in the pages"
like "$(cat "$T"/dx/index.html)" 'cpu · &lt;img src=x onerror=alert(1)&gt; · gcc 12' \
	"but text, in the index's words for the segment"

# Eight runs with a 50% step after the fourth: the change point is marked.
mkdir -p "$T/step"
for i in 1 2 3 4 5 6 7 8; do
	m=$([ "$i" -le 4 ] && echo 10 || echo 15)
	mkrun "$T/step/r$i.json" "s$i" "$(printf '%040d' "$i")" \
		"2026-03-0${i}T00:00:00Z" "$m" "$m" "$m"
done
"$BIN/prof-history" import --db "$T/step.sqlite" "$T/step" 2>/dev/null
mk dashboard HISTORY="$T/step.sqlite" OUTPUT="$T/ds"
is "$rc" 0 "a history with a step"
is "$(grep -o 'data-changes="[0-9]*"' "$T/ds/index.html")" \
	'data-changes="1"' "the index's trend marks one change point"
like "$(cat "$T/ds/index.html")" \
	'<span class="bad">+50.0%</span> <span class="mono">0000000..0000000</span>' \
	"and names its size and commits"
is "$(grep -o '<line class="cut"' "$T"/ds/s-*.html | wc -l)" 1 \
	"the series page draws it"
is "$(grep -o '\.cut{stroke:[^;]*' "$T"/ds/s-*.html)" '.cut{stroke:#57606a' \
	"in a colour of no status (not the error red)"
is "$(grep -o '<title>[^<]*' "$T"/ds/s-*.html | head -n 1)" \
	'<title>test.step on cpu · Test CPU · gcc 12 · size 1000' \
	"the series page's tab names its workload and segment in words"
is "$(grep -c '<title>[^<]*[0-9a-f]\{16\}' "$T"/ds/s-*.html)" 0 \
	"and no segment id"

# Medians a double can barely tell apart: the axis still ends.
mkdir -p "$T/near"
mkrun "$T/near/a.json" n1 "$c1" 2026-04-01T00:00:00Z 999999999.9999999
mkrun "$T/near/b.json" n2 "$c2" 2026-04-02T00:00:00Z 999999999.99999994
"$BIN/prof-history" import --db "$T/near.sqlite" "$T/near" 2>/dev/null
timeout 60 "$BIN/prof-dashboard" --db "$T/near.sqlite" -o "$T/dn" \
	>"$out" 2>"$err"
is "$?" 0 "near-equal medians: the pages are written"
ok "$([ "$(cat "$T"/dn/*.html | wc -c)" -lt 100000 ]; echo $?)" \
	"and stay small"

mk dashboard HISTORY= OUTPUT="$T/d4"
is "$rc:$(head -n 1 "$err")" "2:make dashboard: give HISTORY=the history file" \
	"make dashboard without a history says so"
finish
