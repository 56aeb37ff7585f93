#!/bin/bash
# prof-count --threshold 0 (issue 28, item 3): the threshold a sample
# records is the one its row is judged by; 0 is a threshold, not "unset"
# (it was judged at the default 1%: +0.9% was "within the 1% threshold").
. "$(dirname "$0")/lib.sh"
plan 5

D=test/data/results
# counts IR PCT: baseline.json's w.stable samples as instruction samples of
# IR instructions, recording the threshold PCT
counts() {
	jq --argjson ir "$1" --argjson pct "$2" '.samples |= map(select(
		.workload == "w.stable") | .phase = "instructions" |
		.instructions = $ir | .count_threshold_pct = $pct)' \
		$D/baseline.json
}
counts 100000 0 >"$T/base.json"
counts 100900 0 >"$T/cur.json"
run prof-diff --baseline "$T/base.json" "$T/cur.json"
is "$rc" 0 "prof-diff: a warning does not change the exit code"
jq_ok '.[0].threshold_pct == 0 and .[0].status == "warning" and
	.[0].reason == "instructions 100,000 -> 100,900 (+0.90%), more than the 0% threshold"' \
	"$out" "threshold 0: +0.9% is a warning, judged at the 0% recorded"
counts 100000 0 >"$T/same.json"
run prof-diff --baseline "$T/base.json" "$T/same.json"
jq_ok '.[0].status == "stable" and
	.[0].reason == "instructions 100,000 -> 100,000 (+0.00%), within the 0% threshold"' \
	"$out" "threshold 0: the same count is stable"

# A sample that records no threshold is judged at the default.
jq '.samples |= map(del(.count_threshold_pct))' "$T/cur.json" >"$T/none.json"
run prof-diff --baseline "$T/base.json" "$T/none.json"
jq_ok '.[0].threshold_pct == 1 and .[0].status == "stable"' "$out" \
	"no threshold recorded: the default 1%"

# prof-count --threshold 0 records 0 (the command's samples).
if command -v valgrind >/dev/null; then
	run prof-count --name t0 -q --repeat 1 --threshold 0 -o "$T/t0.jsonl" -- true
	jq_ok 'select(.phase == "instructions") | .count_threshold_pct == 0' \
		"$T/t0.jsonl" "prof-count --threshold 0 records 0"
else
	skip "valgrind is not installed"
fi
finish
