#!/bin/bash
# One exit-code rule (issue 14, item 11): bad arguments and bad input 2,
# an unfit run 1; an -o that names an input is refused (item 12); a
# newline in a baseline name does not split the error (item 15).
. "$(dirname "$0")/lib.sh"
plan 22

D=test/data/results
B=$T/bl

# prof-baseline: a malformed schema_version is bad input, as in prof-diff.
jq '.schema_version = "1"' $D/baseline.json >"$T/sv.json"
run prof-baseline --from "$T/sv.json" --name sv --output "$B"
is "$rc:$(errline)" \
	"2:prof-baseline: $T/sv.json: .schema_version: expected an integer, got a string" \
	"prof-baseline: a string schema_version is exit 2"
run prof-diff --baseline $D/baseline.json "$T/sv.json"
is "$rc" 2 "as prof-diff says"
jq 'del(.samples[1].schema_version)' $D/baseline.json >"$T/sv2.json"
run prof-baseline --from "$T/sv2.json" --name sv --output "$B"
is "$rc:$(errline)" \
	"2:prof-baseline: $T/sv2.json: .samples[1].schema_version: missing" \
	"a missing sample schema_version is exit 2"
run prof-baseline --from $D/mixed-schema.json --name m --output "$B"
is "$rc" 1 "mixed (integer) schema versions stay a refusal (1)"
run prof-baseline --from $D/empty.json --name e --output "$B"
is "$rc" 1 "an empty run is unfit (1)"

# A bad --name is a bad argument, said on one line.
run prof-baseline --from $D/baseline.json --name "$(printf 'a\nb')" --output "$B"
is "$rc" 2 "a newline in the name: exit 2"
is "$(wc -l <"$err")" 1 "the error is one line"
is "$(cat "$err")" \
	"prof-baseline: --name: 'a\\x0ab' is not a valid baseline name: byte 0x0a at offset 1 is not allowed (letters, digits, '.', '_' and '-')" \
	"with the newline escaped and its offset"
ok "$([ ! -e "$B" ]; echo $?)" "nothing written"

# make baseline-update tells a bad name from an unfit run.
run make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
	BINDIR="$BIN" baseline-update FROM=$D/baseline.json NAME=../evil DIR="$B"
is "$rc" 2 "make baseline-update NAME=../evil: exit 2"
like "$(cat "$err")" "make baseline-update: exit code 2 (bad arguments or input; nothing was written)" \
	"and does not blame the run"
run make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
	BINDIR="$BIN" baseline-update FROM=$D/empty.json NAME=e DIR="$B"
like "$(cat "$err")" "make baseline-update: exit code 1 (the run is unfit" \
	"an unfit run is still said as such"

# -o naming an input: refused, the input intact.
cp $D/current.json "$T/r.json"
sum=$(cksum <"$T/r.json")
run prof-report -o "$T/r.json" "$T/r.json"
is "$rc:$(errline)" \
	"2:prof-report: -o: '$T/r.json' is an input; refusing to overwrite it" \
	"prof-report -o RESULTS"
is "$(cksum <"$T/r.json")" "$sum" "the results are intact"
cp $D/baseline.json "$T/b.json"
run prof-diff --baseline "$T/b.json" -o "$T/b.json" "$T/r.json"
is "$rc:$(errline)" \
	"2:prof-diff: -o: '$T/b.json' is an input; refusing to overwrite it" \
	"prof-diff -o BASELINE"
run prof-diff --baseline "$T/b.json" -o "$T/./r.json" "$T/r.json"
is "$rc" 2 "prof-diff -o RESULTS, by another spelling"
run prof-diff --baseline "$T/b.json" -o "$T/c.json" "$T/r.json"
run prof-report --comparisons "$T/c.json" -o "$T/c.json" "$T/r.json"
is "$rc" 2 "prof-report -o COMPARISONS"
jq -c '.samples[]' $D/current.json >"$T/s.jsonl"
ln -s s.jsonl "$T/link.jsonl"
run prof-merge -o "$T/link.jsonl" "$T/s.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: -o: '$T/link.jsonl' is an input; refusing to overwrite it" \
	"prof-merge -o a link to its input"
run prof-merge -o "$T/s.jsonl" --playwright "$T/s.jsonl"
is "$rc" 2 "prof-merge -o a --playwright input"
is "$(jq -s length "$T/s.jsonl")" 40 "the samples are intact"
mkdir -p "$B"
cp $D/baseline.json "$B/self.json"
run prof-baseline --from "$B/self.json" --name self --output "$B"
is "$rc:$(errline)" \
	"2:prof-baseline: --name: '$B/self.json' is an input; refusing to overwrite it" \
	"prof-baseline onto its own input"
run prof-report --run-dir "$T" -o - "$T/r.json"
is "$rc" 0 "-o - is stdout, never an input"
finish
