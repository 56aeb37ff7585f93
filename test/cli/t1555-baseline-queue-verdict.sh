#!/bin/bash
# A baseline row whose calls waited in the machine's queue keeps a warning
# only where its CPU times say the same (src/lib/verdict/rule.c, judge_queue()): real
# samples of a single-threaded workload and of a server round trip (two
# threads), their wall times made 5 times slower as a busy machine makes
# them (contended, with involuntary switches), the CPU times as they were;
# then with the CPU times slower too; then as sleeps (no involuntary
# switch), which are the code's; then the other way round, the baseline's
# calls queued and the current ones not. No wall-time threshold: the
# times are rewritten, not measured; their run-queue delay is unknown (as
# on a kernel without schedstat), so today's rule marks them: this is the
# rule where delays are unknown; with them the rule judges the code's own
# time (lib-verdict-own.c).
. "$(dirname "$0")/lib.sh"
plan 9

run prof-time quick --workloads "$BIN/prof-workloads" --category primitive \
	--category server --repeat 4 --warmup 1 --seed 5 -q -o "$T/run.jsonl"
jq_ok -s '[.[] | .threads] | contains([1, 2])' "$T/run.jsonl" \
	"a quick run of one-thread and two-thread workloads"
# The baseline as a calm machine takes it: no call queued, each call's
# CPU time its wall time.
jq -c 'if .phase == "timing" then .involuntary_switches = 0 |
	.cpu_ms = .duration_ms | del(.run_delay_ms) |
	.run_delay = "unavailable" | .contended = false else . end' \
	"$T/run.jsonl" >"$T/base.jsonl"
"$BIN/prof-merge" --run-id base -o "$T/base.json" "$T/base.jsonl"

# slow WALL CPU SWITCHES: the baseline's samples, wall time and CPU time
# multiplied, contended, with SWITCHES involuntary switches.
slow() {
	jq -c --argjson w "$1" --argjson c "$2" --argjson i "$3" \
		'if .phase == "timing" and .kind == "warm" then
		.duration_ms = (.duration_ms * $w * 1e6 | round / 1e6) |
		.cpu_ms = (.cpu_ms * $c * 1e6 | round / 1e6) |
		.involuntary_switches = $i | .contended = true else . end' \
		"$T/base.jsonl" >"$T/cur.jsonl" &&
		"$BIN/prof-merge" --run-id cur -o "$T/cur.json" "$T/cur.jsonl" &&
		"$BIN/prof-diff" --baseline "$T/base.json" -o "$T/c.json" \
			"$T/cur.json"
}
# Every row's status is S.
all_are() {
	jq_ok "length == 3 and all(.[]; .status == \"$1\")" "$T/c.json" "$2"
}

slow 5 1 3
is "$?" 0 "queued calls, wall time 5x, CPU time the same: compared"
all_are unsettled "each row unsettled, not a warning (nor stable)"
jq_ok 'all(.[]; .reason | startswith("not settled: median ") and
	test(", but the CPU time.s median [0-9.]+ ms against [0-9.]+ ms \\(\\+0\\.0%, \\+0\\.000 ms\\) does not say so: calls waited for a core"))' \
	"$T/c.json" "each reason says not settled, with the CPU medians"

slow 5 3 3
all_are warning "queued calls with CPU time 3x too: warnings"
jq_ok 'all(.[]; .reason | startswith("median ") and
	(contains("CPU time") | not))' "$T/c.json" \
	"their reasons are the seed rule's"

slow 5 1 0
all_are warning \
	"calls that slept (no involuntary switch), wall time 5x: warnings"

slow 5 1 3
"$BIN/prof-diff" --baseline "$T/cur.json" -o "$T/c.json" "$T/base.json"
all_are unsettled \
	"the baseline's calls queued, 5x slower on wall time: unsettled, not improved"
jq_ok 'all(.[]; .reason | startswith("not settled: median ") and
	endswith("calls waited for a core"))' "$T/c.json" \
	"and not settled"
