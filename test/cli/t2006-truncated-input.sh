#!/bin/bash
# A results file cut in the middle: every tool that reads one names its
# line and column, exits 2 and writes nothing.
. "$(dirname "$0")/lib.sh"
plan 14

D=test/data/results
cut="$D/truncated.json:89:10: unexpected end of input (truncated JSON)"

run prof-diff --baseline $D/baseline.json -o "$T/c.json" $D/truncated.json
is "$rc:$(errline)" "2:prof-diff: $cut" "prof-diff, results"
ok "$([ ! -e "$T/c.json" ]; echo $?)" "writes nothing"

run prof-diff --baseline $D/truncated.json -o "$T/c.json" $D/current.json
is "$rc:$(errline)" "2:prof-diff: $cut" "prof-diff, baseline"
ok "$([ ! -e "$T/c.json" ]; echo $?)" "writes nothing"

run prof-report -o "$T/s.md" $D/truncated.json
is "$rc:$(errline)" "2:prof-report: $cut" "prof-report, results"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "writes nothing"

cp $D/truncated.json "$T/comparisons.json"
run prof-report --comparisons "$T/comparisons.json" -o "$T/s.md" \
	$D/current.json
is "$rc:$(errline)" \
	"2:prof-report: $T/comparisons.json:89:10: unexpected end of input (truncated JSON)" \
	"prof-report, comparisons"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "writes nothing"

run prof-baseline --from $D/truncated.json --name cut --output "$T/bl"
is "$rc:$(errline)" "2:prof-baseline: $cut" "prof-baseline"
ok "$([ ! -e "$T/bl/cut.json" ]; echo $?)" "writes nothing"

run prof-diff --baseline $D/baseline.json - <$D/truncated.json
like "$rc:$(errline)" "2:prof-diff: -:89:10: unexpected end of input" \
	"from stdin too"

# A cut sample stream: prof-merge names the file and line.
jq -c '.samples[]' $D/current.json | head -c 2500 >"$T/cut.jsonl"
run prof-merge -o "$T/r.json" "$T/cut.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/cut.jsonl:2:1178: unexpected end of input (truncated JSON)" \
	"prof-merge names the line and column of a cut stream"
ok "$([ ! -e "$T/r.json" ]; echo $?)" "writes nothing"

# A syntax error in the middle: line and column of the bad token.
sed '4s/"run_id":/"run_id" x:/' $D/current.json >"$T/syntax.json"
run prof-diff --baseline $D/baseline.json "$T/syntax.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/syntax.json:4:12: object property name separator ':' expected" \
	"a syntax error names its line and column"
finish
