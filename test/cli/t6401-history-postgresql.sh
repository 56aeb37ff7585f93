#!/bin/bash
# prof-history over PostgreSQL (a cluster this test starts): the same
# verbs as over SQLite give the same output, word for word, and so does
# prof-dashboard; an address is never a file, and never holds a password.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 36

# The inputs, one set for both backends.
mkrun "$T/a.json" run-a c1 2026-01-01T00:00:00Z 10 11 12
mkrun "$T/a-other.json" run-a c1 2026-01-01T00:00:00Z 10 11 13
mkrun2 "$T/b.json" run-b c2 2026-01-02T00:00:00Z 20 21 22
mkrun "$T/c.json" run-c c0 2025-12-31T00:00:00Z 9 9 9
mkdir -p "$T/runs/r1" "$T/runs/r2" "$T/runs/odd"
mkrun "$T/base.json" base c0 2026-01-01T00:00:00Z 10 10 10
for i in $(seq 1 20); do
	m=10
	[ "$i" -ge 11 ] && m=13
	mkrun "$T/runs/s$i.json" "s$i" "$(printf %040x "$i")" \
		"2026-02-$(printf %02d "$i")T00:00:00Z" "$((m - 1))" "$m" "$((m + 1))"
done
mkrun "$T/runs/r1/results.json" r1 d1 2026-03-01T00:00:00Z 5 5 5
"$BIN/prof-diff" --baseline "$T/base.json" --output \
	"$T/runs/r1/comparisons.json" "$T/runs/r1/results.json" 2>/dev/null
mkrun2 "$T/runs/r2/results.json" r2 d2 2026-03-02T00:00:00Z 10 10 10
echo '{"not": "a run"}' >"$T/runs/odd/other.json"
mkrun "$T/late.json" late d3 2026-03-03T00:00:00Z 10 10 10
"$BIN/prof-diff" --baseline "$T/base.json" --output "$T/late-cmp.json" \
	"$T/late.json" 2>/dev/null

# story DB DIR: every verb over DB, each step's exit code, stdout and
# stderr (DB written as "DB"; list's added_utc, the time of the add, left
# out) in DIR/NN.
story() {
	local db=$1 dir=$2 k=0
	mkdir -p "$dir"
	step() {
		local rc f
		k=$((k + 1))
		f=$dir/$(printf %02d $k)
		"$BIN/prof-history" "$@" >"$dir/out" 2>"$dir/err"
		rc=$?
		{
			echo "rc $rc"
			if [ "$1" = list ]; then
				jq 'map(del(.added_utc))' "$dir/out"
			else
				cat "$dir/out"
			fi
			sed "s|$db|DB|g" "$dir/err"
		} >"$f"
	}
	step add --db "$db" "$T/a.json"
	step add --db "$db" "$T/a.json"
	step add --db "$db" "$T/a-other.json"
	step add --db "$db" "$T/b.json" "$T/c.json"
	step import --db "$db" "$T/runs"
	step import --db "$db" "$T/runs"
	step add --db "$db" "$T/late.json"
	step add --db "$db" --comparisons "$T/late-cmp.json" "$T/late.json"
	step add --db "$db" --comparisons "$T/late-cmp.json" "$T/late.json"
	step list --db "$db"
	step trend --db "$db"
	step trend --db "$db" --workload test.step --backend cpu --segment e1
	step trend --db "$db" --workload none
	step changes --db "$db"
	step changes --db "$db" --since "$(printf %040x 11)"
	step changes --db "$db" --since nope
	step list --db "$db" --workload x
	"$BIN/prof-dashboard" --db "$db" --title t -o "$dir/dash" \
		>/dev/null 2>"$dir/dash.err"
	echo "rc $?" >>"$dir/dash.err"
}
story "$T/h.sqlite" "$T/sq"
story "$PGURL" "$T/pg"

names=("add a run" "add it again: nothing changed"
	"the same run id with other content: refused"
	"two runs in one add, schema 1 and 2"
	"import a folder (run folders with comparisons, a file that is not a run)"
	"import it again: nothing changed" "add a run without its comparisons"
	"add it again with them: the statuses it lacked"
	"and again: nothing changed" "list" "trend" "trend --workload --backend --segment"
	"trend of no rows" "changes" "changes --since" "changes --since an unknown commit"
	"a bad option")
for k in $(seq 1 17); do
	f=$(printf %02d "$k")
	is "$(cat "$T/pg/$f")" "$(cat "$T/sq/$f")" \
		"over PostgreSQL as over SQLite: ${names[$((k - 1))]}"
done
jq_ok 'length == 26' <(sed -n '2,$p' "$T/pg/10") "(list holds the 26 runs)"
jq_ok 'length == 1 and .[0].bisect != null' <(sed -n '2,$p' "$T/pg/14") \
	"(changes finds the step, with its make bisect line)"
is "$(head -n 1 "$T/pg/03"):$(tail -n 1 "$T/pg/03")" \
	"rc 2:prof-history: DB: run 'run-a' is already there with other content" \
	"(the other content is exit 2)"
is "$(cat "$T/pg/dash.err")" "prof-dashboard: wrote 1 series over 26 runs to '$T/pg/dash/index.html'
rc 0" "prof-dashboard reads a PostgreSQL history"
run diff -r "$T/sq/dash" "$T/pg/dash"
is "$rc:$(cat "$out")" "0:" "and writes the same pages as from SQLite"

# An address is never a file: no 'postgresql:' made here, even when the
# server is not there.
mkdir "$T/cwd"
(cd "$T/cwd" && "$BIN/prof-history" add --db \
	"postgresql:///x?host=$T/nowhere" "$T/a.json") >"$out" 2>"$err"
is "$?" 2 "a server that is not there: exit 2"
like "$(cat "$err")" "prof-history: postgresql:///x?host=$T/nowhere: connection to server on socket" \
	"libpq's reason, after the address"
is "$(ls -A "$T/cwd")" "" "and no file is made for the address"
run prof-history list --db "host=$PGDIR port=5432 user=prof dbname=postgres"
jq_ok 'length == 26' "$out" "a key=value connection string names it too"
run prof-history list --db "postgresql://prof:secret@/postgres?host=$PGDIR"
is "$rc:$(cat "$err")" "2:prof-history: the history's address holds a password, which the command line would show: give it in PGPASSFILE or PGPASSWORD instead" \
	"a password in the address is refused, and not repeated"
run prof-history list --db "password=secret host=$PGDIR user=prof"
is "$rc" 2 "in a key=value string too"
empty=$(pg_db empty)
run prof-history trend --db "$empty"
is "$rc:$(cat "$err")" "2:prof-history: $empty: no prof history in this database (prof-history add or import makes one)" \
	"reading a database with no history is exit 2, and makes none"
is "$("$PGBIN/psql" -X -At -d "$empty" -c "SELECT to_regclass('prof_runs') IS NULL")" t \
	"(no table was made there)"

# A database of a newer schema is refused, by readers and writers alike,
# and left as it is.
newer=$(pg_db newer)
"$BIN/prof-history" add --db "$newer" "$T/a.json" 2>/dev/null
"$PGBIN/psql" -X -q -d "$newer" -c "UPDATE prof_meta SET value = '99'"
run prof-history list --db "$newer"
is "$rc:$(cat "$err")" "2:prof-history: $newer: history schema version 99 is newer than this prof's (4)" \
	"a history of a newer schema is refused"
run prof-history add --db "$newer" "$T/b.json"
is "$rc:$("$PGBIN/psql" -X -At -d "$newer" -c "SELECT count(*) FROM prof_runs")" "2:1" \
	"and an add to it stores nothing"

# The fragment passes an address through wherever it passes a file: a
# profiling run joins it, its report reads it, make dashboard draws it.
mk=$(pg_db mk)
(cd "$T/cwd" && make -s --no-print-directory -C "$ROOT" -o all BINDIR="$BIN" \
	profile-full WORKLOADS="$TW" CATEGORY=memory REPEAT=2 STORIES=0 \
	BASELINE="$T/none.json" HISTORY="$mk" OUTPUT="$T/q") >"$out" 2>"$err"
is "$?" 0 "make profile-full HISTORY=postgresql://..."
"$BIN/prof-history" trend --db "$mk" >"$T/mk.json"
jq_ok 'length > 0 and all(.status == "incomparable")' "$T/mk.json" \
	"adds its run there, with each row's status"
is "$(ls -A "$T/cwd")" "" "(and makes no folder for the address)"
make -s --no-print-directory -o all BINDIR="$BIN" dashboard HISTORY="$mk" \
	OUTPUT="$T/mkdash" >"$out" 2>"$err"
is "$?:$(ls "$T/mkdash" | grep -c '^s-.*html$')" "0:$(jq '[.[] | .workload + .backend + .segment_id] | unique | length' "$T/mk.json")" \
	"make dashboard HISTORY=postgresql://... draws every series"
finish
