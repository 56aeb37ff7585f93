#!/bin/bash
# prof-count --functions keeps each workload's callgrind output, functions
# only; prof-why --comparisons explains a changed row from the two sides'
# files: test.ab does 30% more work in prof-ab-b than in prof-ab-a.
. "$(dirname "$0")/lib.sh"
plan 14

R=$T/run
mkdir -p "$R"
run prof-count diagnose test.ab --workloads "$TBIN/prof-ab-a" --repeat 1 \
	-q --functions "$R/functions/reference" -o "$R/base.jsonl"
is "$rc" 0 "the reference side counted"
run prof-count diagnose test.ab --workloads "$TBIN/prof-ab-b" --repeat 1 \
	-q --functions "$R/functions" -o "$R/counts.jsonl"
is "$rc" 0 "the current side counted"
jq_ok -s '[.[] | select(.index == 0)][0].artifacts ==
	["functions/test.ab.cpu.callgrind"]' "$R/counts.jsonl" \
	"the first sample names its file, relative to the run folder"
is "$(head -n 3 "$R/functions/test.ab.cpu.callgrind" | tail -n 1)" \
	"creator: prof (functions only)" "a callgrind file, functions only"
ok "$(grep -c '^[0-9]' "$R/functions/test.ab.cpu.callgrind" |
	awk '{ print ($1 < 200) ? 0 : 1 }')" "kilobytes, not the whole dump"

"$BIN/prof-merge" -o "$R/results.json" "$R/counts.jsonl" &&
	"$BIN/prof-merge" -o "$R/baseline.json" "$R/base.jsonl" &&
	"$BIN/prof-diff" --baseline "$R/baseline.json" \
		-o "$R/comparisons.json" "$R/results.json"
jq_ok '.[0].status == "warning" and .[0].phase == "instructions"' \
	"$R/comparisons.json" "the count row is a warning"
cp "$R/comparisons.json" "$T/before.json"

run prof-why --comparisons "$R/comparisons.json" --top 2
is "$rc" 0 "prof-why --comparisons: exit 0"
is "$(cat "$out")$(cat "$err")" "" "and it prints nothing"
jq_ok '.[0].functions | length == 2 and .[0].name == "ab_run" and
	(.[0].file | endswith("test/workloads/ab.c")) and
	.[0].state == "changed" and .[0].share > 0.99 and
	(.[0].self_after - .[0].self_before | . >= 48000000 and . < 48000100)' \
	"$R/comparisons.json" "the row names ab_run first, with its numbers"
# 30% more of the loop, and a few instructions that keep the two sides'
# outputs equal.
jq_ok '.[0].functions_artifacts | .before ==
	"functions/reference/test.ab.cpu.callgrind" and
	.after == "functions/test.ab.cpu.callgrind" and
	(.total_before | . >= 160000000 and . < 160001000) and
	(.total_after - .total_before | . >= 48000000 and . < 48000100)' \
	"$R/comparisons.json" "and where the two files are"
ok "$(jq -e --slurpfile b "$T/before.json" \
	'map(del(.functions, .functions_artifacts)) == $b[0]' \
	"$R/comparisons.json" >/dev/null; echo $?)" \
	"nothing else of the row changed"

# A stable row is left alone: the same side on both sides.
"$BIN/prof-diff" --baseline "$R/results.json" -o "$T/same.json" \
	"$R/results.json"
cp "$T/same.json" "$T/same0.json"
run prof-why --comparisons "$T/same.json" --results "$R/results.json" \
	--baseline "$R/results.json"
is "$rc" 0 "no changed row: exit 0"
ok "$(cmp -s "$T/same.json" "$T/same0.json"; echo $?)" \
	"and the comparisons are as they were"

run prof-why --comparisons "$R/comparisons.json" --svg x.svg
is "$(errline)" \
	"prof-why: --comparisons writes JSON rows; --svg and --json are for two files" \
	"--svg is for two files"
finish
