#!/bin/bash
# prof-history over PostgreSQL with the roles prof-history(1), ROLES,
# documents (its SQL block run as it is): a CI role adds its project's runs
# and cannot add another's, nor delete, alter or prune a run; a reader role reads
# (list, trend, the dashboard) and cannot add.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 12

mkrun "$T/a1.json" a1 c1 2026-01-01T00:00:00Z 10 10 10
mkrun "$T/a2.json" a2 c2 2026-01-02T00:00:00Z 11 11 11
mkrun "$T/b1.json" b1 c1 2026-01-01T00:00:00Z 50 50 50
"$BIN/prof-history" add --db "$PGURL" --project alpha "$T/a1.json" 2>/dev/null
# The page's block, as the owner runs it.
sed -n '/^# ROLES/,/^# /p' "$ROOT/src/prof-history.1.scd" |
	sed -n '/^```$/,/^```$/p' | grep -v '^```$' >"$T/roles.sql"
ok "$(grep -c 'CREATE ROLE' "$T/roles.sql" | grep -qx 2; echo $?)" \
	"(prof-history(1) has the roles' SQL)"
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$PGURL" -f "$T/roles.sql" \
	>"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "the owner runs it"

ci="postgresql://prof_ci@/postgres?host=$PGDIR&port=5432"
reader="postgresql://prof_reader@/postgres?host=$PGDIR&port=5432"
run prof-history add --db "$ci" --project alpha "$T/a2.json"
is "$rc" 0 "the CI role adds a run of its project"
run prof-history add --db "$ci" --project beta "$T/b1.json"
is "$rc:$(head -n 1 "$err")" "2:prof-history: $ci: new row violates row-level security policy for table \"prof_runs\"" \
	"and cannot add another project's"
for sql in "DELETE FROM prof_runs" "DELETE FROM prof_rows" \
	"UPDATE prof_runs SET commit_id = 'x'" "UPDATE prof_rows SET median = 0"; do
	"$PGBIN/psql" -X -q -d "$ci" -c "$sql" >"$out" 2>"$err"
	is "$?:$(head -n 1 "$err" | sed 's/ for table.*//')" \
		"1:ERROR:  permission denied" "the CI role cannot: $sql"
done
run prof-history prune --db "$ci" --project alpha --before 2030-01-01
is "$rc:$(cat "$err")" "2:prof-history: $ci: permission denied for table prof_runs" \
	"nor prune (the owner's)"
run prof-history list --db "$reader" --project alpha
jq_ok 'map(.run_id) == ["a1", "a2"]' "$out" \
	"the reader role lists the runs, none lost"
"$BIN/prof-dashboard" --db "$reader" --project alpha -o "$T/d" \
	>/dev/null 2>&1
ok $? "and draws the dashboard"
run prof-history add --db "$reader" --project alpha "$T/b1.json"
is "$rc:$(head -n 1 "$err")" "2:prof-history: $reader: permission denied for table prof_runs" \
	"and cannot add"
finish
