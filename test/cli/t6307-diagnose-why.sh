#!/bin/bash
# make diagnose against an earlier run folder (profile.sh, BASELINE= its
# results.json): the count phase keeps its callgrind files, and the changed
# count row names the function that does more work (step), from the two
# runs' files, in comparisons.json and summary.md. A changed time row (step
# made 5 times longer: the workload takes about 3 times as long) gets CPU
# profiles of both sides when the baseline's commit is built in the
# compare cache, and otherwise the summary says that it is not, and what
# to run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 14

unset MAKEFLAGS MFLAGS MAKELEVEL PROF_BUILD
export PROF_ROOT=$ROOT
tiny_repo "$T/r" >/dev/null || exit 1
make -s bin/w >/dev/null 2>&1 || exit 1

diag() {
	env PROF_BINDIR="$BIN" PROF_WORKLOADS=bin/w PROF_REPEAT=3 \
		PROF_HISTORY= "$@" sh "$ROOT/fragment/profile.sh" diagnose tiny.work \
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

# The time channel: the baseline's build is not at hand. The baseline is
# the first run with its times a hundredth of what they were (wall and
# CPU), each call on a core of its own (no queue delay, uncontended): a
# slowdown no busy machine hides, so the time
# row is a warning by the baseline rule, always (the rule made never to
# warn fails the checks below; they once skipped when it did not warn).
base=$(git rev-parse HEAD~1)
jq 'def set(f; v): if f == null then . else f = v end;
	(.groups // {}) as $g |
	.samples |= map(if (.phase // $g[.group_id // ""].phase) ==
		"timing" then .duration_ms /= 100 | set(.cpu_ms; .cpu_ms / 100) |
		set(.run_delay_ms; 0) | set(.contended; false) |
		set(.involuntary_switches; 0) else . end)' "$T/d1/results.json" \
	>"$T/fast.json" || exit 1
tiny_commit "step does much more" 400
make -s bin/w >/dev/null 2>&1
diag PROF_OUTPUT="$T/d3" PROF_BASELINE="$T/fast.json"
is "$rc:$(jq -r '[.[] | select(.phase == "timing")][0].status' \
	"$T/d3/comparisons.json")" 0:warning \
	"make diagnose against a baseline 100x faster: exit 0, the time row a warning"
like "$(cat "$T/d3/summary.md")" \
	"No CPU profiles of the 1 changed time row(s): the baseline '$T/fast.json' keeps no binary, and its commit ${base:0:7} is not built in build/compare/$base; to profile both sides, run: make compare REF=${base:0:7} W=tiny.work WHY=1" \
	"the summary says why the time row is not profiled, and what to run"
jq_ok '[.[] | select(.phase == "timing")][0] |
	has("time_functions") | not' "$T/d3/comparisons.json" \
	"and the time row has no time functions"

# make compare REF= builds the baseline's commit in the cache; a diagnose
# against that baseline then profiles both sides.
env PROF_BINDIR="$BIN" PROF_WORKLOADS=bin/w PROF_REPEAT=2 PROF_HISTORY= \
	PROF_REF="$base" PROF_OUTPUT="$T/c" sh "$ROOT/fragment/compare.sh" \
	>"$out" 2>"$err"
ok "$([ -f "build/compare/$base/.prof-compare-built" ]; echo $?)" \
	"make compare REF=<the baseline's commit> builds it in the cache"
diag PROF_OUTPUT="$T/d4" PROF_BASELINE="$T/fast.json"
is "$rc:$(jq -r '[.[] | select(.phase == "timing")][0].status' \
	"$T/d4/comparisons.json")" 0:warning \
	"make diagnose against the same baseline again: exit 0, a warning"
jq_ok '[.[] | select(.phase == "timing")][0] |
	.time_functions[0].name == "step" and
	.time_functions[0].self_after > .time_functions[0].self_before and
	.time_artifacts.before == "time/reference/tiny.work.cpu.callgrind" and
	.time_artifacts.after == "time/current/tiny.work.cpu.callgrind" and
	.time_artifacts.listing == "time/tiny.work.cpu.pprof.txt" and
	.time_artifacts.unit == "ns per call"' "$T/d4/comparisons.json" \
	"the time row names step first, from both sides' CPU profiles"
ok "$(grep -q 'google-pprof --text --base=' \
	"$T/d4/time/tiny.work.cpu.pprof.txt"; echo $?)" \
	"pprof's --base listing is kept"
like "$(cat "$T/d4/summary.md")" \
	"CPU profiles of the 1 changed time row(s) (time/): the current build, and the baseline's commit ${base:0:7} as built in build/compare/$base." \
	"the summary says which builds were profiled"
like "$(cat "$T/d4/summary.md")" "CPU time per function, ns per call" \
	"and has the CPU time table"
finish
