#!/bin/bash
# prof-time --only PATTERN: the workloads whose id matches a shell
# pattern, beside the mode's and the categories' selection (make's W=);
# a pattern that matches nothing is exit 2, naming it. Interleaved
# against a reference Google Benchmark binary without a side file of its
# own (one built by hand), the reference side plans each benchmark as the
# current side's workload of the same id, so that both run the same
# selection (it planned them all as quick, category gbench).
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
plan 14
export PROF_GBENCH_FLAGS=--benchmark_min_time=0.001
g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz ||
	exit 1

run prof-time --list --workloads "$T/bm" --only 'BM_crc32*'
is "$rc:$(awk '{print $1}' "$out" | tr '\n' ' ')" "0:BM_crc32.64 BM_crc32.4096 " \
	"--list --only lists the workloads it selects"
run prof-time quick --workloads "$T/bm" --only 'BM_crc32.4*' \
	--only BM_fails --seed 1 -q
jq_ok -s 'map(select(.workload)) | (map(.workload) | unique) ==
	["BM_crc32.4096", "BM_fails"]' "$out" "a run holds those alone (any pattern of several)"
run prof-time quick --workloads "$TW" --only 'test.ok*' --seed 1 -q --repeat 1
jq_ok -s 'map(select(.workload)) | length > 0 and
	all(.workload == "test.ok")' "$out" "a harness binary's workloads too (test.ok_slow is not quick)"
run prof-time quick --workloads "$T/bm" --only 'BM_crc32*' --only 'BM_nope*'
is "$rc:$(cat "$err")" "2:prof-time: --only 'BM_nope*' (W= in make): no workload's id matches it (prof-time --list lists them)" \
	"a pattern that matches nothing: exit 2, naming it"
is "$(wc -c <"$out")" 0 "and nothing ran"
run prof-time quick --workloads "$T/bm" --only ''
is "$rc:$(errline)" "2:prof-time: --only: an empty pattern" "an empty one"
run prof-time --name x --only x -- true
is "$rc:$(errline)" "2:prof-time: --only: a command is one workload, --name's" \
	"not for a command"
run prof-time diagnose BM_fails --workloads "$T/bm" --only 'BM_crc32*'
is "$rc:$(errline)" "2:prof-time: unknown workload 'BM_fails'" \
	"diagnose's workload must be among them"

# The reference side of an A/B: a binary without a side file.
cat >"$T/bm.workloads" <<'RULES'
BM_crc32/4*   checksum  full   0.25
BM_crc32/*    checksum  quick  0.5
RULES
mkdir "$T/old" && cp "$T/bm" "$T/old/bm"
run prof-time quick --workloads "$T/bm" --against "$T/old/bm" \
	--against-output "$T/ref.jsonl" --seed 1 -q --repeat 2 --max-repeat 2
is "$rc" 1 "an A/B against a hand-built binary without a side file (BM_fails errs): exit 1"
jq -r -s 'map(select(.workload)) | map("\(.workload) \(.category) \(.warning_floor_ms)") | unique | .[]' \
	"$T/ref.jsonl" >"$T/ref.txt"
is "$(cat "$T/ref.txt")" "BM_crc32.64 checksum 0.5
BM_fails gbench 0" \
	"the reference side plans as the current: BM_crc32/4096 is full there too, BM_crc32/64 in checksum with its floor"
jq -r -s 'map(select(.workload)) | map(.workload) | unique | .[]' "$out" \
	>"$T/cur.txt"
is "$(cat "$T/cur.txt")" "BM_crc32.64
BM_fails" "the same benchmarks as the current side"
run prof-time quick --workloads "$T/bm" --against "$T/old/bm" \
	--against-output "$T/ref2.jsonl" --only 'BM_crc32*' --seed 1 -q \
	--repeat 2 --max-repeat 2
jq_ok -s 'map(select(.workload)) | (map(.workload) | unique) ==
	["BM_crc32.64"]' "$T/ref2.jsonl" "--only selects on both sides"
if command -v valgrind >/dev/null; then
	run prof-count quick --workloads "$T/bm" --against "$T/old/bm" \
		--against-output "$T/cref.jsonl" --only 'BM_crc32*' --seed 1 \
		-q --repeat 1
	jq_ok -s 'map(select(.workload)) | length == 1 and
		.[0].workload == "BM_crc32.64" and .[0].category == "checksum" and
		.[0].outcome == "success"' "$T/cref.jsonl" \
		"so does prof-count's reference side"
else
	skip "valgrind is not installed"
fi
echo 'BM_crc32/* other quick 0' >"$T/old/bm.workloads"
run prof-time quick --workloads "$T/bm" --against "$T/old/bm" \
	--against-output "$T/ref3.jsonl" --only 'BM_crc32*' --seed 1 -q \
	--repeat 2 --max-repeat 2
jq_ok -s 'map(select(.workload)) | (map(.category) | unique) == ["other"] and
	(map(.workload) | unique) == ["BM_crc32.4096", "BM_crc32.64"]' \
	"$T/ref3.jsonl" "a reference with a side file of its own follows its own"
finish
