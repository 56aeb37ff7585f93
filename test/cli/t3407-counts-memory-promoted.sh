#!/bin/bash
# Data first, on today's channels: a run with COUNTS=1 and MEMORY=1
# against a promoted baseline (make baseline-update keeps no callgrind
# file and no build), whose count and memory rows changed, is exit 0 with
# its warnings, and the summary says in one line each why the rows have no
# functions and no allocation sites and what to run (t3273 the count
# channel alone, t7006 memory alone). Neither explanation is an exit code.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 5

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
A=$TBIN/prof-ab-a
B=$TBIN/prof-ab-b
mk profile-full WORKLOADS="$A" CATEGORY="copy test" REPEAT=2 COUNTS=1 MEMORY=1 \
	OUTPUT="$T/a" BASELINE="$T/none.json"
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/a/results.json" NAME=copy DIR="$T/bl" FORCE=1
ok "$([ -s "$T/bl/copy.json" ] && [ ! -e "$T/bl/functions" ]; echo $?)" \
	"A's run promoted, no callgrind file beside it"
mk profile-full WORKLOADS="$B" CATEGORY="copy test" REPEAT=2 COUNTS=1 MEMORY=1 \
	OUTPUT="$T/b" BASELINE="$T/bl/copy.json"
is "$rc:$(grep -c -e 'run finished' -e 'cannot' "$err")" "0:0" \
	"B against A's promoted baseline: exit 0, no failure said"
jq_ok '(map(select(.phase == "instructions" and .status == "warning")) |
	length == 1) and (map(select(.metric == "host_peak_bytes" and
	.workload == "test.ab_copy"))[0].status == "warning")' \
	"$T/b/comparisons.json" "the count row and the heap peak are warnings"
like "$(cat "$T/b/summary.md")" \
	"No functions for the 1 changed instruction row(s): the baseline '$T/bl/copy.json' keeps no callgrind files of them (make baseline-update keeps none); to see which functions changed, run: make compare REF=" \
	"the summary says why the count row has no functions"
like "$(cat "$T/b/summary.md")" \
	"No allocation sites for the 2 changed memory row(s): they come from one call of each build under valgrind's DHAT, and '$T/bl/copy.json' keeps no build" \
	"and why the memory rows have no allocation sites"
finish
