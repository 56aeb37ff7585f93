#!/bin/bash
# A newcomer's first run has no baseline file: every row is incomparable,
# and summary.md and the compact table's last line say in one line how to
# make a local baseline from this run (make baseline-update ... NAME=local,
# then BASELINE=baselines/local.json), apart from CI's own cpu-ci. With a
# baseline there, no such line.
. "$(dirname "$0")/lib.sh"
plan 7

D=test/data/results
R=$T/run
mkdir "$R"
cp $D/current.json "$R/results.json"
"$BIN/prof-diff" --baseline "$T/cpu-ci.json" -o "$R/comparisons.json" \
	"$R/results.json"
jq_ok 'all(.[]; .status == "incomparable")' "$R/comparisons.json" \
	"without a baseline file every row is incomparable"

env -u GITHUB_ACTIONS "$BIN/prof-report" --comparisons "$R/comparisons.json" \
	--baseline "$T/cpu-ci.json" "$R/results.json" >"$out" 2>"$err"
rc=$?
is "$rc" 0 "the report is written, exit 0"
is "$(tail -n 1 "$out")" \
	"no baseline '$T/cpu-ci.json' yet, so no row is judged: to judge the next runs against this one, make a local baseline: make baseline-update FROM=$R/results.json NAME=local, then run with BASELINE=baselines/local.json (the CI baseline is made from CI runs only: the README's \"Baseline bootstrap\")" \
	"the table's last line says how to make a local baseline"
is "$(grep -c 'NAME=local' "$R/summary.md")" 1 "summary.md says it once"
is "$(head -n 1 "$R/summary.md")" \
	"No baseline yet: \`$T/cpu-ci.json\` is not there, so no row is judged. To judge the next runs against this one, make a local baseline: \`make baseline-update FROM=$R/results.json NAME=local\`, then run with \`BASELINE=baselines/local.json\` (the CI baseline is made from CI runs only: the README's \"Baseline bootstrap\")." \
	"on its first line"

# With the baseline there, nothing of it.
"$BIN/prof-diff" --baseline $D/baseline.json -o "$R/comparisons.json" \
	"$R/results.json"
rm "$R/summary.md"
env -u GITHUB_ACTIONS "$BIN/prof-report" --comparisons "$R/comparisons.json" \
	--baseline $D/baseline.json "$R/results.json" >"$out" 2>"$err"
is "$(grep -c 'NAME=local' "$out" "$R/summary.md" | tr '\n' ' ')" \
	"$out:0 $R/summary.md:0 " "a run with a baseline gets no such line"

# The README's set-up says the same.
like "$(sed -n '/^## Set-up/,/^## /p' README.md | tr '\n' ' ' | tr -s ' ')" \
	"make baseline-update FROM=artifacts/profiling/<run>/results.json NAME=local" \
	"the README's set-up says how to make a local baseline"
finish
