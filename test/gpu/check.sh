#!/bin/bash
# check.sh: the CUDA path, end to end, on a machine with an NVIDIA GPU.
#
# Builds the project, runs a GPU profile of the primitives and the stippler
# (with the CPU beside them), a GPU diagnose of the nearest-site
# assignment, and checks with jq that the samples ran on the GPU, that
# every timed call launched a kernel, that the device memory numbers are
# there (and the pool's peak a deterministic memory row), that the trace holds kernels, and that GPU and CPU rows sit in
# different segments. Prints TAP; exits 0 when every check passed, 1 when
# one failed, 2 when there is no usable GPU or the build failed. Takes a
# few minutes. Not part of `make test` (which never needs a GPU).
#
# usage: test/gpu/check.sh [OUT_DIR]    (default: a new temporary folder)
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/prof-gpu-check.XXXXXX")}
mkdir -p "$out"
n=0
failed=0

check() { # check NAME FILTER FILE
	n=$((n + 1))
	if jq -e "$2" "$3" >/dev/null 2>"$out/jq.err"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/#   /' "$out/jq.err"
		failed=1
	fi
}

echo "# $(date -u +%FT%TZ) on $(uname -n)"
nvidia-smi -L 2>/dev/null | sed 's/^/# /'
jobs=$(nproc 2>/dev/null || echo 2)
if ! make -j"$jobs" HAVE_CUDA=1 all >"$out/build.log" 2>&1; then
	echo "Bail out! the build failed; see $out/build.log"
	tail -n 20 "$out/build.log" | sed 's/^/# /'
	exit 2
fi
if ! bin/prof-workloads --probe >"$out/probe.json" ||
	! jq -e '.gpu.available' "$out/probe.json" >/dev/null; then
	echo "Bail out! no usable GPU: $(jq -r '.gpu.reason' "$out/probe.json" 2>/dev/null)"
	exit 2
fi
jq -r '"# device: \(.gpu.name), cc \(.gpu.cc), \(.gpu.sms) SMs, driver \(.gpu.driver), runtime \(.gpu.runtime)"' \
	"$out/probe.json"

# The GPU profile the issue names, and the stippler; --backend all puts the
# CPU rows beside the GPU ones in the same results.
make profile-full BACKEND=gpu CATEGORY=primitive REPEAT=3 \
	OUTPUT="$out/gpu" BASELINE=/nonexistent.json >"$out/gpu.log" 2>&1
echo "# make profile-full BACKEND=gpu CATEGORY=primitive: exit $?"
make profile-full BACKEND=all CATEGORY="primitive generator" REPEAT=3 \
	OUTPUT="$out/all" BASELINE=/nonexistent.json >"$out/all.log" 2>&1
echo "# make profile-full BACKEND=all CATEGORY='primitive generator': exit $?"
make diagnose W=primitive.nearest_site_assignment BACKEND=gpu \
	OUTPUT="$out/diag" BASELINE=/nonexistent.json >"$out/diag.log" 2>&1
echo "# make diagnose W=primitive.nearest_site_assignment BACKEND=gpu: exit $?"

R=$out/gpu/results.json
A=$out/all/results.json
D=$out/diag/results.json
check "profile-full BACKEND=gpu wrote its results" '.samples | length > 0' "$R"
check "every sample of the GPU run succeeded on the GPU" \
	'all(.samples[]; .outcome == "success" and .backend == "gpu" and
	.env.backend == "gpu")' "$R"
check "GPU samples of the three workloads" \
	'[.samples[] | select(.backend == "gpu" and .phase == "timing") |
	.workload] | unique == ["generator.stipple",
	"primitive.greedy_path_order", "primitive.nearest_site_assignment"]' "$A"
check "every timed GPU call counted at least one kernel launch" \
	'[.samples[] | select(.backend == "gpu" and .phase == "timing")] |
	length > 0 and all(.[]; .metrics.gpu_kernel_launches >= 1)' "$A"
check "the GPU's answers are the CPU's (same output checksums)" \
	'[.samples[] | select(.phase == "timing" and .outcome == "success")] |
	group_by(.workload) | all(.[]; (map(.checksum) | unique | length) == 1)' "$A"
check "GPU and CPU rows sit in different segments" \
	'[.samples[] | select(.workload == "primitive.nearest_site_assignment")]
	| group_by(.backend) | length == 2 and
	(.[0][0].segment != .[1][0].segment)' "$A"
check "the GPU segment keys the device" \
	'[.samples[] | select(.backend == "gpu")][0].segment | fromjson |
	(.device | length > 0) and (.device_cc | length > 0) and
	.device_sms > 0 and .cuda_runtime != null' "$A"
check "diagnose: a memory sample with device numbers" \
	'[.samples[] | select(.phase == "memory")][0] | .outcome == "success"
	and .memory.device_peak_allocated_bytes > 0 and
	(.memory.device_reserved_bytes | type == "number") and
	.memory.host_peak_bytes >= 0 and .memory.rss_peak_bytes > 0' "$D"
# The device peak as a memory row: the diagnose run against itself (its
# two memory workers per side), an A/A.
bin/prof-diff --baseline "$D" -o "$out/diag-aa.json" "$D" 2>"$out/diag-aa.err"
check "diagnose A/A: the device peak is a memory row, stable" \
	'[.[] | select(.backend == "gpu" and
	.metric == "device_peak_allocated_bytes")] | length == 1 and
	.[0].status == "stable"' "$out/diag-aa.json"
check "and deterministic over the two workers: judged exactly" \
	'[.[] | select(.backend == "gpu" and
	.metric == "device_peak_allocated_bytes")][0] | .rule == "exact" and
	.deterministic == {"current": true, "baseline": true}' \
	"$out/diag-aa.json"
check "diagnose: a profile sample with its files" \
	'[.samples[] | select(.phase == "profile")][0].artifacts ==
	["primitive.nearest_site_assignment.gpu.prof",
	 "primitive.nearest_site_assignment.gpu.trace.json"]' "$D"
T=$out/diag/primitive.nearest_site_assignment.gpu.trace.json
check "the trace holds kernel events" \
	'[.traceEvents[] | select(.cat == "kernel")] | length > 0 and
	any(.[]; .name | test("nearest_kernel"))' "$T"
check "and copies" '[.traceEvents[] | select(.cat == "memcpy")] | length > 0' "$T"
check "diagnose wrote a summary" 'true' "$D"
echo "1..$n"
exit $failed
