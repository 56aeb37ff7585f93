#!/bin/bash
# A memory sample's "call" (its call index in its worker, by which
# prof-diff checks that the exact metrics repeat) is an integer >= 0, or
# the sample is refused where it is read: file, line and JSON path, exit
# 2, no output written. (It was taken as is: a string fell back to the
# sample's index in silence, a fraction was cut to an index of its own.)
. "$(dirname "$0")/lib.sh"
plan 6

"$BIN/prof-mem" diagnose test.alloc --workloads "$TW" -q -o "$T/m.jsonl"
jq_ok -s 'map(select(.phase == "memory")) | length == 2 and
	all(.[]; .call == 0)' "$T/m.jsonl" "prof-mem writes call 0 twice"

bad() { # JQ-ASSIGNMENT
	jq -c "if .phase == \"memory\" and .index == 1 then $1 else . end" \
		"$T/m.jsonl" >"$T/bad.jsonl"
	rm -f "$T/bad.json"
	run prof-merge -o "$T/bad.json" "$T/bad.jsonl"
	line=$(grep -n '"phase":"memory","kind":"warm","index":1' \
		"$T/bad.jsonl" | cut -d: -f1)
}
bad '.call = "0"'
is "$rc:$(errline)" \
	"2:prof-merge: $T/bad.jsonl:$line: .call: expected an integer, got a string" \
	"a string: exit 2, the file, line and path"
ok "$([ ! -e "$T/bad.json" ]; echo $?)" "and nothing written"
bad '.call = -1'
is "$rc:$(errline)" \
	"2:prof-merge: $T/bad.jsonl:$line: .call: expected an integer >= 0" \
	"a negative index"
bad '.call = 0.5'
is "$rc:$(errline)" \
	"2:prof-merge: $T/bad.jsonl:$line: .call: expected an integer, got a number" \
	"a fraction"
run prof-merge -o "$T/good.json" "$T/m.jsonl"
is "$rc" 0 "the samples as written are read"
finish
