#!/bin/bash
# One output guard for every target that writes a run folder (run_folder
# in fragment/run-lib.sh): OUTPUT is taken only when it is a new or an empty
# folder, and a file the run reads (BASELINE, PLAYWRIGHT, HISTORY) is never
# inside it (issue 28, item 1: OUTPUT=D replaced the run kept in D without
# a word; OUTPUT=D BASELINE=D/results.json replaced the baseline before
# prof-diff read it, and every row came out stable, ratio 1). Refused with
# exit 2 and the path, before anything runs or is written.
. "$(dirname "$0")/lib.sh"
plan 17

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
FAIL="run finished with exit code 2 (infrastructure or argument failure)"

# A run kept in $T/a.
mk profile-quick WORKLOADS="$TW" CATEGORY=test REPEAT=1 OUTPUT="$T/a" \
	BASELINE="$T/none.json"
ok "$([ -s "$T/a/results.json" ]; echo $?)" "a first run writes its folder"
sums() { (cd "$T/a" && md5sum -- * | md5sum); }
kept=$(sums)

# busy TARGET VARS...: the target refuses $T/a, names it, writes nothing.
busy() {
	local label=$1
	shift
	mk "$@" OUTPUT="$T/a"
	is "$rc:$(head -n 1 "$err")" \
		"2:make $label: OUTPUT '$T/a' is not empty (it holds 'comparisons.json'): a run is written only into a new or empty folder, never over another run; give a new folder, or remove this one first" \
		"make $label OUTPUT=a run folder: exit 2, naming it"
}
busy profile-quick profile-quick WORKLOADS="$TW" CATEGORY=test REPEAT=1
like "$(cat "$err")" "make profile-quick: $FAIL" "with the run's code"
busy profile-quick profile-quick WORKLOADS="$TW" CATEGORY=test REPEAT=1 \
	BASELINE="$T/a/results.json"
busy profile-full profile-full WORKLOADS="$TW" CATEGORY=test REPEAT=1
busy diagnose diagnose W=test.ok WORKLOADS="$TW"
busy compare compare AGAINST="$TW" WORKLOADS="$TW" CATEGORY=test
busy merge-shards merge-shards DIR="$T/a"
if git rev-parse -q --verify HEAD~1 >/dev/null 2>&1; then
	busy bisect bisect GOOD=HEAD~1 BAD=HEAD W=test.ok
else
	skip "not a git checkout with two commits: no make bisect"
fi
is "$(sums)" "$kept" "the run kept there is as it was"

# A file the run reads, inside a new OUTPUT (or one reached by a link).
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/n" \
	BASELINE="$T/n/results.json"
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-quick: BASELINE '$T/n/results.json' is inside the run folder '$T/n' (OUTPUT) that this run writes: an input is never an output of the same run; give a BASELINE outside it" \
	"BASELINE=OUTPUT/results.json: exit 2, naming it"
ok "$([ ! -e "$T/n" ]; echo $?)" "and nothing is made"
mkdir "$T/e"
ln -s "$T/e" "$T/link"
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/link" \
	BASELINE="$T/e/results.json"
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-quick: BASELINE '$T/e/results.json' is inside the run folder '$T/link' (OUTPUT) that this run writes: an input is never an output of the same run; give a BASELINE outside it" \
	"the same folder through a link"
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/n" \
	HISTORY="$T/n/sub/history.sqlite"
like "$(head -n 1 "$err")" "make profile-quick: HISTORY '$T/n/sub/history.sqlite' is inside the run folder '$T/n' (OUTPUT)" \
	"HISTORY inside OUTPUT, in a folder not made yet"
mk merge-shards DIR="$T/a" OUTPUT="$T/m" BASELINE="$T/m/results.json"
like "$(head -n 1 "$err")" "make merge-shards: BASELINE '$T/m/results.json' is inside the run folder '$T/m' (OUTPUT)" \
	"merge-shards too"

# An empty folder is taken, and the run compares with the kept one.
mk profile-quick WORKLOADS="$TW" CATEGORY=test REPEAT=1 OUTPUT="$T/e" \
	BASELINE="$T/a/results.json"
like "$(cat "$err")" "make profile-quick: run finished with exit code 1 (a sample errored)" \
	"an empty OUTPUT is taken (the run's own code: a sample errored)"
jq_ok '[.[] | select(.workload == "test.ok")][0] | .baseline.n == 1 and
	.current.n == 1' "$T/e/comparisons.json" \
	"and compared with the run kept in a"
finish
