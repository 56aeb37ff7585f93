#!/bin/bash
# make profile-quick MEMORY=1: memory samples for every workload of the
# run, memory rows in comparisons.json beside the time rows; a baseline
# keeps them, and the next run is judged on them (A/A: all stable, the
# exact metrics the same per call index), each the bytes and allocations
# its run() makes; MEMORY takes 0 or 1.
. "$(dirname "$0")/lib.sh"
plan 14

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" HISTORY= "$@" >"$out" 2>"$err"
	rc=$?
}
A=$TBIN/prof-ab-a

mk profile-quick MEMORY=1 WORKLOADS="$A" OUTPUT="$T/q" \
	BASELINE="$T/none.json"
is "$rc" 0 "make profile-quick MEMORY=1 exits 0"
ok "$([ -s "$T/q/memory.jsonl" ]; echo $?)" "the run folder has memory.jsonl"
jq_ok '(([.samples[] | select(.phase == "timing") | .workload] | unique) ==
	([.samples[] | select(.phase == "memory") | .workload] | unique)) and
	([.samples[] | .workload] | unique) == ["test.ab", "test.ab_same"] and
	([.samples[] | select(.phase == "memory")] | length == 4) and
	all(.samples[] | select(.phase == "memory"); .memory.host_peak_bytes
	| type == "number")' "$T/q/results.json" \
	"results.json has a memory sample for every timed workload"
jq_ok '[.[] | select(.phase == "memory") | [.workload, .metric]] ==
	[["test.ab", "host_peak_bytes"], ["test.ab", "host_allocs"],
	 ["test.ab", "host_allocated_bytes"], ["test.ab", "rss_peak_bytes"],
	 ["test.ab_same", "host_peak_bytes"], ["test.ab_same", "host_allocs"],
	 ["test.ab_same", "host_allocated_bytes"],
	 ["test.ab_same", "rss_peak_bytes"]] and
	all(.[]; .status == "incomparable")' "$T/q/comparisons.json" \
	"comparisons.json has the memory rows, after each time row's"
like "$(cat "$T/q/summary.md")" "- \`test.ab\` (cpu): **incomparable**" \
	"summary.md is written with them"

# A baseline keeps memory samples: the next run is judged on them.
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/q/results.json" NAME=mem DIR="$T/bl" FORCE=1
is "$rc" 0 "the run is promoted"
jq_ok '[.samples[] | select(.phase == "memory")] | length == 4' \
	"$T/bl/mem.json" "with its memory samples"
mk profile-quick MEMORY=1 WORKLOADS="$A" OUTPUT="$T/q2" \
	BASELINE="$T/bl/mem.json"
is "$rc" 0 "a second run against it"
jq_ok '[.[] | select(.phase == "memory") | .status] | length == 8 and
	all(. == "stable")' "$T/q2/comparisons.json" \
	"A/A: every memory row stable"
jq_ok '[.[] | select(.phase == "memory" and .rule == "exact") |
	.delta] | length == 6 and all(. == 0)' "$T/q2/comparisons.json" \
	"the exact metrics the same on both runs (delta 0)"

# The known numbers, not only rows that agree: test.ab and test.ab_same
# allocate nothing in run(); test.ab_copy one 1 MiB buffer, which the
# allocator rounds up by less than a page (glibc maps it: 1,052,656
# bytes). Twice every memory value fails here.
jq_ok '[.[] | select(.phase == "memory" and .rule == "exact")] |
	all(.[]; .current.median == 0 and .baseline.median == 0)' \
	"$T/q2/comparisons.json" "test.ab and test.ab_same: no heap in run()"
mk profile-full MEMORY=1 WORKLOADS="$A" CATEGORY=copy REPEAT=2 STORIES=0 \
	OUTPUT="$T/f" BASELINE="$T/none.json"
jq_ok '[.samples[] | select(.phase == "memory")] | length == 2 and
	all(.[]; .memory | .host_allocs == 1 and
		(.host_peak_bytes | . >= 1048576 and . < 1048576 + 4096) and
		.host_allocated_bytes == .host_peak_bytes)' "$T/f/results.json" \
	"test.ab_copy: one allocation, the 1 MiB buffer, on each of its runs"

# Without MEMORY=1 a quick run has no memory phase.
mk profile-quick WORKLOADS="$A" OUTPUT="$T/q3" BASELINE="$T/bl/mem.json"
jq_ok '[.[] | select(.phase == "memory")] | length == 0' \
	"$T/q3/comparisons.json" "without MEMORY=1 no memory rows"

mk profile-quick MEMORY=2 WORKLOADS="$A" OUTPUT="$T/q4"
is "$rc:$(grep -c "MEMORY: '2': expected 0 or 1" "$err")" 2:1 \
	"MEMORY=2 is refused"
