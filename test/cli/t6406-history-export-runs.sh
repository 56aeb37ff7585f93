#!/bin/bash
# prof-history export-runs writes each run of a history back out as a
# results file that import reads back to the same history: a fresh
# database imported from the export lists, trends, changes and draws the
# same as the one exported, over SQLite and over PostgreSQL, and across
# them (moving from SQLite to PostgreSQL is one import); the export
# imported into its own history changes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 29
export PROF_PROJECT=exp
D=$ROOT/test/data/results

# A run of every kind of row: statuses from its comparisons, error
# samples, memory peaks, an instruction count, a row of a profile sample
# only; runs of schema 1 and 2, of 1 to 4 samples, a change point.
jq '.samples += [(.samples[0] | .phase = "instructions" |
	.instructions = 123456 | .duration_ms = 0),
	(.samples[0] | .workload = "w.prof_only" | .phase = "profile")]' \
	"$D/current.json" >"$T/rich.json"
"$BIN/prof-diff" --baseline "$D/baseline.json" --output "$T/rich-cmp.json" \
	"$T/rich.json" 2>/dev/null
mkdir -p "$T/runs"
for i in $(seq 1 12); do
	m=10
	[ "$i" -ge 7 ] && m=13
	mk=mkrun
	[ $((i % 2)) = 0 ] && mk=mkrun2
	set -- $(seq "$((m - 1))" "$((m - 1 + i % 4))")
	$mk "$T/runs/s$i.json" "s$i" "$(printf %040x "$i")" \
		"2026-02-$(printf %02d "$i")T00:00:00Z" "$@"
done

# same A B NAME: list (less added_utc, the time of each add), trend,
# changes and the dashboard of two histories are the same.
same() {
	local a=$1 b=$2 v
	for v in list trend changes; do
		"$BIN/prof-history" "$v" --db "$a" | jq 'map(del(.added_utc))' \
			>"$T/a.$v"
		"$BIN/prof-history" "$v" --db "$b" | jq 'map(del(.added_utc))' \
			>"$T/b.$v"
		run cmp "$T/a.$v" "$T/b.$v"
		is "$rc" 0 "$3: $v the same"
		[ "$rc" = 0 ] || diff "$T/a.$v" "$T/b.$v" | head -20 |
			sed "s/^/#   /" >&2
	done
	rm -rf "$T/da" "$T/db"
	"$BIN/prof-dashboard" --db "$a" --title t -o "$T/da" 2>/dev/null
	"$BIN/prof-dashboard" --db "$b" --title t -o "$T/db" 2>/dev/null
	run diff -r "$T/da" "$T/db"
	is "$rc" 0 "$3: the dashboard the same"
}

sq=$T/h.sqlite
"$BIN/prof-history" add --db "$sq" --comparisons "$T/rich-cmp.json" \
	"$T/rich.json" 2>/dev/null
"$BIN/prof-history" import --db "$sq" "$T/runs" 2>/dev/null
run prof-history export-runs --db "$sq" "$T/sq-out"
is "$rc:$(cat "$err")" "0:prof-history: exported 13 runs of '$sq' into '$T/sq-out'" \
	"export-runs: exit 0, and how many runs went where"
is "$(ls "$T/sq-out" | wc -l)" 13 "one file a run, named by its run id"
jq_ok '.schema_version == 2 and .history.digest == "v2:" + (.history.digest[3:])' \
	"$T/sq-out/s2.json" "(a run of schema 2 written in schema 2, its digest kept)"
jq_ok '.schema_version == 1' "$T/sq-out/s1.json" \
	"(a run of schema 1 written in schema 1)"
jq_ok '.history.rows | map(select(.workload == "w.warning")) |
	.[0].status == "warning"' "$T/sq-out/20261129T181500Z-c0de.json" \
	"(the rows' statuses kept in .history.rows)"

run prof-history import --db "$T/fresh.sqlite" "$T/sq-out"
is "$rc" 0 "import of the export into a fresh SQLite file: exit 0"
jq_ok 'length == 13' <("$BIN/prof-history" list --db "$T/fresh.sqlite") \
	"(13 runs)"
same "$sq" "$T/fresh.sqlite" "SQLite, exported and imported"
jq_ok 'map(select(.workload == "w.warning"))[0] |
	.instructions == 123456 and .host_peak_bytes == 10485760 and
	.host_allocs == 1000 and .rss_peak_bytes == 20971520 and
	.status == "warning" and .host_allocs_status == "new"' "$T/b.trend" \
	"(counts, memory metrics and their verdicts, statuses came through)"

run prof-history import --db "$sq" "$T/sq-out"
like "$rc:$(cat "$err")" "0:prof-history: imported 0 runs into '$sq' from 13 results files (13 already there;" \
	"the export imported into its own history: the same runs, nothing changed"

# Moving to PostgreSQL: one import of the SQLite file's export.
moved=$(pg_db moved)
run prof-history import --db "$moved" "$T/sq-out"
is "$rc" 0 "the SQLite export imported into PostgreSQL: exit 0"
same "$sq" "$moved" "SQLite into PostgreSQL"
# And the run files themselves, later (the runs branch): the same runs.
run prof-history import --db "$moved" "$T/runs"
like "$rc:$(cat "$err")" "0:prof-history: imported 0 runs into '$moved' from 12 results files (12 already there;" \
	"the original run files after the export: already there, nothing changed"

# Over PostgreSQL both ways, one project of two.
"$BIN/prof-history" add --db "$PGURL" --project other "$T/runs/s1.json" \
	2>/dev/null
"$BIN/prof-history" add --db "$PGURL" --comparisons "$T/rich-cmp.json" \
	"$T/rich.json" 2>/dev/null
"$BIN/prof-history" import --db "$PGURL" "$T/runs" 2>/dev/null
run prof-history export-runs --db "$PGURL" "$T/pg-out"
is "$rc:$(ls "$T/pg-out" | wc -l)" 0:13 \
	"export-runs over PostgreSQL: the project's 13 runs, not the other's"
fresh=$(pg_db fresh)
"$BIN/prof-history" import --db "$fresh" "$T/pg-out" 2>/dev/null
same "$PGURL" "$fresh" "PostgreSQL, exported and imported"
run diff -r "$T/sq-out" "$T/pg-out"
is "$rc" 0 "the two backends export the same files"

# Refusals.
run prof-history export-runs --db "$T/none.sqlite" "$T/no-out"
is "$rc:$(ls "$T" | grep -c -e '^no-out$' -e '^none.sqlite')" 2:0 \
	"from a history that is not there: exit 2, no folder made, no history"
run prof-history export-runs --db "$sq" "$T/sq-out"
is "$rc:$(cat "$err")" "2:prof-history: '$T/sq-out' is not empty (export-runs writes into a new or empty folder)" \
	"into a folder that holds files: exit 2, nothing replaced"
rich=$T/sq-out/20261129T181500Z-c0de.json
jq '.history.rows[0].status = "fine"' "$rich" >"$T/bad.json"
run prof-history add --db "$T/bad.sqlite" "$T/bad.json"
is "$rc:$(head -1 "$err")" "2:prof-history: $T/bad.json: .history.rows[0].status: expected one of new, incomparable, stable, warning, improved, unsettled, unjudged" \
	"a kept verdict that is not a status: exit 2, with its JSON path"
jq '.history.rows = [{workload: "test.step", backend: "cpu",
	segment_id: "0000000000000000", status: "stable"}]' \
	"$T/sq-out/s1.json" >"$T/bad.json"
run prof-history add --db "$T/bad.sqlite" "$T/bad.json"
is "$rc:$(head -1 "$err"):$(ls "$T" | grep -c bad.sqlite)" "2:prof-history: $T/bad.json: .history.rows[0]: no such row in the results (test.step, cpu):0" \
	"a kept verdict of no row: exit 2, with its JSON path, no history made"
finish
