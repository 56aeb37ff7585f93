#!/bin/bash
# make bisect (fragment/bisect.sh) in a tiny repository on this tree's harness
# (test/cli/why.sh): 8 commits after GOOD, the 4th does not build (the 5th
# mends it), the 6th makes step() do more work; bisect names the 6th and
# step, skips the 4th and names it, and writes bisect.json with every step.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 15

unset MAKEFLAGS MFLAGS MAKELEVEL
# make test exports PROF_BUILD, its build folder: here it would be the
# command that builds a commit.
unset PROF_BUILD
export PROF_ROOT=$ROOT
tiny_repo "$T/r" >/dev/null || exit 1
good=$(git rev-parse HEAD)
tiny_commit "one"
tiny_commit "two"
tiny_commit "three"
tiny_commit "four does not build" broken
broken=$(git rev-parse HEAD)
tiny_commit "five mends it" fixed
tiny_commit "step does more work" 10
first=$(git rev-parse HEAD)
tiny_commit "seven"
tiny_commit "eight"

bisect_run() {
	env PROF_BINDIR="$BIN" PROF_WORKLOADS=bin/w \
		PROF_W=tiny.work "$@" sh "$ROOT/fragment/bisect.sh" >"$out" 2>"$err"
	rc=$?
}

bisect_run PROF_GOOD="$good" PROF_BAD=HEAD PROF_OUTPUT="$T/b1"
is "$rc" 0 "make bisect: exit 0"
is "$(sed -n 1p "$out")" \
	"first changed commit: $first step does more work" \
	"it prints the first changed commit, hash and subject"
like "$(sed -n 2p "$out")" "change: instructions " "then the change"
ok "$(sed -n 2p "$out" | grep -Eq '^change: instructions [0-9]{1,3}(,[0-9]{3})+ -> [0-9]{1,3}(,[0-9]{3})+ \('; echo $?)" \
	"its counts grouped, as every page writes them"
like "$(cat "$out")" "skipped (do not build): ${broken:0:7}" \
	"it names the commit it skipped"
like "$(cat "$out")" "functions against " "then the functions"
like "$(grep -A 3 'functions against' "$out" | tail -n 1)" " step (" \
	"step is the function that changed most"
like "$(cat "$err")" "skipping ${broken:0:7}: it does not build" \
	"stderr says why it was skipped"
b=$T/b1/bisect.json
jq_ok '.first_changed.commit == "'"$first"'" and
	.first_changed.changed == true and .first_changed.subject ==
	"step does more work"' "$b" "bisect.json: the first changed commit"
jq_ok '.skipped == ["'"$broken"'"] and
	any(.steps[]; .commit == "'"$broken"'" and .built == false)' "$b" \
	"the skipped commit, as a step that did not build"
jq_ok '.workload == "tiny.work" and .channel == "instructions" and
	.good == "'"$good"'" and (.steps | length) >= 4 and
	all(.steps[] | select(.built); .value > 0)' "$b" \
	"every step with its count"
jq_ok '.functions.functions[0].name == "step" and
	.functions.functions[0].self_after > .functions.functions[0].self_before' \
	"$b" "and the functions against its parent, step first"
jq_ok '.builds <= 6' "$b" "at most 6 builds for 8 commits"

# A second bisect reuses the builds.
bisect_run PROF_GOOD="$good" PROF_BAD=HEAD PROF_OUTPUT="$T/b2"
jq_ok '.builds == 1' "$T/b2/bisect.json" \
	"a second bisect builds only what did not build before"

bisect_run PROF_GOOD=HEAD PROF_BAD="$good"
is "$(errline)" "make bisect: GOOD 'HEAD' is not an ancestor of BAD '$good'" \
	"a reversed range is refused"
finish
