#!/bin/bash
# report.html's axes end whatever the numbers: samples and medians near
# 1e9 ms (the largest a sample may take) a double apart (a tick step below
# the doubles' spacing, where adding steps never got past the first), one
# value, 0 beside 1e9, the smallest values. Each axis has at most 16 ticks, every position
# is a number, and the page is written at once (a file size limit stops
# a writer that would not end; the timeout only guards the suite).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 14

# page NAME RESULTS [HISTORY]: prof-report --html under limits.
page() {
	local name=$1 results=$2 db=${3:-}
	(
		ulimit -f 20480
		exec timeout 300 "$BIN/prof-report" -q -o "$T/$name.md" \
			${db:+--history "$db"} --html "$T/$name.html" \
			"$results"
	) >"$out" 2>"$err"
	rc=$?
}

# ticks FILE: the most grid lines of one chart, and the attributes that
# are not numbers.
ticks() {
	awk 'BEGIN { RS = "<figure" } NR > 1 { n = gsub(/class="grid"/, "");
		if (n > m) m = n } END { print m + 0 }' "$1"
	grep -oE ' (x|y|x1|x2|y1|y2|cx|cy|width)="[^"]*"' "$1" |
		grep -cvE '="-?[0-9]+(\.[0-9]+)?"$'
}

# 1e9 and the double below: their difference is 1.19e-7.
mkrun "$T/ulp.json" run-ulp c1 2026-02-01T00:00:00Z \
	999999999.9999999 1000000000 1000000000
page ulp "$T/ulp.json"
is "$rc:$(cat "$err")" "0:" "samples a double apart: the page is written"
is "$(ticks "$T/ulp.html" | tr '\n' ' ')" "5 0 " \
	"with a few ticks, every position a number"
is "$(grep -o 'text-anchor="middle">[^<]*<' "$T/ulp.html" |
	sed 's/.*>//; s/<//' | tr '\n' ' ')" \
	"999999.9990 999999.9995 1000000.0000 1000000.0005 1000000.0010 " \
	"labelled around the value, each label its own"

# The same in the history's trend: medians 1e9 and a double below.
db=$T/h.sqlite
for i in 1 2 3 4; do
	v=999999999.9999999
	[ "$i" -gt 2 ] && v=1000000000
	mkrun "$T/h$i.json" "run-$i" "c$i" "2026-02-0${i}T00:00:00Z" \
		"$v" "$v" "$v"
done
"$BIN/prof-history" add --db "$db" "$T"/h[1-4].json 2>/dev/null
is "$("$BIN/prof-history" list --db "$db" | jq length)" 4 \
	"a history of 4 runs near 1e9 ms"
page trend "$T/h4.json" "$db"
is "$rc:$(cat "$err")" "0:" "its trend chart is written"
is "$(ticks "$T/trend.html" | tr '\n' ' ')" "5 0 " \
	"with a few ticks, every position a number"
like "$(cat "$T/trend.html")" 'class="trend" data-runs="4"' \
	"over the 4 runs"

# One value; 0 beside the largest duration; the smallest ones.
mkrun "$T/one.json" run-one c1 2026-02-01T00:00:00Z 1000000000
page one "$T/one.json"
is "$rc:$(ticks "$T/one.html" | tr '\n' ' ')" "0:3 0 " \
	"one value: a range around it"
mkrun "$T/wide.json" run-wide c1 2026-02-01T00:00:00Z 0 1e9 1e9
page wide "$T/wide.json"
is "$rc:$(cat "$err")" "0:" "0 beside 1e9: the page is written"
is "$(ticks "$T/wide.html" | tr '\n' ' ')" "6 0 " \
	"with a few ticks, every position a number"
mkrun "$T/tiny.json" run-tiny c1 2026-02-01T00:00:00Z 0.000001 \
	0.0000010000000000000002 0
page tiny "$T/tiny.json"
is "$rc:$(cat "$err")" "0:" "0, 1e-6 ms and the next double: the page is written"
is "$(ticks "$T/tiny.html" | tr '\n' ' ')" "6 0 " \
	"with a few ticks, every position a number"
mkrun "$T/five.json" run-five c1 2026-02-01T00:00:00Z 5 5.000000000000001
page five "$T/five.json"
is "$rc:$(ticks "$T/five.html" | tr '\n' ' ')" "0:4 0 " \
	"5 ms and the next double"
ok "$(for f in ulp trend one wide tiny five; do
	[ "$(stat -c %s "$T/$f.html")" -lt 100000 ] || echo "$f"
	done | grep -c .)" "every page is small"
finish
