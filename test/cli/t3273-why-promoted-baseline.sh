#!/bin/bash
# A changed instruction row against a promoted baseline (make
# baseline-update copies no callgrind file beside it) does not fail the
# run: every sample succeeded, so the code is 0, and the summary says in
# one line why the row has no functions and what to run to get them
# (issue 28, item 0: prof-why's "cannot read the callgrind dump" was the
# run's exit 2, and the CI job failed on every changed row). An
# explanation that fails for another reason (a dump that is not one) is a
# line too, never an exit code.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 11

unset MAKEFLAGS MFLAGS MAKELEVEL PROF_BUILD
export PROF_ROOT=$ROOT
tiny_repo "$T/r" >/dev/null || exit 1
make -s bin/w >/dev/null 2>&1 || exit 1

# quick VAR=VALUE...: make profile-quick COUNTS=1, as the fragment runs it.
quick() {
	env PROF_BINDIR="$BIN" PROF_WORKLOADS=bin/w PROF_REPEAT=3 \
		PROF_COUNTS=1 PROF_HISTORY= "$@" sh "$ROOT/fragment/profile.sh" quick \
		>"$out" 2>"$err"
	rc=$?
}
quick PROF_OUTPUT="$T/a" PROF_BASELINE="$T/none.json"
is "$rc" 0 "the first run: exit 0"
# --force: a busy machine's calibration spread may call the run unsteady.
"$BIN/prof-baseline" --from "$T/a/results.json" --name cpu-ci \
	--output "$T/bl" --force >/dev/null 2>&1
ok "$([ -s "$T/bl/cpu-ci.json" ] && [ ! -e "$T/bl/functions" ]; echo $?)" \
	"promoted, with no callgrind file beside the baseline"
base=$(git rev-parse --short HEAD)

tiny_commit "step does more" 10
make -s bin/w >/dev/null 2>&1
quick PROF_OUTPUT="$T/b" PROF_BASELINE="$T/bl/cpu-ci.json"
is "$rc" 0 "a changed count row against the promoted baseline: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
jq_ok '[.[] | select(.phase == "instructions")][0] |
	.status == "warning" and (has("functions") | not)' \
	"$T/b/comparisons.json" "the row is a warning, without functions"
like "$(cat "$T/b/summary.md")" \
	"No functions for the 1 changed instruction row(s): the baseline '$T/bl/cpu-ci.json' keeps no callgrind files of them (make baseline-update keeps none); to see which functions changed, run: make compare REF=$base WHY=1" \
	"the summary says why, and what to run"
is "$(grep -c -e 'cannot explain' -e 'cannot read the callgrind dump' \
	-e 'run finished' "$err")" 0 "and the run says nothing of a failure"
# The command it names keeps the run's selection (make compare would run
# every quick workload without it).
quick PROF_OUTPUT="$T/b2" PROF_BASELINE="$T/bl/cpu-ci.json" \
	PROF_CATEGORY=test PROF_W='tiny.*'
like "$(cat "$T/b2/summary.md")" \
	"to see which functions changed, run: make compare REF=$base CATEGORY=test W=tiny.\\* WHY=1" \
	"a run of CATEGORY=test W='tiny.*': the command keeps both"

# A baseline's dump that is no callgrind file: prof-why fails, the run
# does not.
quick PROF_OUTPUT="$T/c" PROF_BASELINE="$T/none.json"
tiny_commit "step does more still" 20
make -s bin/w >/dev/null 2>&1
echo "not a callgrind file" >"$T/c/functions/tiny.work.cpu.callgrind"
quick PROF_OUTPUT="$T/d" PROF_BASELINE="$T/c/results.json"
is "$rc" 0 "a dump prof-why cannot read: exit 0"
why=$(grep '^prof-why: ' "$err" | tail -n 1)
like "$why" "prof-why: $T/c/functions/tiny.work.cpu.callgrind" \
	"prof-why says what it could not read"
like "$(cat "$T/d/summary.md")" \
	"No functions for the changed rows: ${why#prof-why: }; to see which functions changed, run: make compare REF=$(git rev-parse --short HEAD~1) WHY=1" \
	"and the summary carries its reason, and what to run"
jq_ok '[.[] | select(.phase == "instructions")][0].status == "warning"' \
	"$T/d/comparisons.json" "the comparisons are kept as prof-diff wrote them"
finish
