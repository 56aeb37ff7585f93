#!/bin/bash
# The differential flame graph in report.html, drawn in Debian's chromium:
# a run whose one function (work) executes 50 more instructions of its own
# gets one highlighted frame, work's, with its numbers in the hover title;
# the page needs no request and no script for it. Screenshots are kept
# under artifacts/test/t6303-flame-html/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 20

# count_run FILE IR ARTIFACT: a results file of two instruction samples.
count_run() {
	mkrun "$1.t" run-x c1 2026-02-01T00:00:00Z 1 1
	jq --argjson ir "$2" --arg a "$3" '.samples |= map(.phase =
		"instructions" | .instructions = $ir | .count_threshold_pct = 1 |
		.artifacts = (if .index == 0 then [$a] else [] end))' "$1.t" >"$1"
}
R=$T/run
mkdir -p "$R/functions/reference"
cp test/data/why/before.out "$R/functions/reference/test.step.cpu.callgrind"
cp test/data/why/one-after.out "$R/functions/test.step.cpu.callgrind"
count_run "$R/baseline.json" 1600 functions/reference/test.step.cpu.callgrind
count_run "$R/results.json" 1650 functions/test.step.cpu.callgrind
"$BIN/prof-diff" --baseline "$R/baseline.json" -o "$R/comparisons.json" \
	"$R/results.json"
jq_ok '.[0].status == "warning"' "$R/comparisons.json" \
	"+3.1% instructions: a warning"
run prof-why --comparisons "$R/comparisons.json"
is "$rc" 0 "prof-why explains it"
run prof-report --comparisons "$R/comparisons.json" -o "$R/summary.md" \
	--html "$R/report.html" "$R/results.json"
is "$rc" 0 "prof-report writes the summary and the page"
like "$(cat "$R/summary.md")" \
	'  | `work` | work.c | 900 | 950 | +50 | 100.0% | 1,000 | 1,050 |' \
	"the summary has work first under the row's reason"

shots=$ROOT/artifacts/test/t6303-flame-html
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/flame.mjs --html "$R/report.html" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens the page"
jq_ok '.console_errors == [] and .page_errors == []' "$T/seen.json" \
	"no console errors"
jq_ok ".requests == [\"file://$R/report.html\"]" "$T/seen.json" \
	"no request but the file itself"
jq_ok '.graphs == 1' "$T/seen.json" "one flame graph"
jq_ok '.flames[0].more | length == 1' "$T/seen.json" \
	"one highlighted frame"
jq_ok '.flames[0].more[0] | .label == "work" and .width > 100 and
	.height > 10' "$T/seen.json" "it is work's, drawn wide and labelled"
jq_ok '.flames[0].more[0].title == "work (work.c)\nnow: 1,050 instructions (63.64% of all)\nbefore: 1,000\nself: 900 -> 950 (+50)"' \
	"$T/seen.json" "its hover title has the numbers"
jq_ok '.flames[0].more[0].fill | startswith("rgb(220, 40, 30)")' \
	"$T/seen.json" "in the strongest red"
jq_ok '.flames[0].less == [] and .flames[0].new == [] and
	.flames[0].same >= 4' "$T/seen.json" "the other frames unchanged"
jq_ok '.flames[0].width > 900 and .overflow == false' "$T/seen.json" \
	"as wide as the row at a laptop's width, no sideways scrolling"
jq_ok '.flames[0].label_px >= 9' "$T/seen.json" \
	"labels of 9 pixels or more"
jq_ok '.print_width > 300 and .why_rows[0][0] == "work"' "$T/seen.json" \
	"printed too; the table under it names work first"
# One side's C++ names mangled (callgrind --demangle=no): the graph has
# them demangled, as the tables do, and matched with the other side's.
M=$T/mangled
mkdir -p "$M/functions/reference"
cp test/data/why/mangled.out "$M/functions/reference/test.step.cpu.callgrind"
cp test/data/why/demangled-after.out "$M/functions/test.step.cpu.callgrind"
count_run "$M/baseline.json" 1000 functions/reference/test.step.cpu.callgrind
count_run "$M/results.json" 1300 functions/test.step.cpu.callgrind
"$BIN/prof-diff" --baseline "$M/baseline.json" -o "$M/comparisons.json" \
	"$M/results.json" && "$BIN/prof-why" --comparisons "$M/comparisons.json"
run prof-report --comparisons "$M/comparisons.json" -o "$M/summary.md" \
	--html "$M/report.html" "$M/results.json"
is "$rc:$(grep -c 'class="frame more"><title>foo::bar() (foo.cc)' \
	"$M/report.html")" "0:1" \
	"a mangled side's graph: foo::bar() has more work, demangled"
is "$(grep -c '_ZN3foo' "$M/report.html")" 0 "no name is left mangled"
# A time row's CPU profiles, sides of different numbers of calls: the
# current one covers 1 call, the reference 2 (CALLS HZ in W.B.calls).
# half-after.out is before.out halved, but work's own 900 samples are 500:
# per call work went from 450 to 500 and nothing else moved, while every
# raw count fell. The graph draws ns per call, as the table: one
# highlighted frame, work's.
P=$T/time
mkdir -p "$P/time/reference" "$P/time/current"
cp test/data/why/before.out "$P/time/reference/test.step.cpu.callgrind"
cp test/data/why/half-after.out "$P/time/current/test.step.cpu.callgrind"
echo "2 1000" >"$P/time/reference/test.step.cpu.calls"
echo "1 1000" >"$P/time/current/test.step.cpu.calls"
mkrun "$P/baseline.json" run-b c1 2026-02-01T00:00:00Z 10 10 10 10 10
mkrun "$P/results.json" run-c c2 2026-02-02T00:00:00Z 20 20 20 20 20
"$BIN/prof-diff" --baseline "$P/baseline.json" -o "$P/comparisons.json" \
	"$P/results.json" && "$BIN/prof-why" --comparisons \
	"$P/comparisons.json" --time "$P/time" &&
	"$BIN/prof-report" --comparisons "$P/comparisons.json" \
	-o "$P/summary.md" --html "$P/report.html" "$P/results.json"
jq_ok '.[0].status == "warning" and .[0].time_functions[0].name == "work" and
	.[0].time_functions[0].self_before == 450000000 and
	.[0].time_functions[0].self_after == 500000000' \
	"$P/comparisons.json" "a time row: work's CPU per call went up"
is "$(grep -o 'class="frame [a-z]*"><title>[^<]*' "$P/report.html" |
	grep -v '"frame same"')" 'class="frame more"><title>work (work.c)' \
	"its graph, per call too: work's frame alone, more"
finish
