#!/bin/bash
# Edges of Google Benchmark samples: a benchmark that hangs is an error
# sample at --timeout and the others still run; one faster than a
# nanosecond an iteration is a sample (its time kept as the loop's mean
# gives it, below the nanosecond), not an error ("cpu_time: 4.2e-07 ms
# cannot be judged"), in a run of the binary and in its JSON read by
# prof-merge --gbench.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 6
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.01

cat >"$T/bm.cc" <<'CC'
#include <benchmark/benchmark.h>
#include <unistd.h>
static void
BM_hang(benchmark::State &state)
{
	for (auto _ : state)
		sleep(30);
}
BENCHMARK(BM_hang);
static void
BM_empty(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_empty);
BENCHMARK_MAIN();
CC
g++ -O2 -o "$T/bm" "$T/bm.cc" -lbenchmark -lpthread || exit 1

run prof-time quick --workloads "$T/bm" --timeout 2 -q
is "$rc" 1 "a run with a benchmark that hangs exits 1"
jq_ok -s 'map(select(.workload == "BM_hang")) | length == 1 and
	.[0].outcome == "error" and
	.[0].reason == "benchmark '"'BM_hang'"' timed out after 2 s"' "$out" \
	"the hang is one error sample at the timeout"
jq_ok -s 'map(select(.workload == "BM_empty")) | length == 3 and
	all(.outcome == "success" and .duration_ms < 0.0001 and
	    .duration_ms > 0)' "$out" \
	"an empty loop (under a nanosecond or about one) is three samples, its time kept"

cat >"$T/sub.json" <<'JSON'
{"context": {"host_name": "elsewhere", "library_build_type": "release"},
 "benchmarks": [
  {"name": "BM_a", "run_type": "iteration", "repetitions": 2,
   "repetition_index": 0, "iterations": 1000000000, "real_time": 0.3,
   "cpu_time": 0.3, "time_unit": "ns"},
  {"name": "BM_a", "run_type": "iteration", "repetitions": 2,
   "repetition_index": 1, "iterations": 1000000000, "real_time": 0.7,
   "cpu_time": 0.6, "time_unit": "ns"}]}
JSON
run prof-merge --gbench "$T/sub.json" -o "$T/sub-r.json"
is "$rc" 0 "prof-merge --gbench reads times under a nanosecond"
jq_ok "$JQ_WHOLE"' whole | .samples | map([.duration_ms, .cpu_ms]) ==
	[[3e-07, 3e-07], [7e-07, 6e-07]]' "$T/sub-r.json" \
	"kept below the nanosecond: 0.3 ns is 3e-07 ms, not 0; 0.7 ns is 7e-07, not 1 ns"
jq '.benchmarks[1].real_time = -1' "$T/sub.json" >"$T/neg.json"
run prof-merge --gbench "$T/neg.json"
is "$rc:$(errline)" "2:prof-merge: $T/neg.json: .benchmarks[1].real_time: -1e-06 ms cannot be judged (expected 0, or from 1e-09 to 1e+09 ms)" \
	"a negative time is still refused"
finish
