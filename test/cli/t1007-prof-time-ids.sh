#!/bin/bash
# Workload ids are validated where they enter: prof-time --name, and the
# harness at start-up; a bad id never reaches a terminal or a CI log raw.
. "$(dirname "$0")/lib.sh"
plan 7

run prof-time --name $'c.x\n::error ::injected' --repeat 1 -- true
is "$rc:$(wc -l <"$err" | tr -d ' ')" "2:1" "a newline in --name: exit 2, one line"
is "$(errline)" \
	"prof-time: --name: not a workload id: byte 0x0a at offset 3 is not allowed (letters, digits, '.', '_' and '-')" \
	"the reason names the byte and the rule"
run prof-time --name --repeat -- true
is "$rc:$(errline)" \
	"2:prof-time: --name: not a workload id: starts with '-' (the first must be a letter or a digit)" \
	"an id that looks like an option is refused"
run prof-time --name a/b --repeat 1 -- true
is "$rc" 2 "a slash is refused"

B=$TBIN/prof-badid-workloads
run "$B" --list
is "$rc:$(cat "$err")" \
	"2:prof-badid-workloads: workload 'test.bad\\x0a::error ::injected': byte 0x0a at offset 8 is not allowed (letters, digits, '.', '_' and '-')" \
	"the harness refuses a bad id at start-up, printed escaped"
run prof-time quick --workloads "$B"
is "$rc:$(wc -l <"$err" | tr -d ' ')" "2:1" "prof-time stops with one line"
is "$(grep -c '^::' "$err")" 0 "no line of it starts a workflow command"
finish
