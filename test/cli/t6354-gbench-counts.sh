#!/bin/bash
# Instruction counts of a Google Benchmark binary's benchmarks: each
# counted call one run of the binary under callgrind, two repetitions of
# one iteration, the second's loop alone counted (not start-up, not
# calibration) and divided by its iterations; identical per call index
# over two runs. A build whose one benchmark does 2% more work is that
# row's count warning, the other stable, under make compare AGAINST=
# COUNTS=1 through the installed fragment.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 14
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.01

sed 's/^BENCHMARK_MAIN();$//' test/data/gbench-tiny.cc >"$T/bm.cc"
cat >>"$T/bm.cc" <<'CC'
// Iterations fixed by the benchmark itself: its loop's count is divided.
static void
BM_fixed(benchmark::State &state)
{
	std::vector<unsigned char> buf(256, 5);

	for (auto _ : state)
		benchmark::DoNotOptimize(crc32(0, buf.data(), buf.size()));
}
BENCHMARK(BM_fixed)->Iterations(40);

static void
BM_two(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.thread_index());
}
BENCHMARK(BM_two)->Threads(2);
BENCHMARK_MAIN();
CC
g++ -O2 -o "$T/bm" "$T/bm.cc" -lbenchmark -lpthread -lz || exit 1

run prof-count quick --workloads "$T/bm" -q
cp "$out" "$T/one.jsonl"
is "$rc" 1 "prof-count on a Google Benchmark binary (one benchmark fails)"
jq_ok -s 'map(select(.workload == "BM_crc32.64" or
	.workload == "BM_crc32.4096" or .workload == "BM_fixed.iterations-40")) |
	length == 6 and all(.phase == "instructions" and
	.outcome == "success" and (.instructions | type) == "number" and
	.instructions > 0 and .env.valgrind != null and
	.checksum == null and .count_threshold_pct == 1)' "$T/one.jsonl" \
	"each benchmark's calls are instruction samples (prof-count quick: 2)"
jq_ok -s 'map(select(.workload == "BM_crc32.64" or
	.workload == "BM_crc32.4096")) | all(.iterations == 1 and
	.metrics.loop_instructions == .instructions and
	.instructions < 100000)' "$T/one.jsonl" \
	"the loop of one iteration, without start-up (millions of instructions)"
jq_ok -s '(map(select(.workload == "BM_crc32.4096"))[0].instructions) >
	10 * (map(select(.workload == "BM_crc32.64"))[0].instructions)' \
	"$T/one.jsonl" "64 times the bytes, many times the instructions"
jq_ok -s 'map(select(.workload == "BM_fixed.iterations-40")) |
	all(.iterations == 40 and
	(.metrics.loop_instructions - 40 * .instructions | fabs) <= 20)' \
	"$T/one.jsonl" "a loop of 40 iterations is counted per iteration"
jq_ok -s 'map(select(.workload == "BM_fails")) | length == 2 and
	all(.outcome == "error" and
	.reason == "the benchmark failed (SkipWithError): no input here")' \
	"$T/one.jsonl" "SkipWithError is an error sample, the others counted"
jq_ok -s 'map(select(.workload == "BM_two.threads-2")) | length == 2 and
	all(.outcome == "error" and .reason == "instruction counts of a benchmark on 2 threads are not taken (their loops interleave)")' \
	"$T/one.jsonl" "a benchmark on two threads is an error sample, with why"

run prof-count quick --workloads "$T/bm" -q
jq -s -c 'map(select(.outcome == "success") |
	[.workload, .index, .instructions]) | sort' "$T/one.jsonl" >"$T/a"
cp "$out" "$T/two.jsonl"
jq -s -c 'map(select(.outcome == "success") |
	[.workload, .index, .instructions]) | sort' "$T/two.jsonl" >"$T/b"
ok "$(cmp -s "$T/a" "$T/b"; echo $?)" \
	"identical counts per call index over two runs"
[ "$(cat "$T/a")" != "[]" ] || echo "# no counts" >&2

# Through the installed fragment: a build whose adler32 runs over 2% more
# bytes (4096 -> 4178).
project_install
is "$rc" 0 "make install PREFIX=..."
mkdir -p "$p" && cp "$ROOT"/test/data/gbench-project/* "$p"/ && cd "$p" &&
	git init -q . && git add Makefile bench.cc &&
	git -c user.name=t -c user.email=t@t commit -q -m one || exit 1
mk
mv bench bench-a
sed 's/buf(4096, 3)/buf(4178, 3)/' bench.cc >bench.cc.new &&
	mv bench.cc.new bench.cc && touch bench.cc
mk
is "$rc" 0 "the project builds its other Google Benchmark binary"
# REPEAT=1: the interleaved time rows are not asserted here (t6352), and
# REPEAT is timing's alone: the count phase keeps its repeat.
mk compare AGAINST=./bench-a COUNTS=1 OUTPUT="$T/ab" REPEAT=1
is "$rc" 0 "make compare AGAINST= COUNTS=1"
jq_ok 'map(select(.phase == "instructions")) |
	map({(.workload): .status}) | add == {"BM_adler32": "warning",
	"BM_crc32.1024": "stable"}' "$T/ab/comparisons.json" \
	"the 2% more work is that row's count warning, the other stable"
jq_ok 'map(select(.phase == "instructions" and .workload == "BM_adler32"))[0] |
	.delta_pct > 1.5 and .delta_pct < 2.5' "$T/ab/comparisons.json" \
	"by about 2%"
like "$(cat "$T/ab/summary.md")" "\`BM_adler32\` (cpu, instructions): **warning**" \
	"the summary says so"
finish
