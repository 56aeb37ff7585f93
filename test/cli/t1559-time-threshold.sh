#!/bin/bash
# The time threshold is a setting: a workload's descriptor
# (time_threshold_pct), prof-time --time-threshold (recorded in each
# timing sample, so that prof-diff judges by it unasked), prof-diff
# --time-threshold (over them), TIME_THRESHOLD= on the make targets that
# judge, and a Google Benchmark row's samples too; comparisons.json gives
# each time row its threshold_pct. Bad values are one line and exit 2.
# The verdicts are of hand-made samples (no wall-time thresholds); the
# fields are of real runs.
. "$(dirname "$0")/lib.sh"
plan 30

TAB=$TBIN/prof-ab-a

# The descriptor's own: test.ok_slow says 7.5 (test/workloads/basic.c).
is "$("$TW" --list | jq -r 'select(.id == "test.ok_slow") |
	.time_threshold_pct')" 7.5 "a descriptor says its time threshold"
run prof-time diagnose test.ok_slow --workloads "$TW" --repeat 2 -q \
	-o "$T/d.jsonl"
is "$rc" 0 "a workload with its own threshold runs"
jq_ok -s 'map(select(.phase == "timing")) | length == 2 and
	all(.[]; .time_threshold_pct == 7.5)' "$T/d.jsonl" \
	"each timing sample records the descriptor's 7.5"
run prof-time diagnose test.ok_slow --workloads "$TW" --repeat 2 -q \
	--time-threshold 3 -o "$T/d3.jsonl"
jq_ok -s 'map(select(.phase == "timing")) | all(.[]; .time_threshold_pct == 3)' \
	"$T/d3.jsonl" "--time-threshold over the descriptor's"
run prof-time diagnose test.ok --workloads "$TW" --repeat 2 -q -o "$T/n.jsonl"
jq_ok -s 'all(.[]; has("time_threshold_pct") | not)' "$T/n.jsonl" \
	"no threshold given or declared: none recorded (prof-diff's default)"

# A command's, and an A/B's: the A/B records what its looks settled by.
run prof-time --name c --repeat 2 --time-threshold 5 -q -o "$T/c.jsonl" -- true
jq_ok -s 'map(select(.phase == "timing")) | length == 2 and
	all(.[]; .time_threshold_pct == 5)' "$T/c.jsonl" \
	"a command's timing samples record --time-threshold"
run prof-time quick --workloads "$TBIN/prof-ab-b" --against "$TAB" \
	--category test --repeat 3 --max-repeat 3 -q --time-threshold 5 \
	-o "$T/b.jsonl" --against-output "$T/a.jsonl"
jq_ok -s 'map(select(.phase == "timing")) | length > 0 and
	all(.[]; .time_threshold_pct == 5)' "$T/b.jsonl" \
	"an A/B's current side records it"
jq_ok -s 'map(select(.phase == "timing")) | length > 0 and
	all(.[]; .time_threshold_pct == 5)' "$T/a.jsonl" "and its reference side"
run prof-time quick --workloads "$TBIN/prof-ab-b" --against "$TAB" \
	--category test --repeat 3 --max-repeat 3 -q \
	-o "$T/b2.jsonl" --against-output "$T/a2.jsonl"
jq_ok -s 'map(select(.phase == "timing")) |
	all(.[]; .time_threshold_pct == 5)' "$T/b2.jsonl" \
	"an A/B without one records the interleaved default it settled by, 5"

# Bad values: one line, exit 2.
for v in 0 -1 1001 abc nan; do
	run prof-time --name c --repeat 1 --time-threshold "$v" -- true
	case $v in
	-1 | abc | nan) want="2:prof-time: --time-threshold: '$v' is not a number >= 0" ;;
	*) want="2:prof-time: --time-threshold: '$v' is not a percentage above 0 and at most 1000" ;;
	esac
	is "$rc:$(errline)" "$want" "prof-time --time-threshold $v: exit 2"
done
run prof-mem --name c --time-threshold 5 -- true
is "$rc:$(errline)" "2:prof-mem: --time-threshold: only for prof-time" \
	"prof-mem has no time rows"

# The rule on hand-made samples: the command's 2 samples, 8 calls a
# side, the current ones 10% slower; the samples record 5.
mkside() {
	jq -c -s --argjson ms "$2" --argjson pct "$3" '
	(map(select(.phase == "timing"))[0]) as $t |
	(.[] | select(.record)), (range(0; 8) as $i | $t | .index = $i |
		.duration_ms = ($ms * (1 + 0.001 * $i) * 1e6 | round / 1e6) |
		.warning_floor_ms = 0.5 | del(.cpu_ms, .contended,
		.involuntary_switches, .threads, .run_delay_ms, .run_delay) |
		if $pct > 0 then .time_threshold_pct = $pct
		else del(.time_threshold_pct) end)' "$T/c.jsonl" >"$1"
}
mkside "$T/base.jsonl" 30 0
mkside "$T/cur.jsonl" 33 5
"$BIN/prof-merge" --run-id cur -o "$T/cur.json" "$T/cur.jsonl"
"$BIN/prof-merge" --run-id base -o "$T/base.json" "$T/base.jsonl"
run prof-diff --baseline "$T/base.json" -o "$T/cmp.json" "$T/cur.json"
jq_ok '.[0] | .status == "warning" and .threshold_pct == 5 and
	(.reason | contains("more than the 5% threshold"))' "$T/cmp.json" \
	"10% slower, the samples record 5%: a warning, unasked"
run prof-diff --baseline "$T/base.json" --time-threshold 20 -o "$T/cmp.json" \
	"$T/cur.json"
jq_ok '.[0] | .status == "stable" and .threshold_pct == 20 and
	(.reason | contains("within the 20% threshold"))' "$T/cmp.json" \
	"prof-diff --time-threshold 20 over the samples' 5: stable"
mkside "$T/cur.jsonl" 33 0
"$BIN/prof-merge" --run-id cur -o "$T/cur.json" "$T/cur.jsonl"
run prof-diff --baseline "$T/base.json" -o "$T/cmp.json" "$T/cur.json"
jq_ok '.[0] | .status == "stable" and .threshold_pct == 20' "$T/cmp.json" \
	"none recorded, against a baseline: 20%"
run prof-diff --baseline "$T/base.json" --time-threshold 0 "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: --time-threshold: '0' is not a percentage above 0 and at most 1000" \
	"prof-diff --time-threshold 0: exit 2"
jq '.samples[0].time_threshold_pct = 0' "$T/cur.json" >"$T/bad.json"
run prof-diff --baseline "$T/base.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .samples[0].time_threshold_pct: expected a percentage above 0 and at most 1000" \
	"a sample's threshold of 0 is refused with its path"

# A Google Benchmark row: its samples record the run's threshold, and
# the rule takes it.
if command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ]; then
	g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz
	PROF_GBENCH_FLAGS=--benchmark_min_time=0.01 \
		run prof-time quick --workloads "$T/bm" --repeat 2 -q \
		--time-threshold 4 -o "$T/g.jsonl"
	jq_ok -s 'map(select(.phase == "timing" and .outcome == "success")) |
		length >= 2 and all(.[]; .time_threshold_pct == 4)' "$T/g.jsonl" \
		"a Google Benchmark row's samples record --time-threshold"
	# Their times made by hand, 0.1 ms an iteration and 6% more on the
	# current side (the reference without a threshold of its own).
	gside() {
		jq -c --argjson f "$2" 'if .phase == "timing" and .duration_ms
			then .duration_ms = (0.1 * $f * (1 + 0.001 * .index) *
				1e9 | round / 1e9) |
			del(.cpu_ms, .contended, .involuntary_switches,
				.threads, .run_delay_ms, .run_delay) |
			if $f == 1 then del(.time_threshold_pct) else . end
			else . end' "$T/g.jsonl" >"$1"
	}
	gside "$T/gb.jsonl" 1
	gside "$T/gc.jsonl" 1.06
	"$BIN/prof-merge" --run-id g -o "$T/gc.json" "$T/gc.jsonl"
	"$BIN/prof-merge" --run-id gb -o "$T/gb.json" "$T/gb.jsonl"
	"$BIN/prof-diff" --baseline "$T/gb.json" -o "$T/gcmp.json" "$T/gc.json"
	jq_ok 'map(select(.phase == "timing" and
		(.workload | startswith("BM_crc32")))) | length == 2 and
		all(.[]; .threshold_pct == 4 and .status == "warning")' \
		"$T/gcmp.json" "6% slower at the 4% it records: warnings"
else
	skip "g++ or Google Benchmark is not installed"
	skip "g++ or Google Benchmark is not installed"
fi

# TIME_THRESHOLD= on the make targets: recorded and judged by; a bad
# value is one line and exit 2 before anything runs.
mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
mk profile-quick WORKLOADS="$TAB" CATEGORY=test REPEAT=2 OUTPUT="$T/q" \
	BASELINE="$T/none.json" HISTORY= TIME_THRESHOLD=6
is "$rc" 0 "make profile-quick TIME_THRESHOLD=6"
jq_ok '[.samples[] | select(.phase == "timing")] | length > 0 and
	all(.[]; .time_threshold_pct == 6)' "$T/q/results.json" \
	"its samples record 6"
jq_ok 'map(select(.phase == "timing")) | length > 0 and
	all(.[]; .threshold_pct == 6)' "$T/q/comparisons.json" \
	"and its comparisons judge by it"
jq_ok '.command | contains("TIME_THRESHOLD=6")' "$T/q/results.json" \
	"results.json's command names it"
for t in profile-quick compare bisect; do
	case $t in
	compare) extra="AGAINST=$TAB" ;;
	bisect) extra="GOOD=HEAD BAD=HEAD W=test.ab CHANNEL=time" ;;
	*) extra= ;;
	esac
	# shellcheck disable=SC2086 # extra is a list of words
	mk $t $extra WORKLOADS="$TAB" OUTPUT="$T/bad-$t" HISTORY= \
		TIME_THRESHOLD=1e3x
	is "$rc:$(head -n 1 "$err")" \
		"2:make $t: TIME_THRESHOLD: '1e3x' is not a percentage above 0 and at most 1000" \
		"make $t TIME_THRESHOLD=1e3x: one line, exit 2"
done
ok "$([ ! -e "$T/bad-profile-quick" ] && [ ! -e "$T/bad-compare" ] &&
	! grep -q '^prof-' "$err"; echo $?)" "nothing was run"
finish
