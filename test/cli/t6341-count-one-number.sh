#!/bin/bash
# One run's instruction count is one number everywhere (issue 30): a row
# whose two counted calls differ (59,077,854 and 58,054,805, as
# pipeline.svg_dense_circles' calls do) counts 58,054,805, the lower median
# of its calls (stats.h), in comparisons.json, summary.md, the compact
# table, report.html, the history, the dashboard and every export that
# holds a row's count. comparisons.json and summary.md showed the mean
# (58,566,330), the others the lower call.
. "$(dirname "$0")/lib.sh"
plan 12

D=test/data/results
jq --argjson ir '[59077854, 58054805]' '.samples |= map(select(
	.workload == "w.stable" and .index < ($ir | length)) |
	.phase = "instructions" | .instructions = $ir[.index] |
	.count_threshold_pct = 1)' $D/baseline.json >"$T/run.json"
N=58054805
G=58,054,805	# as every page writes a count (page.h)

run prof-diff --baseline "$T/run.json" -o "$T/comparisons.json" "$T/run.json"
jq_ok "[.[] | select(.phase == \"instructions\") |
	.current.median, .baseline.median] == [$N, $N]" \
	"$T/comparisons.json" "comparisons.json: the row's count is $N"

run prof-report --comparisons "$T/comparisons.json" -o "$T/summary.md" \
	--html "$T/report.html" "$T/run.json"
is "$rc" 0 "prof-report writes the summary, the table and the page"
is "$(grep -c "| $G | +0.00% | stable |" "$T/summary.md")" 1 \
	"summary.md: its instruction cell is $G"
like "$(cat "$out")" " $G " "the compact table: $G"
like "$(cat "$T/report.html")" '<td class="num">58,054,805</td><td class="num">+0.00%</td>' \
	"report.html's overview: $N"
like "$(cat "$T/report.html")" '<tr><td>current</td><td class="num">2</td><td class="num">58,054,805</td><td class="num">58,054,805</td><td class="num">59,077,854</td>' \
	"report.html's row: $N, from the fewest to the most"
like "$(cat "$T/report.html")" "calls differ</td><td class=\"num\">+1,023,049 instructions (+1.76%)" \
	"report.html: the calls' spread beside it"

run prof-history add --db "$T/h.sqlite" --comparisons "$T/comparisons.json" \
	"$T/run.json"
run prof-history trend --db "$T/h.sqlite"
jq_ok "[.[].instructions] == [$N]" "$out" \
	"the history: $N"
run prof-dashboard --db "$T/h.sqlite" -o "$T/dash"
like "$(cat "$T"/dash/*.html)" "$G instructions" \
	"the dashboard's points: $G"
like "$(cat "$T"/dash/*.html)" "<td class=\"num\">$G</td>" \
	"the dashboard's table of runs: $G"

run prof-export --format bmf "$T/run.json"
jq_ok ".[\"w.stable/cpu\"].instructions.value == $N" "$out" \
	"the BMF export: $N"
run prof-export --format csv "$T/run.json"
is "$(grep -c ",58054805," "$out"):$(grep -c ",59077854," "$out")" "1:1" \
	"the CSV export: each call's own count, one line a call"
finish
