// gbench-tiny.cc: a tiny Google Benchmark binary for the tests: zlib's
// crc32 over two sizes (a family with an argument, a user counter) and
// one benchmark that fails with SkipWithError.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <vector>

static void
BM_crc32(benchmark::State &state)
{
	std::vector<unsigned char> buf(state.range(0), 7);

	for (auto _ : state)
		benchmark::DoNotOptimize(crc32(0, buf.data(), buf.size()));
	state.counters["bytes"] = static_cast<double>(buf.size());
}
BENCHMARK(BM_crc32)->Arg(64)->Arg(4096);

static void
BM_fails(benchmark::State &state)
{
	for (auto _ : state)
		break;
	state.SkipWithError("no input here");
}
BENCHMARK(BM_fails);

BENCHMARK_MAIN();
