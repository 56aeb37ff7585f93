#!/bin/bash
# prof-history over PostgreSQL with many projects in one database: each
# run stored with its project (--project, $PROF_PROJECT, else the git
# repository's name); two projects never see each other's runs or series
# unless asked; one run id may be in both; prof-dashboard --project draws
# one; make passes PROF_PROJECT; migrate says the schema version.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 16

mkrun "$T/a1.json" a1 c1 2026-01-01T00:00:00Z 10 10 10
mkrun "$T/a2.json" a2 c2 2026-01-02T00:00:00Z 11 11 11
mkrun "$T/b1.json" b1 c1 2026-01-01T00:00:00Z 50 50 50
# The same run id as alpha's, with other content: another project's run.
mkrun "$T/b-a1.json" a1 c9 2026-01-03T00:00:00Z 60 60 60

run prof-history migrate --db "$PGURL"
is "$rc:$(cat "$err")" "0:prof-history: '$PGURL' is at history schema version 4" \
	"migrate makes the tables and says the version"
run prof-history add --db "$PGURL" --project alpha "$T/a1.json" "$T/a2.json"
is "$rc" 0 "add --project alpha"
PROF_PROJECT=beta "$BIN/prof-history" add --db "$PGURL" "$T/b1.json" \
	"$T/b-a1.json" >"$out" 2>"$err"
is "$?:$(tail -n 1 "$err")" "0:prof-history: added run 'a1' (commit c9) to '$PGURL'" \
	"PROF_PROJECT=beta: a run id of alpha's is another run in beta"
run prof-history list --db "$PGURL" --project alpha
jq_ok 'map(.run_id) == ["a1", "a2"] and .[0].commit == "c1"' "$out" \
	"alpha lists its two runs only"
run prof-history list --db "$PGURL" --project beta
jq_ok 'map(.run_id) == ["b1", "a1"] and .[1].commit == "c9"' "$out" \
	"beta lists its own"
run prof-history trend --db "$PGURL" --project alpha
jq_ok 'map(.median) == [10, 11]' "$out" "alpha's trend holds alpha's medians"
PROF_PROJECT=beta "$BIN/prof-history" trend --db "$PGURL" >"$out"
jq_ok 'map(.median) == [50, 60]' "$out" "beta's holds beta's"
run prof-history trend --db "$PGURL" --project gamma
jq_ok 'length == 0' "$out" "a project with no runs sees none"
# Without --project or PROF_PROJECT: the git repository's name.
repo=$(basename "$(git -C "$ROOT" rev-parse --show-toplevel)")
(unset PROF_PROJECT; "$BIN/prof-history" add --db "$PGURL" "$T/a1.json") \
	>"$out" 2>"$err"
is "$?" 0 "add without a project"
run prof-history list --db "$PGURL" --project "$repo"
jq_ok 'map(.run_id) == ["a1"]' "$out" \
	"goes to the project named after the git repository ('$repo')"
is "$("$PGBIN/psql" -X -At -d "$PGURL" -c "SELECT project || ':' || count(*)
	FROM prof_runs GROUP BY project ORDER BY project" | tr '\n' ' ')" \
	"$(printf '%s\n' alpha:2 beta:2 "$repo:1" | sort | tr '\n' ' ')" \
	"every run stored with its project"
# A SQLite file is one project's: --project changes nothing there.
"$BIN/prof-history" add --db "$T/h.sqlite" --project x "$T/a1.json" 2>/dev/null
run prof-history list --db "$T/h.sqlite" --project y
jq_ok 'map(.run_id) == ["a1"]' "$out" "a SQLite file is one project's history"
run prof-history list --db "$PGURL" --project ""
is "$rc:$(cat "$err")" "2:prof-history: empty argument" "an empty project is refused"

"$BIN/prof-dashboard" --db "$PGURL" --project beta -o "$T/d" >/dev/null 2>"$err"
is "$?:$(cat "$err")" "0:prof-dashboard: wrote 1 series over 2 runs to '$T/d/index.html'" \
	"prof-dashboard --project beta: beta's runs only"
grep -q '>60<\|60 ms\|60\.0' "$T/d"/s-*.html
ok $? "(draws beta's series)"

mk=$(pg_db mk)
make -s --no-print-directory -o all BINDIR="$BIN" profile-full \
	WORKLOADS="$TW" CATEGORY=memory REPEAT=2 STORIES=0 \
	BASELINE="$T/none.json" HISTORY="$mk" PROF_PROJECT=fromake \
	OUTPUT="$T/q" >"$out" 2>"$err"
is "$?:$("$PGBIN/psql" -X -At -d "$mk" -c "SELECT DISTINCT project FROM prof_runs")" \
	"0:fromake" "make profile-full PROF_PROJECT=fromake adds its run there"
finish
