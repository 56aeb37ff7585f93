#!/bin/bash
# report.html holds text from outside (commits, reasons, commands, the
# machine's names, artifact paths, change points' commit ranges): none of
# it runs, whole or cut, alone or split over runs, in Debian's chromium.
# The page's content policy allows its own script and style by their
# SHA-256 and nothing inline besides: a handler that reached the page
# some other way would not run either.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
command -v sqlite3 >/dev/null || skip_all "sqlite3 is not installed"
plan 14

# Twelve runs. The tools refuse such commits now, but a history written
# before (or by hand) may hold them: the page must not trust it. Cut to
# 12 bytes in the trend chart, the first three add up to
# <img src='x ...'onerror='/* ... */alert(1)'>; the others carry a whole
# handler each.
commits=("<img src='x" "'onerror='/*" "*/alert(1)'>"
	"<svg onload=alert(2)>" "<script>alert(3)</script>"
	"\"><img src=x onerror=alert(4)>" "'><img src=x onerror=alert(5)>"
	"</title><img src=x onerror=alert(6)>"
	"<img src=x onerror=alert(7)>" "c10" "c11" "c12")
db=$T/history.sqlite
mkdir -p "$T/run"
for i in $(seq 1 12); do
	id=$(printf %02d "$i")
	ms=10
	[ "$i" -ge 7 ] && ms=13
	mkrun "$T/s$id.json" "run-$id" "c$id" "2026-02-${id}T00:00:00Z" \
		"$((ms - 1))" "$ms" "$((ms + 1))"
	# Every run on the machine with the hostile model and compiler: one
	# series (its segment key is its env's, as every reader checks).
	jq --arg m "<svg onload=alert(9)>" "$JQ_SEGMENT"'
		.samples[] |= (.env.cpu_model = $m | .env.compiler = $m |
		.segment = (.env | segment_key))' "$T/s$id.json" >"$T/s.json" &&
		mv "$T/s.json" "$T/s$id.json"
done
jq --arg m "<svg onload=alert(9)>" \
	--arg a "\"><img src=x onerror=alert(10)>.prof" '
	.command = $m |
	.samples += [(.samples[0] | .phase = "profile" | .index = 0 |
	.artifacts = [$a])]' "$T/s12.json" >"$T/run/results.json"
"$BIN/prof-history" add --db "$db" "$T"/s0*.json "$T"/s1[01].json \
	"$T/run/results.json" 2>/dev/null
for i in $(seq 1 9); do
	c=${commits[$((i - 1))]}
	sqlite3 "$db" "UPDATE runs SET commit_id = '${c//\'/\'\'}'
		WHERE run_id = 'run-$(printf %02d "$i")'"
done
is "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE commit_id LIKE
	'%<%' OR commit_id LIKE '%''%'")" 9 \
	"a history of 12 runs, 9 with hostile commits"
run prof-diff --baseline "$T/s01.json" -o "$T/cmp.json" \
	"$T/run/results.json"
jq --arg r "<img src=x onerror=alert(11)><script>alert(12)</script>" \
	'.[].reason = $r' "$T/cmp.json" >"$T/run/comparisons.json"
run prof-report --comparisons "$T/run/comparisons.json" \
	--baseline "$T/s01.json" --history "$db" \
	--html "$T/run/report.html" -q "$T/run/results.json"
is "$rc" 0 "prof-report --html writes the page"
html=$T/run/report.html

shots=$T/shots
mkdir -p "$shots"
node test/browser/report-html.mjs --html "$html" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?:$(cat "$err")" "0:" "chromium opens it"
jq_ok '.dialogs == []' "$T/seen.json" "no injected script runs"
jq_ok '.console_errors == [] and .page_errors == []' "$T/seen.json" \
	"and nothing is refused: nothing but the page's own script is there"
jq_ok '.trends == 1 and .trend_runs == [12] and .change_marks == 1' \
	"$T/seen.json" "the trend of the 12 runs is drawn, its change marked"
jq_ok '.visible_after_filter == ["warning"]' "$T/seen.json" \
	"the page's own script runs (the warnings filter)"
like "$(cat "$html")" \
	"text-anchor=\"start\">&lt;img src=&#39;</text>" \
	"a commit reads as text: under the axis cut to 10 characters"
like "$(cat "$html")" \
	"<title>run-01 · &lt;img src=&#39;x · median 10.000 ms" \
	"and whole (up to 12) in its point's title"
like "$(cat "$html")" \
	"<code title=\"&quot;&gt;&lt;img src=x onerror=alert(4)&gt;..&#39;&gt;&lt;img src=x onerror=alert(5)&gt;\">&quot;&gt;&lt;img src=x..&#39;&gt;&lt;img src=x</code>" \
	"so does a change point's commit range"
like "$(cat "$html")" "&lt;img src=x onerror=alert(11)&gt;&lt;script&gt;" \
	"so does the reason"
policy=$(grep -o 'Content-Security-Policy" content="[^"]*"' "$html")
like "$policy" "script-src 'sha256-$(sed -n '/<script>/,/<\/script>/p' \
	"$html" | sed '1s/.*<script>//; $s/<\/script>.*//' | head -c -1 |
	openssl dgst -sha256 -binary | base64)'" \
	"the policy allows the page's script by its SHA-256"
is "$(echo "$policy" | grep -c "unsafe-inline")" 0 \
	"and nothing inline besides"

# A handler that reached the page (as if a field were not escaped) is
# refused by the policy.
sed 's|<body>|<body><img src=x onerror="alert(13)"><svg onload="alert(14)"></svg>|' \
	"$html" >"$T/run/forged.html"
node test/browser/report-html.mjs --html "$T/run/forged.html" \
	--shots "$shots" >"$T/seen.json" 2>"$err"
jq_ok '.dialogs == [] and .visible_after_filter == ["warning"]' \
	"$T/seen.json" "an inline handler does not run; the page's script does"
finish
