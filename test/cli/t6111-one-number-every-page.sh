#!/bin/bash
# One run's numbers read the same on every page and in every record (issue
# 30): a timed row that is also counted, its two counted calls differing
# as pipeline.svg_dense_circles' do (59,077,854 then 58,054,805), its
# median 150.25 ms. Its count is 58,054,805 (the lower median of its
# calls, stats.h) in comparisons.json, the history (imported from a run
# folder) and every export; every page writes it with its digits grouped
# (page.h: summary.md, the compact table, the comparison's reason,
# report.html and the dashboard printed 58054805 in some places and
# 58,054,805 in others), and its median as 150.250 on every page
# (report.html wrote times of 100 ms and more with one decimal).
. "$(dirname "$0")/lib.sh"
plan 18

D=test/data/results
jq --argjson ir '[59077854, 58054805]' --argjson ms '[151.0, 150.25, 150.0]' '
	[.samples[] | select(.workload == "w.stable")] as $w |
	.samples = ($w | map(.duration_ms = $ms[.index])) +
		($w | map(select(.index < 2) | .phase = "instructions" |
			.instructions = $ir[.index] |
			.count_threshold_pct = 1))' $D/baseline.json \
	>"$T/run.json"
N=58054805
G=58,054,805

# The records: the count as a number.
run prof-diff --baseline "$T/run.json" -o "$T/comparisons.json" "$T/run.json"
jq_ok "[.[] | select(.phase == \"instructions\") |
	.current.median, .baseline.median] == [$N, $N] and
	[.[] | select(.phase == \"timing\") | .current.median] == [150.25]" \
	"$T/comparisons.json" "comparisons.json: $N instructions, 150.25 ms"
mkdir -p "$T/runs/r1"
cp "$T/run.json" "$T/runs/r1/results.json"
cp "$T/comparisons.json" "$T/runs/r1/"
run prof-history import --db "$T/h.sqlite" "$T/runs"
is "$rc" 0 "prof-history import takes the run folder"
run prof-history trend --db "$T/h.sqlite"
jq_ok "[.[] | [.instructions, .median, .status]] ==
	[[$N, 150.25, \"stable\"]]" "$out" \
	"the history: $N instructions, 150.25 ms, with its verdict"
run prof-export --format bmf "$T/run.json"
jq_ok ".[\"w.stable/cpu\"] | .instructions.value == $N and
	.latency.value == 150250000" "$out" "the BMF export: $N"
run prof-export --format gbench "$T/run.json"
jq_ok "[.benchmarks[].instructions] == [$N, $N, $N]" "$out" \
	"the Google Benchmark export: $N in each repetition"
run prof-export --format csv "$T/run.json"
is "$(grep -c ",58054805," "$out"):$(grep -c ",59077854," "$out")" "1:1" \
	"the CSV export: each call's own count, one line a call"

# The pages: the count grouped, the time with three decimals and its unit.
run prof-report --comparisons "$T/comparisons.json" -o "$T/summary.md" \
	--html "$T/report.html" "$T/run.json"
is "$rc" 0 "prof-report writes the summary, the table and the page"
md=$(cat "$T/summary.md")
like "$md" '| `w.stable` | cpu | 3 | 150.000 ms | 150.250 ms | - | - | 151.000 ms | 151.000 ms |' \
	"summary.md: the median 150.250"
like "$md" "| stable | $G | +0.00% | stable |" "summary.md: the count $G"
like "$md" "instructions $G -> $G (+0.00%), within the 1% threshold" \
	"summary.md: the reason's counts grouped"
like "$(grep '^w.stable ' "$out" | tr -s ' ')" \
	"w.stable cpu 3 150.250 ms - - 151.000 ms +0.0% 1.000 1 stable $G +0.00% stable" \
	"the compact table: 150.250 and $G"
page=$(cat "$T/report.html")
like "$page" '<td>cpu</td><td class="num">3</td><td class="num">150.250 ms</td>' \
	"report.html's overview: 150.250"
like "$page" "<td class=\"num\">$G</td><td class=\"num\">+0.00%</td>" \
	"report.html's overview: $G"
like "$page" '<td class="num">150.000 ms</td><td class="num">150.250 ms</td><td class="num">151.000 ms</td>' \
	"report.html's row: min, median and p90 as summary.md writes them"
run prof-dashboard --db "$T/h.sqlite" -o "$T/dash"
is "$rc" 0 "prof-dashboard writes the history's pages"
like "$(cat "$T/dash/index.html")" '<td class="num">150.250 ms</td>' \
	"the dashboard's index: the latest median 150.250"
series=$(cat "$T"/dash/s-*.html)
like "$series" "median 150.250 ms" "the dashboard's trend: 150.250"
like "$series" "<td class=\"num\">150.250 ms</td><td class=\"num\">151.000 ms</td><td class=\"num wide\">$G</td>" \
	"the dashboard's table of runs: 150.250 and $G"
finish
