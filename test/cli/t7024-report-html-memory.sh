#!/bin/bash
# prof-report --html: a memory channel beside time (and instructions) in
# each workload's block: per metric the current and baseline medians, the
# change and the status, in bytes or allocations with grouped digits, the
# numbers comparisons.json gives; the reason of each that changed; and the
# disagreement lines of summary.md where time is stable and memory is not.
# Opened in Debian's chromium through playwright-core; screenshots under
# artifacts/test/t7024-report-html-memory/.
. "$(dirname "$0")/lib.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 16

# group N: N with its digits grouped by commas, as prof_page_count().
group() {
	echo "$1" | sed -e :a -e 's/\B[0-9]\{3\}\>/,&/;ta'
}
# The A/B copy pair, interleaved (the same time within noise), with the
# memory phase of each side: the current side holds twice the heap.
A=$TBIN/prof-ab-a
for s in a b; do
	"$BIN/prof-mem" full --category copy --workloads "$TBIN/prof-ab-$s" -q \
		--output "$T/$s.jsonl"
done
"$BIN/prof-time" full --category copy --workloads "$TBIN/prof-ab-b" \
	--against "$A" --repeat 4 -q --output "$T/tb.jsonl" \
	--against-output "$T/ta.jsonl"
# Every call of both sides 50 ms, on a core of its own: the same time,
# so the time row is stable by the rule whatever this machine did (it
# once skipped the check of the disagreement when the machine made it
# otherwise).
for s in a b; do
	jq -c 'if .phase == "timing" and .outcome == "success" then
		.duration_ms = 50 | .cpu_ms = 50 | .involuntary_switches = 0 |
		.contended = false | del(.run_delay_ms) else . end' \
		"$T/t$s.jsonl" >"$T/t$s.fixed" && mv "$T/t$s.fixed" "$T/t$s.jsonl"
done
"$BIN/prof-merge" --run-id ab -o "$T/ab.json" "$T/tb.jsonl" "$T/b.jsonl" &&
	"$BIN/prof-merge" --run-id ab -o "$T/aa.json" "$T/ta.jsonl" "$T/a.jsonl" &&
	"$BIN/prof-diff" --baseline "$T/aa.json" -o "$T/c.json" "$T/ab.json"
run prof-report -q --comparisons "$T/c.json" --baseline "$T/aa.json" \
	--html "$T/report.html" -o "$T/summary.md" "$T/ab.json"
is "$rc" 0 "prof-report writes report.html of a run with memory rows"

shots=$ROOT/artifacts/test/t7024-report-html-memory
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/report-html.mjs --html "$T/report.html" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == [] and
	(.overflow | not) and (.overflow_narrow | not)' "$T/seen.json" \
	"with no error, nothing overflowing at 1280 or 800 pixels"
b='.blocks[0]'
jq_ok "[$b.channels[].kind] == [\"time\", \"memory\"]" "$T/seen.json" \
	"the block has a memory channel beside its time channel"
# mrow METRIC FIELD: comparisons.json's memory row of METRIC.
mrow() {
	jq -r --arg m "$1" ".[] | select(.phase == \"memory\" and .metric == \$m) | $2" "$T/c.json"
}
jq_ok "$b.channels[1].status == \"warning\" and $b.status == \"warning\"" \
	"$T/seen.json" "its status is the heap peak's warning, and so is the block's"
cur=$(mrow host_peak_bytes .current.median)
base=$(mrow host_peak_bytes .baseline.median)
is "$(jq -c "$b.channels[1].metrics[0]" "$T/seen.json")" \
	"{\"metric\":\"host_peak_bytes\",\"cells\":[\"heap peak (bytes)\",\"$(group "$cur")\",\"$(group "$base")\",\"+$(group "$((cur - base))")\",\"warning\"]}" \
	"the heap peak: current and baseline as comparisons.json says them, digits grouped"
is "$(jq -c "$b.channels[1].metrics[1].cells" "$T/seen.json")" \
	"[\"allocations\",\"$(mrow host_allocs .current.median)\",\"$(mrow host_allocs .baseline.median)\",\"+$(mrow host_allocs .delta)\",\"$(mrow host_allocs .status)\"]" \
	"the allocations, in allocations"
is "$(jq -c "$b.channels[1].metrics[2].cells[1:3]" "$T/seen.json")" \
	"[\"$(group "$(mrow host_allocated_bytes .current.median)")\",\"$(group "$(mrow host_allocated_bytes .baseline.median)")\"]" \
	"the bytes allocated"
is "$(jq -c "$b.channels[1].metrics[3] | [.metric, .cells[1], .cells[4]]" "$T/seen.json")" \
	"[\"rss_peak_bytes\",\"$(group "$(mrow rss_peak_bytes .current.median)")\",\"$(mrow rss_peak_bytes .status)\"]" \
	"and the RSS peak"
is "$(jq -r "$b.channels[1].reasons[0]" "$T/seen.json")" \
	"$(mrow host_peak_bytes .reason)" "with the reason of the warning"
jq_ok "$b.channels[0].text | test(\"heap peak\") | not" "$T/seen.json" \
	"the time channel no longer repeats the peaks"
is "$(jq -r '.[] | select(.phase == "timing") | .status' "$T/c.json")" stable \
	"the time row, each call 50 ms a side: stable"
jq_ok "$b.disagrees[0] | test(\"^Time and memory disagree: time stable [-+][0-9.]+%, heap peak \\\\+100% \\\\(warning\\\\): more memory in the same time, which another machine, allocator or a larger input may not forgive\$\")" \
	"$T/seen.json" \
	"time stable and the heap peak warning: the block says they disagree"
is "$(jq -r "$b.disagrees | length" "$T/seen.json")" \
	"$(grep -c '^- `test.ab_copy` (cpu): time ' "$T/summary.md")" \
	"as many disagreement lines as summary.md has"
like "$(cat "$T/report.html")" "<td class=\"num mem\" data-metric=\"host_peak_bytes\">$(group "$cur")</td><td class=\"mem\"><a class=\"gl\" href=\"#g-warning\"><span class=\"badge s-warning\">warning</span></a></td></tr>" \
	"the overview has the heap peak and the memory status"
run prof-report -q -o "$T/u.md" --html "$T/u.html" "$T/ab.json"
like "$(cat "$T/u.html")" "<tr data-metric=\"host_peak_bytes\"><td>heap peak (bytes)</td><td class=\"num\">$(group "$cur")</td><td class=\"num\">-</td><td class=\"num\">-</td><td><a class=\"gl\" href=\"#g-unjudged\"><span class=\"badge s-unjudged\">unjudged</span></a></td></tr>" \
	"a run not compared shows its own medians, unjudged"
