#!/bin/bash
# Asking a binary for its list: a Google Benchmark binary that lists no
# benchmark, and one whose listing hangs, are exit 2 with what each of
# the two questions (prof's --list, then libbenchmark's
# --benchmark_list_tests=true) got, and a listing waits --timeout at most
# (60 s at most), saying so; a --list that writes lines that are no
# JSON is said to, never taken for a benchmark's name. A benchmark binary
# runs in prof-time's working folder (a suite reads its test data by a
# relative path), with a fresh HOME.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 8
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.001

printf '#include <benchmark/benchmark.h>\nBENCHMARK_MAIN();\n' >"$T/empty.cc"
g++ -O2 -o "$T/empty" "$T/empty.cc" -lbenchmark -lpthread || exit 1
run prof-time --list --workloads "$T/empty"
is "$rc:$(cat "$err")" "2:prof-time: workload binary '$T/empty' --list failed: exited with status 1: $T/empty: error: unrecognized command-line flag: --list; as a Google Benchmark binary, --benchmark_list_tests=true: it lists no benchmark (it exited 0 and wrote no name)" \
	"a benchmark binary that lists nothing: both answers, exit 2"

# Its listing hangs (a benchmark registered by a slow main(), say).
cat >"$T/hang.cc" <<'CC'
#include <benchmark/benchmark.h>
#include <cstring>
#include <unistd.h>
static void
BM_a(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_a);
int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--benchmark_list_tests=true"))
			sleep(120);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	return 0;
}
CC
g++ -O2 -o "$T/hang" "$T/hang.cc" -lbenchmark -lpthread || exit 1
run prof-time quick --workloads "$T/hang" --timeout 1
is "$rc:$(cat "$err")" "2:prof-time: workload binary '$T/hang' --list failed: exited with status 1: $T/hang: error: unrecognized command-line flag: --list; as a Google Benchmark binary, --benchmark_list_tests=true: timed out after 1 s: its listing hangs (a listing waits --timeout, 60 s at most)" \
	"a listing that hangs: --timeout bounds it, and the line says so"
printf '#!/bin/sh\nsleep 120\n' >"$T/slow"
chmod +x "$T/slow"
run prof-time --list --workloads "$T/slow" --timeout 1
is "$rc:$(cat "$err")" "2:prof-time: workload binary '$T/slow' --list failed: timed out after 1 s: its listing hangs (a listing waits --timeout, 60 s at most)" \
	"so is a --list that hangs, asked nothing more"

printf '#!/bin/sh\necho "{not json"\n' >"$T/bad"
chmod +x "$T/bad"
run prof-time --list --workloads "$T/bad"
is "$rc:$(cat "$err")" "2:prof-time: workload binary '$T/bad' --list wrote bad JSON: $T/bad:1:2: quoted object property name expected" \
	"a --list that exits 0 with lines that are no JSON is that, not a benchmark named '{not json'"

# The working folder: the one prof-time runs in; HOME a fresh one.
cat >"$T/cwd.cc" <<'CC'
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
static void
BM_data(benchmark::State &state)
{
	std::ifstream in("bench-data.txt");
	std::string text((std::istreambuf_iterator<char>(in)),
			 std::istreambuf_iterator<char>());
	const char *home = getenv("HOME");

	if (text.empty()) {
		state.SkipWithError("no ./bench-data.txt");
		return;
	}
	for (auto _ : state)
		benchmark::DoNotOptimize(text.size());
	state.counters["data_bytes"] = text.size();
	state.counters["home_is_mine"] =
		home && !strcmp(home, getenv("GB_MY_HOME"));
}
BENCHMARK(BM_data);
BENCHMARK_MAIN();
CC
g++ -O2 -o "$T/cwd" "$T/cwd.cc" -lbenchmark -lpthread || exit 1
mkdir "$T/suite" && printf '12345678' >"$T/suite/bench-data.txt"
(cd "$T/suite" && GB_MY_HOME=$HOME "$BIN/prof-time" quick \
	--workloads "$T/cwd" --seed 1 -q) >"$out" 2>"$err"
is "$?" 0 "run in the suite's folder, it finds its data there"
jq_ok -s 'map(select(.workload == "BM_data")) | length == 3 and
	all(.outcome == "success" and .metrics.data_bytes == 8 and
	    .metrics.home_is_mine == 0)' "$out" \
	"each run read ./bench-data.txt, in a HOME that is not the user's"
(cd "$T" && GB_MY_HOME=$HOME "$BIN/prof-time" quick --workloads "$T/cwd" \
	--seed 1 -q) >"$out" 2>"$err"
is "$?" 1 "run elsewhere, it does not"
jq_ok -s 'map(select(.workload == "BM_data")) | .[0].reason ==
	"the benchmark failed (SkipWithError): no ./bench-data.txt"' "$out" \
	"its error sample says so"
finish
