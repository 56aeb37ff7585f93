#!/bin/bash
# Calibration numbers outside plausible bounds are refused with their JSON
# path (issue 19, item 17): a median of 1e308 said "machine inf% slower",
# a spread of 1e300 printed a 300-digit percentage, a median of 0 was
# taken. The kernel's times are from 0.001 to 60000 ms, a spread from 0
# to 1e6 %, a steal from 0 to 100 %.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
cal='.calibration = {kernel: "prof-calib-1", n: 1, min_ms: 4, median_ms: 4,
	max_ms: 4, spread_pct: 0, machine: null,
	points: [{at: "start", int_ms: 2, mem_ms: 2, ms: 4}]}'
jq "$cal" $D/current.json >"$T/cur.json"
jq ".run_id = \"base\" | $cal" $D/baseline.json >"$T/base.json"
run prof-diff --baseline "$T/base.json" -o "$T/c.json" "$T/cur.json"
is "$rc:$(errline)" "0:" "a plausible calibration is taken"

bad() { # FILTER FILE: the file made bad by FILTER, then prof-diff
	jq "$1" "$2" >"$T/bad.json"
	run prof-diff --baseline "$T/base.json" -o "$T/c2.json" "$T/bad.json"
}
times="(expected from 0.001 to 60000 ms)"
bad '.calibration.median_ms = 1e308' "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.median_ms: 1e+308 ms is not a plausible time of the calibration kernel $times" \
	"a median of 1e308 is refused with its path"
ok "$([ ! -e "$T/c2.json" ]; echo $?)" "and nothing is written"
bad '.calibration.median_ms = 0' "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.median_ms: 0 ms is not a plausible time of the calibration kernel $times" \
	"a median of 0"
bad '.calibration.spread_pct = 1e300' "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.spread_pct: 1e+300% is not a plausible spread (expected from 0 to 1e+06%)" \
	"a spread of 1e300"
bad '.calibration.points[0].mem_ms = 1e-9' "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.points[0].mem_ms: 1e-09 ms is not a plausible time of the calibration kernel $times" \
	"a point's time"
bad '.calibration.machine = {load_avg: null, steal_pct: 250, governor: null,
	aslr: null}' "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.machine.steal_pct: 250% is not a plausible steal (expected from 0 to 100%)" \
	"a steal above 100%"

# The baseline is read by the same rule.
jq '.calibration.median_ms = 1e308' "$T/base.json" >"$T/base2.json"
run prof-diff --baseline "$T/base2.json" -o "$T/c2.json" "$T/cur.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/base2.json: .calibration.median_ms: 1e+308 ms is not a plausible time of the calibration kernel $times" \
	"in a baseline too"

# A stream's calibration record, as prof-merge reads it.
printf '%s\n' '{"record":"calibration","kernel":"prof-calib-1","at":"start","int_ms":1e308,"mem_ms":2,"ms":4}' \
	>"$T/s.jsonl"
run prof-merge -o "$T/r.json" "$T/s.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/s.jsonl:1: .int_ms: 1e+308 ms is not a plausible time of the calibration kernel $times" \
	"prof-merge refuses such a record with its line"
ok "$([ ! -e "$T/r.json" ]; echo $?)" "and writes nothing"
finish
