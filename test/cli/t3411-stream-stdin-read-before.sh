#!/bin/bash
# A results file on stdin that was read from before (a shell's script
# that took its first bytes: stdin then starts past the file's start) is
# read as from its name: its groups, read again where they lie, are
# found at the file's offset plus where stdin began, not at the offset
# alone (which gave ".samples[0].group_id: no such id in .groups").
. "$(dirname "$0")/lib.sh"
plan 4

jq -c '.samples[]' "$ROOT/test/data/results/current.json" >"$T/s.jsonl"
"$BIN/prof-merge" --run-id r -o "$T/cur.json" "$T/s.jsonl" || exit 1
{ printf '%10s' ''; cat "$T/cur.json"; } >"$T/padded.json"
"$BIN/prof-diff" --baseline "$ROOT/test/data/results/baseline.json" \
	-o "$T/want.json" "$T/cur.json" || exit 1

{ dd of=/dev/null bs=10 count=1 status=none
	"$BIN/prof-diff" --baseline "$ROOT/test/data/results/baseline.json" \
		-o "$T/got.json" -; } <"$T/padded.json" 2>"$err"
is "$?:$(cat "$err")" "0:" "prof-diff -: stdin 10 bytes in: exit 0, no words"
ok "$(cmp -s "$T/want.json" "$T/got.json"; echo $?)" \
	"the comparisons are those of the file by its name"

{ dd of=/dev/null bs=10 count=1 status=none
	"$BIN/prof-export" --format csv -o "$T/got.csv" -; } \
	<"$T/padded.json" 2>"$err"
is "$?:$(cat "$err")" "0:" "prof-export -: stdin 10 bytes in: exit 0"
"$BIN/prof-export" --format csv -o "$T/want.csv" "$T/cur.json" || exit 1
ok "$(cmp -s "$T/want.csv" "$T/got.csv"; echo $?)" \
	"the csv is that of the file by its name"
finish
