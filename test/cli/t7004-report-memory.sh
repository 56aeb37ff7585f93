#!/bin/bash
# prof-report: memory rows in summary.md's Memory table and in the compact
# table, in bytes or allocations with grouped digits, with the reason of
# each row that is not stable; a run without memory rows has neither.
. "$(dirname "$0")/lib.sh"
plan 9

A=$TBIN/prof-ab-a
for s in a b; do
	"$BIN/prof-mem" full --category copy --workloads "$TBIN/prof-ab-$s" -q \
		--output "$T/$s.jsonl" &&
		"$BIN/prof-merge" --run-id mem -o "$T/$s.json" "$T/$s.jsonl"
done
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/c.json" "$T/b.json"
peak_a=$(jq -r '.samples[0].memory.host_peak_bytes' "$T/a.json")
peak_b=$(jq -r '.samples[0].memory.host_peak_bytes' "$T/b.json")
# group N: N with its digits grouped by commas, as prof_fmt_count().
group() {
	echo "$1" | sed -e :a -e 's/\B[0-9]\{3\}\>/,&/;ta'
}
ga=$(group "$peak_a")
gb=$(group "$peak_b")
gd=$(group "$((peak_b - peak_a))")

run prof-report --comparisons "$T/c.json" -o "$T/s.md" "$T/b.json"
is "$rc" 0 "prof-report of memory rows"
like "$(cat "$T/s.md")" "## Memory" "summary.md has a Memory section"
like "$(cat "$T/s.md")" "| \`test.ab_copy\` | cpu | heap peak (bytes) | $gb | $ga | +$gd | exact | warning |" \
	"the heap peak row, digits grouped"
like "$(cat "$T/s.md")" "| \`test.ab_copy\` | cpu | allocations | 2 | 1 | +1 | exact | stable |" \
	"the allocations row"
like "$(cat "$T/s.md")" "- \`test.ab_copy\` (cpu, memory host_peak_bytes): **warning**: heap peak $ga -> $gb bytes (+100.00%, +$gd), more than the 1% threshold and the floor of 4,096 bytes" \
	"with the warning's reason"
"$BIN/prof-time" full --category copy --workloads "$TBIN/prof-ab-b" \
	--against "$A" --repeat 10 --max-repeat 10 -q --output "$T/tb.jsonl" \
	--against-output "$T/ta.jsonl"
# The time of the same work, made the same on both sides, so that the
# time row settles stable on any machine: what the disagreement line
# needs. The reference side's calls are the current side's too, each
# taking the same 10 ms with a core all along; ten rounds without
# adaptive sampling, as on a quiet machine the real calls could settle
# in fewer rounds than identical ones need to (a rank interval of three
# samples a side is unbounded).
jq -c 'if .ab then .duration_ms = 10 | .cpu_ms = 10 |
	.run_delay_ms = 0 | .contended = false | .involuntary_switches = 0
	else . end' "$T/ta.jsonl" >"$T/ta.m" && mv "$T/ta.m" "$T/ta.jsonl"
jq -c 'if .ab then .ab.side = "current" else . end' "$T/ta.jsonl" \
	>"$T/tb.jsonl"
"$BIN/prof-merge" --run-id ab -o "$T/ab.json" "$T/tb.jsonl" "$T/b.jsonl" &&
	"$BIN/prof-merge" --run-id ab -o "$T/aa.json" "$T/ta.jsonl" "$T/a.jsonl" &&
	"$BIN/prof-diff" --baseline "$T/aa.json" -o "$T/abc.json" "$T/ab.json"
"$BIN/prof-report" -q --comparisons "$T/abc.json" -o "$T/ab.md" "$T/ab.json"
like "$(cat "$T/ab.md")" "- \`test.ab_copy\` (cpu): time **stable** " \
	"time stable and the heap peak warning: they disagree, said so"
like "$(cat "$T/ab.md")" ", heap peak +100% (**warning**): more memory in the same time, which another machine, allocator or a larger input may not forgive" \
	"with what it can mean"
like "$(cat "$out")" "test.ab_copy                         cpu      heap peak (bytes)" \
	"the compact table has the memory lines"

"$BIN/prof-time" full --category copy --workloads "$A" --repeat 1 -q \
	--output "$T/t.jsonl" && "$BIN/prof-merge" --run-id t -o "$T/t.json" \
	"$T/t.jsonl"
run prof-report -o "$T/t.md" "$T/t.json"
is "$(grep -c '## Memory' "$T/t.md")" 0 "a run without memory rows has no Memory section"
