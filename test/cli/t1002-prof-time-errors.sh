#!/bin/bash
# prof-time: argument and infrastructure errors (exit 2) and the worker
# failures that become error samples (exit 1) while the run goes on.
. "$(dirname "$0")/lib.sh"
plan 30

run prof-time diagnose no.such.workload --workloads "$TW"
is "$rc" 2 "an unknown workload is exit 2"
is "$(cat "$err")" "prof-time: unknown workload 'no.such.workload'" \
	"and names it"

run prof-time quick --backend gpu --workloads "$TW"
is "$rc" 2 "--backend gpu without a device is exit 2"
like "$(errline)" "prof-time: --backend gpu: no CUDA device found: " \
	"and says no CUDA device was found"
like "$(errline)" "has no GPU backend" "and why, for a CPU-only build"
is "$(wc -c <"$out")" 0 "and writes no sample"

if "$BIN/prof-workloads" --probe | jq -e '.build.gpu_backend == "cuda"' >/dev/null; then
	run prof-time quick --backend gpu
	is "$rc" 2 "the CUDA build: --backend gpu without a device is exit 2"
	like "$(errline)" "no CUDA device found: cudaGetDeviceCount: cuda" \
		"with the runtime's error code as the reason"
else
	skip "bin/prof-workloads has no CUDA session (no nvcc at build time)"
	skip "bin/prof-workloads has no CUDA session (no nvcc at build time)"
fi

run prof-time quick --workloads "$T/nope"
is "$rc" 2 "a missing workload binary is exit 2"
like "$(errline)" "workload binary '$T/nope': No such file or directory" \
	"and names it"

run prof-time quick --workloads "$TBIN/prof-dup-workloads"
is "$rc" 2 "a binary that registers an id twice is exit 2"
like "$(errline)" "workload id 'test.twice' is registered twice" \
	"and names the id"

run prof-time quick --repeat zero --workloads "$TW"
is "$(cat "$err")" "prof-time: --repeat: 'zero' is not a whole number from 1 to 1000000" \
	"a bad count is named"
is "$rc" 2 "and is exit 2"
run prof-time sideways
is "$rc:$(errline)" "2:prof-time: unknown mode 'sideways' (quick, full, diagnose ID, or --name ID -- CMD)" \
	"an unknown mode is exit 2"
run prof-time quick --backend tpu
is "$rc:$(errline)" "2:prof-time: --backend: 'tpu' is not one of cpu, gpu, all, auto" \
	"an unknown backend is exit 2"

run prof-time quick --workloads "$T/nope" -o "$T/never.jsonl"
ok "$([ ! -e "$T/never.jsonl" ] && ! ls -A "$T" | grep -q never; echo $?)" \
	"an infrastructure failure leaves no output file"

run prof-time full --workloads "$TW" --category hang --category broken \
	--category test --repeat 2 --warmup 0 --timeout 1 --seed 3 -o "$T/f.jsonl"
is "$rc" 1 "errored workloads make the run exit 1"
jq_ok -s '[.[] | select(.workload == "test.hang")][0].reason == "worker timed out after 1 s"' \
	"$T/f.jsonl" "a hang is stopped by the timeout"
jq_ok -s '[.[] | select(.workload == "test.exit3")][0].reason ==
	"worker exited with status 3: fatal: the workload gave up"' "$T/f.jsonl" \
	"a non-zero exit keeps the last stderr line"
jq_ok -s '[.[] | select(.workload == "test.prepare_fail")][0].reason ==
	"prepare failed: fixture '"'"'missing.svg'"'"' not found"' "$T/f.jsonl" \
	"a failed prepare is an error sample"
jq_ok -s '[.[] | select(.workload == "test.stdout_noise" and .outcome == "error")][0].reason ==
	"worker wrote 2 line(s) that are not samples; first: worker stdout:1:1: unexpected character"' \
	"$T/f.jsonl" "a worker that writes non-JSON to stdout is an error"
jq_ok -s '[.[] | select(.workload == "test.ok" and .kind == "warm")] |
	length == 2 and all(.[]; .outcome == "success")' "$T/f.jsonl" \
	"the good workload is measured after all of them"
jq_ok -s '[.[] | select(.kind == "cold")] | length == 1 and
	.[0].workload == "test.ok" and .[0].index == 0 and
	.[0].outcome == "success"' "$T/f.jsonl" \
	"full: one cold sample, for the first workload of the cold group"
jq_ok -s '[.[] | select(.workload == "test.crash")] | length == 1' \
	"$T/f.jsonl" "a crash is one error sample, not one per call"

mkdir -p "$T/tmp"
TMPDIR=$T/tmp run prof-time diagnose test.home --workloads "$TW"
is "$rc" 0 "the worker runs in a private, writable HOME"
is "$(ls -A "$T/tmp" | wc -l | tr -d ' ')" 0 "which is removed afterwards"

run prof-time full --workloads "$TW" --category gpu --backend all
is "$rc" 2 "only GPU workloads and no device: nothing to run"
like "$(cat "$err")" "skipping 1 GPU-only workload(s): no CUDA device found" \
	"says they were skipped"

run "$TW" --worker test.ok --backend gpu
jq_ok '.outcome == "error" and (.reason | startswith("GPU requested but unavailable: workload '"'"'test.ok'"'"' has no GPU path"))' \
	"$out" "a worker asked for an impossible GPU run writes an error sample"
finish
