#!/bin/bash
# A project may keep a results.json of its own at its root (prof-merge(1)'s
# `prof-time quick | prof-merge -o results.json`, the README's
# `make baseline-update FROM=results.json`): the folder a tool runs in,
# and those above it, are never taken for a run folder, so the writers'
# guard (run_parent in fragment/run-lib.sh, prof_in_run() in afile.c)
# lets their outputs below it be written; a run folder below it is still
# refused.
. "$(dirname "$0")/lib.sh"
plan 7

D=$ROOT/test/data/results
P=$T/proj
mkdir -p "$P"
cp "$D/current.json" "$P/results.json"
echo '# summary' >"$P/summary.md"
"$BIN/prof-history" add --db "$T/h.sqlite" "$D/current.json" 2>/dev/null

cd "$P" || exit 1
run prof-dashboard --db "$T/h.sqlite" -o artifacts/dashboard
is "$rc:$(ls artifacts/dashboard/index.html)" "0:artifacts/dashboard/index.html" \
	"prof-dashboard -o below a root that holds results.json: written"
run prof-history export-runs --db "$T/h.sqlite" exported
is "$rc:$(ls exported | wc -l)" "0:1" \
	"prof-history export-runs below it: written"
# not_in_run VAR PATH: the fragment's guard, run here as make runs it.
guard() {
	(label="make x" && . "$ROOT/fragment/run-lib.sh" &&
		not_in_run "$1" "$2" "a run is never written into another")
}
guard DIR baselines 2>"$err"
is "$?:$(cat "$err")" "0:" \
	"the fragment's guard: DIR=baselines below the root, taken"
guard OUTPUT out/r1 2>"$err"
is "$?:$(cat "$err")" "0:" "OUTPUT=out/r1, taken"

# A run below the root is still a run.
mkdir -p run
cp results.json run/results.json
guard OUTPUT run/sub 2>"$err"
is "$?:$(cat "$err")" "1:make x: OUTPUT 'run/sub' is inside the run folder '$(pwd -P)/run' (it holds 'results.json'): a run is never written into another; give a folder outside it" \
	"OUTPUT inside a run below the root: refused, naming the run"
run prof-dashboard --db "$T/h.sqlite" -o run/dash
is "$rc" 2 "prof-dashboard -o inside that run: refused"
is "$(ls -A run)" "results.json" "nothing made in the run"
