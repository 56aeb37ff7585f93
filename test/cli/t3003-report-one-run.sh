#!/bin/bash
# Comparisons carry the run id of the results they were made from, and
# prof-report refuses those of another run (issue 14, item 9).
. "$(dirname "$0")/lib.sh"
plan 7

D=test/data/results
jq '.run_id = "20261130T120000Z-beef"' $D/current.json >"$T/b.json"
run prof-diff --baseline $D/baseline.json -o "$T/cmp-b.json" "$T/b.json"
is "$rc" 0 "comparisons of run B"
jq_ok 'length > 0 and all(.[]; .run_id == "20261130T120000Z-beef")' \
	"$T/cmp-b.json" "every comparison names run B"
run prof-report --comparisons "$T/cmp-b.json" -o "$T/s.md" $D/current.json
is "$rc:$(errline)" \
	"2:prof-report: $T/cmp-b.json: [0].run_id: a comparison of run '20261130T120000Z-beef', not of the results' run '20261129T181500Z-c0de'" \
	"run A's results with run B's comparisons: exit 2"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "and no summary"
jq 'map(del(.run_id))' "$T/cmp-b.json" >"$T/old.json"
run prof-report --comparisons "$T/old.json" -o "$T/s.md" "$T/b.json"
is "$rc:$(errline)" "2:prof-report: $T/old.json: [0].run_id: missing" \
	"comparisons without a run id are refused"
run prof-report --comparisons "$T/cmp-b.json" -o "$T/s.md" "$T/b.json"
is "$rc" 0 "the same run is reported"
like "$(head -1 "$T/s.md")" "20261130T120000Z-beef" "under its own header"
finish
