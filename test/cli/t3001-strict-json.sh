#!/bin/bash
# What json-c lets through is refused by every reader, with its place:
# bytes that are not UTF-8 (issue 14, item 4), integers beyond int64 and
# duplicate keys (item 10), a NUL character (item 15); and prof-merge's
# syntax errors carry the column (item 15).
. "$(dirname "$0")/lib.sh"
plan 23

D=test/data/results

# A byte FF in the command: results, baseline and comparisons readers.
sed '6s/"make profile-quick"/"make \xffprofile-quick"/' $D/current.json \
	>"$T/ff.json"
ff="$T/ff.json:6:20: invalid UTF-8 (byte 0xff)"
run prof-baseline --from "$T/ff.json" --name ff --output "$T/bl"
is "$rc:$(errline)" "2:prof-baseline: $ff" "prof-baseline refuses a byte FF"
ok "$([ ! -e "$T/bl/ff.json" ]; echo $?)" "and writes no baseline"
run prof-diff --baseline $D/baseline.json "$T/ff.json"
is "$rc:$(errline)" "2:prof-diff: $ff" "prof-diff, results"
run prof-diff --baseline "$T/ff.json" $D/current.json
is "$rc:$(errline)" "2:prof-diff: $ff" "prof-diff, baseline"
run prof-report -o "$T/s.md" "$T/ff.json"
is "$rc:$(errline)" "2:prof-report: $ff" "prof-report, results"
cp "$T/ff.json" "$T/cmp.json"
run prof-report --comparisons "$T/cmp.json" -o "$T/s.md" $D/current.json
is "$rc:$(errline)" "2:prof-report: $T/cmp.json:6:20: invalid UTF-8 (byte 0xff)" \
	"prof-report, comparisons"

# Sample streams: a truncated sequence, an overlong form, a surrogate.
jq -c '.samples[0]' $D/current.json >"$T/one.jsonl"
sed 's/"w.warning"/"w.\xc3"/' "$T/one.jsonl" >"$T/cut8.jsonl"
run prof-merge "$T/one.jsonl" "$T/cut8.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/cut8.jsonl:1:35: invalid UTF-8 (byte 0xc3)" \
	"prof-merge: a cut UTF-8 sequence, by line and column"
sed 's/"w.warning"/"w.\xc0\xaf"/' "$T/one.jsonl" >"$T/over.jsonl"
run prof-merge "$T/over.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/over.jsonl:1:35: invalid UTF-8 (byte 0xc0)" \
	"an overlong form"
sed 's/"w.warning"/"w.\xed\xa0\x80"/' "$T/one.jsonl" >"$T/sur.jsonl"
run prof-merge "$T/sur.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/sur.jsonl:1:35: invalid UTF-8 (byte 0xed)" \
	"an encoded surrogate"
printf '{"story": "boot\xfe", "duration_ms": 1}\n' >"$T/pw.jsonl"
run prof-merge --playwright "$T/pw.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/pw.jsonl:1:16: invalid UTF-8 (byte 0xfe)" \
	"browser rows too"
sed 's/"w.warning"/"w.wärning"/' "$T/one.jsonl" >"$T/utf8.jsonl"
run prof-merge "$T/utf8.jsonl"
like "$rc:$(errline)" "2:prof-merge: $T/utf8.jsonl:1: .workload: " \
	"valid UTF-8 passes the reader (and the id rule has its say)"

# Integers beyond int64 are not clamped.
sed '49s/"index": 0/"index": 18446744073709551616/' $D/current.json \
	>"$T/big.json"
run prof-diff --baseline $D/baseline.json "$T/big.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/big.json:49:16: integer 18446744073709551616 is out of range (from -2^63 to 2^63-1)" \
	"2^64 is an error with its place"
run prof-baseline --from "$T/big.json" --name big --output "$T/bl"
is "$rc" 2 "prof-baseline: exit 2"
ok "$([ ! -e "$T/bl/big.json" ]; echo $?)" "and no baseline"
sed 's/"index":0/"index":9223372036854775808/' "$T/one.jsonl" >"$T/big.jsonl"
run prof-merge "$T/big.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/big.jsonl:1:1224: integer 9223372036854775808 is out of range (from -2^63 to 2^63-1)" \
	"2^63 in a stream"
sed 's/"index":0/"index":9223372036854775807/' "$T/one.jsonl" >"$T/max.jsonl"
run prof-merge -o "$T/max.json" "$T/max.jsonl"
is "$rc" 0 "2^63-1 is still an integer"

# Duplicate keys: the second one is named, the last one does not win.
sed '3a\  "samples": [],' $D/current.json >"$T/dup.json"
run prof-diff --baseline $D/baseline.json "$T/dup.json"
is "$rc:$(errline)" "2:prof-diff: $T/dup.json:9:3: duplicate key \"samples\"" \
	"a duplicate top-level key"
run prof-report -o "$T/s.md" "$T/dup.json"
is "$rc:$(errline)" "2:prof-report: $T/dup.json:9:3: duplicate key \"samples\"" \
	"prof-report too"
sed 's/"kind":"warm"/"kind":"warm","\\u006bind":"cold"/' "$T/one.jsonl" \
	>"$T/dup.jsonl"
run prof-merge "$T/dup.jsonl"
is "$rc:$(errline)" "2:prof-merge: $T/dup.jsonl:1:1216: duplicate key \"kind\"" \
	"a key written with an escape is the same key"

# NUL: raw or escaped, said as such.
sed 's/"make profile-quick"/"make \\u0000profile-quick"/' $D/current.json \
	>"$T/nul.json"
run prof-baseline --from "$T/nul.json" --name nul --output "$T/bl"
is "$rc:$(errline)" \
	"2:prof-baseline: $T/nul.json:6:20: a NUL character (\\u0000) in a string" \
	"an escaped NUL"
sed 's/"w.warning"/"w.\x00x"/' "$T/one.jsonl" >"$T/nul.jsonl"
run prof-merge "$T/nul.jsonl"
is "$rc:$(errline)" "2:prof-merge: $T/nul.jsonl:1:35: a NUL byte in a string" \
	"a raw NUL byte is not 'truncated JSON'"

# prof-merge's syntax errors name the column.
sed 's/"kind":"warm"/"kind" "warm"/' "$T/one.jsonl" >"$T/syn.jsonl"
run prof-merge "$T/one.jsonl" "$T/syn.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/syn.jsonl:1:1209: object property name separator ':' expected" \
	"a syntax error in a stream: line and column"
ok "$([ ! -e "$T/r.json" ]; echo $?)" "nothing written"
finish
