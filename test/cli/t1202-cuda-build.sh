#!/bin/bash
# The CUDA build on a machine without a GPU: every .cu file compiles, the
# GPU workloads are registered, and a GPU run is refused with the reason.
# (On a GPU machine, test/gpu/check.sh runs the real thing.)
. "$(dirname "$0")/lib.sh"
if ! "$BIN/prof-workloads" --probe | jq -e '.build.gpu_backend == "cuda"' >/dev/null; then
	skip_all "bin/prof-workloads was built without CUDA (no nvcc, or HAVE_CUDA=0)"
fi
if "$BIN/prof-workloads" --probe | jq -e '.gpu.available' >/dev/null; then
	skip_all "a GPU is here: test/gpu/check.sh covers this machine"
fi
cus=$(cd "$ROOT" && find workloads -name '*.cu' | sort)
plan $(($(echo "$cus" | wc -l) + 6))

B=$ROOT/${PROF_BUILD:-build}
for cu in $cus; do
	ok "$([ -s "$B/${cu}.o" ]; echo $?)" "$cu is built"
done
jq -s '[.[] | select(.backends | index("gpu")) | .id] | sort' \
	<("$BIN/prof-workloads" --list) >"$T/gpu.json"
jq_ok '. == ["generator.stipple", "primitive.greedy_path_order",
	"primitive.nearest_site_assignment"]' "$T/gpu.json" \
	"three workloads have a GPU path"
run prof-workloads --probe
jq_ok '.gpu.available == false and (.gpu.reason | startswith("cudaGetDeviceCount: cuda"))' \
	"$out" "the probe gives cudaGetDeviceCount's error code as the reason"

make -s --no-print-directory -o all BINDIR="$BIN" profile-full BACKEND=gpu \
	OUTPUT="$T/run" >"$out" 2>"$err"
rc=$?
is "$rc" 2 "make profile-full BACKEND=gpu without a GPU fails"
like "$(cat "$err")" "prof-time: --backend gpu: no CUDA device found: cudaGetDeviceCount: " \
	"with the no-device reason"
ok "$([ -z "$(ls -A "$T/run" 2>/dev/null)" ]; echo $?)" \
	"and writes no results that claim a GPU"
run prof-time diagnose primitive.nearest_site_assignment --backend auto --repeat 1
jq_ok '.backend == "cpu" and .outcome == "success"' "$out" \
	"--backend auto falls back to the CPU path, openly"
finish
