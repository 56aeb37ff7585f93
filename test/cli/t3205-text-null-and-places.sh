#!/bin/bash
# Every bad input names its place (issue 19, item 19): "groups": null was
# reported as "...: success", and a number beyond a double as
# ".duration_ms: not a finite number", with neither the sample nor a line.
. "$(dirname "$0")/lib.sh"
plan 9

D=test/data/results
jq '.groups = null' $D/current.json >"$T/gn.json"
for tool in prof-report prof-export; do
	case $tool in
	prof-report) run prof-report -o "$T/s.md" "$T/gn.json" ;;
	prof-export) run prof-export -f csv "$T/gn.json" ;;
	esac
	is "$rc:$(errline)" "2:$tool: $T/gn.json: .groups: expected an object, got null" \
		"$tool: \"groups\": null is refused with its path"
done
jq '.command = null' $D/current.json >"$T/cn.json"
run prof-diff --baseline $D/baseline.json "$T/cn.json"
is "$rc:$(errline)" "2:prof-diff: $T/cn.json: .command: expected a string, got null" \
	"any null member is named by its path"
jq '.samples[3] = null' $D/current.json >"$T/sn.json"
run prof-report -o "$T/s.md" "$T/sn.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/sn.json: .samples[3]: expected a sample object, got null" \
	"a null sample"
printf 'null\n' >"$T/n.jsonl"
run prof-merge -o "$T/r.json" "$T/n.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/n.jsonl:1:1: expected an object or an array, got null" \
	"a null line of a stream"

sed '50s/"duration_ms": 12.8/"duration_ms": 1e999/' $D/current.json >"$T/inf.json"
run prof-report -o "$T/s.md" "$T/inf.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/inf.json:50:22: number 1e999 is not finite (beyond a double)" \
	"a number beyond a double is named by line and column"
jq -c '.samples[0]' $D/current.json |
	sed 's/"duration_ms":[0-9.]*/"duration_ms":-1.5e400/' >"$T/inf.jsonl"
run prof-merge -o "$T/r.json" "$T/inf.jsonl"
like "$rc:$(errline)" "2:prof-merge: $T/inf.jsonl:1:" "in a stream too"
like "$(errline)" ": number -1.5e400 is not finite (beyond a double)" \
	"with the number"
run prof-diff --baseline "$T/inf.json" $D/current.json
is "$rc:$(errline)" \
	"2:prof-diff: $T/inf.json:50:22: number 1e999 is not finite (beyond a double)" \
	"and in a baseline"
finish
