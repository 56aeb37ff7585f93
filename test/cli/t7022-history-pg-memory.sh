#!/bin/bash
# prof-history over PostgreSQL: memory series (t7021's story) give the same
# output, word for word, as over SQLite; a memory verdict stored is never
# changed; a version-1 PostgreSQL history is migrated forward to version 4.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 5
. "$(dirname "$0")/memory.sh"

story "$T/h.sqlite" "$T/s"
pg=$(pg_db story)
story "$pg" "$T/p"
is "$(cat "$T/p/add.rc"):$(cat "$T/p/judge.rc")" "0:0" \
	"over PostgreSQL, the same adds"
is "$(cat "$T/p/trend.json")" "$(cat "$T/s/trend.json")" \
	"trend is the same over PostgreSQL"
is "$(cat "$T/p/changes.json")" "$(cat "$T/s/changes.json")" \
	"changes is the same over PostgreSQL"
run prof-history add --db "$pg" --comparisons "$T/cmp4-other.json" \
	"$T/runs/m4.json"
is "$rc:$(cat "$err")" \
	"2:prof-history: $pg: run 'm4' is already there with other statuses (test.ab_copy, cpu, host_peak_bytes: 'warning', not 'stable')" \
	"and refuses another memory verdict the same way"
# A version-1 PostgreSQL history is migrated forward to version 4.
v1=$(pg_db v1)
"$PGBIN/psql" -X -q -d "$v1" -f "$ROOT/test/data/history/pg-schema-v1.sql" \
	>/dev/null
"$BIN/prof-history" add --db "$v1" --project prof --comparisons "$T/cmp4.json" \
	"$T/runs/m4.json" 2>/dev/null
is "$("$PGBIN/psql" -X -At -d "$v1" -c "SELECT value FROM prof_meta WHERE key = 'schema'"):$("$BIN/prof-history" trend --db "$v1" --project prof | jq -c 'map([.run_id, .host_peak_bytes, .host_allocs, .host_peak_bytes_status])')" \
	"4:[[\"run-v5\",1052656,null,null],[\"m4\",$pa,2,\"warning\"]]" \
	"a version-1 PostgreSQL history is migrated to version 4, as SQLite's"
