#!/bin/bash
# prof-diff writes its comparisons one at a time (prof_out_json_array(),
# out.h), as the pretty array it wrote of them all before: 40,000 rows as
# one json-c tree took 687 MB (make bench-tools' rows), one at a time
# 166 MB. The text is the same on stdout and in a file, the same JSON, and
# laid out as json-c lays out one array: "[", each element two spaces in,
# "," between them, "]" and a newline; no rows is "[\n]\n". A failed write
# is exit 2 naming the output, and leaves no file.
. "$(dirname "$0")/lib.sh"
plan 9

D=test/data/results
run prof-diff --baseline $D/baseline.json $D/current.json
is "$rc" 0 "prof-diff on stdout"
cp "$out" "$T/stdout.json"
run prof-diff --baseline $D/baseline.json -o "$T/c.json" $D/current.json
is "$rc:$(cat "$out")" "0:" "prof-diff -o"
ok "$(cmp -s "$T/stdout.json" "$T/c.json"; echo $?)" \
	"the same bytes on stdout and in the file"
jq_ok 'length == 18 and all(.[]; .run_id == "20261129T181500Z-c0de" and
	(.status | type) == "string")' "$T/c.json" "one JSON array of the 18 rows"
is "$(head -n 2 "$T/c.json" | tr '\n' '|'):$(tail -n 2 "$T/c.json" |
	tr '\n' '|'):$(grep -c '^  {$' "$T/c.json"):$(grep -c '^  },$' "$T/c.json")" \
	'[|  {|:  }|]|:18:17' \
	"laid out as one pretty array: each element two spaces in"
is "$(sed '1d;$d' "$T/c.json" | grep -vc '^  ')" 0 \
	"every line of an element is indented"

jq '.samples = []' $D/current.json >"$T/none.json"
run prof-diff --baseline $D/baseline.json "$T/none.json"
is "$rc:$(od -An -c "$out" | tr -s ' ')" "0: [ \n ] \n" \
	"no rows: an empty array"

run prof-diff --baseline $D/baseline.json -o /dev/full $D/current.json
is "$rc:$(cat "$err")" \
	"2:prof-diff: /dev/full: write failed: No space left on device" \
	"a failed write: exit 2, naming the output"
mkdir "$T/ro"
chmod 555 "$T/ro"
if [ -w "$T/ro" ]; then
	ok 0 "# SKIP a folder root can write to"
else
	run prof-diff --baseline $D/baseline.json -o "$T/ro/c.json" \
		$D/current.json
	is "$rc:$(ls -A "$T/ro")" "2:" "an output that cannot be made: exit 2, no file"
fi
finish
