#!/bin/bash
# Commits, commands and notes never reach a log, a summary or a file raw
# (issue 19, items 11 and 12): a commit follows one rule (id.h's
# prof_commit_valid(): printable ASCII, not starting with a space or '-')
# in every reader and in prof-merge --commit; an option that is only
# recorded (--command, --commit, --note) must be UTF-8; summary.md shows
# control characters of a free text (the command) as \xNN.
. "$(dirname "$0")/lib.sh"
plan 15

D=test/data/results
esc=$(printf '\033')
allowed="(printable ASCII)"

run prof-merge --commit "abc
::error::x${esc}[31m" -o "$T/r.json" /dev/null
is "$rc:$(errline)" \
	"2:prof-merge: --commit: 'abc\\x0a::error::x\\x1b[31m' is not a valid commit: byte 0x0a at offset 3 is not allowed $allowed" \
	"prof-merge refuses a newline in --commit, naming the option"
ok "$([ ! -e "$T/r.json" ]; echo $?)" "and writes nothing"
run prof-merge --commit "$(printf 'c\303')" -o "$T/r.json" /dev/null
is "$rc:$(errline)" \
	"2:prof-merge: --commit: 'c\\xc3' is not a valid commit: byte 0xc3 at offset 1 is not allowed $allowed" \
	"and a byte that is not ASCII"
run prof-merge --commit v1.2-3-gabc-dirty -o "$T/r.json" /dev/null
is "$rc:$(jq -r .commit "$T/r.json")" "0:v1.2-3-gabc-dirty" \
	"a described commit is taken"

run prof-merge --command "$(printf 'make \377')" -o "$T/r.json" /dev/null
is "$rc:$(errline)" \
	"2:prof-merge: --command: byte 0xff at offset 5 is not UTF-8" \
	"--command that is not UTF-8 is refused, naming the option"
run prof-report --note "$(printf 'a\377')" -o "$T/s.md" $D/current.json
is "$rc:$(errline)" "2:prof-report: --note: byte 0xff at offset 1 is not UTF-8" \
	"so is --note"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "and nothing is written"

# A results file whose commit would start a workflow command in a CI log.
jq '.commit = "\n::error::x\u001b[31m"' $D/current.json >"$T/bad.json"
why=".commit: not a valid commit: byte 0x0a at offset 0 is not allowed $allowed"
run prof-history add --db "$T/h.db" "$T/bad.json"
is "$rc:$(errline)" "2:prof-history: $T/bad.json: $why" \
	"prof-history add refuses it with its path"
is "$(cat "$out" "$err" | grep -c '::error::')" 0 \
	"and prints no workflow command"
run prof-report -o "$T/s.md" "$T/bad.json"
is "$rc:$(errline)" "2:prof-report: $T/bad.json: $why" "prof-report too"
run prof-diff --baseline $D/baseline.json "$T/bad.json"
is "$rc:$(errline)" "2:prof-diff: $T/bad.json: $why" "prof-diff too"
run prof-export -f csv "$T/bad.json"
is "$rc:$(errline)" "2:prof-export: $T/bad.json: $why" "prof-export too"

# Cut to 12 bytes for the table, a commit of this could end inside a
# character (issue 19, item 19): ASCII only, a cut never does.
jq '.commit = "abcdefghijk\u00e9"' $D/current.json >"$T/cut.json"
run prof-report -o "$T/s.md" "$T/cut.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/cut.json: .commit: not a valid commit: byte 0xc3 at offset 11 is not allowed $allowed" \
	"a commit that is not ASCII is refused"

# A command is free text: kept, and shown escaped in summary.md.
jq '.command = "make \u001b[31mred\u0007"' $D/current.json >"$T/cmd.json"
run prof-report -o "$T/s.md" "$T/cmd.json"
is "$rc" 0 "a command with control characters is reported"
like "$(grep -F '| command |' "$T/s.md")" '`make \x1b[31mred\x07`' \
	"summary.md shows them as \\xNN, never raw"
finish
