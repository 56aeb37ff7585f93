#!/bin/bash
# prof-time quick: samples, their fields, errors that do not stop the run.
. "$(dirname "$0")/lib.sh"
plan 17

run prof-time quick --workloads "$TW" --seed 7 -o "$T/q.jsonl"
is "$rc" 1 "a crashing workload makes the run exit 1"
is "$(wc -c <"$out")" 0 "with -o, nothing on stdout"
jq_ok -s 'length == 5' "$T/q.jsonl" "3 samples of test.ok, one error each for test.crash and test.invalid"
jq_ok -s 'all(.[]; has("workload") and has("workload_version") and
	has("category") and has("fixture") and has("fixture_checksum") and
	has("warning_floor_ms") and (.env | type == "object") and
	(.segment | type == "string") and has("phase") and has("kind") and
	has("index") and has("duration_ms") and has("metrics") and
	has("checksum") and has("outcome") and has("reason") and
	(.artifacts | type == "array"))' "$T/q.jsonl" \
	"every sample has the schema-1 fields"
jq_ok -s '[.[] | select(.workload == "test.crash")] | length == 1 and
	(.[0].outcome == "error") and
	(.[0].reason == "worker killed by signal 11 (SIGSEGV: Segmentation fault)")' \
	"$T/q.jsonl" "the crash is an error sample that names the signal"
jq_ok -s '[.[] | select(.workload == "test.invalid")][0].reason ==
	"warmup call 1: validation failed: expected 42 paths, got 41"' \
	"$T/q.jsonl" "a failed validation is an error sample with its reason"
jq_ok -s '[.[] | select(.workload == "test.ok")] |
	(map(.index) == [0, 1, 2]) and all(.[]; .outcome == "success" and
	.duration_ms > 0 and .metrics.items == 100000 and .phase == "timing" and
	.kind == "warm")' "$T/q.jsonl" "the other workloads are still measured"
jq_ok -s '[.[] | select(.workload == "test.ok") | .checksum] | unique |
	length == 1 and (.[0] | test("^[0-9a-f]{64}$"))' "$T/q.jsonl" \
	"every call of test.ok gives the same output checksum"
jq_ok -s 'all(.[]; .order_seed == 7)' "$T/q.jsonl" "the order seed is recorded"
jq_ok -s '[.[] | select(.workload == "test.ok")][0] |
	(.segment | fromjson | .backend == "cpu" and .problem_size == "100000")
	and (.segment | fromjson | has("kernel") | not)
	and .env.kernel != null and .env.backend_requested == "cpu"' \
	"$T/q.jsonl" "the segment keys backend and size, not the kernel"
like "$(cat "$err")" "prof-time: [" "progress goes to stderr"
like "$(grep test.ok "$err")" "test.ok cpu: median" "progress shows the median"

run prof-time quick --workloads "$TW" --seed 7 -q
is "$(wc -c <"$err")" 0 "-q: no progress"
is "$(jq -r '.workload // empty' "$out" | uniq | tr '\n' ' ')" \
	"$(jq -r '.workload // empty' "$T/q.jsonl" | uniq | tr '\n' ' ')" \
	"the same seed gives the same order"

run prof-time quick --workloads "$TW" --category test --exclude-category test
is "$rc" 2 "nothing selected is exit 2"
like "$(errline)" "no workload matches mode 'quick'" "and says why"

seen=
for s in 1 2 3 4 5 6 7 8; do
	"$BIN/prof-time" quick -q --workloads "$TW" --seed $s --repeat 1 |
		jq -r '.workload // empty' | head -n 1 >>"$T/firsts"
done
is "$(sort -u "$T/firsts" | wc -l | tr -d ' ')" 3 "different seeds shuffle the order"
finish
