#!/bin/bash
# A Google Benchmark file's numbers kept whole, from the reader to the
# export: times below the nanosecond (a loop's mean: 2.45 ns against
# 2.55 ns is +4%, not 2 against 3), the CPU time, iterations and threads
# of each repetition written back by prof-export --format gbench (not
# the wall time, 1 and 1), a benchmark named by its own name whatever
# category its side file gives it; and the reader streams: 40,000
# entries merge under a 256 MiB address-space limit (the whole document
# took about 10 KB an entry), and a context after the list (keys sorted
# by jq -S) is read first.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 13

# gen REAL_NS CPU_NS THREADS ITERATIONS: 5 repetitions of BM_f/8.
gen() {
	printf '{"context": {"host_name": "elsewhere", "library_build_type": "release", "num_cpus": 4},\n "benchmarks": ['
	for i in 0 1 2 3 4; do
		[ $i = 0 ] || printf ','
		printf '\n  {"name": "BM_f/8", "run_name": "BM_f/8", "run_type": "iteration", "repetitions": 5, "repetition_index": %d, "threads": %d, "iterations": %d, "real_time": %s, "cpu_time": %s, "time_unit": "ns"}' \
			$i "$3" "$4" "$1" "$2"
	done
	printf ']}\n'
}
gen 2.45 2.44 1 200000000 >"$T/a.json"
gen 2.55 2.54 1 200000000 >"$T/b.json"
"$BIN/prof-merge" --gbench "$T/a.json" -o "$T/ra.json" --run-id a 2>/dev/null
"$BIN/prof-merge" --gbench "$T/b.json" -o "$T/rb.json" --run-id b 2>/dev/null
jq_ok '.samples | all(.duration_ms == 2.45e-06 and .cpu_ms == 2.44e-06)' \
	"$T/ra.json" "2.45 ns is 2.45e-06 ms, its CPU time 2.44e-06: not rounded to the nanosecond"
run prof-diff --baseline "$T/ra.json" "$T/rb.json"
jq_ok '.[0] | .status == "stable" and
	(.reason | startswith("median 4.1% slower"))' "$out" \
	"2.45 -> 2.55 ns is +4.1%, stable (not 2 -> 3 ns, a 50% warning)"
run prof-export --format gbench "$T/rb.json"
jq_ok '.benchmarks | length == 5 and all(.real_time == 2.55 and
	.cpu_time == 2.54)' "$out" "exported as 2.55 ns real, 2.54 ns CPU"

# The CPU time, iterations and threads of each repetition, back out.
gen 100 40 2 5000 >"$T/cpu.json"
"$BIN/prof-merge" --gbench "$T/cpu.json" -o "$T/rcpu.json" 2>/dev/null
run prof-export --format gbench "$T/rcpu.json"
is "$rc" 0 "prof-export --format gbench"
jq_ok '.benchmarks | length == 5 and all(.name == "BM_f/8" and
	.real_time == 100 and .cpu_time == 40 and .iterations == 5000 and
	.threads == 2)' "$out" \
	"cpu_time 40 ns of 100 real, 5000 iterations, 2 threads: the file's"
"$BIN/prof-export" --format gbench - <"$T/rcpu.json" >"$T/stdin.json"
cmp -s "$out" "$T/stdin.json"
is "$?" 0 "the same from stdin (walked twice through a copy)"

# A real binary's file, round trip; and its run by prof-time, its
# benchmarks given another category by a side file.
g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz ||
	exit 1
"$T/bm" --benchmark_min_time=0.001 --benchmark_repetitions=2 \
	--benchmark_out_format=json --benchmark_out="$T/real.json" \
	>/dev/null 2>&1
"$BIN/prof-merge" --gbench "$T/real.json" -o "$T/rreal.json"
"$BIN/prof-export" --format gbench -o "$T/xreal.json" "$T/rreal.json"
jq -s '[.[0].benchmarks, .[1].benchmarks] | map(map(select(.run_type ==
	"iteration" and (.error_occurred | not))) | sort_by(.name,
	.repetition_index)) | transpose | length == 4 and all(.[0] as $a |
	.[1] as $b | $a.name == $b.name and $a.iterations == $b.iterations and
	$a.threads == $b.threads and
	(($a.cpu_time - $b.cpu_time) | fabs) <= 1e-9 * $a.cpu_time and
	(($a.real_time - $b.real_time) | fabs) <= 1e-9 * $a.real_time)' \
	"$T/real.json" "$T/xreal.json" >"$T/v" 2>&1
is "$(cat "$T/v")" true \
	"a real binary's file exports back with its own names, times, CPU times, iterations and threads"
printf 'BM_crc32/* checksum quick 0\n' >"$T/bm.workloads"
PROF_GBENCH_FLAGS=--benchmark_min_time=0.001 run prof-time quick \
	--workloads "$T/bm" --category checksum --seed 1 -q \
	-o "$T/side.jsonl"
"$BIN/prof-merge" -o "$T/rside.json" "$T/side.jsonl"
run prof-export --format gbench "$T/rside.json"
jq_ok '[.benchmarks[].name] | unique == ["BM_crc32/4096", "BM_crc32/64"]' \
	"$out" "a benchmark its side file puts in category checksum keeps its own name (not BM_crc32.64/cpu)"
run prof-export --format bmf "$T/rside.json"
jq_ok 'keys == ["BM_crc32/4096", "BM_crc32/64"]' "$out" "in bmf too"

# Streamed: 40,000 entries (4,000 benchmarks, 10 repetitions each).
awk 'BEGIN {
	print "{\"context\": {\"host_name\": \"elsewhere\", \"library_build_type\": \"release\"}, \"benchmarks\": ["
	for (b = 0; b < 4000; b++)
		for (r = 0; r < 10; r++)
			printf "%s{\"name\": \"BM_s/%d\", \"run_name\": \"BM_s/%d\", \"run_type\": \"iteration\", \"repetitions\": 10, \"repetition_index\": %d, \"threads\": 1, \"iterations\": 1000, \"real_time\": 25.5, \"cpu_time\": 25.25, \"time_unit\": \"ns\", \"items\": 4096}\n", (b || r) ? "," : "", b, b, r
	print "]}"
}' >"$T/big.json"
if ldd "$BIN/prof-merge" 2>/dev/null | grep -q libasan; then
	skip "an ASan build reserves more address space than the limit"
else
	(
		ulimit -v 262144
		exec "$BIN/prof-merge" --gbench "$T/big.json" -o "$T/rbig.json"
	) >"$out" 2>"$err"
	is "$?:$(jq '.samples | length' "$T/rbig.json" 2>&1)" "0:40000" \
		"40,000 entries merge under a 256 MiB address-space limit"
fi
jq -S . "$T/a.json" >"$T/sorted.json"
"$BIN/prof-merge" --gbench "$T/sorted.json" -o "$T/rsorted.json" \
	--run-id a --timestamp 2026-12-01T00:00:00Z 2>/dev/null
"$BIN/prof-merge" --gbench "$T/a.json" -o "$T/ra2.json" \
	--run-id a --timestamp 2026-12-01T00:00:00Z 2>/dev/null
is "$(jq -c 'del(.command)' "$T/rsorted.json")" \
	"$(jq -c 'del(.command)' "$T/ra2.json")" \
	"a file whose context comes after its list merges as the original"
run prof-merge --gbench - <"$T/sorted.json"
is "$rc:$(errline)" "2:prof-merge: <stdin>: .context: after .benchmarks, which stdin cannot give twice (give the file by name, or the context first, as libbenchmark writes it)" \
	"on stdin it is refused, with why"
run prof-merge --gbench - <"$T/a.json"
is "$rc" 0 "the context first, stdin merges"
finish
