#!/bin/bash
# prof-history prune --before DATE: the runs from before it go, with their
# rows, in one transaction, over SQLite and PostgreSQL alike (there, of
# the project named only); an import of files holding them adds them
# again; a bad date is exit 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 11

mkdir -p "$T/runs"
mkrun "$T/runs/a.json" a c1 2025-12-31T23:59:59Z 10 10 10
mkrun "$T/runs/b.json" b c2 2026-01-01T00:00:00Z 11 11 11
mkrun "$T/runs/c.json" c c3 2026-01-02T00:00:00Z 12 12 12
"$BIN/prof-history" import --db "$PGURL" --project other "$T/runs" 2>/dev/null
for db in "$T/h.sqlite" "$PGURL"; do
	name=SQLite
	[ "$db" = "$PGURL" ] && name=PostgreSQL
	"$BIN/prof-history" import --db "$db" --project p "$T/runs" 2>/dev/null
	run prof-history prune --db "$db" --project p --before 2026-01-01
	is "$rc:$(cat "$err")" "0:prof-history: pruned 1 run from before 2026-01-01 out of '$db'" \
		"$name: prune --before 2026-01-01"
	run prof-history list --db "$db" --project p
	jq_ok 'map(.run_id) == ["b", "c"]' "$out" "$name: 2025's run is gone, the others kept"
	run prof-history prune --db "$db" --project p --before 2026-01-02T00:00:00Z
	run prof-history trend --db "$db" --project p
	jq_ok 'map(.run_id) == ["c"] and .[0].median == 12' "$out" \
		"$name: --before a time; the rows went with their runs"
	"$BIN/prof-history" import --db "$db" --project p "$T/runs" 2>"$err"
	like "$(cat "$err")" "imported 2 runs into" \
		"$name: an import of the files adds them again"
done
run prof-history list --db "$PGURL" --project other
jq_ok 'map(.run_id) == ["a", "b", "c"]' "$out" \
	"PostgreSQL: another project's runs are not pruned"
run prof-history prune --db "$T/h.sqlite" --before 2026-13
is "$rc:$(cat "$err")" "2:prof-history: --before: '2026-13': not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ)" \
	"a bad date is exit 2"
run prof-history prune --db "$T/h.sqlite"
is "$rc:$(cat "$err")" "2:prof-history: prune takes --before DATE" \
	"prune needs --before"
finish
