#!/bin/bash
# The reference suite's memory phase twice (prof-mem quick, each workload
# in two fresh workers a run): each run judged against the other, every
# memory row stable; the heap peak, allocations and bytes allocated of the
# single-threaded pipeline and primitive workloads the same per call index
# in all four workers, and said to be deterministic (the server's threads
# may differ by a few allocations: not deterministic, judged by ratio).
. "$(dirname "$0")/lib.sh"
plan 5

for i in 1 2; do
	"$BIN/prof-mem" quick -q --output "$T/m$i.jsonl" &&
		"$BIN/prof-merge" --run-id "aa$i" -o "$T/r$i.json" "$T/m$i.jsonl"
done
run prof-diff --baseline "$T/r1.json" -o "$T/c.json" "$T/r2.json"
is "$rc" 0 "the second run judged against the first"
jq_ok '[.[] | select(.phase == "memory")] | length >= 32 and
	all(.[]; .status == "stable")' "$T/c.json" \
	"A/A: every memory row of the quick suite stable"
jq_ok 'group_by(.workload) | all(.[]; map(.metric) == ["host_peak_bytes",
	"host_allocs", "host_allocated_bytes", "rss_peak_bytes"])' "$T/c.json" \
	"every workload has its four memory rows"
# Per call index: the samples of one workload, index and metric.
jq -s 'map(. as $d | .samples[] | .workload = $d.groups[.group_id].workload |
	select(.phase == "memory" and
	(.workload | test("^(pipeline|primitive)\\."))) |
	{k: "\(.workload) \(.call)", v: [.memory.host_peak_bytes,
	.memory.host_allocs, .memory.host_allocated_bytes]}) |
	group_by(.k)' \
	"$T/r1.json" "$T/r2.json" >"$T/diff.json"
jq_ok 'length == 6 and all(.[]; length == 4 and
	(map(.v) | unique | length) == 1)' \
	"$T/diff.json" \
	"single-threaded workloads: heap peak, allocations and bytes the same per call index"
jq_ok '[.[] | select(.rule == "exact" and
	(.workload | test("^(pipeline|primitive)\\.")))] | length == 18 and
	all(.[]; .deterministic == {current: true, baseline: true})' \
	"$T/c.json" "and judged exactly, deterministic on both sides"
