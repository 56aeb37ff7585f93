#!/bin/bash
# Stored strings are capped (issue 19, item 19): a results reader keeps at
# most 64 KiB of any string and a reason at most 4 KiB, cut between two
# characters (never inside a UTF-8 character or an escape) and marked
# "[... cut, N bytes]" with the size it had. One 200 MB reason cost
# prof-report 1.2 GB; prof-time writes at most 4 KiB of a reason.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
i=$(jq '.samples | map(.outcome) | index("error")' $D/current.json)
long() { # JQ-STRING-EXPR FILE: the error sample's reason set to it
	jq ".samples[$i].reason = ($1)" $D/current.json >"$2"
}
long '"x" * 1048576' "$T/x.json"
run prof-export -f csv -o "$T/x.csv" "$T/x.json"
is "$rc" 0 "a results file with a 1 MiB reason is read"
reason=$(jq -rs '.[] | select(.outcome == "error") | .reason' "$T/x.json" |
	head -c 0; grep -o 'x*x \[\.\.\. cut, [0-9]* bytes\]' "$T/x.csv")
is "${#reason}" $((4096 + 25)) "its reason is kept to 4 KiB and marked"
like "$reason" "x [... cut, 1048576 bytes]" "with the size it had"

long '"\u00e9" * 50000' "$T/e.json"
run prof-report -o "$T/s.md" "$T/e.json"
is "$rc" 0 "a long reason of two-byte characters is read"
ok "$(iconv -f UTF-8 -t UTF-8 "$T/s.md" >/dev/null 2>&1; echo $?)" \
	"and cut between characters: summary.md is valid UTF-8"
n=$(grep -n '"reason": "worker killed' $D/current.json | cut -d: -f1)
{
	head -n $((n - 1)) $D/current.json
	printf '      "reason": "'
	printf '\\u00e9%.0s' $(seq 20000)
	printf '",\n'
	tail -n +$((n + 1)) $D/current.json
} >"$T/u.json"
run prof-report -o "$T/s.md" "$T/u.json"
is "$rc" 0 "a long reason of \\u escapes is cut between escapes"
is "$(grep -o 'é \\\[\.\.\. cut, [0-9]* bytes\\\]' "$T/s.md")" \
	'é \[... cut, 120000 bytes\]' \
	"and marked with its size in the file (its brackets escaped)"
{
	head -n $((n - 1)) $D/current.json
	printf '      "reason": "'
	printf '\\ud83d\\ude00%.0s' $(seq 6000)
	printf '",\n'
	tail -n +$((n + 1)) $D/current.json
} >"$T/p.json"
run prof-report -o "$T/s.md" "$T/p.json"
is "$rc" 0 "a long reason of surrogate pairs is never cut inside a pair"

jq '.command = "c" * 100000' $D/current.json >"$T/c.json"
run prof-report -o "$T/s.md" "$T/c.json"
is "$rc" 0 "a 100 kB command is read"
like "$(grep '| command |' "$T/s.md")" "cc [... cut, 100000 bytes]" \
	"cut at 64 KiB and marked"
finish
