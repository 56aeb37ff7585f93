#!/bin/bash
# An interrupted make compare says that it was interrupted, in which
# phase, and what is kept (issue 28, item 6: a Ctrl-C while REF was being
# built said "REF 'HEAD~7' (84b18b1) does not build" with the compiler's
# "died due to signal 2"). The same one line as make profile-*'s
# (interrupted() in fragment/run-lib.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 8

unset MAKEFLAGS MFLAGS MAKELEVEL PROF_BUILD
export PROF_ROOT=$ROOT
tiny_repo "$T/r" >/dev/null || exit 1
tiny_commit "a comment"
make -s bin/w >/dev/null 2>&1 || exit 1
sha=$(git rev-parse HEAD~1)
short=$(git rev-parse --short HEAD~1)

# Signals with their default actions, in a process group of its own.
DFL='use POSIX; $SIG{INT} = $SIG{TERM} = $SIG{HUP} = "DEFAULT"; POSIX::setsid(); exec @ARGV or die'

# The tools, $1 stopped before it runs (it makes $T/mark, then waits).
wrap() {
	local t
	rm -rf "$T/bin" "$T/mark"
	mkdir "$T/bin"
	for t in "$BIN"/*; do
		ln -s "$t" "$T/bin/${t##*/}"
	done
	[ -n "$1" ] || return 0
	rm "$T/bin/$1"
	printf '#!/bin/sh\n: > %s\nexec sleep 600\n' "$T/mark" >"$T/bin/$1"
	chmod +x "$T/bin/$1"
}

# interrupt VAR=VALUE...: compare.sh as make compare runs it, until the
# mark, then SIGINT to its whole process group (a Ctrl-C).
interrupt() {
	perl -e "$DFL" env PROF_BINDIR="$T/bin" PROF_WORKLOADS=bin/w \
		PROF_REPEAT=2 PROF_REF=HEAD~1 "$@" sh "$ROOT/fragment/compare.sh" \
		>"$out" 2>"$err" &
	pid=$!
	# No time limit: the loop ends at the mark, or when it has ended.
	while [ ! -e "$T/mark" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.1
	done
	kill -INT -- -"$pid"
	wait "$pid"
	rc=$?
	msg=$(grep '^make compare: ' "$err")
}

# While REF is being built.
wrap ""
interrupt PROF_BUILD="touch '$T/mark'; exec sleep 600"
is "$rc:$msg" "2:make compare: building HEAD~1 ($short) in build/compare/$sha (log: build/compare/$sha.log)
make compare: interrupted by SIGINT in the build phase, building REF 'HEAD~1' ($short) in build/compare/$sha; no results are written; kept: its build log build/compare/$sha.log (the next make compare builds REF again)" \
	"in the build: exit 2, the phase, what is kept"
ok "$([ ! -e "build/compare/$sha/.prof-compare-built" ] &&
	[ -e "build/compare/$sha.log" ]; echo $?)" \
	"the unfinished build is not taken for a build; its log is there"
ok "$([ -z "$(ls -A artifacts/profiling 2>/dev/null)" ]; echo $?)" \
	"no run folder is left"

# While timing, after REF was built.
wrap prof-time
interrupt
is "$rc:$msg" "2:make compare: building HEAD~1 ($short) in build/compare/$sha (log: build/compare/$sha.log)
make compare: interrupted by SIGINT in the timing phase; no results are written" \
	"in the timing phase: exit 2, nothing written"
ok "$([ -e "build/compare/$sha/.prof-compare-built" ]; echo $?)" \
	"and REF's build is kept"

# While reporting: the files that are there.
wrap prof-report
interrupt PROF_OUTPUT="$T/c"
R=$T/c
is "$rc:$msg" "2:make compare: reusing the build of HEAD~1 ($short) in build/compare/$sha
make compare: interrupted by SIGINT in the report phase; written in $R: samples.jsonl, baseline.jsonl, results.json, baseline.json, comparisons.json; not written: summary.md, report.html" \
	"in the report phase: the files written and those not"
ok "$([ -s "$R/results.json" ] && [ ! -e "$R/summary.md" ]; echo $?)" \
	"as the folder holds"
is "$(grep -c 'does not build' "$err")" 0 "never 'does not build'"
finish
