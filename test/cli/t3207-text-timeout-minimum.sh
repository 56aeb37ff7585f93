#!/bin/bash
# A timeout too short to start a process is refused (issue 19, item 19):
# --timeout 1e-9 made every sample a timeout and printed "median 0.000 ms
# (n=0)". The least is 0.01 s; shorter is a mistake, said as one, exit 2.
. "$(dirname "$0")/lib.sh"
plan 6

for tool in prof-time prof-count prof-mem prof-trace; do
	run $tool --name u --timeout 1e-9 -q -o "$T/s.jsonl" -- true
	is "$rc:$(errline)" \
		"2:$tool: --timeout: '1e-9' is less than 0.01 s, too short to start a process" \
		"$tool refuses --timeout 1e-9"
done
ok "$([ ! -e "$T/s.jsonl" ]; echo $?)" "and writes nothing"
run prof-time --name u --repeat 1 --timeout 0.01 -q -o "$T/s.jsonl" -- true
ok "$([ "$rc" = 0 ] || [ "$rc" = 1 ]; echo $?)" "0.01 s is taken (rc $rc)"
finish
