// zlib-bench.cc: a small Google Benchmark suite over Debian's zlib:
// crc32 over buffers of three sizes (a parameterised family), and
// compress() and uncompress() of 64 KiB of text at level 6.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <string>
#include <vector>

// 64 KiB of text that compresses as text does: numbered lines.
static std::string
text(void)
{
	std::string s;
	char line[64];

	for (int i = 0; s.size() < 65536; i++) {
		std::snprintf(line, sizeof(line), "line %d: the quick brown fox\n",
			      i);
		s += line;
	}
	s.resize(65536);
	return s;
}

static void
BM_crc32(benchmark::State &state)
{
	std::vector<unsigned char> buf(state.range(0));

	for (size_t i = 0; i < buf.size(); i++)
		buf[i] = static_cast<unsigned char>(i * 131);
	for (auto _ : state)
		benchmark::DoNotOptimize(crc32(0, buf.data(), buf.size()));
	state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_crc32)->Arg(256)->Arg(4096)->Arg(65536);

static void
BM_compress6(benchmark::State &state)
{
	const std::string in = text();
	std::vector<Bytef> out(compressBound(in.size()));

	for (auto _ : state) {
		uLongf n = out.size();

		if (compress2(out.data(), &n,
			      reinterpret_cast<const Bytef *>(in.data()),
			      in.size(), 6) != Z_OK) {
			state.SkipWithError("compress2 failed");
			break;
		}
		benchmark::DoNotOptimize(out.data());
		state.counters["ratio"] = static_cast<double>(in.size()) / n;
	}
	state.SetBytesProcessed(state.iterations() * in.size());
}
BENCHMARK(BM_compress6);

static void
BM_uncompress(benchmark::State &state)
{
	const std::string in = text();
	std::vector<Bytef> packed(compressBound(in.size()));
	std::vector<Bytef> out(in.size());
	uLongf n = packed.size();

	if (compress2(packed.data(), &n,
		      reinterpret_cast<const Bytef *>(in.data()), in.size(),
		      6) != Z_OK) {
		state.SkipWithError("compress2 failed");
		return;
	}
	for (auto _ : state) {
		uLongf m = out.size();

		if (uncompress(out.data(), &m, packed.data(), n) != Z_OK ||
		    m != in.size()) {
			state.SkipWithError("uncompress gave another text");
			break;
		}
		benchmark::DoNotOptimize(out.data());
	}
	state.SetBytesProcessed(state.iterations() * in.size());
}
BENCHMARK(BM_uncompress);

BENCHMARK_MAIN();
