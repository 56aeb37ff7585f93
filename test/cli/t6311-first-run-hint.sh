#!/bin/bash
# A newcomer's first run has no baseline file: every row is incomparable,
# and summary.md and the compact table's last line say in one line how to
# make a local baseline from this run (make baseline-update ... NAME=local,
# then BASELINE = baselines/local.json in config.mak), apart from CI's own
# cpu-ci; never a command that would replace a baseline that is there
# (ADD=1 where baselines/local.json is), and NAME=mine for a missing
# BASELINE=baselines/mine.json. With a baseline there, no such line.
. "$(dirname "$0")/lib.sh"
plan 11

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
	"no baseline '$T/cpu-ci.json' yet, so no row is judged: to judge the next runs against this one, make a baseline of it: make baseline-update FROM=$R/results.json NAME=local, then judge against it: BASELINE = baselines/local.json in config.mak (or BASELINE= on each make) (the CI baseline is made from CI runs only: the README's \"Baseline bootstrap\")" \
	"the table's last line says how to make a local baseline"
is "$(grep -c 'NAME=local' "$R/summary.md")" 1 "summary.md says it once"
is "$(head -n 1 "$R/summary.md")" \
	"No baseline yet: \`$T/cpu-ci.json\` is not there, so no row is judged. To judge the next runs against this one, make a baseline of it: \`make baseline-update FROM=$R/results.json NAME=local\`, then judge against it: \`BASELINE = baselines/local.json\` in config.mak (or \`BASELINE=\` on each make) (the CI baseline is made from CI runs only: the README's \"Baseline bootstrap\")." \
	"on its first line"

# A local baseline there: the line adds to it (ADD=1), never replaces it.
mkdir -p "$T/p/baselines"
cp $D/baseline.json "$T/p/baselines/local.json"
(cd "$T/p" && env -u GITHUB_ACTIONS "$BIN/prof-report" \
	--comparisons "$R/comparisons.json" --baseline baselines/cpu-ci.json \
	-o "$T/p/s.md" "$R/results.json" >"$out" 2>"$err")
is "$(tail -n 1 "$out")" \
	"no baseline 'baselines/cpu-ci.json' yet, so no row is judged: to judge the next runs against this one, add its rows to the local baseline that is there: make baseline-update FROM=$R/results.json NAME=local ADD=1, then judge against it: BASELINE = baselines/local.json in config.mak (or BASELINE= on each make) (the CI baseline is made from CI runs only: the README's \"Baseline bootstrap\")" \
	"with baselines/local.json there, the line says ADD=1"
like "$(head -n 1 "$T/p/s.md")" "\`make baseline-update FROM=$R/results.json NAME=local ADD=1\`" \
	"and so does summary.md"
(cd "$T/p" && env -u GITHUB_ACTIONS "$BIN/prof-report" \
	--comparisons "$R/comparisons.json" --baseline baselines/mine.json \
	-o "$T/p/s.md" "$R/results.json" >"$out" 2>"$err")
is "$(tail -n 1 "$out")" \
	"no baseline 'baselines/mine.json' yet, so no row is judged: to judge the next runs against this one, make a baseline of it: make baseline-update FROM=$R/results.json NAME=mine" \
	"a missing baselines/mine.json: the line makes that one"

# With the baseline there, nothing of it.
"$BIN/prof-diff" --baseline $D/baseline.json -o "$R/comparisons.json" \
	"$R/results.json"
rm "$R/summary.md"
env -u GITHUB_ACTIONS "$BIN/prof-report" --comparisons "$R/comparisons.json" \
	--baseline $D/baseline.json "$R/results.json" >"$out" 2>"$err"
is "$(grep -c 'NAME=local' "$out" "$R/summary.md" | tr '\n' ' ')" \
	"$out:0 $R/summary.md:0 " "a run with a baseline gets no such line"

# The README's first hour (its first 60 lines) says the same, and how
# to keep judging against it.
hour=$(head -n 60 README.md | tr '\n' ' ' | tr -s ' ')
like "$hour" \
	"make baseline-update FROM=artifacts/profiling/<run>/results.json NAME=local" \
	"the README's first hour says how to make a local baseline"
like "$hour" "echo 'BASELINE = baselines/local.json' >>config.mak" \
	"and how to keep using it (config.mak)"
finish
