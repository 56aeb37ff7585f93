#!/bin/bash
# make diagnose against an earlier run folder (profile.sh, BASELINE= its
# results.json): the count phase keeps its callgrind files, and the changed
# count row names the function that does more work (step), from the two
# runs' files, in comparisons.json and summary.md.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 5

unset MAKEFLAGS MFLAGS MAKELEVEL PROF_BUILD
export PROF_ROOT=$ROOT
tiny_repo "$T/r" >/dev/null || exit 1
make -s bin/w >/dev/null 2>&1 || exit 1

diag() {
	env PROF_BINDIR="$BIN" PROF_WORKLOADS=bin/w PROF_REPEAT=3 \
		PROF_HISTORY= "$@" sh "$ROOT/mk/profile.sh" diagnose tiny.work \
		>"$out" 2>"$err"
	rc=$?
}
diag PROF_OUTPUT="$T/d1" PROF_BASELINE="$T/none.json"
is "$rc" 0 "make diagnose: exit 0"
ok "$([ -s "$T/d1/functions/tiny.work.cpu.callgrind" ]; echo $?)" \
	"it keeps the count phase's callgrind file"
tiny_commit "step does more" 10
make -s bin/w >/dev/null 2>&1
diag PROF_OUTPUT="$T/d2" PROF_BASELINE="$T/d1/results.json"
is "$rc" 0 "make diagnose BASELINE=the first run: exit 0"
jq_ok '[.[] | select(.phase == "instructions")][0] |
	.status == "warning" and .functions[0].name == "step" and
	.functions_artifacts.after == "functions/tiny.work.cpu.callgrind"' \
	"$T/d2/comparisons.json" "the count row names step first"
like "$(cat "$T/d2/summary.md")" '  | `step` |' \
	"and summary.md has it under the row's reason"
finish
