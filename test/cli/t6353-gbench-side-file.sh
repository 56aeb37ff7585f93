#!/bin/bash
# A Google Benchmark binary's side file, BIN.workloads beside it: each line
# "PATTERN CATEGORY quick|full FLOOR_MS", the first whose shell pattern
# matches a benchmark's name giving its category, mode and warning
# floor; none: gbench, quick, 0. A bad line is refused with FILE:LINE,
# exit 2.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz ||
	exit 1
plan 12
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.01

cat >"$T/bm.workloads" <<'RULES'
# the big buffer is slow: full runs only, and a floor of its own
BM_crc32/4*   checksum  full   0.25

BM_crc32/*    checksum  quick  0
RULES
run prof-time --list --workloads "$T/bm"
is "$rc" 0 "a binary with a side file lists"
is "$(awk '{print $1 ":" $2 ":" ($4 == "" ? "full" : $4)}' "$out" | tr '\n' ' ')" \
	"BM_crc32.64:checksum:quick BM_crc32.4096:checksum:full BM_fails:gbench:quick " \
	"the first matching rule decides; no rule, the defaults"
run prof-time quick --workloads "$T/bm" --category checksum
is "$rc" 0 "quick runs the quick benchmarks of a category"
jq_ok -s 'map(select(.workload)) | (map(.workload) | unique) ==
	["BM_crc32.64"] and all(.category == "checksum" and
	.warning_floor_ms == 0)' "$out" "only the quick one, its category in the samples"
run prof-time full --workloads "$T/bm" --category checksum --repeat 2
jq_ok -s 'map(select(.workload == "BM_crc32.4096")) | length == 2 and
	all(.warning_floor_ms == 0.25 and .category == "checksum")' "$out" \
	"full runs the other, with its floor"

bad() {
	printf '%s\n' "$1" >"$T/bm.workloads"
	run prof-time --list --workloads "$T/bm"
	is "$rc:$(errline)" "2:prof-time: $T/bm.workloads:1: $2" "$3"
}
bad 'BM_x checksum fast 1' "'fast' is not quick or full" \
	"a mode other than quick or full is refused"
bad 'BM_x checksum full' "expected PATTERN CATEGORY quick|full FLOOR_MS, got 3 fields" \
	"a line of three fields"
bad 'BM_x c@t full 1' "category 'c@t': '@' at offset 1 is not allowed (letters, digits, '.', '_' and '-')" \
	"a category that is no id"
bad 'BM_x checksum full -1' "FLOOR_MS '-1': FLOOR_MS -1 is out of range (expected from 0 to 1e+09)" \
	"a negative floor"
bad 'BM_x checksum full 2ms' "FLOOR_MS '2ms': expected a number of ms" \
	"a floor with a unit"
bad 'BM_x checksum full 1e12' "FLOOR_MS '1e12': FLOOR_MS 1e+12 is out of range (expected from 0 to 1e+09)" \
	"a floor out of range"
rm "$T/bm.workloads"
run prof-time --list --workloads "$T/bm"
is "$(awk '{print $2}' "$out" | sort -u)" "gbench" "without a side file: category gbench"
finish
