#!/bin/bash
# The memory phase of a Google Benchmark binary's benchmarks (prof-mem,
# MEMORY=1, make diagnose): each run two repetitions of one iteration
# under libprof-alloc.so and libprof-gbloop.so, the second's loop alone
# measured (set-up before the loop is not), allocations per iteration;
# exact metrics identical over the phase's two runs; a build whose loop
# allocates twice as much is that row's memory warning, the other stable
# (it gave every benchmark an error sample, "does not measure Google
# Benchmark workloads").
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 9

cat >"$T/bm.cc" <<'CC'
#include <benchmark/benchmark.h>
#include <vector>
static void
BM_alloc(benchmark::State &state)
{
	for (auto _ : state) {
		std::vector<char> v(SIZE);
		benchmark::DoNotOptimize(v.data());
	}
}
BENCHMARK(BM_alloc);
static void
BM_setup(benchmark::State &state)
{
	std::vector<char> v(1 << 20);	// before the loop: not measured
	for (auto _ : state)
		benchmark::DoNotOptimize(v.data());
}
BENCHMARK(BM_setup);
static void
BM_ten(benchmark::State &state)
{
	for (auto _ : state) {
		std::vector<char> v(4096);
		benchmark::DoNotOptimize(v.data());
	}
}
BENCHMARK(BM_ten)->Iterations(10);
static void
BM_fails(benchmark::State &state)
{
	for (auto _ : state)
		break;
	state.SkipWithError("no input here");
}
BENCHMARK(BM_fails);
static void
BM_two(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.thread_index());
}
BENCHMARK(BM_two)->Threads(2);
BENCHMARK_MAIN();
CC
g++ -O2 -DSIZE='(1 << 20)' -o "$T/a" "$T/bm.cc" -lbenchmark -lpthread &&
	g++ -O2 -DSIZE='(2 << 20)' -o "$T/b" "$T/bm.cc" -lbenchmark -lpthread ||
	exit 1

run prof-mem quick --workloads "$T/a" -q
cp "$out" "$T/a.jsonl"
is "$rc" 1 "prof-mem on a Google Benchmark binary (one benchmark fails)"
jq_ok -s 'map(select(.workload == "BM_alloc" or .workload == "BM_setup" or
	.workload == "BM_ten.iterations-10")) | length == 6 and
	all(.phase == "memory" and .outcome == "success" and .call == 0 and
	    (.memory | type) == "object")' "$T/a.jsonl" \
	"each benchmark two memory samples, one a run of the phase"
jq_ok -s 'map(select(.workload == "BM_alloc")) | all(.memory |
	.host_allocs == 1 and .host_allocated_bytes >= 1048576 and
	.host_peak_bytes >= 1048576 and .rss_peak_bytes > 0)' "$T/a.jsonl" \
	"the loop's allocation: one of 1 MiB"
jq_ok -s 'map(select(.workload == "BM_setup")) | all(.memory |
	.host_allocs == 0 and .host_peak_bytes == 0 and
	.host_live_before_bytes >= 1048576)' "$T/a.jsonl" \
	"the set-up before the loop is live before it, not in it"
jq_ok -s 'map(select(.workload == "BM_ten.iterations-10")) | all(
	.iterations == 10 and .memory.host_allocs == 1 and
	.memory.host_allocated_bytes >= 4096 and
	.memory.host_allocated_bytes < 8192)' "$T/a.jsonl" \
	"allocations and their bytes per iteration"
jq_ok -s 'map(select(.outcome == "success")) | group_by(.workload) |
	all(map(.memory | [.host_allocs, .host_allocated_bytes,
	    .host_peak_bytes]) | unique | length == 1)' "$T/a.jsonl" \
	"exact metrics identical over the two runs"
jq_ok -s '(map(select(.workload == "BM_fails")) | length == 2 and
	all(.outcome == "error" and
	    .reason == "the benchmark failed (SkipWithError): no input here")) and
	(map(select(.workload == "BM_two.threads-2")) | length == 2 and
	all(.outcome == "error" and .reason == "the memory of a benchmark on 2 threads is not measured (their loops interleave)"))' \
	"$T/a.jsonl" "SkipWithError and two threads are error samples, with why"

"$BIN/prof-mem" quick --workloads "$T/b" -q -o "$T/b.jsonl"
"$BIN/prof-merge" -o "$T/a.json" "$T/a.jsonl" &&
	"$BIN/prof-merge" -o "$T/b.json" "$T/b.jsonl" || exit 1
run prof-diff --baseline "$T/a.json" "$T/b.json"
jq_ok 'map(select(.phase == "memory" and
	.metric == "host_peak_bytes")) | map({(.workload): .status}) | add |
	.BM_alloc == "warning" and .BM_setup == "stable" and
	.["BM_ten.iterations-10"] == "stable"' "$out" \
	"twice the loop's allocation: that row's heap peak warning, the others stable"
jq_ok 'map(select(.phase == "memory" and .workload == "BM_alloc" and
	.metric == "host_allocs"))[0].status == "stable"' "$out" \
	"in as many allocations"
finish
