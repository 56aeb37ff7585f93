#!/bin/bash
# prof-count quick: callgrind counts of run() only, the same twice; the
# samples, their segment key, and what a timing worker never has.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 17

VG=$(valgrind --version | sed 's/^valgrind-//')

# The project's quick workloads but the server round trips (whose counts
# move by one poll round, ~0.1%: see the README), twice.
run prof-count quick --category pipeline --category primitive -o "$T/a.jsonl"
is "$rc" 0 "prof-count quick exits 0"
run prof-count quick --category pipeline --category primitive -o "$T/b.jsonl"
counts() {
	jq -s -c 'map(select(.outcome == "success")) |
		sort_by(.workload, .index) | map([.workload, .index, .instructions])' "$1"
}
is "$(counts "$T/a.jsonl")" "$(counts "$T/b.jsonl")" \
	"two runs give identical counts, call by call"
jq_ok -s 'map(select(.record == null)) | length == 12 and
	all(.[]; .outcome == "success")' "$T/a.jsonl" \
	"2 counts (the quick repeat) of each of the 6 workloads"
jq_ok -s 'map(select(.record == null)) | all(.[]; .phase == "instructions" and .kind == "warm" and
	(.instructions | type == "number" and . == floor and . > 1000000))' \
	"$T/a.jsonl" "each with an integer instruction count"
# (jq_ok reads a stream as schema-1 lines: env and segment inline.)
jq_ok -s "all(.[]; .env.valgrind == \"$VG\" and
	(.segment | fromjson | .valgrind == \"$VG\"))" "$T/a.jsonl" \
	"valgrind's version is recorded and keyed"
jq_ok -s 'map(select(.record == null)) |
	all(.[]; .count_threshold_pct == 1 and .backend == "cpu")' \
	"$T/a.jsonl" "the default threshold, 1%, on the CPU path"
like "$(cat "$err")" "prof-count: [1/6] " "progress on stderr"
like "$(cat "$err")" " instructions (n=2)" "with the median count"
is "$(grep -c ': median [0-9]\{1,3\}\(,[0-9]\{3\}\)\+ instructions (n=2)$' "$err")" 6 \
	"each count grouped, as the pages write it (58,012,207)"

# The test workload sums 100,000 doubles: a few instructions each, and the
# warmup, prepare() and validate() are not in the count.
run prof-count diagnose test.ok --workloads "$TW"
jq_ok -s 'map(select(.record == null)) | length == 3 and
	all(.[]; .instructions > 300000 and
	.instructions < 500000)' "$out" \
	"diagnose: 3 counts of run() alone (4 instructions an item)"

# make diagnose of a GPU-only workload: nothing to count, and no failure.
run prof-count diagnose test.gpu_only --workloads "$TW" -o "$T/g.jsonl"
is "$rc:$(tail -n 1 "$err")" \
	"0:prof-count: 'test.gpu_only' has no CPU path: no instruction counts" \
	"a workload with no CPU path has nothing to count"
ok "$([ -f "$T/g.jsonl" ] && [ ! -s "$T/g.jsonl" ]; echo $?)" \
	"and its output is empty"

# Failures under valgrind are error samples and the run goes on.
run prof-count quick --workloads "$TW"
is "$rc" 1 "a crash or a failed validation under valgrind: exit 1"
jq_ok -s '[.[] | select(.outcome == "error") | [.workload, .reason]] | sort ==
	[["test.crash", "worker killed by signal 11 (SIGSEGV: Segmentation fault)"],
	 ["test.invalid", "warmup call 1: validation failed: expected 42 paths, got 41"]]' \
	"$out" "each an error sample with its reason"
jq_ok -s '[.[] | select(.workload == "test.ok" and .outcome == "success")] |
	length == 2' "$out" "and the other workloads are counted"

# A timing worker never runs under valgrind; a counted one does, and the
# test workload's check sees it.
run prof-time diagnose test.clean_process --workloads "$TW"
jq_ok -s 'map(select(.record == null)) | length == 5 and
	all(.[]; .outcome == "success" and
	.metrics.running_on_valgrind == 0)' "$out" \
	"a timing worker has no valgrind, no preload of the count phase"
run prof-count diagnose test.clean_process --workloads "$TW"
jq_ok 'select(.record == null) | .outcome == "error" and
	.reason == "warmup call 1: validation failed: running on valgrind"' \
	"$out" "while a counted worker runs under valgrind"
finish
