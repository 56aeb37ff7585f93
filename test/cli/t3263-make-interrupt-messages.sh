#!/bin/bash
# An interrupted make profile-quick says exactly what it wrote: the files
# of the run folder, the results not written, and whether the run joined
# the history (issue 19, item 15: SIGINT in the report phase said
# "results.json was written, the rest was not" when everything was; an
# interrupted run was added to the history without a word).
. "$(dirname "$0")/lib.sh"
plan 14

# Run a command with the signals' default actions (a background job of a
# shell ignores SIGINT) in a process group of its own: its pid is $!.
DFL='use POSIX; $SIG{INT} = $SIG{TERM} = $SIG{HUP} = "DEFAULT"; POSIX::setsid(); exec @ARGV or die'

# The tools, one of them ($1) stopped at a known point ($2): "before" it
# runs, "after" it has run (and written what it writes), or "fsync" at its
# first output's fsync (the pause shim: before the rename). It creates
# $T/mark there and waits for the signal; never a guess at timing.
wrap() {
	local t
	rm -rf "$T/bin" "$T/mark"
	mkdir "$T/bin"
	for t in "$BIN"/*; do
		ln -s "$t" "$T/bin/${t##*/}"
	done
	rm "$T/bin/$1"
	# Only its first run stops (profile.sh runs prof-history list too).
	case $2 in
	before) printf '#!/bin/sh\n[ -e %s ] && exec %s "$@"\n: > %s\nexec sleep 600\n' \
		"$T/mark" "$BIN/$1" "$T/mark" ;;
	after) printf '#!/bin/sh\n[ -e %s ] && exec %s "$@"\n%s "$@" || exit\n: > %s\nexec sleep 600\n' \
		"$T/mark" "$BIN/$1" "$BIN/$1" "$T/mark" ;;
	fsync) printf '#!/bin/sh\nLD_PRELOAD=%s PROF_TEST_PAUSE_MARK=%s exec "%s" "$@"\n' \
		"$TBIN/libprof-test-pause.so" "$T/mark" "$BIN/$1" ;;
	esac >"$T/bin/$1"
	chmod +x "$T/bin/$1"
}

# interrupt: make profile-quick on the wrapped tools until the mark, then
# SIGINT to make's whole process group (a Ctrl-C); $R is the run folder.
interrupt() {
	local i
	R=$T/run
	H=$T/h.sqlite
	rm -rf "$R" "$H"
	perl -e "$DFL" make -s --no-print-directory -o all \
		BINDIR="$T/bin" CATEGORY=primitive \
		OUTPUT="$R" BASELINE="$T/none.json" HISTORY="$H" \
		profile-quick >"$out" 2>"$err" &
	pid=$!
	# No time limit: a busy machine may take long to get there; the
	# loop ends at the mark, or when make has ended without one.
	while [ ! -e "$T/mark" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.1
	done
	kill -INT -- -"$pid"
	wait "$pid"
	rc=$?
	# make ends by the signal (130), or, when GNU make 4.3 loses the
	# race between its SIGINT handler and its own wait ("wait: No child
	# processes"), with 2: the script's exit and message are the same.
	case $rc:$(grep -c 'wait: No child processes' "$err") in
	130:* | 2:[1-9]*) rc=ended ;;
	esac
	msg=$(grep '^make profile-quick: interrupted by' "$err")
}

# In the history? (the run id is in results.json)
in_history() {
	[ -e "$H" ] && "$BIN/prof-history" list --db "$H" |
		jq -e --arg id "$(jq -r .run_id "$R/results.json")" \
			'any(.[]; .run_id == $id)' >/dev/null
}

P="make profile-quick: interrupted by SIGINT in the"

# The issue's case: the report phase, with everything written.
wrap prof-report after
interrupt
is "$rc:$msg" "ended:$P report phase; written in $R: samples.jsonl, results.json, comparisons.json, summary.md, report.html; the run was added to the history '$H'" \
	"report phase, all written: says so, and that the run is in the history"
ok "$(for f in results.json comparisons.json summary.md report.html; do
	[ -s "$R/$f" ] || exit 1; done; in_history; echo $?)" \
	"and it is all there"

# The report phase, prof-report stopped before its first rename.
wrap prof-report fsync
interrupt
is "$rc:$msg" "ended:$P report phase; written in $R: samples.jsonl, results.json, comparisons.json; not written: summary.md, report.html; the run was added to the history '$H'" \
	"report phase, stopped mid-write: the files that are there"
ok "$([ ! -e "$R/summary.md" ] && [ ! -e "$R/report.html" ] && in_history
	echo $?)" "no summary.md, no report.html, the run in the history"
is "$(find "$R" -name '.*.tmp.*' | wc -l)" 0 "no temporary file left"

# Interrupted just after the history took the run.
wrap prof-history after
interrupt
is "$rc:$msg" "ended:$P history phase; written in $R: samples.jsonl, results.json, comparisons.json; not written: summary.md, report.html; the run was added to the history '$H'" \
	"history phase, after the add: the run is said to be in the history"
ok "$(in_history; echo $?)" "and it is"

# Interrupted before the history took it.
wrap prof-history before
interrupt
is "$rc:$msg" "ended:$P history phase; written in $R: samples.jsonl, results.json, comparisons.json; not written: summary.md, report.html; the run was not added to the history" \
	"history phase, before the add: not in the history, says so"
ok "$(! in_history; echo $?)" "and it is not"

# The compare phase: results.json only.
wrap prof-diff before
interrupt
is "$rc:$msg" "ended:$P compare phase; written in $R: samples.jsonl, results.json; not written: comparisons.json, summary.md, report.html; the run was not added to the history" \
	"compare phase: results.json and the samples"

# The merge phase: the samples, no results.
wrap prof-merge before
interrupt
is "$rc:$msg" "ended:$P merge phase; no results are written; written in $R: samples.jsonl" \
	"merge phase: the samples only, no results"
ok "$([ -s "$R/samples.jsonl" ] && [ ! -e "$R/results.json" ]; echo $?)" \
	"as the folder holds"

# The timing phase: nothing.
wrap prof-time before
interrupt
is "$rc:$msg" "ended:$P timing phase; no results are written" \
	"timing phase: nothing written"
ok "$([ -z "$(ls -A "$R")" ]; echo $?)" "the folder is empty"
finish
