#!/bin/bash
# Deterministic metrics are checked for being deterministic: the quick
# suite's memory phase twice (prof-mem quick, two fresh workers a
# workload each run), and prof-diff's "deterministic", "rule" and
# "spread" of every exact row are what the samples say, computed here
# apart: true where each call index's values agree, false (the spread of
# the index, the ratio rule, never exact) where one's do not, null where
# no call index has two values (one worker: nothing to check). The
# server's workloads allocate on a thread of their own and may go either
# way; the check holds for whatever they did. A new row is checked too.
. "$(dirname "$0")/lib.sh"
plan 11

# jqa [JQ OPTIONS...] FILTER FILE NAME: jq_ok with --arg and --slurpfile.
jqa() {
	local n=$#
	local name=${!n} file=${*:n-1:1} filter=${*:n-2:1}

	jq -e "${@:1:n-3}" "$filter" "$file" >/dev/null 2>"$T/jq.err"
	ok $? "$name"
	[ -s "$T/jq.err" ] && sed 's/^/#   /' "$T/jq.err" >&2
	return 0
}

for i in 1 2; do
	"$BIN/prof-mem" quick -q --output "$T/m$i.jsonl" &&
		"$BIN/prof-merge" --run-id "d$i" -o "$T/r$i.json" "$T/m$i.jsonl"
done
run prof-diff --baseline "$T/r1.json" -o "$T/c.json" "$T/r2.json"
is "$rc" 0 "the second run judged against the first"

# What a side's samples say of each workload x exact metric: det (true,
# false, null) and, where false, the first call index apart and its range.
facts() {
	jq -n -c '[inputs | select(.phase == "memory" and .outcome == "success")]
		| group_by(.workload)[] | . as $w
		| ("host_peak_bytes", "host_allocs", "host_allocated_bytes") as $m
		| [$w[] | select(.memory[$m] | type == "number")]
		| (group_by(.call) | map({call: .[0].call,
			v: (map(.memory[$m]) | unique)})) as $g
		| ([$g[] | select(.v | length > 1)][0]) as $apart
		| {key: "\($w[0].workload) \($m)",
		   value: {det: (if $apart then false
			elif ([.[] | .call] | length) > ($g | length) then true
			else null end),
			spread: (if $apart then {index: $apart.call,
				min: $apart.v[0], max: $apart.v[-1]} else null end)}}' \
		"$1" | jq -s 'from_entries'
}
facts "$T/m2.jsonl" >"$T/cur.json"
facts "$T/m1.jsonl" >"$T/base.json"

jq_ok '[.[] | select(.phase == "memory" and .metric != "rss_peak_bytes")] |
	length >= 24' "$T/c.json" "the exact rows of the quick suite"
jqa --slurpfile cur "$T/cur.json" --slurpfile base "$T/base.json" \
	'[.[] | select(.phase == "memory" and .metric != "rss_peak_bytes") |
	"\(.workload) \(.metric)" as $k |
	select(.deterministic != {current: $cur[0][$k].det,
		baseline: $base[0][$k].det})] == []' "$T/c.json" \
	"every row's deterministic is what its samples say, on both sides"
jq_ok '[.[] | select(.phase == "memory" and .metric != "rss_peak_bytes") |
	select((.rule == "exact") != (.deterministic ==
		{current: true, baseline: true}))] == []' "$T/c.json" \
	"judged exactly exactly where both sides are deterministic"
jqa --slurpfile cur "$T/cur.json" --slurpfile base "$T/base.json" \
	'[.[] | select(.phase == "memory" and .metric != "rss_peak_bytes") |
	"\(.workload) \(.metric)" as $k |
	select(.spread != (if $cur[0][$k].spread or $base[0][$k].spread then
		{current: $cur[0][$k].spread, baseline: $base[0][$k].spread}
		else null end))] == []' "$T/c.json" \
	"a row that is not has the spread of the index apart"
jq_ok '[.[] | select(.phase == "memory" and .rule == "ratio" and
	.metric != "rss_peak_bytes")] | all(.[]; .threshold_pct == null and
	(.reason | startswith("not deterministic: call ")))' "$T/c.json" \
	"and says so first in its reason, with no threshold"
jqa --slurpfile cur "$T/cur.json" '[$cur[0] | to_entries[] |
	select(.key | test("^(pipeline|primitive)\\.")) | .value.det] |
	length == 18 and all(. == true)' "$T/c.json" \
	"(the single-threaded workloads were deterministic this time, as always)"

# One worker's allocations apart: not deterministic, never exact.
w=pipeline.svg_dense_circles
jq -c --arg w "$w" 'if .workload == $w and .index == 1 then
	.memory.host_allocs += 100 else . end' "$T/m2.jsonl" >"$T/n.jsonl"
"$BIN/prof-merge" --run-id n -o "$T/n.json" "$T/n.jsonl"
"$BIN/prof-diff" --baseline "$T/r1.json" -o "$T/cn.json" "$T/n.json" 2>"$err"
a=$(jq -r --arg w "$w" 'select(.workload == $w and .index == 0) |
	.memory.host_allocs' "$T/m2.jsonl")
jqa --arg w "$w" --argjson a "$a" '.[] | select(.workload == $w and
	.metric == "host_allocs") | .rule == "ratio" and
	.deterministic == {current: false, baseline: true} and
	.spread == {current: {index: 0, min: $a, max: ($a + 100)},
		baseline: null} and (.reason | startswith(
	"not deterministic: call 0 of the current side gave \($a) to \($a + 100) allocations, so judged by ratio, not exactly: "))' \
	"$T/cn.json" "one worker 100 allocations apart: its spread, the ratio rule"

# A new row (no baseline for it) is checked too.
jq -c 'if .workload then .workload = "x." + .workload else . end' \
	"$T/n.jsonl" >"$T/x.jsonl"
"$BIN/prof-merge" --run-id x -o "$T/x.json" "$T/x.jsonl"
"$BIN/prof-diff" --baseline "$T/r1.json" -o "$T/cx.json" "$T/x.json" 2>"$err"
jqa --arg w "x.$w" '.[] | select(.workload == $w and
	.metric == "host_allocs") | .status == "new" and .rule == "ratio" and
	.deterministic == {current: false, baseline: null} and
	.spread.current.index == 0' "$T/cx.json" \
	"a new row: not deterministic, said so (not true, as before)"
jqa --arg w "x.$w" '.[] | select(.workload == $w and
	.metric == "host_peak_bytes") | .status == "new" and
	.deterministic == {current: true, baseline: null}' "$T/cx.json" \
	"its deterministic metric: true"

# One worker only: nothing to check, so null, and judged exactly.
jq -c 'select(.index != 1)' "$T/m2.jsonl" >"$T/one.jsonl"
"$BIN/prof-merge" --run-id one -o "$T/one.json" "$T/one.jsonl"
"$BIN/prof-diff" --baseline "$T/r1.json" -o "$T/c1.json" "$T/one.json" \
	2>"$err"
jqa --arg w "$w" '.[] | select(.workload == $w and
	.metric == "host_allocs") | .rule == "exact" and
	.deterministic.current == null and .status == "stable"' "$T/c1.json" \
	"one worker's run: deterministic null, judged exactly"
finish
