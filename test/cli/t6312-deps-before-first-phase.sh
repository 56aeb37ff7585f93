#!/bin/bash
# What every phase of a run needs is checked before its first phase: a
# make profile-full before make deps stopped after the whole timing phase
# ("playwright-core is not installed", exit 2). Now a missing package
# (node, chromium, the playwright-core module of the browser stories,
# valgrind of the count phase) is named at once, with the exact line that
# installs it, exit 2, and no run folder is made; a run that leaves the
# phase out does not ask for it.
. "$(dirname "$0")/lib.sh"
plan 12

sudo=
[ "$(id -u)" = 0 ] || sudo="sudo "
# A PATH without node and valgrind: every other program where it is.
P=$T/path
mkdir "$P"
for d in /usr/local/bin /usr/bin /bin; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		b=${f##*/}
		case $b in node | nodejs | valgrind) continue ;; esac
		[ -e "$P/$b" ] || ln -s "$f" "$P/$b"
	done
done
mk() {
	make -s --no-print-directory "$@" WORKLOADS="$TW" REPEAT=1 \
		>"$out" 2>"$err"
	rc=$?
}
# profile.sh as the fragment runs it, for the runs make itself would stop
# first (prof's own make checks its build packages, valgrind among them).
profile() {
	env PATH="$P" PROF_BINDIR="$BIN" PROF_WORKLOADS="$TW" PROF_REPEAT=1 \
		PROF_HISTORY= PROF_STORIES_SCRIPT="$ROOT/workloads/browser/stories.mjs" \
		"$@" >"$out" 2>"$err"
	rc=$?
}

# The stories' node module is not beside them (a copy of the script).
mkdir "$T/stories"
cp workloads/browser/stories.mjs "$T/stories/"
mk profile-full CATEGORY="test browser" OUTPUT="$T/r1" \
	PROF_STORIES_SCRIPT="$T/stories/stories.mjs"
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-full: missing before the first phase: the node module playwright-core (the browser stories); install with: cd $(cd "$T/stories" && pwd -P) && npm install playwright-core (or: make deps, as root); or leave the browser stories out: EXCLUDE_CATEGORY=browser" \
	"profile-full without playwright-core stops at once, with the install line"
like "$(cat "$err")" "run finished with exit code 2" "with the run's code"
ok "$([ ! -e "$T/r1" ]; echo $?)" "before any phase: no run folder is made"

mk profile-full CATEGORY="test browser" OUTPUT="$T/r2" CHROMIUM="$T/no-chromium"
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-full: CHROMIUM: '$T/no-chromium' is not an executable file" \
	"a CHROMIUM that is not there stops it at once"
ok "$([ ! -e "$T/r2" ]; echo $?)" "and nothing is written"

# No node and no valgrind: one line names both, and one apt-get line.
profile PROF_COUNTS=1 PROF_CATEGORY="test browser" PROF_OUTPUT="$T/r3" \
	sh fragment/profile.sh full
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-full: missing before the first phase: valgrind (the instruction counts), node (the browser stories); install with: ${sudo}apt-get install -y valgrind nodejs npm (or: make deps, as root); or leave the browser stories out: EXCLUDE_CATEGORY=browser" \
	"a full run with COUNTS=1, no node and no valgrind: both named at once"
ok "$([ ! -e "$T/r3" ]; echo $?)" "nothing is written"

profile PROF_OUTPUT="$T/r4" sh fragment/profile.sh diagnose test.ok
is "$rc:$(head -n 1 "$err")" \
	"2:make diagnose: missing before the first phase: valgrind (the instruction counts); install with: ${sudo}apt-get install -y valgrind (or: make deps, as root)" \
	"diagnose (which always counts) without valgrind stops before timing"
ok "$([ ! -e "$T/r4" ]; echo $?)" "nothing is written"

# make compare WHY=1 counts both sides: checked before REF is built.
env PATH="$P" PROF_BINDIR="$BIN" PROF_WORKLOADS="$TW" PROF_AGAINST="$TW" \
	PROF_WHY=1 PROF_OUTPUT="$T/r5" sh fragment/compare.sh >"$out" 2>"$err"
rc=$?
is "$rc:$(head -n 1 "$err")" \
	"2:make compare: missing before the first phase: valgrind (the instruction counts); install with: ${sudo}apt-get install -y valgrind (or: make deps, as root)" \
	"make compare WHY=1 without valgrind stops before its first phase"

# A run that leaves the phases out needs none of it.
profile PROF_CATEGORY=test PROF_EXCLUDE_CATEGORY=browser \
	PROF_OUTPUT="$T/r6" sh fragment/profile.sh full
is "$rc" 1 "a full run without the stories and counts runs without node and valgrind (1: the test workloads' errors)"
jq_ok '[.samples[] | .phase] | unique == ["timing"]' "$T/r6/results.json" \
	"its results hold the timing phase"
finish
