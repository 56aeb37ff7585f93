#!/bin/bash
# prof-export, prof-history add and prof-report --html stream the results
# file (src/lib/model/runview.c) and give what they gave when they held it
# whole: the expected outputs in test/data/runview/ were written by the
# tools before the change, from test/data/results/current.json (and their
# segment ids since made the results file's own, issue 19.5). The same
# run in schema 2 (grouped) and on stdin gives the same; the history's
# digest tells the same run from another with its run id, and a run stored
# with an older digest is left as it is, and said so.
. "$(dirname "$0")/lib.sh"
plan 26

D=$ROOT/test/data/results
E=$ROOT/test/data/runview
cur=$D/current.json
# The same run in schema 2, grouped, as prof-merge writes it.
jq -c '.samples[]' "$cur" | "$BIN/prof-merge" -o "$T/m.json" -
jq --slurpfile c "$cur" '.run_id = $c[0].run_id | .commit = $c[0].commit |
	.timestamp_utc = $c[0].timestamp_utc | .command = $c[0].command' \
	"$T/m.json" >"$T/c2.json"
jq -e '.schema_version == 2 and (.groups | length > 0) and
	all(.samples[]; has("group_id"))' "$T/c2.json" >/dev/null
ok "$?" "(c2.json is the same run in schema 2, grouped)"

# prof-export: CSV, BMF and gbench as before, from either form and stdin.
run prof-export --format csv "$cur"
is "$rc:$(cmp -s "$out" "$E/current.csv"; echo $?)" 0:0 \
	"csv: one line per sample, as before"
run prof-export --format csv "$T/c2.json"
ok "$(cmp -s "$out" "$E/current.csv"; echo $?)" "the same from schema 2"
mkdir "$T/tmp"
TMPDIR=$T/tmp "$BIN/prof-export" --format csv - <"$cur" >"$out" 2>"$err"
is "$?:$(cmp -s "$out" "$E/current.csv"; echo $?)" 0:0 \
	"the same from stdin, read twice through a copy"
is "$(ls -A "$T/tmp")" "" "and the copy is gone"
"$BIN/prof-export" --format csv -o "$T/x.csv" - <"$T/c2.json"
ok "$(cmp -s "$T/x.csv" "$E/current.csv"; echo $?)" \
	"and from stdin to a file"
run prof-export --format bmf "$cur"
is "$rc:$(cmp -s "$out" "$E/current.bmf.json"; echo $?)" 0:0 \
	"bmf as before"
"$BIN/prof-export" --format bmf - <"$T/c2.json" >"$out"
ok "$(cmp -s "$out" "$E/current.bmf.json"; echo $?)" \
	"the same from schema 2 on stdin"
run prof-export --format gbench "$cur"
is "$rc:$(cmp -s "$out" "$E/current.gbench.json"; echo $?)" 0:0 \
	"gbench, printed one entry at a time, byte for byte as before"
"$BIN/prof-export" --format gbench -o "$T/g.json" - <"$T/c2.json"
ok "$(cmp -s "$T/g.json" "$E/current.gbench.json"; echo $?)" \
	"the same from schema 2 on stdin, to a file"
TMPDIR=$T/tmp "$BIN/prof-export" --format csv - <"$D/schema-bad.json" \
	>"$out" 2>"$err"
is "$?:$(cat "$err"):$(cat "$out")" \
	"2:prof-export: -: .samples[2].duration_ms: expected a number, got a string:" \
	"a bad sample on stdin names stdin and the path, and writes nothing"
is "$(ls -A "$T/tmp")" "" "and leaves no copy"
"$BIN/prof-export" --format csv - <"$D/truncated.json" >"$out" 2>"$err"
is "$?:$(cat "$err")" \
	"2:prof-export: -:89:10: unexpected end of input (truncated JSON)" \
	"a truncated file on stdin names the line and column"

# prof-history add: the same rows as before, one digest for one run.
db=$T/h.sqlite
run prof-history add --db "$db" "$cur"
is "$rc" 0 "history: add"
run prof-history trend --db "$db"
ok "$(cmp -s "$out" "$E/current.trend.json"; echo $?)" \
	"the rows are the ones stored before"
jq -S . "$cur" >"$T/sorted.json"
"$BIN/prof-history" add --db "$db" "$T/c2.json" - <"$T/sorted.json" \
	2>"$err"
is "$?:$(cat "$err")" "0:prof-history: run '20261129T181500Z-c0de' is already in '$db'; nothing changed
prof-history: run '20261129T181500Z-c0de' is already in '$db'; nothing changed" \
	"its schema-2 form and its keys sorted, on stdin, are the same run"
jq '.samples[3].duration_ms += 0.5' "$T/c2.json" >"$T/c3.json"
run prof-history add --db "$db" "$T/c3.json"
is "$rc:$(cat "$err")" \
	"2:prof-history: $db: run '20261129T181500Z-c0de' is already there with other content" \
	"one sample changed is another run, refused"
"$BIN/prof-history" add --db "$T/h2.sqlite" - <"$T/c2.json" 2>/dev/null
"$BIN/prof-history" trend --db "$T/h2.sqlite" >"$out"
ok "$(cmp -s "$out" "$E/current.trend.json"; echo $?)" \
	"schema 2 on stdin stores the same rows"
# A history written before the streamed digest holds the SHA-256 of the
# whole document: 64 hex digits.
sqlite3 "$db" "UPDATE runs SET digest = '$(printf %064d 0)'"
run prof-history add --db "$db" "$T/c3.json"
is "$rc:$(cat "$err")" \
	"0:prof-history: run '20261129T181500Z-c0de' is already in '$db', added by an older prof-history whose digest cannot be compared with this file; nothing changed" \
	"a run stored with an older digest is left as it is, and said so"
is "$(sqlite3 "$db" 'SELECT count(*) FROM runs; SELECT count(*) FROM rows' |
	tr '\n' ' ')" "1 11 " "no run and no row is added"

# prof-report --html: the page's rows, statuses and links as before.
mkdir "$T/run"
cp "$cur" "$T/run/results.json"
"$BIN/prof-diff" --baseline "$D/baseline.json" \
	-o "$T/run/comparisons.json" "$T/run/results.json" 2>/dev/null
html() {
	"$BIN/prof-report" --comparisons "$T/run/comparisons.json" \
		--baseline "$D/baseline.json" --history "$db" -q \
		-o "$T/run/summary.md" --html "$T/run/$1" \
		"$T/run/results.json" 2>/dev/null
}
html page1.html
is "$?" 0 "html: the page is written"
is "$(grep -o 'data-status="[a-z]*" data-workload="[^"]*"' \
	"$T/run/page1.html" | sed 's/data-status="//; s/" data-workload="/ /;
	s/"$//' | tr '\n' ,)" \
	"stable browser.boot,incomparable w.checksum,error w.crash,new w.gpu,stable w.half,new w.new,stable w.stable,stable w.under_floor,incomparable w.version,warning w.warning,incomparable w.zero," \
	"one section per row, in order, with its status"
like "$(cat "$T/run/page1.html")" "<tr><td>samples</td><td>40, 1 error</td>" \
	"the samples and errors counted"
cp "$T/c2.json" "$T/run/results.json"
html page2.html
ok "$(cmp -s "$T/run/page1.html" "$T/run/page2.html"; echo $?)" \
	"the schema-2 form gives the same page"
# Diagnose files of two samples of one row, in the samples' order.
jq '.samples += [(.samples[0] | .phase = "profile" | .index = 0 |
	.artifacts = ["w.prof", "w.trace.json", "x.txt"]),
	(.samples[3] | .phase = "profile" | .index = 1 |
	.artifacts = ["sub/w2.prof"])]' "$cur" >"$T/run/results.json"
html page3.html
is "$(grep -o '<p class="links">[^(]*' "$T/run/page3.html" |
	grep -o 'href="[^"]*"' | tr '\n' ' ')" \
	'href="w.warning.prof" href="w.prof" href="w.trace.json" href="sub/w2.prof" ' \
	"the row's diagnose files link in the samples' order"
run prof-report --html "$T/x.html" -q "-" <"$cur"
is "$rc:$(cat "$err")" \
	"2:prof-report: --html reads its inputs again: give them as files, not stdin" \
	"--html still takes files only"
finish
