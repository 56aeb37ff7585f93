#!/bin/bash
# The history's memory columns come from the table of metrics
# (prof_cmp_metrics[]), over PostgreSQL as over SQLite: lib-history-columns
# (which checks SQLite alone when make test runs it) run against a
# database of a throwaway cluster checks that every metric has its value,
# KEY_status and KEY_reason columns in a new history there, and that a
# history without a metric's columns gets them at the next add; and
# prof-history migrate, the owner's step (prof-history(1), ROLES), gives
# them back to a history that lacks them, over both backends.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 5

unit=$ROOT/${PROF_BUILD:-build}/test/unit/lib-history-columns.t
PROF_TEST_PG=$(pg_db unit) "$unit" >"$out" 2>"$err"
urc=$?
is "$urc:$(grep -c '^not ok' "$out")" "0:0" \
	"lib-history-columns passes over PostgreSQL too"
[ "$urc" = 0 ] || grep -h '^not ok\|^#' "$out" "$err" | sed 's/^/# /' >&2
is "$(grep -c '^ok ' "$out")" "$(sed -n 's/^1\.\.//p' "$out")" \
	"every check of its plan ran"
ok "$(grep -q '^ok [0-9]* - postgresql: ' "$out"; echo $?)" \
	"among them the PostgreSQL history's"

# A history a prof before a metric made lacks its columns: one dropped.
jq '.run_id = "r1"' "$ROOT/test/data/results/current.json" >"$T/r1.json"
col=host_allocs_reason
pgsql() { "$PGBIN/psql" -X -q -At -d "$pg" -c "$1"; }
pg=$(pg_db mig)
"$BIN/prof-history" add --db "$pg" "$T/r1.json" 2>/dev/null
pgsql "ALTER TABLE prof_rows DROP COLUMN $col"
run prof-history migrate --db "$pg"
is "$rc:$(pgsql "SELECT count(*) FROM pg_attribute WHERE attrelid =
	'prof_rows'::regclass AND attname = '$col' AND NOT attisdropped")" \
	"0:1" "prof-history migrate gives a PostgreSQL history the column it lacks"

db=$T/h.sqlite
"$BIN/prof-history" add --db "$db" "$T/r1.json" 2>/dev/null
sqlite3 "$db" "ALTER TABLE rows DROP COLUMN $col"
run prof-history migrate --db "$db"
is "$rc:$(sqlite3 "$db" "SELECT count(*) FROM pragma_table_info('rows')
	WHERE name = '$col'"):$(sqlite3 "$db" 'PRAGMA user_version')" \
	"0:1:8" "and a SQLite one, at the same schema version"
finish
