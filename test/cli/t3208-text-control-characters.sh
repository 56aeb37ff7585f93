#!/bin/bash
# A control character from outside never reaches a terminal or a CI log
# raw (issue 19, item 11): a reason is written as one line (\xNN for a
# control character, a space for white space), every tool's message writes
# the control characters a value brought in as \xNN, and summary.md too.
. "$(dirname "$0")/lib.sh"
plan 6

esc=$(printf '\033')
run prof-time --name u --repeat 1 -o "$T/s.jsonl" -- \
	sh -c 'printf "\033[31mred\r::error::x\tz\n" >&2; exit 3'
is "$rc" 1 "the failing command is an error sample"
jq_ok '.reason == "exited with status 3, expected 0: \\x1b[31mred ::error::x z"' \
	"$T/s.jsonl" "its reason is one line, the ESC written \\x1b"

D=test/data/results
jq '(.samples[] | select(.outcome == "error") | .reason) =
	"boom\u001b[31m\n::error::x"' $D/current.json >"$T/esc.json"
run prof-baseline --from "$T/esc.json" --name x --output "$T/bl"
is "$rc:$(errline)" \
	"1:prof-baseline: refusing '$T/esc.json': the run has 1 error sample; the first, .samples[36] (w.crash, cpu): boom\\x1b[31m\\x0a::error::x" \
	"a message quoting a reason from a file escapes its control characters"
is "$(grep -c "$esc" "$err")" 0 "no ESC reaches stderr"
run env GITHUB_ACTIONS=true "$BIN/prof-report" -o "$T/s.md" "$T/esc.json"
is "$(cat "$T/s.md" "$out" | grep -c "$esc\|^::error")" 0 \
	"nor summary.md, nor the compact table"
like "$(grep 'w.crash' "$T/s.md")" 'boom\x1b\[31m ::error::x' \
	"summary.md shows it as \\x1b"
finish
