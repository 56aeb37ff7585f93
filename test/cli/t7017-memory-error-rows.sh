#!/bin/bash
# A memory sample that is an error counts in the rows of the metrics its
# backend has: the heap numbers and the RSS peak, and the device peak on
# a GPU backend only. (A CPU workload that crashed in the memory phase
# got a device peak row, which a CPU row never has.)
. "$(dirname "$0")/lib.sh"
plan 4
F=$TBIN/prof-fake-gpu-workloads

"$BIN/prof-mem" diagnose test.crash --workloads "$TW" -q -o "$T/c.jsonl"
"$BIN/prof-merge" --run-id c -o "$T/c.json" "$T/c.jsonl"
run prof-diff --baseline "$T/c.json" "$T/c.json"
is "$rc" 0 "prof-diff of a CPU workload that crashed in the memory phase"
jq_ok '[.[] | select(.workload == "test.crash") | .metric] ==
	["host_peak_bytes", "host_allocs", "host_allocated_bytes",
	 "rss_peak_bytes"] and all(.[] | select(.workload == "test.crash");
	.status == "incomparable" and
	.reason == "no successful warm samples in this run (2 errored)")' \
	"$out" "its errors in the rows of the CPU's metrics, no device peak row"

# The fake GPU backend: a GPU memory sample that errored has its device
# peak row, the error counted.
"$BIN/prof-mem" diagnose fake.kernel --workloads "$F" --backend gpu -q \
	-o "$T/g.jsonl"
jq -c 'if .phase == "memory" and .index == 1 then .outcome = "error" |
	.reason = "GPU memory: lost" | .memory = {} else . end' \
	"$T/g.jsonl" >"$T/ge.jsonl"
"$BIN/prof-merge" --run-id g -o "$T/g.json" "$T/ge.jsonl"
run prof-diff --baseline "$T/g.json" "$T/g.json"
is "$rc" 0 "prof-diff of a GPU workload with an error sample"
jq_ok '.[] | select(.workload == "fake.kernel" and .backend == "gpu" and
	.metric == "device_peak_allocated_bytes") | .current.n == 1 and
	.current.errors == 1' "$out" \
	"its device peak row counts the error beside the success"
finish
