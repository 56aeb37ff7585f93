#!/bin/bash
# prof-report takes a comparisons file only when its rows are the results'
# rows, each once, and a warning row has its numbers (issue 19, items 18
# and 19): a warning with null numbers printed "nan ms, +nan%" in a CI
# line; duplicated, extra or missing rows were reported as if true.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
run prof-diff --baseline $D/baseline.json -o "$T/c.json" $D/current.json
is "$rc" 0 "prof-diff writes the comparisons"
report() { # COMPARISONS: prof-report in a CI job
	run env GITHUB_ACTIONS=true "$BIN/prof-report" --comparisons "$1" \
		-o "$T/s.md" $D/current.json
}
report "$T/c.json"
is "$rc:$(grep -c '^::warning' "$out")" "0:1" "as they are: reported, one warning"

i=$(jq 'map(.workload) | index("w.warning")' "$T/c.json")
jq ".[$i].ratio = null | .[$i].delta_ms = null | .[$i].current.median = null" \
	"$T/c.json" >"$T/nan.json"
rm -f "$T/s.md"
report "$T/nan.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/nan.json: [$i].ratio: a warning row needs a number, got null" \
	"a warning row with null numbers is refused with its path"
is "$(grep -c nan "$out")" 0 "and no CI line says nan"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "nor is summary.md written"

jq '. + [.[0]]' "$T/c.json" >"$T/dup.json"
n=$(jq length "$T/c.json")
report "$T/dup.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/dup.json: [$n]: the same row as [0] (browser.boot, chromium)" \
	"a duplicated row is refused with its path"

jq '.[0].workload = "w.other"' "$T/c.json" >"$T/extra.json"
report "$T/extra.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/extra.json: [0]: no such row in the results (w.other, chromium)" \
	"an extra row"
jq '.[0].segment = "{}"' "$T/c.json" >"$T/seg.json"
report "$T/seg.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/seg.json: [0]: no such row in the results (browser.boot, chromium)" \
	"a row of another segment"

jq 'del(.[1])' "$T/c.json" >"$T/missing.json"
report "$T/missing.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/missing.json: .: no row for the results' w.checksum (cpu)" \
	"a missing row"
jq '[]' "$T/c.json" >"$T/empty.json"
report "$T/empty.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/empty.json: .: no row for the results' browser.boot (chromium)" \
	"an empty comparisons file for a run that has rows"
finish
