#!/bin/bash
# prof-report --html: one self-contained page, opened in Debian's chromium
# through playwright-core: no console errors, no request leaves the file,
# one distribution chart per workload, the history's trend with its change
# point, and screenshots kept under artifacts/test/t6004-report-html/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 27

# 20 runs of two workloads: test.step gets 30% slower at run 11, test.flat
# stays. The last run also has a memory sample, an instruction count
# (prof-count's phase) and a diagnose run's files.
noise=(1.00 1.03 0.98 1.02 0.97 1.01 1.03 0.99 0.98 1.02
	1.01 0.97 1.03 0.99 1.02 0.98 1.01 1.03 0.97 1.00)
db=$T/history.sqlite
mkdir -p "$T/run"
for i in $(seq 1 20); do
	m=$(awk -v n="${noise[$((i - 1))]}" -v i="$i" \
		'BEGIN { printf "%.6f", 10 * n * (i >= 11 ? 1.3 : 1) }')
	f=$(awk -v n="${noise[$((i - 1))]}" 'BEGIN { printf "%.6f", 5 * n }')
	id=$(printf %02d "$i")
	mkrun "$T/s$id.json" "run-$id" "$(printf 'c%02d%036d' "$i" 0)" \
		"2026-02-${id}T00:00:00Z" \
		"$(awk -v m="$m" 'BEGIN { printf "%.6f", m * 0.99 }')" "$m" \
		"$(awk -v m="$m" 'BEGIN { printf "%.6f", m * 1.02 }')"
	jq --argjson f "$f" '.samples += [.samples[] | .workload = "test.flat" |
		.duration_ms = ($f * (1 + .index / 100))]' "$T/s$id.json" \
		>"$T/x.json" && mv "$T/x.json" "$T/s$id.json"
done
jq '.samples += [(.samples[0] | .phase = "memory" | .index = 0 |
	.memory = {host_peak_bytes: 1048576, rss_peak_bytes: 7340032}),
	(.samples[0] | .phase = "instructions" | .index = 0 |
	.instructions = 123456789),
	(.samples[0] | .phase = "profile" | .index = 0 |
	.artifacts = ["test.step.prof", "test.step.trace.json"])]' \
	"$T/s20.json" >"$T/run/results.json"
"$BIN/prof-history" add --db "$db" "$T"/s[01]*.json "$T/run/results.json" \
	2>/dev/null
is "$("$BIN/prof-history" list --db "$db" | jq length)" 20 \
	"a history of 20 hand-made runs"
run prof-diff --baseline "$T/s01.json" -o "$T/run/comparisons.json" \
	"$T/run/results.json"
is "$rc" 0 "the last run compared with the first"

run prof-report --comparisons "$T/run/comparisons.json" \
	--baseline "$T/s01.json" --history "$db" \
	--html "$T/run/report.html" -q "$T/run/results.json"
is "$rc" 0 "prof-report --html writes the page"
html=$T/run/report.html
is "$(grep -cE '(src|href|action)="?(https?:)?//' "$html")" 0 \
	"it names nothing on the network"
like "$(head -c 400 "$html")" "default-src 'none'" \
	"and its content policy allows nothing from outside"

shots=$ROOT/artifacts/test/t6004-report-html
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/report-html.mjs --html "$html" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == []' "$T/seen.json" \
	"with no console errors"
jq_ok ".requests == [\"file://$html\"]" "$T/seen.json" \
	"and no request but the file itself"
jq_ok '.rows == 2 and .workloads == 2 and .charts == 2 and
	.charts_per_row == [1, 1]' "$T/seen.json" "one chart per workload"
jq_ok '.drawn and .dots == 6' "$T/seen.json" \
	"the charts are drawn, one dot per current sample"
jq_ok '.trends == 2 and .trend_runs == [20, 20]' "$T/seen.json" \
	"each row has its trend over the 20 runs"
jq_ok '.change_marks == 1' "$T/seen.json" \
	"with the one change point marked"
jq_ok '.statuses == ["stable", "warning"]' "$T/seen.json" \
	"statuses: test.flat stable, test.step a warning"
jq_ok '.visible_after_filter == ["warning"]' "$T/seen.json" \
	"the warnings filter shows the warning only"
jq_ok '.links == ["test.step.prof", "test.step.trace.json"]' \
	"$T/seen.json" "links to the diagnose run's files"
jq_ok '(.overflow | not) and (.overflow_narrow | not)' "$T/seen.json" \
	"nothing overflows at 1280 or 800 pixels"
ok "$(for f in report.png report-print.png row.png; do
	[ "$(head -c 8 "$shots/$f" | od -An -tx1 | tr -d ' \n')" = \
		89504e470d0a1a0a ] || echo "$f"; done | grep -c .)" \
	"screenshots (screen, print, one row) under artifacts/test/"
like "$(grep -o 'change point +[0-9.]*% in <code title="c10[0-9]*\.\.c11[0-9]*">c10[0-9]*\.\.c11[0-9]*</code>' "$html")" \
	"change point +" "the change point is named by its commit range"
like "$(cat "$html")" "<tr data-metric=\"host_peak_bytes\"><td>heap peak (bytes)</td><td class=\"num\">1,048,576</td>" \
	"memory numbers where a memory sample exists, in their channel"
like "$(cat "$html")" "<tr><td>current</td><td class=\"num\">1</td><td class=\"num\">123,456,789</td>" \
	"the instruction count where one was counted, in its channel"
"$BIN/prof-history" trend --db "$db" --workload test.step >"$T/trend.json"
jq_ok '(.[-1].instructions == 123456789) and (.[0].instructions == null)' \
	"$T/trend.json" "and the history's trend carries it"

# Two profiling runs: a history of two runs, a page that shows both.
mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
for i in 1 2; do
	mk profile-full WORKLOADS="$TW" CATEGORY=memory REPEAT=2 STORIES=0 \
		BASELINE="$T/none.json" HISTORY="$T/mk.sqlite" OUTPUT="$T/q$i"
done
is "$rc:$(tail -n 1 "$out")" "0:report: $T/q2/report.html" \
	"make profile-full writes report.html"
is "$("$BIN/prof-history" list --db "$T/mk.sqlite" | jq length)" 2 \
	"and adds each run to HISTORY"
like "$(cat "$T/q2/report.html")" 'class="trend" data-runs="2"' \
	"the second page's trend has both runs"
printf 'not a database\n' >"$T/text.sqlite"
mk profile-full WORKLOADS="$TW" CATEGORY=memory REPEAT=2 STORIES=0 \
	BASELINE="$T/none.json" HISTORY="$T/text.sqlite" OUTPUT="$T/q3"
is "$rc" 2 "a history that is not one fails the run (make: 2)"
like "$(cat "$err")" "prof-history: $T/text.sqlite: file is not a database" \
	"naming it"
ok "$([ -s "$T/q3/summary.md" ] && [ -s "$T/q3/report.html" ] &&
	[ "$(cat "$T/text.sqlite")" = "not a database" ]; echo $?)" \
	"the reports are still written, the file is left alone"
finish
