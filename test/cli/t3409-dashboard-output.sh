#!/bin/bash
# make dashboard OUTPUT= (prof-dashboard -o DIR) never writes into a run:
# a run folder (it holds results.json, samples.jsonl, bisect.json or
# steps.jsonl: run-lib.sh's run_mark), or a folder inside one, is refused,
# exit 2 in one line naming it, nothing written. Nor over a folder of
# someone else's: DIR must be new, empty, or a dashboard's own (it holds
# .prof-dashboard, written before the pages), so that running it again
# into the same folder still works. It wrote index.html and s-*.html into
# any folder, a run's included.
. "$(dirname "$0")/lib.sh"
plan 14

mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs md5sum); }
D=test/data/results
"$BIN/prof-history" add --db "$T/h.sqlite" $D/current.json 2>/dev/null
R=$(cd "$T" && pwd -P)
NEVER="a dashboard is never written into a run"

# A run folder: refused, the run as it was.
mkdir -p "$T/run"
cp $D/current.json "$T/run/results.json"
echo '# summary' >"$T/run/summary.md"
kept=$(sums "$T/run")
mk dashboard HISTORY="$T/h.sqlite" OUTPUT="$T/run"
is "$rc:$(grep -v '^make: \*\*\*' "$err")" "2:prof-dashboard: '$T/run' is a run folder (it holds 'results.json'): $NEVER; give another folder" \
	"make dashboard OUTPUT=a run folder: exit 2, one line naming it"
is "$(sums "$T/run")" "$kept" "the run folder is as it was"

# A run stopped before its results (samples.jsonl only), and a bisect.
mkdir "$T/part" "$T/bis"
echo '{}' >"$T/part/samples.jsonl"
echo '{}' >"$T/bis/bisect.json"
run prof-dashboard --db "$T/h.sqlite" -o "$T/part"
is "$rc:$(cat "$err"):$(ls -A "$T/part")" "2:prof-dashboard: '$T/part' is a run folder (it holds 'samples.jsonl'): $NEVER; give another folder:samples.jsonl" \
	"a run folder of samples only too"
run prof-dashboard --db "$T/h.sqlite" -o "$T/bis"
is "$rc:$(cat "$err")" "2:prof-dashboard: '$T/bis' is a run folder (it holds 'bisect.json'): $NEVER; give another folder" \
	"and a bisect's folder"

# Inside a run folder, made or not: refused, nothing made in the run.
run prof-dashboard --db "$T/h.sqlite" -o "$T/run/site/x"
is "$rc:$(cat "$err")" "2:prof-dashboard: '$T/run/site/x' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it" \
	"a new folder inside a run: refused, naming the run"
mkdir "$T/run/old"
run prof-dashboard --db "$T/h.sqlite" -o "$T/run/old"
is "$rc:$(cat "$err")" "2:prof-dashboard: '$T/run/old' is inside the run folder '$R/run' (it holds 'results.json'): $NEVER; give a folder outside it" \
	"an empty folder inside a run too"
rmdir "$T/run/old"
is "$(sums "$T/run")" "$kept" "and the run is as it was, nothing made in it"

# Someone else's folder: refused; a file: refused.
mkdir "$T/mine"
echo 'my page' >"$T/mine/index.html"
run prof-dashboard --db "$T/h.sqlite" -o "$T/mine"
is "$rc:$(cat "$err"):$(cat "$T/mine/index.html")" "2:prof-dashboard: '$T/mine' is not empty (it holds 'index.html') and is no dashboard's folder (no .prof-dashboard): a dashboard is written only into a new or empty folder or over an earlier dashboard; give another folder, or remove this one first:my page" \
	"a folder of other files: refused, its index.html as it was"
run prof-dashboard --db "$T/h.sqlite" -o "$T/run/summary.md"
is "$rc:$(cat "$err")" "2:prof-dashboard: '$T/run/summary.md' is not a folder: give the folder to write" \
	"a file: refused"

# New, then again into the same folder: its own.
mk dashboard HISTORY="$T/h.sqlite" OUTPUT="$T/site"
is "$rc:$(cat "$err")" "0:prof-dashboard: wrote 11 series over 1 runs to '$T/site/index.html'" \
	"a new folder: written"
ok "$([ -f "$T/site/.prof-dashboard" ]; echo $?)" "marked as a dashboard's"
echo 'stale' >"$T/site/index.html"
mk dashboard HISTORY="$T/h.sqlite" OUTPUT="$T/site"
is "$rc:$(cat "$err"):$(grep -c stale "$T/site/index.html")" \
	"0:prof-dashboard: wrote 11 series over 1 runs to '$T/site/index.html':0" \
	"its own folder again: written over"
mkdir "$T/empty"
run prof-dashboard --db "$T/h.sqlite" --projects -o "$T/empty"
is "$rc:$(tail -n 1 "$err")" "0:prof-dashboard: wrote 1 project to '$T/empty/index.html'" \
	"an empty folder (--projects): written"
run prof-dashboard --db "$T/h.sqlite" --projects -o "$T/empty"
is "$rc" 0 "and again"
finish
