#!/bin/bash
# Values that cannot be judged are refused at read time with their JSON
# path (issue 14, item 5), and workload ids and backends follow the one
# rule of id.h in every reader (item 8).
. "$(dirname "$0")/lib.sh"
plan 16

D=test/data/results

sed '50s/"duration_ms": 12.8/"duration_ms": 1e13/' $D/current.json >"$T/huge.json"
run prof-diff --baseline $D/baseline.json -o "$T/c.json" "$T/huge.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/huge.json: .samples[0].duration_ms: 1e+13 ms cannot be judged (expected 0, or from 1e-09 to 1e+09 ms)" \
	"a duration of 1e13 ms is refused with its path"
ok "$([ ! -e "$T/c.json" ]; echo $?)" "and nothing is written"

sed '16s/"warning_floor_ms": 1/"warning_floor_ms": 1e19/' $D/current.json >"$T/floor.json"
run prof-diff --baseline $D/baseline.json "$T/floor.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/floor.json: .samples[0].warning_floor_ms: 1e+19 ms cannot be judged (expected 0, or from 1e-09 to 1e+09 ms)" \
	"a floor of 1e19 ms is refused"

sed 's/"duration_ms": 9.8,/"duration_ms": 1e-310,/; s/"duration_ms": 10,/"duration_ms": 1e-310,/g; s/"duration_ms": 10.1,/"duration_ms": 1e-310,/; s/"duration_ms": 10.2,/"duration_ms": 1e-310,/' \
	$D/baseline.json >"$T/denormal.json"
run prof-diff --baseline "$T/denormal.json" $D/current.json
is "$rc:$(errline)" \
	"2:prof-diff: $T/denormal.json: .samples[0].duration_ms: 1e-310 ms cannot be judged (expected 0, or from 1e-09 to 1e+09 ms)" \
	"a denormal baseline duration is refused"
run prof-baseline --from "$T/huge.json" --name huge --output "$T/bl"
is "$rc" 2 "prof-baseline refuses it as bad input (2)"
run prof-report -o "$T/s.md" "$T/floor.json"
is "$rc" 2 "prof-report too"

# Just inside the range is judged as usual.
sed '50s/"duration_ms": 12.8/"duration_ms": 1e9/' $D/current.json >"$T/max.json"
run prof-diff --baseline $D/baseline.json -o "$T/c.json" "$T/max.json"
is "$rc" 0 "1e9 ms is still judged"
jq_ok '.[] | select(.workload == "w.warning" and .phase == "timing") |
	.status == "warning"' "$T/c.json" "as a warning (its time row)"

# Workload ids: a newline (CI workflow command injection), a slash.
sed '11s/"w.warning"/"w.warning\\n::error ::pwned"/' $D/current.json >"$T/nl.json"
why="not a valid workload id: byte 0x0a at offset 9 is not allowed (letters, digits, '.', '_' and '-')"
run prof-report -o "$T/s.md" "$T/nl.json"
is "$rc:$(errline)" "2:prof-report: $T/nl.json: .samples[0].workload: $why" \
	"prof-report refuses a newline in a workload id"
run prof-diff --baseline "$T/nl.json" $D/current.json
is "$rc:$(errline)" "2:prof-diff: $T/nl.json: .samples[0].workload: $why" \
	"prof-diff, in a baseline"
run prof-baseline --from "$T/nl.json" --name nl --output "$T/bl"
is "$rc:$(errline)" "2:prof-baseline: $T/nl.json: .samples[0].workload: $why" \
	"prof-baseline"
jq -c '.samples[0] | .workload = "../w"' $D/current.json >"$T/slash.jsonl"
run prof-merge "$T/slash.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/slash.jsonl:1: .workload: not a valid workload id: '/' at offset 2 is not allowed (letters, digits, '.', '_' and '-')" \
	"prof-merge"
jq -c '.samples[0] | .backend = "-cpu"' $D/current.json >"$T/be.jsonl"
run prof-merge "$T/be.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/be.jsonl:1: .backend: not a valid backend: starts with '-' (the first must be a letter or a digit)" \
	"a backend follows the same rule"
printf '{"story": "a b", "duration_ms": 1}\n' >"$T/pw.jsonl"
run prof-merge --playwright "$T/pw.jsonl"
like "$rc:$(errline)" "2:prof-merge: $T/pw.jsonl:1: .workload: not a valid workload id: byte 0x20" \
	"a browser story name too"

# Comparisons are readers too.
run prof-diff --baseline $D/baseline.json -o "$T/c.json" $D/current.json
jq '.[0].workload = "w\u001b[31m"' "$T/c.json" >"$T/esc.json"
run prof-report --comparisons "$T/esc.json" -o "$T/s.md" $D/current.json
is "$rc:$(errline)" \
	"2:prof-report: $T/esc.json: [0].workload: not a valid workload id: byte 0x1b at offset 1 is not allowed (letters, digits, '.', '_' and '-')" \
	"an escape sequence in a comparison's workload"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "and no summary"
finish
