#!/bin/bash
# report.html shows the evidence for its verdicts, at a laptop's width
# (issue 43): a make compare run folder (results.json, baseline.json,
# comparisons.json, prof-report given no --baseline, as compare.sh calls
# it) draws the reference side's own samples from baseline.json, and
# each side's wall and CPU times in the strip and the table, the time the
# verdict judged marked (here a warning judged on CPU time: calls that all
# waited for a core, their wall times spread wide, their CPU times 30%
# apart; the contended calls outlined); a Google Benchmark row of nanoseconds prints in ns. Opened in
# Debian's chromium at 1280 x 800 (playwright-core): no sideways scroll,
# every table inside what holds it, no number over two lines; a
# screenshot of each page kept under artifacts/test/t6006-report-html-laptop/.
. "$(dirname "$0")/lib.sh"
plan 25

# A template sample of a workload (every field prof-merge asks for).
"$BIN/prof-time" quick --workloads "$TW" --category test --repeat 1 \
	--warmup 0 --seed 1 -q -o "$T/t.jsonl"

# side SIDE SCALE MULTS...: one side of an interleaved A/B, 12 samples of
# pipeline.svg_dense_circles whose CPU times are 10 to 10.3 ms times
# SCALE and whose wall times are those times MULTS; the run-queue delay
# unavailable (a kernel without schedstat), so every call is contended
# by wall against CPU time; then an instruction count and a memory sample.
side() {
	local s=$1 scale=$2
	shift 2
	grep '"record"' "$T/t.jsonl"
	grep -v '"record"' "$T/t.jsonl" | jq -c 'select(.workload == "test.ok")' |
		head -n 1 |
		jq -c --arg s "$s" --argjson scale "$scale" --arg m "$*" '
		($m | split(" ") | map(tonumber)) as $m | . as $t |
		(range(0; $m | length) as $i |
		$t | .workload = "pipeline.svg_dense_circles" |
		.cpu_ms = ((10 + ($i % 4) * 0.1) * $scale | . * 1e6 | round / 1e6) |
		.duration_ms = (.cpu_ms * $m[$i] | . * 1e6 | round / 1e6) |
		.index = $i | .warning_floor_ms = 0.5 | .threads = 1 |
		.involuntary_switches = 3 | .time_threshold_pct = 5 |
		del(.run_delay_ms) | .run_delay = "unavailable" |
		.contended = (.duration_ms > .cpu_ms * 1.05 + 0.1) |
		.ab = {side: $s, slot: (2 * $i + (if $s == "current" then 0
			else 1 end)), round: ($i + 1), repeat: 12,
			max_repeat: 12}),
		($t | .workload = "pipeline.svg_dense_circles" |
		.phase = "instructions" | .index = 0 |
		.instructions = (58054805 * $scale | floor) |
		.count_threshold_pct = 1 |
		del(.cpu_ms, .involuntary_switches, .threads, .run_delay_ms,
			.run_delay, .contended)),
		($t | .workload = "pipeline.svg_dense_circles" |
		.phase = "memory" | .index = 0 |
		.memory = {host_peak_bytes: 5267568, rss_peak_bytes: 19230720} |
		del(.cpu_ms, .involuntary_switches, .threads, .run_delay_ms,
			.run_delay, .contended))'
}
ref="1.6 2.9 1.7 2.4 1.65 3.1 1.8 2.5 1.6 2.8 1.7 2.6"
# The current wall times are the reference's times 1.01 to 1.6, pair by
# pair: their interval straddles the threshold, their CPU time's does not.
cur="1.2431 3.5692 1.3469 2.7692 1.2946 3.3385 1.4400 2.9808 1.2431 3.1231 1.3469 3.0000"
R=$T/run
mkdir -p "$R"
side current 1.3 $cur >"$T/c.jsonl"
side reference 1 $ref >"$T/r.jsonl"
"$BIN/prof-merge" --run-id ab --command "make compare REF=HEAD~1" \
	-o "$R/results.json" "$T/c.jsonl" &&
	"$BIN/prof-merge" --run-id ab -o "$R/baseline.json" "$T/r.jsonl" &&
	"$BIN/prof-diff" --baseline "$R/baseline.json" \
		-o "$R/comparisons.json" "$R/results.json"
jq_ok '[.[] | select(.phase == "timing")] | length == 1 and
	.[0].status == "warning" and .[0].judged_on == "cpu_ms"' \
	"$R/comparisons.json" "the compare's time row: a warning judged on CPU time"
run prof-report -q --comparisons "$R/comparisons.json" \
	--html "$R/report.html" "$R/results.json"
is "$rc" 0 "prof-report writes the page, given no --baseline"
html=$(cat "$R/report.html")
is "$(grep -o '<circle class="base"' "$R/report.html" | wc -l)" 12 \
	"the reference side's 12 samples are drawn, from baseline.json"
ok "$(case $html in *"not at hand"*) echo 1 ;; *) echo 0 ;; esac)" \
	"and no box stands in for them"
like "$html" "<tr><td>compared with</td><td>the run folder's baseline.json</td></tr>" \
	"the page names the file they are from"
is "$(grep -o '<circle class="cur-cpu"' "$R/report.html" | wc -l):$(grep -o '<circle class="base-cpu"' "$R/report.html" | wc -l)" \
	12:12 "each side's CPU times are drawn"
like "$html" 'data-times="wall cpu" data-judged="cpu_ms"' \
	"the chart says which time the verdict judged"
like "$html" '<rect class="judged-band"' "and shades its lanes"
is "$(grep -o '<circle class="[a-z-]*" data-contended=""' "$R/report.html" | wc -l)" 48 \
	"every call marked contended is outlined, in each of its lanes"
like "$html" '<tr class="judged"><td>current CPU</td><td class="num">12</td><td class="num">13.000 ms</td><td class="num">13.195 ms</td>' \
	"the table: the current side's CPU times, marked as judged"
like "$html" '<tr class="judged"><td>baseline CPU</td><td class="num">12</td><td class="num">10.000 ms</td><td class="num">10.150 ms</td>' \
	"and the baseline's"
like "$html" '<tr><td>baseline contended</td><td class="num">12/12</td></tr>' \
	"with how many of the baseline's calls were contended"
like "$html" '<tr><td>judged on</td><td class="num">CPU time</td></tr>' \
	"and the time judged, in words"

# A Google Benchmark row of nanoseconds, 40% slower than its baseline.
gen() {
	printf '{"context": {"host_name": "h", "library_build_type": "release", "num_cpus": 2},\n "benchmarks": ['
	for i in 0 1 2 3 4; do
		[ $i = 0 ] || printf ','
		printf '\n  {"name": "BM_f/8", "run_name": "BM_f/8", "run_type": "iteration", "repetitions": 5, "repetition_index": %d, "threads": 1, "iterations": 200000000, "real_time": %s, "cpu_time": %s, "time_unit": "ns"}' \
			$i "$(awk -v b="$1" -v i=$i 'BEGIN { printf "%.2f", b + i / 100 }')" \
			"$(awk -v b="$1" -v i=$i 'BEGIN { printf "%.2f", b - 0.01 + i / 100 }')"
	done
	printf ']}\n'
}
G=$T/gb
mkdir -p "$G"
gen 2.45 >"$T/ga.json"
gen 3.45 >"$T/gb.json"
"$BIN/prof-merge" --gbench "$T/ga.json" -o "$T/gbase.json" --run-id a 2>/dev/null &&
	"$BIN/prof-merge" --gbench "$T/gb.json" -o "$G/results.json" --run-id b 2>/dev/null &&
	"$BIN/prof-diff" --baseline "$T/gbase.json" -o "$G/comparisons.json" \
		"$G/results.json"
run prof-report -q --comparisons "$G/comparisons.json" \
	--baseline "$T/gbase.json" --html "$G/report.html" "$G/results.json"
is "$rc" 0 "a Google Benchmark run's page"
ghtml=$(cat "$G/report.html")
like "$ghtml" '<td class="num">3.470 ns</td>' \
	"its overview's median in ns, never 0.000 ms"
like "$ghtml" '<tr class="judged"><td>baseline</td><td class="num">5</td><td class="num">2.450 ns</td>' \
	"and its table's, both sides"

if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	why="chromium is not installed (make deps installs it)"
elif [ ! -d node_modules/playwright-core ]; then
	why="playwright-core is not installed (make deps runs npm ci)"
else
	why=
fi
shots=$ROOT/artifacts/test/t6006-report-html-laptop
rm -rf "$shots"
if [ -n "$why" ]; then
	for i in $(seq 1 9); do skip "$why"; done
	finish
	exit
fi
mkdir -p "$shots/compare" "$shots/gbench"
node test/browser/report-html.mjs --html "$R/report.html" \
	--shots "$shots/compare" >"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens the compare page"
jq_ok '.console_errors == [] and .page_errors == []' "$T/seen.json" \
	"with no console errors"
jq_ok '.overflow == false and .scroll_width <= .inner_width' "$T/seen.json" \
	"at 1280 x 800 it has no sideways scroll"
jq_ok '.tables_outside == [] and .wrapped_numbers == []' "$T/seen.json" \
	"every table fits what holds it (the overview of time, instructions and memory in its page), every number one line (the p-value too)"
jq_ok '.blocks[0].status == "warning" and
	(.blocks[0].channels | map(select(.kind == "time"))[0] |
	.dots_by_class == {"cur": 12, "base": 12, "cur-cpu": 12,
		"base-cpu": 12} and .judged == "cpu_ms" and .judged_band > 0 and
	.judged_rows == ["current CPU", "baseline CPU"])' "$T/seen.json" \
	"its block draws both sides' samples and CPU times, the judged ones shaded"
ok "$([ -s "$shots/compare/screen.png" ] && [ -s "$shots/compare/report.png" ]; echo $?)" \
	"its screenshots are kept"
node test/browser/report-html.mjs --html "$G/report.html" \
	--shots "$shots/gbench" >"$T/gseen.json" 2>"$err"
is "$?" 0 "chromium opens the Google Benchmark page"
jq_ok '.overflow == false and .tables_outside == [] and
	.wrapped_numbers == [] and
	(.blocks[0].channels[0].table[1] | .[0] == "current" and
	all(.[2:][]; endswith(" ns")))' "$T/gseen.json" \
	"it fits too, its times in ns"
ok "$([ -s "$shots/gbench/screen.png" ] && [ -s "$shots/gbench/report.png" ]; echo $?)" \
	"and its screenshots are kept"
finish
