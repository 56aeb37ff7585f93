#!/bin/bash
# One chart on every page: a row's trend on report.html and its series'
# chart on the dashboard are drawn by the same code (src/report/chart.c)
# from the same history, so they are the same svg, byte for byte, but for
# report.html's ring around its own run; and both pages' stylesheets
# begin with one shared sheet (src/report/style.h: the palette, words,
# tables and numbers, the glossary, the verdicts' words and badges, the
# chart's rules and colours: the median ink, the p90 grey).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 7

db=$T/h.sqlite
for i in 1 2 3 4 5 6; do
	v=10
	[ "$i" -gt 3 ] && v=13
	mkrun "$T/r$i.json" "run-$i" "c$i" "2026-02-0${i}T00:00:00Z" \
		"$v" "$v.5" "$v.2"
done
"$BIN/prof-history" add --db "$db" "$T"/r[1-5].json 2>/dev/null
run prof-diff --baseline "$T/r1.json" -o "$T/cmp.json" "$T/r6.json"
run prof-history add --db "$db" --comparisons "$T/cmp.json" "$T/r6.json"
is "$rc" 0 "a history of 6 runs with a step, the last judged a warning"
run prof-report -q -o "$T/s.md" --history "$db" --comparisons "$T/cmp.json" \
	--html "$T/r.html" "$T/r6.json"
is "$rc" 0 "report.html of the last run"
run prof-dashboard --db "$db" -o "$T/d"
is "$rc" 0 "the dashboard"

# svg FILE: its first trend chart, on a line, this run's ring left out.
svg() {
	tr -d '\n' <"$1" |
		grep -o '<svg class="chart trend"[^>]*>.*</svg>' |
		sed 's|</svg>.*|</svg>|; s|<circle class="now"[^>]*/>||'
}
page=$(ls "$T"/d/s-*.html)
ok "$([ -n "$(svg "$T/r.html")" ] &&
	[ "$(svg "$T/r.html")" = "$(svg "$page")" ]; echo $?)" \
	"the trend on report.html is the dashboard's chart, byte for byte"
like "$(svg "$page")" '<circle class="pt wrn"' \
	"with the judged run in the warning's colour on both"
is "$(grep -o '<circle class="now"[^>]*>' "$T/r.html" | wc -l)" 1 \
	"report.html rings its own run"

# rules FILE: the shared sheet at the head of the page's stylesheet.
rules() {
	tr -d '\n' <"$1" | grep -o '<style>:root{--fg:.*\.keys \.lu{color:[^}]*}'
}
ok "$([ -n "$(rules "$T/r.html")" ] &&
	[ "$(rules "$T/r.html")" = "$(rules "$page")" ] &&
	rules "$page" | grep -q '\.chart \.med{fill:none;stroke:#24292f'
	echo $?)" "and one stylesheet, the chart's rules and colours in it, heads both pages"
finish
