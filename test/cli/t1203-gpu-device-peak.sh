#!/bin/bash
# The device allocator's peak as a memory row, on the fake GPU backend: a
# GPU memory sample's device_peak_allocated_bytes (the stream-ordered
# pool's peak in use during the call) is judged exactly like the heap
# numbers, with a floor of 64 KiB: an A/A stable, twice the pool a
# warning, half improved, 32 KiB more under the floor; a CPU row has none;
# values that differ between the two workers are not deterministic, given
# with their spread and judged by ratio. summary.md and the exports carry
# it. The real CUDA pool is checked by test/gpu/check.sh on a GPU.
. "$(dirname "$0")/lib.sh"
plan 12
F=$TBIN/prof-fake-gpu-workloads

# mem NAME [POOL_BYTES]: the memory phase of fake.kernel, CPU and GPU.
mem() {
	PROF_FAKE_GPU_POOL_BYTES=${2:-} "$BIN/prof-mem" diagnose fake.kernel \
		--workloads "$F" --backend all -q -o "$T/$1.jsonl" &&
		"$BIN/prof-merge" --run-id "$1" -o "$T/$1.json" "$T/$1.jsonl"
}
# row CMP BACKEND: fake.kernel's device peak row of that backend.
row() {
	jq -c --arg b "$2" '[.[] | select(.workload == "fake.kernel" and
		.backend == $b and .metric == "device_peak_allocated_bytes")]' \
		"$T/$1.json"
}
diff_to() {
	"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/$1.json" "$T/$2.json" \
		2>"$err"
}

mem a
mem b
mem c 16777216
mem d $((8388608 + 32768))
mem e 4194304
diff_to aa b
diff_to ac c
diff_to ad d
diff_to ae e

jq_ok '.[0] | .rule == "exact" and .unit == "bytes" and .floor == 65536 and
	.threshold_pct == 1 and .status == "stable" and
	.deterministic == {"current": true, "baseline": true} and
	.reason == "device peak unchanged: 8,388,608 bytes"' <(row aa gpu) \
	"A/A: the device peak's row, exact, deterministic, stable"
is "$(row aa cpu)" "[]" "the CPU path has no device row"
jq_ok '.[0] | .status == "warning" and .reason ==
	"device peak 8,388,608 -> 16,777,216 bytes (+100.00%, +8,388,608), more than the 1% threshold and the floor of 65,536 bytes"' \
	<(row ac gpu) "twice the pool: a warning that says so"
jq_ok '.[] | select(.workload == "fake.kernel" and .backend == "gpu" and
	.phase == "memory" and .metric != "device_peak_allocated_bytes") |
	.status == "stable"' "$T/ac.json" "the host's rows stay stable"
jq_ok '.[0] | .status == "stable" and (.reason | contains("under the floor of 65,536 bytes"))' \
	<(row ad gpu) "32 KiB more: under the floor, stable"
jq_ok '.[0] | .status == "improved"' <(row ae gpu) "half the pool: improved"

# One worker's value apart: not deterministic, judged by ratio.
jq -c 'if .workload == "fake.kernel" and .backend == "gpu" and .index == 1
	then .memory.device_peak_allocated_bytes += 1048576 else . end' \
	"$T/b.jsonl" >"$T/n.jsonl"
"$BIN/prof-merge" --run-id n -o "$T/n.json" "$T/n.jsonl"
diff_to an n
jq_ok '.[0] | .rule == "ratio" and .deterministic.current == false and
	.spread.current == {"index": 0, "min": 8388608, "max": 9437184} and
	.status == "stable" and (.reason | startswith(
	"not deterministic: call 0 of the current side gave 8,388,608 to 9,437,184 bytes, so judged by ratio, not exactly: "))' \
	<(row an gpu) "two workers apart: not deterministic, its spread, by ratio"

run prof-report --comparisons "$T/ac.json" -o "$T/s.md" "$T/c.json"
like "$(cat "$T/s.md")" "| \`fake.kernel\` | gpu | device peak (bytes) |" \
	"summary.md's Memory table has the device peak"
run prof-export --format csv "$T/c.json"
like "$(head -n 1 "$out")" ",rss_peak_bytes,device_peak_allocated_bytes" \
	"csv: a device_peak_allocated_bytes column"
is "$(grep -c ',16777216' "$out")" 2 "filled for the GPU's memory samples"
run prof-export --format bmf --comparisons "$T/ac.json" "$T/c.json"
jq_ok '.["fake.kernel/gpu"]["device-peak-bytes"] | .value == 16777216 and
	.status == "warning"' "$out" "bmf: a device-peak-bytes measure with its verdict"
# gbench: entries are timing samples; the row's memory rides on them.
PROF_FAKE_GPU_POOL_BYTES=16777216 "$BIN/prof-time" diagnose fake.kernel \
	--workloads "$F" --backend gpu --repeat 2 -q -o "$T/ct.jsonl"
"$BIN/prof-merge" --run-id ct -o "$T/ct.json" "$T/ct.jsonl" "$T/c.jsonl"
run prof-export --format gbench "$T/ct.json"
jq_ok '[.benchmarks[] | select(.name == "fake.kernel/gpu") |
	.device_peak_allocated_bytes] | length > 0 and all(. == 16777216)' \
	"$out" "gbench: the median on the row's entries"
finish
