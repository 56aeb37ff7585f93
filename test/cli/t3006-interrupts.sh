#!/bin/bash
# Fault tests (issue 14, item 13 and the fault list): SIGINT and SIGTERM
# to each tool while it writes its output leave no temporary file and no
# half-written output, say what happened and exit 2; ENOSPC on the output
# is an error; an interrupted make profile target writes no results.json
# and says so.
. "$(dirname "$0")/lib.sh"
plan 43

D=test/data/results
PAUSE=$TBIN/libprof-test-pause.so
# The tools may be built with ASan (make check): the shim comes first.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# Run a command with the signals' default actions (a background job of a
# shell ignores SIGINT) in a process group of its own: its pid is $!.
DFL='use POSIX; $SIG{INT} = $SIG{TERM} = $SIG{HUP} = "DEFAULT"; POSIX::setsid(); exec @ARGV or die'

# interrupt SIG OUTPUT TOOL ARGS...: run the tool until it fsyncs OUTPUT's
# temporary file (the shim stops it there), send SIG, wait.
interrupt() {
	local sig=$1 o=$2
	shift 2
	rm -f "$T/mark"
	echo "old" >"$o"
	LD_PRELOAD=$PAUSE PROF_TEST_PAUSE_MARK=$T/mark perl -e "$DFL" "$@" \
		>"$out" 2>"$err" &
	pid=$!
	# No time limit (a busy machine may take long to get there): the
	# tool stops at the mark for good, or ends without one.
	while [ ! -e "$T/mark" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
}

# check TOOL SIG OUTPUT: what every interrupted write must hold to.
check() {
	local dir
	dir=$(dirname "$3")
	is "$rc" 2 "$1, SIG$2: exit 2"
	# (prof-report warns first that the test data has no .prof files)
	is "$(grep -v ': warning: ' "$err")" \
		"$1: interrupted by SIG$2; '$3' was not written (no temporary file is left)" \
		"$1, SIG$2: one truthful line"
	is "$(find "$dir" -name ".*.tmp.*" | wc -l)" 0 "$1, SIG$2: no temporary file"
	is "$(cat "$3")" old "$1, SIG$2: the old output is whole"
}

jq -c '.samples[]' $D/current.json >"$T/s.jsonl"
for sig in INT TERM; do
	interrupt $sig "$T/r.json" "$BIN/prof-merge" -o "$T/r.json" "$T/s.jsonl"
	check prof-merge $sig "$T/r.json"
	interrupt $sig "$T/c.json" "$BIN/prof-diff" --baseline $D/baseline.json \
		-o "$T/c.json" $D/current.json
	check prof-diff $sig "$T/c.json"
	interrupt $sig "$T/s.md" "$BIN/prof-report" -q -o "$T/s.md" $D/current.json
	check prof-report $sig "$T/s.md"
	mkdir -p "$T/bl"
	interrupt $sig "$T/bl/b.json" "$BIN/prof-baseline" --from $D/baseline.json \
		--name b --output "$T/bl" --force
	check prof-baseline $sig "$T/bl/b.json"
done
ok "$([ -e "$T/mark" ]; echo $?)" "the shim did stop the tools"

# Without the shim the same commands write their outputs.
run prof-merge -o "$T/r.json" "$T/s.jsonl"
is "$rc:$(jq '.samples | length' "$T/r.json")" 0:40 "uninterrupted, prof-merge writes"

# ENOSPC on the output.
for tool in merge diff; do
	case $tool in
	merge) run prof-merge -o /dev/full "$T/s.jsonl" ;;
	diff) run prof-diff --baseline $D/baseline.json -o /dev/full $D/current.json ;;
	esac
	is "$rc:$(errline)" \
		"2:prof-$tool: /dev/full: write failed: No space left on device" \
		"prof-$tool -o /dev/full: exit 2, ENOSPC said"
done
"$BIN/prof-diff" --baseline $D/baseline.json $D/current.json >/dev/full 2>"$err"
rc=$?
is "$rc:$(errline)" \
	"2:prof-diff: cannot write to stdout: No space left on device" \
	"stdout on /dev/full: exit 2"
run prof-report -q -o /dev/full $D/current.json
is "$rc:$(tail -n 1 "$err")" "2:prof-report: /dev/full: write failed: No space left on device" \
	"prof-report -o /dev/full"

# A make profile target interrupted during the timing phase (Ctrl-C
# reaches make's whole process group).
R=$T/run
perl -e "$DFL" make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
	BINDIR="$BIN" profile-full CATEGORY=hang WORKLOADS="$TW" TIMEOUT=60 \
	OUTPUT="$R" BASELINE=does/not/exist.json >"$out" 2>"$err" &
pid=$!
# Until prof-time writes (test.hang never ends; TIMEOUT=60 ends the run
# if it is never interrupted); no shorter limit: a busy machine is slow.
while ! ls "$R"/.samples.jsonl.tmp.* >/dev/null 2>&1 &&
	kill -0 "$pid" 2>/dev/null; do
	sleep 0.05
done
sleep 0.3
kill -INT -- -"$pid"
wait "$pid"
rc=$?
# 130; or 2 when GNU make 4.3 loses the race between its SIGINT handler
# and its own wait ("make: *** wait: No child processes.  Stop.", about
# one time in six on a busy machine): make is ended by the SIGINT either
# way, and what the script says is checked below.
case $rc:$(grep -c 'wait: No child processes' "$err") in
2:[1-9]*) rc=130 ;;
esac
is "$rc" 130 "make is ended by the SIGINT"
like "$(cat "$err")" \
	"make profile-full: interrupted by SIGINT in the timing phase; no results are written" \
	"the script says where it was interrupted, and that nothing is written"
like "$(cat "$err")" "prof-time: interrupted; no output written" \
	"prof-time says so too"
ok "$([ ! -e "$R/results.json" ] && [ ! -e "$R/samples.jsonl" ]; echo $?)" \
	"no results.json, no samples"
is "$(find "$R" -name ".*.tmp.*" | wc -l)" 0 "no temporary file"
finish
