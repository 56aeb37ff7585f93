#!/bin/bash
# A Playwright row's numbers are range-checked where they enter (issue 28,
# item 2): "duration_ms": 1e308 was rounded to nanoseconds (inf), written
# as null and refused as "expected a number, got null"; now the value and
# the range are named.
. "$(dirname "$0")/lib.sh"
plan 5

range="(expected 0, or from 1e-09 to 1e+09 ms)"
row() { # JSON: one Playwright row
	printf '%s\n' "$1" >"$T/pw.jsonl"
	run prof-merge --playwright "$T/pw.jsonl" -o "$T/r.json"
}
row '{"workload":"browser.boot","duration_ms":1e308}'
is "$rc:$(errline)" \
	"2:prof-merge: $T/pw.jsonl:1: .duration_ms: 1e+308 ms cannot be judged $range" \
	"1e308 ms is named with the range"
ok "$([ ! -e "$T/r.json" ]; echo $?)" "and nothing is written"
row '{"workload":"browser.boot","duration_ms":1e-12}'
is "$rc:$(errline)" \
	"2:prof-merge: $T/pw.jsonl:1: .duration_ms: 1e-12 ms cannot be judged $range" \
	"below a picosecond"
row '{"workload":"browser.boot","duration_ms":12,"warning_floor_ms":1e300}'
is "$rc:$(errline)" \
	"2:prof-merge: $T/pw.jsonl:1: .warning_floor_ms: 1e+300 ms cannot be judged $range" \
	"a warning floor of 1e300 ms"
row '{"workload":"browser.boot","duration_ms":1e9}'
is "$rc:$(jq '.samples[0].duration_ms' "$T/r.json")" "0:1000000000" \
	"1e9 ms, the top of the range, is taken"
finish
