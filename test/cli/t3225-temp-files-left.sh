#!/bin/bash
# Temporary files are removed on every exit path (issue 19, item 16):
# prof-export's copy of stdin after SIGINT, SIGTERM and a closed pipe
# (SIGPIPE); the .prof of an interrupted prof-trace, for a workload and
# for a command.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
# Run with the signals' default actions (a background job of a shell
# ignores SIGINT; a test harness may ignore SIGPIPE): its pid is $!.
DFL='use POSIX; $SIG{INT} = $SIG{TERM} = $SIG{PIPE} = "DEFAULT"; exec @ARGV or die'
# wait_for GLOB: until a file matches (10 s at most).
wait_for() {
	local i
	for i in $(seq 200); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# files DIR: what is left in DIR
files() {
	ls -A "$1" | tr '\n' ' '
}

# SIGINT and SIGTERM while prof-export copies stdin (a FIFO held open).
mkfifo "$T/fifo"
for sig in INT TERM; do
	mkdir "$T/tmp$sig"
	TMPDIR=$T/tmp$sig perl -e "$DFL" "$BIN/prof-export" -f csv - \
		<"$T/fifo" >"$out" 2>"$err" &
	pid=$!
	exec 3>"$T/fifo"
	head -c 1000 $D/current.json >&3
	wait_for "$T/tmp$sig/prof-stdin.*" || echo "# no copy of stdin seen"
	kill -$sig $pid
	wait $pid
	rc=$?
	exec 3>&-
	is "$rc:$(errline)" \
		"2:prof-export: interrupted by SIG$sig; stdout may hold part of the output" \
		"SIG$sig while copying stdin: exit 2, said"
	is "$(files "$T/tmp$sig")" "" "SIG$sig: the copy of stdin is removed"
done

# A closed pipe: the CSV of a large run into head -c 1.
jq '.samples = [range(400) as $i | .samples[] | .index = $i]' \
	$D/current.json >"$T/big.json"
mkdir "$T/tmpPIPE"
TMPDIR=$T/tmpPIPE perl -e "$DFL" "$BIN/prof-export" -f csv - \
	<"$T/big.json" 2>"$err" | head -c 1 >/dev/null
is "${PIPESTATUS[0]}:$(cat "$err")" "141:" \
	"SIGPIPE: the tool ends by the signal, without a word"
is "$(files "$T/tmpPIPE")" "" "SIGPIPE: the copy of stdin is removed"

# prof-trace interrupted while it profiles: no .prof is left.
mkdir "$T/a"
perl -e "$DFL" "$BIN/prof-trace" diagnose test.ok --workloads "$TW" \
	--min-seconds 600 --timeout 700 --artifacts "$T/a" -q -o "$T/p.jsonl" \
	>"$out" 2>"$err" &
pid=$!
wait_for "$T/a/test.ok.prof" || echo "# no .prof seen"
kill -INT $pid
wait $pid
rc=$?
is "$rc" 2 "prof-trace diagnose, SIGINT: exit 2"
is "$(files "$T/a")" "" "no .prof is left"
mkdir "$T/c"
perl -e "$DFL" "$BIN/prof-trace" --name sleepy --artifacts "$T/c" -q \
	-o "$T/q.jsonl" -- sh -c 'while :; do :; done' >"$out" 2>"$err" &
pid=$!
wait_for "$T/c/sleepy.prof" || echo "# no .prof seen"
kill -INT $pid
wait $pid
rc=$?
is "$rc" 2 "prof-trace -- CMD, SIGINT: exit 2"
is "$(files "$T/c")" "" "no .prof is left"
finish
