#!/bin/bash
# SIGINT and SIGTERM to prof-time at several points: no invented sample, no
# temporary file, a message that tells the truth, exit code 2.
. "$(dirname "$0")/lib.sh"
plan 27

# wait_for CMD...: until CMD succeeds, or the tool ($p) has ended. No
# time limit: a busy machine may take long to get there, and no timing is
# asserted.
wait_for() {
	until "$@"; do
		kill -0 "$p" 2>/dev/null || return 1
		sleep 0.05
	done
}
has_lines() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
# The tool's own children only: other runs of this suite (another
# checkout's) may run the same commands at the same time.
child_up() { pgrep -P "$p" "$@" >/dev/null; }

for sig in INT TERM; do
	# Command mode, samples streamed to stdout: those written stay, the
	# run in flight becomes nothing.
	"$BIN/prof-time" --name c.sleep --repeat 50 -- sleep 0.2 >"$T/s.jsonl" 2>"$err" &
	p=$!
	# a run line, a context line, then two samples
	wait_for has_lines "$T/s.jsonl" 4
	kill -$sig $p
	wait $p
	rc=$?
	is "$rc" 2 "SIG$sig while sampling a command to stdout: exit 2"
	n=$(grep -vc '^{"record":' "$T/s.jsonl")
	jq_ok -s 'all(.[]; .outcome == "success" and .duration_ms >= 200)' \
		"$T/s.jsonl" "SIG$sig: every line written is a real sample"
	is "$(tail -n 1 "$err")" \
		"prof-time: interrupted; $n complete sample(s) were written to standard output before it, none after: the run is incomplete" \
		"SIG$sig: the message counts what was written"

	# Command mode into a file: nothing, and no temporary file.
	mkdir -p "$T/o$sig"
	echo keep >"$T/o$sig/s.jsonl"
	"$BIN/prof-time" --name c.sleep --repeat 50 --output "$T/o$sig/s.jsonl" \
		-- sleep 0.2 2>"$err" &
	p=$!
	wait_for child_up -x sleep
	kill -$sig $p
	wait $p
	is "$?" 2 "SIG$sig with --output: exit 2"
	is "$(cat "$T/o$sig/s.jsonl")" keep "SIG$sig: the output file is left as it was"
	is "$(ls -A "$T/o$sig" | tr '\n' ' ')" "s.jsonl " "SIG$sig: no temporary file"
	is "$(tail -n 1 "$err")" \
		"prof-time: interrupted; no output written ('$T/o$sig/s.jsonl' left as it was)" \
		"SIG$sig: the message says nothing was written"
done

# During warmup: no sample at all. Calls of 0.3 s, so that a busy
# machine's slow pgrep still finds one (with 0.05 s calls, 100 warmups
# once ended before it did).
"$BIN/prof-time" --name c.warm --warmup 50 --repeat 1 -- sleep 0.3 >"$T/w.jsonl" 2>"$err" &
p=$!
wait_for child_up -x sleep	# the warmup has begun
kill -INT $p
wait $p
is "$?" 2 "SIGINT during warmup: exit 2"
is "$(grep -vc '^{"record":' "$T/w.jsonl")" 0 "no sample is written"
is "$(tail -n 1 "$err")" "prof-time: interrupted; no sample written" \
	"and the message says so"

# A workload in its worker (test.hang never returns): no error sample for
# the call in flight, where a timeout used to be invented.
"$BIN/prof-time" diagnose test.hang --workloads "$TW" --backend cpu --repeat 1 \
	>"$T/h.jsonl" 2>"$err" &
p=$!
wait_for child_up -f -- "--worker test.hang"
wpid=$(pgrep -P "$p" -f -- "--worker test.hang")
kill -INT $p
wait $p
is "$?" 2 "SIGINT while a worker runs: exit 2"
is "$(grep -vc '^{"record":' "$T/h.jsonl")" 0 \
	"no invented sample for the call in flight"
is "$(tail -n 1 "$err")" "prof-time: interrupted; no sample written" \
	"the message is true"
kill -0 "$wpid" 2>/dev/null
is "$?" 1 "the worker is gone"
# The other command loops: interleaved commands (--against-command) and
# prof-count's. The run in flight becomes nothing there too.
samples() { jq -c 'select(.record == null)' "$1" | wc -l; }
"$BIN/prof-time" --name c.ab --repeat 50 --against-command 'sleep 0.2' \
	--against-output "$T/ab-ref.jsonl" -- sleep 0.2 >"$T/ab.jsonl" 2>"$err" &
p=$!
wait_for has_lines "$T/ab.jsonl" 3
kill -INT $p
wait $p
is "$?" 2 "SIGINT during interleaved commands: exit 2"
jq_ok -s 'map(select(.record == null)) | all(.[]; .outcome == "success")' \
	"$T/ab.jsonl" "no invented sample on the current side"
like "$(tail -n 1 "$err")" "prof-time: interrupted; " "and the interrupt is said"

if command -v valgrind >/dev/null; then
	"$BIN/prof-count" --name c.count --repeat 50 -- sleep 0.3 >"$T/c.jsonl" 2>"$err" &
	p=$!
	wait_for sh -c "[ \$(jq -c 'select(.record == null)' '$T/c.jsonl' 2>/dev/null | wc -l) -ge 1 ]"
	kill -INT $p
	wait $p
	is "$?" 2 "SIGINT while prof-count counts a command: exit 2"
	jq_ok -s 'map(select(.record == null)) | length > 0 and
		all(.[]; .outcome == "success")' "$T/c.jsonl" \
		"prof-count invents no sample for the run in flight"
	is "$(tail -n 1 "$err")" \
		"prof-count: interrupted; $(samples "$T/c.jsonl") complete sample(s) were written to standard output before it, none after: the run is incomplete" \
		"and says what it wrote"
else
	skip "valgrind is not installed"
	skip "valgrind is not installed"
	skip "valgrind is not installed"
fi
finish
