#!/bin/bash
# The GPU session logic against a fake backend: synchronization order,
# proof of dispatch, fallback refusal, memory numbers, device trace events
# and segments. The real CUDA session runs in test/gpu/check.sh.
. "$(dirname "$0")/lib.sh"
plan 22
F=$TBIN/prof-fake-gpu-workloads

PROF_FAKE_GPU_LOG=$T/log run prof-time diagnose fake.kernel --workloads "$F" \
	--backend gpu --warmup 0 --repeat 1
is "$rc" 0 "a GPU sample that launched a kernel is a success"
is "$(tr '\n' ' ' <"$T/log")" "open push prepare pop sync begin run kernel sync end push validate pop " \
	"the device is synchronized right before and after the call, launches counted between"
jq_ok '.backend == "gpu" and .env.backend == "gpu" and
	.env.backend_requested == "gpu" and .metrics.gpu_kernel_launches == 1' \
	"$out" "the sample says GPU and how many kernels it launched"
jq_ok '.env.device == "Fake GPU" and .env.device_cc == "9.0" and
	.env.device_sms == 132 and .env.cuda_driver == "13.0" and
	(.segment | fromjson | .device == "Fake GPU" and .device_cc == "9.0" and
	.device_sms == 132 and .device_memory_bytes == 150754820096 and
	.cuda_runtime == "13.0")' "$out" "the device's properties enter the segment key"

run prof-time diagnose fake.fallback --workloads "$F" --backend gpu
is "$rc" 1 "a GPU run that launched nothing is an error"
jq_ok '.outcome == "error" and .reason == "warmup call 1: GPU workload launched no kernel"' \
	"$out" "never a slow success"

run prof-time diagnose fake.fallback --workloads "$F" --backend gpu --warmup 0 --repeat 2
jq_ok -s 'length == 2 and all(.[]; .reason == "GPU workload launched no kernel"
	and .duration_ms > 0)' "$out" "each timed call is refused on its own"

PROF_FAKE_GPU_NO_CUPTI=1 run prof-time diagnose fake.kernel --workloads "$F" \
	--backend gpu --warmup 0 --repeat 1
is "$rc" 1 "without a launch counter the call is an error, not a crash"
jq_ok '.reason | startswith("GPU: cannot count kernel launches: cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")' \
	"$out" "and names the second subscriber"

run prof-time quick --workloads "$F" --backend all --category fake
jq_ok -s '[.[] | select(.workload == "fake.kernel")] |
	(map(.backend) | unique == ["cpu", "gpu"]) and
	(map(.segment) | unique | length == 2)' "$out" \
	"--backend all: CPU and GPU rows, in different segments"
run prof-time quick --workloads "$F" --backend auto --category fake
jq_ok -s 'all(.[]; .backend == "gpu")' "$out" "--backend auto picks the GPU"

PROF_FAKE_GPU_ABSENT=1 run prof-time quick --workloads "$F" --backend gpu
is "$rc" 2 "--backend gpu without a device is exit 2"
is "$(errline)" "prof-time: --backend gpu: no CUDA device found: cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device is detected)" \
	"with the runtime's reason"
is "$(wc -c <"$out")" 0 "and no sample claims a GPU"
PROF_FAKE_GPU_ABSENT=1 run prof-time quick --workloads "$F" --backend all
is "$rc" 0 "--backend all without a device runs the CPU path"
jq_ok -s 'all(.[]; .backend == "cpu")' "$out" "only"
like "$(cat "$err")" "no CUDA device found (cudaGetDeviceCount: cudaErrorNoDevice" \
	"and says so"

PROF_FAKE_GPU_LOG=$T/mlog run prof-mem diagnose fake.kernel --workloads "$F" --backend gpu
jq_ok '.phase == "memory" and .memory.device_peak_allocated_bytes == 8388608 and
	.memory.device_allocated_bytes == 0 and
	.memory.device_peak_reserved_bytes == 8388608 and
	.memory.device_reserved_bytes == 8388608 and .memory.host_peak_bytes >= 0' \
	"$out" "the memory phase has device allocated, reserved and their peaks"
like "$(tr '\n' ' ' <"$T/mlog")" "mem_reset sync begin run kernel sync end mem_read" \
	"the pool's high-water marks are reset after prepare and read after the call"

mkdir -p "$T/run"
run prof-trace diagnose fake.kernel --workloads "$F" --backend gpu \
	--min-seconds 0.05 --artifacts "$T/run"
jq_ok '.artifacts == ["fake.kernel.gpu.prof", "fake.kernel.gpu.trace.json"]' \
	"$out" "GPU profiles are named apart from CPU ones"
jq_ok '[.traceEvents[] | select(.cat == "kernel")] | length > 0 and
	all(.[]; .pid == 1000000 and .tid == 7)' "$T/run/fake.kernel.gpu.trace.json" \
	"the trace holds kernel events, device and stream as pid and tid"
jq_ok '[.traceEvents[] | select(.cat == "timed")] | length > 0' \
	"$T/run/fake.kernel.gpu.trace.json" "beside the host's phases"
finish
