#!/bin/bash
# make baseline-update DIR=<a run folder> NAME=results replaced the run's
# results.json with the baseline (and DIR=<run>/sub made a folder inside
# the run): a DIR that is a run folder, or inside one, is refused (exit 2,
# naming it and the run), nothing written. not_in_run in
# fragment/run-lib.sh, the guard run_folder's OUTPUT goes through.
. "$(dirname "$0")/lib.sh"
plan 5

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
lines() {
	grep -v '^make: \*\*\*' "$err"
}
R=$(cd "$T" && pwd -P)
B=test/data/results/baseline.json
BAD="make baseline-update: exit code 2 (bad arguments; nothing was written)"
NEVER="a baseline is never written into a run"

mkdir "$T/run"
echo '{"mine": 1}' >"$T/run/results.json"
mk baseline-update FROM=$B NAME=results DIR="$T/run"
is "$rc:$(lines)" "2:make baseline-update: DIR '$T/run' is a run folder (it holds 'results.json'): $NEVER; give another folder
$BAD" "DIR=a run folder: exit 2, naming it"
is "$(cat "$T/run/results.json")" '{"mine": 1}' "its results.json as it was"
mk baseline-update FROM=$B NAME=cpu DIR="$T/run/sub"
is "$rc:$(lines)" "2:make baseline-update: DIR '$T/run/sub' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it
$BAD" "DIR inside a run folder: exit 2, naming the run"
is "$(ls -A "$T/run")" "results.json" "nothing made in the run"
mk baseline-update FROM=$B NAME=cpu DIR="$T/baselines"
is "$rc:$(ls -A "$T/baselines")" "0:cpu.json" "another DIR: promoted"
finish
