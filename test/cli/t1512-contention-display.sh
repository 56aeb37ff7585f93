#!/bin/bash
# Contention on every page (issue 29): summary.md, the compact table and
# report.html show each row's CPU median beside its wall median and how
# many of its samples were contended ("3/4"), the same numbers from the
# same samples; a file from before the fields shows "-". report.html
# names the rule that marked them: the run-queue delay where the samples
# said it, wall against CPU time where it was unavailable.
. "$(dirname "$0")/lib.sh"
plan 12

# Four samples of test.ok made by hand: wall 1, 2, 3, 4 ms on CPU 0.9,
# 1.0, 1.1, 1.2 ms, their run-queue delay unknown (as on a kernel without
# schedstat); by today's rule (wall > cpu x 1.05 + 0.1) the first had its
# core and the other three waited.
"$BIN/prof-time" quick --workloads "$TW" --category test --repeat 4 \
	--warmup 0 --seed 1 -q -o "$T/raw.jsonl"
jq -c 'if .workload == "test.ok" and .phase == "timing" then
	.duration_ms = (.index + 1) | .cpu_ms = (0.9 + .index / 10) |
	.contended = (.duration_ms > .cpu_ms * 1.05 + 0.1) |
	del(.run_delay_ms) | .run_delay = "unavailable" else . end' \
	"$T/raw.jsonl" >"$T/s.jsonl"
"$BIN/prof-merge" --run-id r1 --commit c0 -o "$T/r.json" "$T/s.jsonl"
run prof-report -o "$T/s.md" --html "$T/r.html" "$T/r.json"
is "$rc" 0 "prof-report reads the samples"
like "$(cat "$T/s.md")" \
	'| `test.ok` | cpu | 4 | 1.000 ms | 2.500 ms | 1.050 ms | 3/4 | 4.000 ms | 4.000 ms |' \
	"summary.md: the CPU median beside the wall median, 3/4 contended"
like "$(cat "$T/s.md")" "| median | CPU | contended | p90 |" \
	"its table names the columns"
like "$(cat "$out")" \
	"test.ok                              cpu         4     2.500 ms   1.050 ms       3/4     4.000 ms" \
	"the compact table: the same numbers"
html=$(cat "$T/r.html")
like "$html" '<td class="num">2.500 ms</td><td class="num cpu">1.050 ms</td><td class="num cpu">3/4</td>' \
	"report.html's overview: the same numbers (runview's)"
like "$html" '<tr><td>current CPU</td><td class="num">4</td><td class="num">900.000 µs</td><td class="num">1.050 ms</td><td class="num">1.200 ms</td><td class="num">1.200 ms</td></tr>' \
	"its block: the CPU time's n, min, median, p90 and max"
like "$html" '<td>contended (run-queue delay unavailable, waited: wall &gt; CPU &#215; 1.05 + 0.1 ms)</td><td class="num">3/4</td>' \
	"and how many samples waited, with the rule of samples without a delay"

# The same calls with their run-queue delay said: the delay's rule; two
# of four without one: both rules, and how many went by which.
jq -c 'if .workload == "test.ok" and .phase == "timing" then
	del(.run_delay) | .run_delay_ms = (.duration_ms - .cpu_ms) |
	.contended = (.run_delay_ms > .duration_ms * 0.05 + 0.1) else . end' \
	"$T/s.jsonl" >"$T/d.jsonl"
"$BIN/prof-merge" --run-id r3 --commit c0 -o "$T/d.json" "$T/d.jsonl"
run prof-report -q -o "$T/d.md" --html "$T/d.html" "$T/d.json"
like "$(cat "$T/d.html")" '<td>contended (waited for a core: run-queue delay &gt; 5% of wall + 0.1 ms)</td><td class="num">3/4</td>' \
	"samples that said their delay: the delay's rule"
jq -c 'if .workload == "test.ok" and .phase == "timing" and .index < 2 then
	del(.run_delay_ms) | .run_delay = "unavailable" |
	.contended = (.duration_ms > .cpu_ms * 1.05 + 0.1) else . end' \
	"$T/d.jsonl" >"$T/m.jsonl"
"$BIN/prof-merge" --run-id r4 --commit c0 -o "$T/m.json" "$T/m.jsonl"
run prof-report -q -o "$T/m.md" --html "$T/m.html" "$T/m.json"
like "$(cat "$T/m.html")" '<td>contended (waited for a core: run-queue delay &gt; 5% of wall + 0.1 ms; its delay unavailable in 2 of 4: wall &gt; CPU &#215; 1.05 + 0.1 ms)</td><td class="num">3/4</td>' \
	"some without: both rules, and how many had no delay"

# Judged against a baseline, the columns stay.
"$BIN/prof-diff" --baseline "$T/r.json" -o "$T/c.json" "$T/r.json"
run prof-report -o "$T/s2.md" --comparisons "$T/c.json" "$T/r.json"
like "$(cat "$T/s2.md")" \
	'| `test.ok` | cpu | 4 | 1.000 ms | 2.500 ms | 1.050 ms | 3/4 | 4.000 ms | 4.000 ms |' \
	"with comparisons the row keeps them"

# A file from before the fields: the cells say nothing.
jq -c 'del(.cpu_ms, .involuntary_switches, .threads, .contended,
	.run_delay)' \
	"$T/s.jsonl" >"$T/old.jsonl"
"$BIN/prof-merge" --run-id r2 --commit c0 -o "$T/old.json" "$T/old.jsonl"
run prof-report -o "$T/o.md" --html "$T/o.html" "$T/old.json"
like "$(cat "$T/o.md")" '| `test.ok` | cpu | 4 | 1.000 ms | 2.500 ms | - | - | 4.000 ms |' \
	"an older file: '-' for CPU and contended in summary.md"
like "$(cat "$T/o.html")" '<td class="num">2.500 ms</td><td class="num cpu">-</td><td class="num cpu">-</td>' \
	"and in report.html"
finish
