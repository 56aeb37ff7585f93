#!/bin/bash
# A workload binary whose --list lists nothing (it exits 0 and writes no
# line: /bin/true, a script, a binary with no workload registered) is
# named, wherever the binaries are read (load_workloads() in
# src/runner/binaries.c: prof-time, prof-count, prof-mem, prof-trace, the
# interleaved run), instead of "no workload matches mode 'quick' with these
# categories and backend 'cpu'" (issue 28, item 6).
. "$(dirname "$0")/lib.sh"
plan 6

printf '#!/bin/sh\nexit 0\n' >"$T/empty"
chmod +x "$T/empty"
E="workload binary '$T/empty' --list listed no workload (it exited 0 and wrote no JSON line): not a workload binary of prof's protocol, or one with no workload registered"

run prof-time quick --workloads "$T/empty" -o "$T/s.jsonl"
is "$rc:$(errline)" "2:prof-time: $E" "prof-time: exit 2, naming the binary"
run prof-time quick --workloads "$TW" --workloads "$T/empty" \
	-o "$T/s.jsonl"
is "$rc:$(errline)" "2:prof-time: $E" "beside a good binary too"
run prof-time quick --workloads "$TW" --against "$T/empty" \
	-o "$T/s.jsonl" --against-output "$T/b.jsonl"
is "$rc:$(errline)" "2:prof-time: $E" "as the reference of an interleaved run"
run prof-count quick --workloads "$T/empty" -o "$T/c.jsonl"
# (after a line that says it waited for another test's prof-count)
is "$rc:$(tail -n 1 "$err")" "2:prof-count: $E" "prof-count"

make -s --no-print-directory -o all BINDIR="$BIN" profile-quick \
	WORKLOADS="$T/empty" OUTPUT="$T/q" BASELINE="$T/none.json" \
	>"$out" 2>"$err"
is "$?:$(errline)" "2:prof-time: $E" "make profile-quick WORKLOADS=it"
ok "$([ ! -e "$T/s.jsonl" ] && [ ! -e "$T/q/results.json" ]; echo $?)" \
	"nothing is written"
finish
