#!/bin/bash
# prof-dashboard: memory series. A series page has a chart per memory
# metric (bytes or allocations, digits grouped, the axis from 0 or a zoom
# that says so, its change points and its verdicts) and the metrics in its
# table; the index has the heap peak's trend and latest value. Opened in
# Debian's chromium through playwright-core; each number is the one
# comparisons.json judged. Screenshots under artifacts/test/t7023-*/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/memory.sh"
plan 17

# group N: N with its digits grouped by commas, as prof_page_count().
group() {
	echo "$1" | sed -e :a -e 's/\B[0-9]\{3\}\>/,&/;ta'
}
story "$T/h.sqlite" "$T/s"
run prof-dashboard --db "$T/h.sqlite" -o "$T/dash"
is "$rc:$(cat "$err")" \
	"0:prof-dashboard: wrote 1 series over 6 runs to '$T/dash/index.html'" \
	"the dashboard of six runs of the memory phase"

shots=$ROOT/artifacts/test/t7023-dashboard-memory
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/dashboard.mjs --dir "$T/dash" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?" 0 "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == [] and .outside == [] and
	(.overflow | not) and (.overflow_narrow | not)' "$T/seen.json" \
	"with no error, no request outside, nothing overflowing"
jq_ok ".heap_sparks == [1] and .heap_latest == [\"$(group "$pa")\"]" \
	"$T/seen.json" "the index has the heap peak's trend and latest value, grouped"
jq_ok '.statuses == ["ok"]' "$T/seen.json" \
	"a series of memory only is ok, not failed"
p='.series_pages[0]'
jq_ok "$p.kind == \"memory\" and $p.charts == 0 and
	($p.mem_charts | map(.metric)) ==
	[\"host_peak_bytes\", \"host_allocs\", \"host_allocated_bytes\", \"rss_peak_bytes\"] and
	($p.mem_charts | all(.drawn and .points == 6))" "$T/seen.json" \
	"its page has a chart per memory metric, six points each, drawn"
jq_ok "$p.mem_charts[0] | .zoom == 0 and .zoom_words == null and
	.unit == [\"bytes\"] and .ticks[0] == \"0\" and
	(.ticks | all(test(\"^[0-9]{1,3}(,[0-9]{3})*\$\")))" "$T/seen.json" \
	"the heap peak's axis starts at 0, in bytes with grouped digits"
jq_ok "$p.mem_charts[1] | .unit == [\"allocations\"] and
	.ticks == [\"0.0\", \"0.5\", \"1.0\", \"1.5\", \"2.0\"] and
	.titles[3] == \"m4 · c4c4c4 · 2 allocations · stable: \" + $(jq '.[] | select(.phase == "memory" and .metric == "host_allocs") | .reason' "$T/cmp4.json")" \
	"$T/seen.json" "the allocations' axis is in allocations, each point in words"
jq_ok "$p.mem_charts[3] | .zoom == 1 and
	(.zoom_words | test(\"^y axis zoomed: [0-9,]+ to [0-9,]+ bytes, not from 0\$\"))" \
	"$T/seen.json" "the RSS peak's axis zooms, and says so with its range"
is "$(jq -r '.series_pages[0].zoom_breaks[3]' "$T/seen.json")" 1 \
	"with a break in its axis"
jq_ok "$p.mem_charts[0] | .warnings == 1 and .changes == 1" "$T/seen.json" \
	"the heap peak's warning stands out, and its change point is marked"
# A point of no verdict that stands out (stable, new, incomparable) is in
# the series' colour, none of a status's (palette.h): never improved's.
statuses=$(sed -n 's/^#define PROF_PALETTE_[A-Z]* "#\([0-9a-f]\{6\}\)"$/\1/p' \
	"$ROOT/src/report/palette.h" | while read -r c; do
	printf '"rgb(%d, %d, %d)"\n' "0x${c:0:2}" "0x${c:2:2}" "0x${c:4:2}"
	done | paste -sd, -)
jq_ok "[$statuses] as \$s | $p.series_colours | length >= 1 and
	all(. as \$c | \$s | index(\$c) == null)" "$T/seen.json" \
	"the memory points and lines are in no status's colour"
is "$(jq -r "$p.mem_charts[0].titles[3]" "$T/seen.json")" \
	"m4 · c4c4c4 · heap peak $(group "$pa") bytes · warning: $(jq -r '.[] | select(.phase == "memory" and .metric == "host_peak_bytes") | .reason' "$T/cmp4.json")" \
	"m4's point says its heap peak, grouped, and the verdict with its reason"
is "$(jq -c "$p.mem_cells.host_peak_bytes" "$T/seen.json")" \
	"[\"$(group "$pa")\",\"$(group "$pa")\",\"$(group "$pa")\",\"$(group "$pb")\",\"$(group "$pb")\",\"$(group "$pb")\"]" \
	"the table has each run's heap peak, newest first"
is "$(jq -r "$p.mem_cells.host_allocs[2] + \":\" + $p.mem_cells.rss_peak_bytes[2]" "$T/seen.json")" \
	"$(jq -r '.[] | select(.phase == "memory" and .metric == "host_allocs") | .current.median' "$T/cmp4.json"):$(group "$(jq -r '.[] | select(.phase == "memory" and .metric == "rss_peak_bytes") | .current.median' "$T/cmp4.json")")" \
	"m4's allocations and RSS peak are comparisons.json's"
is "$(jq -c "$p.header" "$T/seen.json")" \
	'["run","commit","time (UTC)","errors","heap peak","allocations","bytes allocated","RSS peak","status"]' \
	"the table's columns"
like "$(cat "$T/dash/index.html")" \
	'<td><span class="bad">+100.0%</span> <span class="mono">c3c3c3..c4c4c4</span> <span class="none">(heap peak)</span></td>' \
	"the index's last change of a series of memory only is its heap peak's"
