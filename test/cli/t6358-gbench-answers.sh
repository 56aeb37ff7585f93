#!/bin/bash
# A Google Benchmark binary's answer is checked against what was asked:
# each run asks for one benchmark alone, and a run that answered for
# another benchmark, for others beside it, or for none (libbenchmark
# refused the filter, or it matched nothing) is an error sample that
# names what was asked and what came. Benchmark names with the regular
# expression's characters ([ ] { } ( ) | ? * + . ^ $ \) are asked for by
# a filter libbenchmark's std::regex takes, and measured. The flags prof
# gives each run itself are refused in PROF_GBENCH_FLAGS (their own
# filter would replace prof's, and another benchmark's samples would be
# recorded under the id asked for), exit 2, nothing run.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 13
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.001

# A main() that changes what it was asked, by GB_MODE: other (every
# --benchmark_filter made ^BM_z$), all (every filter dropped), badre (the
# filter made '(', which libbenchmark refuses); unset, it is
# BENCHMARK_MAIN()'s.
cat >"$T/ans.cc" <<'CC'
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
static void
BM_work(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_work)->Name("BM_a");
BENCHMARK(BM_work)->Name("BM_b");
BENCHMARK(BM_work)->Name("BM_z");
int
main(int argc, char **argv)
{
	const char *mode = getenv("GB_MODE");
	static char other[] = "--benchmark_filter=^BM_z$";
	static char badre[] = "--benchmark_filter=(";
	int k = 0;

	for (int i = 0; i < argc; i++) {
		if (mode && !strncmp(argv[i], "--benchmark_filter=", 19)) {
			if (!strcmp(mode, "all"))
				continue;
			argv[k++] = !strcmp(mode, "other") ? other : badre;
			continue;
		}
		argv[k++] = argv[i];
	}
	argc = k;
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
CC
g++ -O2 -o "$T/ans" "$T/ans.cc" -lbenchmark -lpthread || exit 1

# reasons: each workload's samples as "ID OUTCOME: REASON" lines, sorted.
reasons() {
	jq -r 'select(.workload) | "\(.workload) \(.outcome): \(.reason)"' \
		"$out" | sort -u
}

GB_MODE=other run prof-time quick --workloads "$T/ans" --seed 1 -q
is "$rc" 1 "a binary that answers for another benchmark: exit 1"
is "$(reasons)" "BM_a error: asked for 'BM_a' alone (--benchmark_filter=^BM_a\$), it answered for 'BM_z'
BM_b error: asked for 'BM_b' alone (--benchmark_filter=^BM_b\$), it answered for 'BM_z'
BM_z success: null" \
	"its answers for another are error samples naming both; its own answer is a sample"
jq_ok -s 'map(select(.workload == "BM_z")) | length == 3' "$out" \
	"and only the one asked for has samples"

GB_MODE=all run prof-time quick --workloads "$T/ans" --seed 1 -q
is "$rc" 1 "a binary that ignores the filter: exit 1"
is "$(reasons)" "BM_a error: asked for 'BM_a' alone (--benchmark_filter=^BM_a\$), it answered for 3 benchmarks: 'BM_a', 'BM_b', 'BM_z'
BM_b error: asked for 'BM_b' alone (--benchmark_filter=^BM_b\$), it answered for 3 benchmarks: 'BM_a', 'BM_b', 'BM_z'
BM_z error: asked for 'BM_z' alone (--benchmark_filter=^BM_z\$), it answered for 3 benchmarks: 'BM_a', 'BM_b', 'BM_z'" \
	"each run is an error sample that names the three it ran"

GB_MODE=badre run prof-time quick --workloads "$T/ans" --seed 1 -q
is "$(reasons | head -n 1)" "BM_a error: asked for 'BM_a' alone (--benchmark_filter=^BM_a\$), it ran no benchmark: libbenchmark said 'Could not compile benchmark re: Mismatched '(' and ')' in regular expression'" \
	"a filter libbenchmark refuses: what libbenchmark said"

# Names with every character a regular expression gives a meaning; one
# with a newline is listed as two names, neither of which matches.
cat >"$T/names.cc" <<'CC'
#include <benchmark/benchmark.h>
static void
BM_work(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.iterations());
}
int
main(int argc, char **argv)
{
	for (const char *n : {"BM_set[3]", "BM_map{2}", "BM_a(b)|c",
			      "BM_x+y?*.", "BM_b\\s^$", "BM_nl\nx"})
		benchmark::RegisterBenchmark(n, BM_work);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
CC
g++ -O2 -o "$T/names" "$T/names.cc" -lbenchmark -lpthread || exit 1
run prof-time quick --workloads "$T/names" --seed 1 -q
is "$rc" 1 "names with [ { ( | ? * + . ^ \$ \\: exit 1 (the name with a newline)"
jq_ok -s 'map(select(.outcome == "success")) | group_by(.fixture) |
	map({(.[0].fixture): length}) | add ==
	{"BM_set[3]": 3, "BM_map{2}": 3, "BM_a(b)|c": 3, "BM_x+y?*.": 3,
	 "BM_b\\s^$": 3}' "$out" \
	"every such name is measured: three samples each"
is "$(reasons | grep error)" "BM_nl error: asked for 'BM_nl' alone (--benchmark_filter=^BM_nl\$), it ran no benchmark: libbenchmark said 'Failed to match any benchmarks against regex: ^BM_nl\$'
x error: asked for 'x' alone (--benchmark_filter=^x\$), it ran no benchmark: libbenchmark said 'Failed to match any benchmarks against regex: ^x\$'" \
	"a name libbenchmark lists but no filter matches: what libbenchmark said"

# PROF_GBENCH_FLAGS: prof's own flags refused, before anything runs.
PROF_GBENCH_FLAGS="--benchmark_min_time=0.001 --benchmark_filter=BM_a" \
	run prof-time quick --workloads "$T/ans" --seed 1
is "$rc:$(cat "$err")" "2:prof-time: PROF_GBENCH_FLAGS: '--benchmark_filter=BM_a' would replace prof's own (each run is one benchmark alone, by its filter, one or two repetitions in JSON): choose benchmarks with W= (make) or --only (prof-time), repetitions with REPEAT= or --repeat" \
	"a filter of its own is refused, one line, exit 2"
is "$(wc -c <"$out")" 0 "and nothing ran"
for f in --benchmark_repetitions=3 --benchmark_format=console \
	--benchmark_display_aggregates_only=true; do
	PROF_GBENCH_FLAGS="$f" run prof-time quick --workloads "$T/ans"
	printf '%s\n' "$rc:$(errline)"
done >"$T/refused"
is "$(sed 's/ would replace prof.s own (.*$//' "$T/refused")" "2:prof-time: PROF_GBENCH_FLAGS: '--benchmark_repetitions=3'
2:prof-time: PROF_GBENCH_FLAGS: '--benchmark_format=console'
2:prof-time: PROF_GBENCH_FLAGS: '--benchmark_display_aggregates_only=true'" \
	"so are its repetitions, its format and its aggregates"
PROF_GBENCH_FLAGS="--benchmark_min_time=0.001 --benchmark_filter_x=1" \
	run prof-time quick --workloads "$T/ans" --only BM_a -q
is "$rc:$(reasons)" "1:BM_a error: benchmark 'BM_a' exited with status 1: $T/ans: error: unrecognized command-line flag: --benchmark_filter_x=1" \
	"a flag that only begins like one of them is the binary's to refuse"
finish
