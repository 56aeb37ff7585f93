#!/bin/bash
# The counted calls of one workload may count differently (issue 30):
# pipeline.svg_dense_circles' calls differ by where glibc's strcmp() finds
# libxml2's names (see workloads/suite/pipeline.c), while each call index
# repeats in every run. So counts compare call index by call index: a run
# of three calls against a baseline of two compares the two calls both
# have, not a median of three against a median of two.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 5

W=pipeline.svg_dense_circles
calls() {
	jq -s -c 'map(select(.outcome == "success" and .phase == "instructions")) |
		sort_by(.index) | map([.index, .instructions])' "$1"
}
run prof-count diagnose "$W" --repeat 3 -o "$T/a.jsonl"
is "$rc" 0 "prof-count diagnose counts three calls"
run prof-count diagnose "$W" --repeat 3 -o "$T/b.jsonl"
is "$(calls "$T/b.jsonl")" "$(calls "$T/a.jsonl")" \
	"each call index repeats its count in another run"
jq_ok -s 'map(select(.phase == "instructions")) | length == 3' \
	"$T/a.jsonl" "three calls counted"

# Hand-made counts of one build whose calls alternate (what the workload
# does with glibc's SSE4.2 strcmp): A B in a quick baseline, A B A in a
# diagnose run. Call by call nothing changed.
D=test/data/results
counts() {
	jq --argjson ir "$1" '.samples |= map(select(.workload == "w.stable" and
		.index < ($ir | length)) | .phase = "instructions" |
		.instructions = $ir[.index] | .count_threshold_pct = 1)' \
		$D/baseline.json
}
counts '[59377738, 58116588]' >"$T/base.json"
counts '[59377738, 58116588]' >"$T/two.json"
counts '[59377738, 58116588, 59378967]' >"$T/three.json"
run prof-diff --baseline "$T/base.json" "$T/two.json"
jq_ok '.[0].status == "stable"' "$out" \
	"the same calls against the same calls: stable"
run prof-diff --baseline "$T/base.json" "$T/three.json"
# Compared call index by call index (calls 0 and 1 on both sides), not
# by the lower medians of 2 and 3 calls (src/lib/verdict/rule.c, judge_count).
jq_ok '.[0].status == "stable" and .[0].delta_instructions == 0 and
	(.[0].reason | endswith("; compared on the call indexes both sides have (2 of 3 calls, 2 of 2 in the baseline)"))' \
	"$out" "three calls against two: compared call by call, stable, and says so"
finish
