#!/bin/bash
# make profile-full MEMORY=1 with a history: the run's memory rows reach
# the history (each metric with its verdict), report.html's memory channel
# and make dashboard's memory charts, each the number comparisons.json
# gives, and the buffer's known size (test.ab_copy: a 1 MiB buffer).
. "$(dirname "$0")/lib.sh"
plan 7

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" HISTORY="$T/h.sqlite" "$@" >"$out" 2>"$err"
	rc=$?
}
group() {
	echo "$1" | sed -e :a -e 's/\B[0-9]\{3\}\>/,&/;ta'
}
A=$TBIN/prof-ab-a

mk profile-full MEMORY=1 WORKLOADS="$A" CATEGORY=copy REPEAT=2 STORIES=0 OUTPUT="$T/q1" \
	BASELINE="$T/none.json"
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/q1/results.json" NAME=mem DIR="$T/bl" FORCE=1
mk profile-full MEMORY=1 WORKLOADS="$A" CATEGORY=copy REPEAT=2 STORIES=0 OUTPUT="$T/q2" \
	BASELINE="$T/bl/mem.json"
is "$rc" 0 "two runs of make profile-full MEMORY=1 into a history"
c=$T/q2/comparisons.json
# The known numbers, not only pages that agree: test.ab_copy's run()
# allocates one 1 MiB buffer, which the allocator rounds up by less than
# a page (glibc maps it: 1,052,656 bytes); twice every memory value fails.
MIB='(. >= 1048576 and . < 1048576 + 4096)'
jq_ok "[.[] | select(.workload == \"test.ab_copy\" and .phase == \"memory\")] |
	map({(.metric): .current.median}) | add |
	.host_allocs == 1 and (.host_peak_bytes | $MIB) and
	.host_allocated_bytes == .host_peak_bytes" "$c" \
	"comparisons.json: one allocation, the 1 MiB buffer"
run2=$(jq -r .run_id "$T/q2/results.json")
"$BIN/prof-history" trend --db "$T/h.sqlite" --workload test.ab_copy \
	>"$T/trend.json"
is "$(jq -c --arg r "$run2" '.[] | select(.run_id == $r) |
	[.host_peak_bytes, .host_allocs, .host_allocated_bytes,
	 .host_peak_bytes_status, .host_allocs_status]' "$T/trend.json")" \
	"$(jq -c '[.[] | select(.workload == "test.ab_copy" and .phase == "memory")] |
	map({(.metric): .}) | add | [.host_peak_bytes.current.median,
	.host_allocs.current.median, .host_allocated_bytes.current.median,
	.host_peak_bytes.status, .host_allocs.status]' "$c")" \
	"the history has the run's memory and verdicts, as comparisons.json"
jq_ok "[.[] | select(.workload == \"test.ab_copy\")] | length == 2 and
	all(.[]; .host_allocs == 1 and (.host_peak_bytes | $MIB))" \
	"$T/trend.json" "and both runs, each the 1 MiB buffer"
peak=$(jq -r '.[] | select(.workload == "test.ab_copy" and .metric == "host_peak_bytes") | .current.median' "$c")
[ "$peak" -ge 1048576 ] && [ "$peak" -lt $((1048576 + 4096)) ] || peak="not 1 MiB: $peak"
like "$(cat "$T/q2/report.html")" \
	"<tr data-metric=\"host_peak_bytes\"><td>heap peak (bytes)</td><td class=\"num\">$(group "$peak")</td>" \
	"report.html's memory channel has the run's heap peak"
mk dashboard OUTPUT="$T/dash"
is "$rc" 0 "make dashboard of that history"
page=$(grep -l '<h1>test.ab_copy' "$T"/dash/s-*.html | head -1)
row=$(grep -o "<tr><td class=\"mono\">$run2</td>.*" "$page")
st=$(jq -r '.[] | select(.workload == "test.ab_copy" and .metric == "host_peak_bytes") | .status' "$c")
like "$row" \
	"data-metric=\"host_peak_bytes\" title=\"$st: $(jq -r '.[] | select(.workload == "test.ab_copy" and .metric == "host_peak_bytes") | .reason' "$c")\">$(group "$peak")</td>" \
	"its page's table has the heap peak of the run, with its verdict"
