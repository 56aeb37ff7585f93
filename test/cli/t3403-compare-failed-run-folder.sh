#!/bin/bash
# Data first, make compare: every failure (exit 2) goes out through
# run_failed (fragment/run-lib.sh), as profile-quick's do (t3402). The
# count and memory phases' failures (COUNTS=1, MEMORY=1) left the run
# folder with both sides' samples and half a stream in it, and a timing
# failure that had begun to write did too (drop_run_folder removed only an
# empty folder); now all that the run wrote goes, and the folder with it
# (an OUTPUT folder stays, empty). Once results.json is written it stays,
# with a line that says what was not written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fail-tool.sh"
plan 13

mk() {
	make -s --no-print-directory -o all BINDIR="$T/bin" \
		WORKLOADS="$TW" AGAINST="$TW" CATEGORY=test REPEAT=1 \
		compare "$@" >"$out" 2>"$err"
	rc=$?
}
FAIL="make compare: run finished with exit code 2 (infrastructure or argument failure)"
lines() {
	grep '^make compare: ' "$err"
}

# Each phase fails, the folder made under artifacts/profiling/.
gone() {
	local R
	R=$(failed_folder)
	is "$rc:$(lines)" "2:make compare: $2
$FAIL" "$1 fails: exit 2, said"
	ok "$(case $R in artifacts/profiling/?*) [ ! -e "$R" ] ;; *) false ;;
		esac; echo $?)" "and its run folder is gone"
}
fail_tool prof-time
mk
gone "the interleaved run" "the interleaved run failed; no results are written"
if command -v valgrind >/dev/null; then
	fail_tool prof-count 2
	mk COUNTS=1
	gone "the reference side's count phase" \
		"the count phase failed; no results are written"
else
	skip "no valgrind: no count phase"
	skip "no valgrind: no count phase"
fi
fail_tool prof-mem
mk MEMORY=1
gone "the memory phase (MEMORY=1)" \
	"the memory phase failed; no results are written"

# OUTPUT, an empty folder: empty again after the memory phase failed.
mkdir "$T/o"
fail_tool prof-mem 2
mk MEMORY=1 OUTPUT="$T/o"
is "$rc:$(lines)" "2:make compare: the memory phase failed; no results are written
$FAIL" "the reference side's memory phase fails, OUTPUT given"
is "$(ls -A "$T/o")" "" \
	"OUTPUT is empty again: both sides' samples and memory.jsonl gone"

# After results.json: the reference side's merge, the comparison, the
# summary.
fail_tool prof-merge 2
mk OUTPUT="$T/m"
is "$rc:$(lines)" "2:make compare: cannot merge the samples
make compare: written in $T/m: samples.jsonl, baseline.jsonl, results.json; not written: baseline.json, comparisons.json, summary.md, report.html
$FAIL" "the reference side's merge fails: what is written is said"
ok "$([ -s "$T/m/results.json" ] && [ ! -e "$T/m/baseline.json" ]
	echo $?)" "results.json is kept"
fail_tool prof-diff
mk OUTPUT="$T/d"
is "$rc:$(lines)" "2:make compare: cannot compare the two sides
make compare: written in $T/d: samples.jsonl, baseline.jsonl, results.json, baseline.json; not written: comparisons.json, summary.md, report.html
$FAIL" "the comparison fails: what is written is said"
fail_tool prof-report
mk OUTPUT="$T/r"
is "$rc:$(lines)" "2:make compare: cannot write the summary
make compare: written in $T/r: samples.jsonl, baseline.jsonl, results.json, baseline.json, comparisons.json; not written: summary.md, report.html
$FAIL" "the summary fails: what is written is said"
jq_ok 'length > 0' "$T/r/comparisons.json" "comparisons.json is kept"
finish
