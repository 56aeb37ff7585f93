#!/bin/bash
# make compare MEMORY=1: the memory phase on both sides, memory rows judged
# beside the interleaved time rows. The A/B pair's test.ab_copy keeps a
# second copy of its 1 MiB buffer on the B side: twice the heap peak and
# the bytes allocated (warning), one allocation more (under the floor:
# stable), the same time within noise (stable). A/A: all memory stable.
. "$(dirname "$0")/lib.sh"
plan 9

A=$TBIN/prof-ab-a
B=$TBIN/prof-ab-b
mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" HISTORY= "$@" \
		>"$out" 2>"$err"
	rc=$?
}
row() {
	jq -r --arg p "$1" --arg m "$2" '.[] | select(.workload ==
		"test.ab_copy" and .phase == $p and (.metric // "") == $m) |
		.status' "$T/c/comparisons.json"
}

# REPEAT=2: the time row is asserted to be no change (stable, or
# unsettled in so few rounds on a busy machine); the memory phase is one
# call a side whatever REPEAT is.
mk compare WORKLOADS="$B" AGAINST="$A" MODE=full CATEGORY=copy REPEAT=2 \
	MEMORY=1 OUTPUT="$T/c"
is "$rc" 0 "make compare MEMORY=1 exits 0"
ok "$([ -s "$T/c/memory.jsonl" ] && [ -s "$T/c/baseline-memory.jsonl" ]
	echo $?)" "both sides have their memory samples"
is "$(row memory host_peak_bytes)" warning "twice the heap peak: warning"
is "$(row memory host_allocated_bytes)" warning \
	"twice the bytes allocated: warning"
is "$(row memory host_allocs)" stable \
	"one allocation more, under the floor of 16: stable"
is "$(row timing "" | sed 's/^unsettled$/stable/')" stable \
	"the same time within noise: stable or unsettled, never a change"
jq_ok '.[] | select(.metric == "host_peak_bytes") | .reason |
	test("^heap peak [0-9,]+ -> [0-9,]+ bytes \\(\\+100\\.00%, \\+[0-9,]+\\), more than the 1% threshold and the floor of 4,096 bytes$")' \
	"$T/c/comparisons.json" "its reason gives both peaks, grouped"

# A/A: the same binary on both sides; its time row is not asserted, so
# one timed call a side to start with (REPEAT=1).
mk compare WORKLOADS="$A" AGAINST="$A" MODE=full CATEGORY=copy REPEAT=1 \
	MEMORY=1 OUTPUT="$T/aa"
is "$rc" 0 "an A/A compare MEMORY=1"
jq_ok '[.[] | select(.phase == "memory") | .status] | length == 4 and
	all(. == "stable")' "$T/aa/comparisons.json" "every memory row stable"
