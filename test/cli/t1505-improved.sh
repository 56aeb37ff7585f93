#!/bin/bash
# improved, the mirror of warning, end to end: the A/B pair's test.ilp
# computes the same answer in four independent lanes on the B side (about
# 40% more instructions in a fraction of the time). Interleaved, B against
# A is improved by time; counted, it is a warning by instructions; the
# summary says both facts and what they mean, and never that more
# instructions is more time. Neither status changes an exit code.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 13


A=$TBIN/prof-ab-a
B=$TBIN/prof-ab-b

run prof-time full --category ilp --workloads "$B" --against "$A" --seed 5 \
	--repeat 8 --output "$T/cur.jsonl" \
	--against-output "$T/ref.jsonl"
is "$rc" 0 "the A/B run is exit 0"
run prof-count full --category ilp --workloads "$B" -o "$T/cur.count.jsonl"
is "$rc" 0 "the current side is counted"
run prof-count full --category ilp --workloads "$A" -o "$T/ref.count.jsonl"
is "$rc" 0 "and the reference side"
"$BIN/prof-merge" --run-id ilp -o "$T/cur.json" "$T/cur.jsonl" \
	"$T/cur.count.jsonl" &&
	"$BIN/prof-merge" --run-id ilp -o "$T/ref.json" "$T/ref.jsonl" \
		"$T/ref.count.jsonl"
run prof-diff --baseline "$T/ref.json" -o "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "prof-diff is exit 0 with improved and warning rows"
jq_ok '[.[] | select(.phase == "timing")] | length == 1 and
	.[0].workload == "test.ilp" and .[0].status == "improved" and
	.[0].ratio < 0.5 and .[0].below_baseline_median >= .[0].needed_above' \
	"$T/cmp.json" "time: improved, in less than half the time"
jq_ok '[.[] | select(.phase == "instructions")][0] |
	.status == "warning" and .ratio > 1.3 and .ratio < 1.5' "$T/cmp.json" \
	"instructions: a warning, about 40% more"
like "$(jq -r '.[] | select(.phase == "timing") | .reason' "$T/cmp.json")" \
	"samples below the baseline median" "the reason says why it improved"

run prof-report --comparisons "$T/cmp.json" -o "$T/summary.md" "$T/cur.json"
is "$rc" 0 "prof-report is exit 0"
line=$(grep '^- `test.ilp` (cpu): time' "$T/summary.md")
like "$line" "time **improved** " "the summary says time improved"
like "$line" "% (**warning**): more instructions per cycle (for example fewer dependencies between them); trust time for speed, counts for the amount of work" \
	"and what more instructions in less time means"
ok "$(grep -c 'clock did not show' "$T/summary.md")" \
	"never more work that the clock did not show"
like "$(cat "$out")" "improved" "the compact table says improved"
GITHUB_ACTIONS=true run prof-report --comparisons "$T/cmp.json" \
	-o "$T/s2.md" "$T/cur.json"
is "$(grep -c '^::warning title=Performance regression::' "$out")" 0 \
	"no performance annotation for an improvement"
