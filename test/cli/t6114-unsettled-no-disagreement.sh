#!/bin/bash
# Words follow the verdicts: a row whose time and instructions disagree
# gets its disagreement line in summary.md and report.html ("more work in
# about the same time") only when both channels settled. Beside a count
# warning, a stable time row has the line; an unsettled one (calls that
# waited for a core, slower on wall time only: t6113's baseline row) has
# none, whether prof-diff judged it so or the comparisons file was edited
# by hand to say so; nor does summary.md say of it that time and
# instructions agree: it names the row and both statuses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 13

# counted FILE RUN COUNT QUEUED MS...: test.step timed (MS...) and counted
# (COUNT) in a segment of its own; QUEUED 1: every call contended, 2
# involuntary switches and 10 ms of CPU time, its run-queue delay unknown.
counted() {
	local file=$1 run=$2 count=$3 q=$4
	shift 4
	mkrun "$file.t" "$run" "c-$run" 2026-02-01T00:00:00Z "$@"
	jq --argjson count "$count" --argjson q "$q" '
	.samples |= map(.threads = 1 |
		.cpu_ms = (if $q == 1 then 10 else .duration_ms end) |
		.involuntary_switches = (if $q == 1 then 2 else 0 end) |
		.contended = ($q == 1)) |
	(.samples[0] | .env.valgrind = "valgrind-3.19.0" |
	 .segment = (.segment | fromjson | .valgrind = "valgrind-3.19.0" |
	 tojson) | .phase = "instructions" | .index = 0 |
	 .count_threshold_pct = 1 | .duration_ms = 900 |
	 del(.cpu_ms, .threads, .involuntary_switches, .contended)) as $c |
	.samples += [($c | .instructions = $count)]' "$file.t" >"$file"
}
counted "$T/base.json" base 1000000 0 10 10.1 10.2 10.1 10
counted "$T/slow.json" slow 1470000 1 13.6 13.7 13.8 13.7 13.6
counted "$T/same.json" same 1470000 0 10.1 10.2 10.3 10.2 10.1

# report NAME CMP RESULTS: summary.md and report.html of a run; prints
# the disagreement lines of both (summary.md's, then the page's).
report() {
	"$BIN/prof-report" --comparisons "$2" --baseline "$T/base.json" \
		-o "$T/$1.md" --html "$T/$1.html" -q "$3" >"$out" 2>"$err" ||
		echo "prof-report: exit $?"
	grep -A2 'disagree' "$T/$1.md"
	grep -o 'class="disagree">[^<]*' "$T/$1.html"
}

run prof-diff --baseline "$T/base.json" -o "$T/slow.cmp" "$T/slow.json"
jq_ok '(map([.phase, .status]) | sort ==
	[["instructions", "warning"], ["timing", "unsettled"]]) and
	(.[] | select(.phase == "timing") | .ratio > 1.3)' "$T/slow.cmp" \
	"time +36% unsettled (wall time only), instructions +47% a warning"
is "$(report slow "$T/slow.cmp" "$T/slow.json")" "" \
	"unsettled time: no disagreement line in summary.md or report.html"
like "$(cat "$T/slow.md")" '| unsettled | 1,470,000 | +47.00% | warning |' \
	"(summary.md has both statuses in the row)"
like "$(cat "$T/slow.html")" '<span class="badge s-unsettled">unsettled</span>' \
	"(report.html has the unsettled badge)"
not_compared="Time and instructions are not compared where one of them did not settle:

- \`test.step\` (cpu): time **unsettled**, instructions **warning**"
is "$(grep -A2 'not compared' "$T/slow.md")" "$not_compared" \
	"unsettled time: summary.md names the row it does not compare"
is "$(grep -c 'agree on every row' "$T/slow.md")" 0 \
	"(and does not say time and instructions agree)"

run prof-diff --baseline "$T/base.json" -o "$T/same.cmp" "$T/same.json"
jq_ok 'map([.phase, .status]) | sort ==
	[["instructions", "warning"], ["timing", "stable"]]' "$T/same.cmp" \
	"time +1% stable, instructions +47% a warning"
meaning="more work in about the same time: more instructions per cycle, or a cost under the time's noise or floor that may show on another machine; trust time for speed, counts for the amount of work"
is "$(report same "$T/same.cmp" "$T/same.json")" "Time and instructions disagree:

- \`test.step\` (cpu): time +1.0% (**stable**), instructions +47% (**warning**): $meaning
class=\"disagree\">Time and instructions disagree: time +1.0% (stable), instructions +47% (warning): $(printf '%s' "$meaning" | sed "s/'/\&#39;/")" \
	"stable time: the line in summary.md and report.html"
is "$(grep -c 'class="disagree"' "$T/same.html")" 1 "(the page's once)"

# The same comparisons, the time row made unsettled by hand.
jq 'map(if .phase == "timing" then .status = "unsettled" |
	.reason = "not settled: by hand" else . end)' "$T/same.cmp" \
	>"$T/hand.cmp"
is "$(report hand "$T/hand.cmp" "$T/same.json")" "" \
	"a hand-made unsettled time row: no disagreement line either"
like "$(cat "$T/hand.md")" '**unsettled**: not settled: by hand' \
	"(summary.md read the hand-made status)"
is "$(grep -c 'class="disagree"' "$T/hand.html")" 0 "(nor the page)"
is "$(grep -A2 'not compared' "$T/hand.md")" "$not_compared" \
	"(summary.md names the hand-made unsettled row too)"
finish
