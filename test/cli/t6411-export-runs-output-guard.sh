#!/bin/bash
# prof-history export-runs DIR never writes into a run, as no other writer
# does: a run folder (it holds results.json, samples.jsonl, bisect.json or
# steps.jsonl: run-lib.sh's run_mark; prof_in_run(), the check
# prof-dashboard -o makes too), or a folder inside one, made or not, is
# refused before anything is written, exit 2 in one line naming it (and
# the run). It made DIR inside the run and wrote the runs there.
. "$(dirname "$0")/lib.sh"
plan 10

sums() { (cd "$1" && find . | LC_ALL=C sort | while read -r f; do
	[ -f "$f" ] && md5sum "$f" || echo "$f"; done); }
D=test/data/results
db=$T/h.sqlite
"$BIN/prof-history" add --db "$db" $D/current.json 2>/dev/null
R=$(cd "$T" && pwd -P)
NEVER="export-runs never writes into a run"

mkdir -p "$T/run"
cp $D/current.json "$T/run/results.json"
echo '# summary' >"$T/run/summary.md"
kept=$(sums "$T/run")

run prof-history export-runs --db "$db" "$T/run"
is "$rc:$(cat "$out"):$(cat "$err")" "2::prof-history: '$T/run' is a run folder (it holds 'results.json'): $NEVER; give another folder" \
	"a run folder: exit 2, one line naming it"

mkdir "$T/steps"
echo '{}' >"$T/steps/steps.jsonl"
run prof-history export-runs --db "$db" "$T/steps"
is "$rc:$(cat "$err"):$(ls -A "$T/steps")" "2:prof-history: '$T/steps' is a run folder (it holds 'steps.jsonl'): $NEVER; give another folder:steps.jsonl" \
	"a folder of steps.jsonl only too, nothing added to it"

run prof-history export-runs --db "$db" "$T/run/x"
is "$rc:$(cat "$err")" "2:prof-history: '$T/run/x' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it" \
	"a new folder inside a run: refused, naming the run"
run prof-history export-runs --db "$db" "$T/run/x/y"
is "$rc:$(cat "$err")" "2:prof-history: '$T/run/x/y' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it" \
	"deeper, its parents not made either"
mkdir "$T/run/old"
run prof-history export-runs --db "$db" "$T/run/old"
is "$rc:$(cat "$err"):$(ls -A "$T/run/old")" "2:prof-history: '$T/run/old' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it:" \
	"an empty folder inside a run: refused, left empty"
rmdir "$T/run/old"

# The working folder, and those above it, are never runs (a project's
# root may hold a results.json of its own: t3412): from inside the run,
# its folder x is written.
(cd "$T/run" && "$BIN/prof-history" export-runs --db "$R/h.sqlite" x \
	>"$out" 2>"$err")
is "$?:$(ls "$T/run/x" | wc -l)" "0:1" \
	"the working folder is never taken for a run: x written there"
rm -rf "$T/run/x"
# Through a link: the run is named by its real path.
ln -s "$T/run" "$T/link"
run prof-history export-runs --db "$db" "$T/link/x"
is "$rc:$(cat "$err")" "2:prof-history: '$T/link/x' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it" \
	"a link to a run: its real path named"
is "$(sums "$T/run")" "$kept" "and the run is as it was, nothing made in it"

# Refused before the history is read: a missing one says the run too.
run prof-history export-runs --db "$T/none.sqlite" "$T/run/x"
is "$rc:$(cat "$err"):$([ -e "$T/none.sqlite" ]; echo $?)" "2:prof-history: '$T/run/x' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it:1" \
	"checked before the history is opened, no database made"

# Outside every run: written as before.
run prof-history export-runs --db "$db" "$T/out"
is "$rc:$(cat "$err"):$(ls "$T/out" | wc -l)" "0:prof-history: exported 1 run of '$db' into '$T/out':1" \
	"a folder outside every run: exported"
