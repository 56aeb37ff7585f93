#!/bin/bash
# make's W= in profile-quick, profile-full and compare: only the
# workloads whose id matches one of its shell patterns (prof-time
# --only), checked as the other variables are (a bad pattern, or one that
# matches nothing, is exit 2 naming it), recorded in the run's command,
# and kept by the hints the summary prints; on the installed fragment, in
# a Google Benchmark project (its benchmarks' subset had no variable but
# the side file).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 12
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.001

project_install
is "$rc" 0 "make install PREFIX=..."
mkdir -p "$p" && cp "$ROOT"/test/data/gbench-project/* "$p"/ && cd "$p" &&
	git init -q . && git add Makefile bench.cc &&
	git -c user.name=t -c user.email=t@t commit -q -m one || exit 1
mk
mk profile-quick 'W=BM_crc32*' OUTPUT="$T/q" HISTORY=
is "$rc" 0 "make profile-quick W='BM_crc32*'"
jq_ok "$JQ_WHOLE"' whole | (.samples | map(.workload) | unique) ==
	["BM_crc32.1024"] and
	.command == "make profile-quick OUTPUT='"$T"'/q HISTORY= W=BM_crc32*"' \
	"$T/q/results.json" "only the benchmark it matches, and the command says so"
mk profile-full 'W=BM_adler32 BM_crc32.1*' OUTPUT="$T/f" HISTORY= REPEAT=2
jq_ok "$JQ_WHOLE"' whole | (.samples | map(.workload) | unique) ==
	["BM_adler32", "BM_crc32.1024"] and
	.command == "make profile-full REPEAT=2 OUTPUT='"$T"'/f HISTORY= W=\"BM_adler32 BM_crc32.1*\""' \
	"$T/f/results.json" "profile-full: each pattern of several, quoted in the command"
mk profile-quick W=BM_nope OUTPUT="$T/n" HISTORY=
is "$rc:$(grep -c "prof-time: --only 'BM_nope' (W= in make): no workload's id matches it" "$err")" "2:1" \
	"a pattern that matches nothing: exit 2, naming it"
mk profile-quick 'W=BM_a;true' OUTPUT="$T/n" HISTORY=
is "$rc:$(head -n 1 "$err")" "2:make profile-quick: W: 'BM_a;true': not a workload id pattern (letters, digits, '.', '_', '-' and * ? [ ] !)" \
	"a word that is no id pattern: exit 2 before anything runs"
mk profile-quick "W=x'y" OUTPUT="$T/n" HISTORY=
is "$rc:$(head -n 1 "$err")" "2:make profile-quick: W: 'x'y': not a workload id pattern (letters, digits, '.', '_', '-' and * ? [ ] !)" \
	"nor a quote"
touch -- '--only=BM_adler32'
mk profile-quick 'W=BM_crc*' OUTPUT="$T/g" HISTORY=
jq_ok "$JQ_WHOLE"' whole | (.samples | map(.workload) | unique) ==
	["BM_crc32.1024"]' "$T/g/results.json" \
	"the pattern reaches prof-time as written (no file of the folder takes its place)"
rm -f -- '--only=BM_adler32'

# compare: W= is one of its variables now (it was refused), on both sides.
cp bench bench-a
mk compare AGAINST=./bench-a W=BM_adler32 OUTPUT="$T/ab"
is "$rc" 0 "make compare AGAINST= W=BM_adler32"
jq_ok 'map(.workload) | unique == ["BM_adler32"]' "$T/ab/comparisons.json" \
	"its rows are that benchmark's alone"
jq_ok -s 'map(select(.workload)) | (map(.workload) | unique) ==
	["BM_adler32"]' "$T/ab/baseline.jsonl" \
	"on the reference side too"
jq_ok '.command == "make compare AGAINST=./bench-a W=BM_adler32 OUTPUT='"$T"'/ab"' \
	"$T/ab/results.json" "the command says so"
finish
