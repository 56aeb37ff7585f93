#!/bin/bash
# The profile phase of a Google Benchmark binary's benchmark (prof-trace,
# make diagnose): one run of the binary on that benchmark alone under
# gperftools for --min-seconds, its ID.prof an artifact of the profile
# sample; SkipWithError and a crash are error samples (it gave every
# benchmark an error sample, "does not measure Google Benchmark
# workloads").
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 7

sed 's/^BENCHMARK_MAIN();$//' test/data/gbench-tiny.cc >"$T/bm.cc"
cat >>"$T/bm.cc" <<'CC'
#include <csignal>
static void
BM_crash(benchmark::State &state)
{
	for (auto _ : state)
		std::raise(SIGSEGV);
}
BENCHMARK(BM_crash);
BENCHMARK_MAIN();
CC
g++ -O2 -o "$T/bm" "$T/bm.cc" -lbenchmark -lpthread -lz || exit 1

run prof-trace diagnose BM_crc32.4096 --workloads "$T/bm" --min-seconds 0.2 \
	--artifacts "$T/art" -q
is "$rc" 0 "prof-trace diagnose on a Google Benchmark benchmark"
jq_ok -s 'map(select(.workload)) | length == 1 and .[0] as $s |
	$s.phase == "profile" and $s.outcome == "success" and
	$s.artifacts == ["BM_crc32.4096.prof"] and
	$s.metrics.calls == $s.iterations and $s.iterations >= 1 and
	$s.metrics.profile_samples > 0 and
	($s.metrics.binary | endswith("/bm"))' "$out" \
	"one profile sample: its calls, profile samples, binary and .prof"
ok "$([ -s "$T/art/BM_crc32.4096.prof" ]; echo $?)" "the .prof is written"
if command -v google-pprof >/dev/null; then
	like "$(google-pprof --text "$T/bm" "$T/art/BM_crc32.4096.prof" 2>/dev/null)" \
		"crc32" "google-pprof reads it: zlib's crc32 is in it"
else
	skip "google-pprof is not installed"
fi

run prof-trace full --workloads "$T/bm" --min-seconds 0.1 --artifacts "$T/art" -q
is "$rc" 1 "a run with a failing and a crashing benchmark exits 1"
jq_ok -s 'map(select(.workload == "BM_fails"))[0] | .phase == "profile" and
	.outcome == "error" and
	.reason == "the benchmark failed (SkipWithError): no input here"' \
	"$out" "SkipWithError is an error sample"
jq_ok -s '(map(select(.workload == "BM_crash"))[0] | .outcome == "error" and
	(.reason | startswith("benchmark '"'BM_crash'"' killed by signal 11"))) and
	(map(select(.workload == "BM_crc32.64"))[0].outcome == "success")' \
	"$out" "a crash is an error sample with its signal, the others profiled"
finish
