#!/bin/bash
# A Google Benchmark binary in WORKLOADS is a workload binary: prof-time
# lists its benchmarks as workloads (ids by prof-merge(1)'s rule), each
# timing sample one repetition run by the binary's own runner; a
# benchmark that errors or crashes is an error sample and the others
# still run. Through the installed fragment: make profile-quick, make
# diagnose (every phase), an A/A make compare AGAINST= and one whose build
# does 10 times the work in one benchmark, on a tiny gbench project.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 23
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.01

# The error cases, on prof-time directly: SkipWithError, a crash.
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
g++ -O2 -o "$T/bm" "$T/bm.cc" -lbenchmark -lpthread -lz
run prof-time --list --workloads "$T/bm"
is "$rc" 0 "prof-time --list reads a Google Benchmark binary"
is "$(awk '{print $1 ":" $2 ":" $4}' "$out" | tr '\n' ' ')" \
	"BM_crc32.64:gbench:quick BM_crc32.4096:gbench:quick BM_fails:gbench:quick BM_crash:gbench:quick " \
	"each benchmark a workload, its id by the naming rule"
run prof-time quick --workloads "$T/bm" --seed 1
is "$rc" 1 "a run with a failing benchmark exits 1"
jq_ok -s 'map(select(.workload == "BM_crc32.64" or
	.workload == "BM_crc32.4096")) | length == 6 and
	all(.outcome == "success" and .phase == "timing" and
	    .iterations >= 1 and .cpu_ms >= 0 and .duration_ms > 0 and
	    .checksum == null and .fixture != null)' "$out" \
	"the others still run: three repetitions each, prof's repeat"
jq_ok -s 'map(select(.workload == "BM_fails")) | length >= 1 and
	all(.outcome == "error" and
	    .reason == "the benchmark failed (SkipWithError): no input here")' \
	"$out" "SkipWithError is an error sample"
jq_ok -s 'map(select(.workload == "BM_crash")) | length == 1 and
	(.[0].outcome == "error") and
	(.[0].reason | startswith("benchmark '"'BM_crash'"' killed by signal 11"))' \
	"$out" "a crash is one error sample with the signal"
run prof-time quick --workloads "$T/bm" --check-output
is "$rc:$(errline)" "2:prof-time: --check-output: only for a command (--name ID -- CMD); a workload checksums its own output, and a Google Benchmark binary's has none to check" \
	"--check-output is refused for workloads, with why"
run prof-mem diagnose BM_crc32.64 --workloads "$T/bm"
# One sample a run (the memory phase runs two, 4b5e59e); t6356 has more.
jq_ok -s 'map(select(.phase == "memory")) | length == 2 and
	all(.outcome == "success" and .memory.host_allocs == 0)' \
	"$out" "the memory phase measures them: crc32's loop allocates nothing"

# Through the installed fragment.
project_install
is "$rc" 0 "make install PREFIX=..."
mkdir -p "$p" && cp "$ROOT"/test/data/gbench-project/* "$p"/ && cd "$p" &&
	git init -q . && git add Makefile bench.cc &&
	git -c user.name=t -c user.email=t@t commit -q -m one || exit 1
mk
is "$rc" 0 "the project builds its Google Benchmark binary"
mk help
like "$(cat "$out")" "BM_crc32.1024" "make help lists its benchmarks as workloads"
mk profile-quick
is "$rc" 0 "make profile-quick on it"
run_dir=$(sed -n 's|^summary: \(.*\)/summary.md$|\1|p' "$out")
jq_ok "$JQ_WHOLE"' whole | .samples | map(.workload) | unique ==
	["BM_adler32", "BM_crc32.1024"]' "$run_dir/results.json" \
	"its results hold both benchmarks"
jq_ok "$JQ_WHOLE"' whole | .samples | group_by(.workload) |
	all(length == 3 and all(.outcome == "success"))' \
	"$run_dir/results.json" "three samples each (quick: warm-up 1, repeat 3)"
mk diagnose W=BM_adler32 OUTPUT="$T/diag" REPEAT=2
is "$rc" 0 "make diagnose on a benchmark exits 0"
jq_ok "$JQ_WHOLE"' whole | (.samples | map(.phase) | unique) ==
	["instructions", "memory", "profile", "timing"] and
	(.samples | all(.outcome == "success"))' "$T/diag/results.json" \
	"its every phase measured it: timing, memory, profile, instructions"
cp bench bench-a
mk compare AGAINST=./bench-a OUTPUT="$T/ab"
is "$rc" 0 "make compare AGAINST= (A/A)"
jq_ok 'map(select(.channel == "time" or .channel == null)) |
	length == 2 and all(.status == "stable" or .status == "unsettled")' \
	"$T/ab/comparisons.json" "every row stable or unsettled, never a change"
like "$(cat "$T/ab/summary.md")" "BM_adler32" "and the summary names them"
like "$(cat "$T/ab/summary.md")" "Output identity: not checked for " \
	"and says their outputs are not checked"
like "$(cat "$T/ab/summary.md")" "samples: Google Benchmark has no output checksum." \
	"with the reason"
# A build whose one benchmark does 10 times the work (10 times the bytes
# for adler32): that row's interleaved verdict is warning, the other's
# stable. Quick mode and samples of 0.01 s: at load 18 on 2 cores, with
# every sample contended, a ratio of 10 settled after 5 rounds (its
# interval 3.2 to 30 at worst), while one of 3 did not settle in 12
# (0.70 to 4.4), and a change of 30% needs MODE=full, samples of 0.05 s
# and up to 40 rounds a side (test/bench/gbench-overhead.sh). An
# unsettled row is no change either, so the other row is stable or
# unsettled either way. That
# the rule's threshold lies between is tested on prof-ab (t1501).
mv bench bench-a
sed 's/buf(4096, 3)/buf(40960, 3)/' bench.cc >bench.cc.new &&
	mv bench.cc.new bench.cc && touch bench.cc
mk compare AGAINST=./bench-a OUTPUT="$T/ab10"
is "$rc" 0 "make compare AGAINST= on a build with one benchmark doing 10 times the work"
jq_ok 'map({(.workload): .status}) | add |
	.BM_adler32 == "warning" and
	(.["BM_crc32.1024"] | . == "stable" or . == "unsettled")' \
	"$T/ab10/comparisons.json" "that row is a warning, the other no change"
finish
