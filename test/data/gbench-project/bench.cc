// bench.cc: two benchmarks over zlib for t6352, one of them with an
// argument.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <vector>

static void
BM_crc32(benchmark::State &state)
{
	std::vector<unsigned char> buf(state.range(0), 7);

	for (auto _ : state)
		benchmark::DoNotOptimize(crc32(0, buf.data(), buf.size()));
}
BENCHMARK(BM_crc32)->Arg(1024);

static void
BM_adler32(benchmark::State &state)
{
	std::vector<unsigned char> buf(4096, 3);

	for (auto _ : state)
		benchmark::DoNotOptimize(adler32(1, buf.data(), buf.size()));
}
BENCHMARK(BM_adler32);

BENCHMARK_MAIN();
