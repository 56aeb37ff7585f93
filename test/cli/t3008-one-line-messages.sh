#!/bin/bash
# What a tool prints quoting its input stays on one line (issue 14, items 8
# and 15), and the outputs of prof-report --html and prof-export are never
# one of their inputs (item 12).
. "$(dirname "$0")/lib.sh"
plan 7

D=test/data/results
jq '(.samples[] | select(.outcome == "error") | .reason) = "boom\n::error ::x"' \
	$D/current.json >"$T/r.json"
run prof-baseline --from "$T/r.json" --name r --output "$T/bl"
is "$rc:$(wc -l <"$err")" "1:1" "prof-baseline: an error reason with a newline, one line"
like "$(cat "$err")" 'boom\x0a::error ::x' "the newline escaped"

jq -c '.samples[0] | .metrics = {"a\nb": {}}' $D/current.json >"$T/m.jsonl"
run prof-merge "$T/m.jsonl"
is "$rc:$(cat "$err")" \
	"2:prof-merge: $T/m.jsonl:1: .metrics.a\\x0ab: expected a scalar (number, string or boolean), got an object" \
	"a key with a newline in a JSON path"

cp $D/current.json "$T/c.json"
sum=$(cksum <"$T/c.json")
run prof-report --html "$T/c.json" -o "$T/s.md" "$T/c.json"
is "$rc:$(errline)" \
	"2:prof-report: --html: '$T/c.json' is an input; refusing to overwrite it" \
	"prof-report --html onto the results"
run prof-export --format csv -o "$T/c.json" "$T/c.json"
is "$rc:$(errline)" \
	"2:prof-export: -o: '$T/c.json' is an input; refusing to overwrite it" \
	"prof-export -o onto the results"
is "$(cksum <"$T/c.json")" "$sum" "the results are intact"
run prof-export --format csv -o "$T/x.csv" "$T/c.json"
is "$rc" 0 "prof-export to another file works"
finish
