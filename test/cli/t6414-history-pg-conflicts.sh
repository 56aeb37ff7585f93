#!/bin/bash
# Writers that end each other's transactions over PostgreSQL: a deadlock
# (40P01) or a serialization failure (40001) rolls a transaction back,
# and add and import run it again, 5 tries at most, after a pause that
# grows, with a line each time; at the last, one line names the cause.
# Four imports of overlapping folders at once once failed with
# "postgresql://: deadlock detected", exit 2, nothing added (2 runs in
# 3). The deadlock is made here, not waited for: the import is held
# inside its transaction by a shim (test/fault/pause-open.c) while a
# session takes the run it will ask for next and waits for the one it
# holds; then rounds of four importers at once, each with the history of
# one import after another. And PROF_PROJECT longer than 255 bytes is
# refused, not cut into another project's series.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 13
export PROF_PROJECT=conflicts
SHIM=$TBIN/libprof-test-pause-open.so

mkdir -p "$T/d"
mkrun "$T/d/a.json" k1 c1 2026-05-01T00:00:00Z 5 5 5
mkrun "$T/d/b.json" k2 c2 2026-05-02T00:00:00Z 6 6 6
# (k2 of a segment of its own: a writer of k2 alone waits on no row of
# the import's)
jq "$JQ_SEGMENT"'.samples |= map(.env.cpu_model = "Other CPU" |
	.segment = (.env | segment_key))' "$T/d/b.json" >"$T/b.json" &&
	mv "$T/b.json" "$T/d/b.json"

# until_one DB SQL WHAT: wait (without a clock: up to 3000 polls) for a
# query of one count to say 1.
until_one() {
	local i n
	for i in $(seq 1 3000); do
		n=$("$PGBIN/psql" -X -At -d "$1" -c "$2")
		[ "$n" = 1 ] && return 0
		sleep 0.1
	done
	echo "# $3: not seen" >&2
	return 1
}
# until_file FILE: wait (up to 3000 polls) for the shim's mark, while
# the import held ($imp) is there.
until_file() {
	local i
	for i in $(seq 1 3000); do
		[ -e "$1" ] && return 0
		kill -0 "$imp" 2>/dev/null || break
		sleep 0.1
	done
	echo "# $1: not seen" >&2
	return 1
}
# held_import DB MARK: an import of $T/d into DB, held by the shim on
# each try at its first open of b.json (the second file: k1 stored, in its
# transaction); its deadlock check after 100 ms of waiting. $imp is its
# pid.
held_import() {
	PGAPPNAME=importer PGOPTIONS='-c deadlock_timeout=100ms' \
		LD_PRELOAD=$SHIM PROF_TEST_PAUSE_OPEN=/b.json \
		PROF_TEST_PAUSE_REARM=/a.json \
		PROF_TEST_PAUSE_OPEN_MARK=$2 \
		"$BIN/prof-history" import --db "$1" "$T/d" >"$T/imp.out" \
		2>"$T/imp.err" &
	imp=$!
}
# deadlock DB MARK.N: with the import held at its N-th pause, a session
# stores k2 and then asks for k1, which the import holds, and waits (its
# own deadlock check after 10 minutes: the import's comes first); the
# import let go asks for k2, and the server ends the import's
# transaction. The session then stores k1 and rolls back. Returns once
# the session has ended.
deadlock() {
	local db=$1 mark=$2 holder
	until_file "$mark" || return 1
	PGAPPNAME=holder "$PGBIN/psql" -X -q -d "$db" -c "SET deadlock_timeout = '10min';
		BEGIN;
		INSERT INTO prof_runs (project, run_id, commit_id, timestamp_utc,
		command, results_schema, digest, added_utc) VALUES ('conflicts',
		'k2', 'x', 'x', 'x', 1, 'v2:x', 'x');
		INSERT INTO prof_runs (project, run_id, commit_id, timestamp_utc,
		command, results_schema, digest, added_utc) VALUES ('conflicts',
		'k1', 'x', 'x', 'x', 1, 'v2:x', 'x');
		ROLLBACK" >/dev/null 2>"$T/holder.err" &
	holder=$!
	until_one "$db" "SELECT count(*) FROM pg_stat_activity WHERE
		application_name = 'holder' AND wait_event_type = 'Lock'" \
		"the session waiting on k1" || return 1
	touch "$mark.go"
	wait "$holder"
}

# One deadlock: rolled back, run again, both runs stored.
db=$(pg_db dl)
"$BIN/prof-history" migrate --db "$db" 2>/dev/null
# (the pauses after those a check makes are let through before: a pause
# no check makes would hold the import for ever)
for n in 2 3 4 5 6; do touch "$T/p.$n.go" "$T/s.$n.go"; done
touch "$T/q.6.go"
held_import "$db" "$T/p"
deadlock "$db" "$T/p.1"
ok $? "(the import held inside its transaction, the session waiting on it)"
wait "$imp"
is "$?:$(cat "$T/imp.err")" "0:prof-history: $db: deadlock detected; rolled back, trying again (2 of 5)
prof-history: imported 2 runs into '$db' from 2 results files (0 already there; 0 other JSON files skipped)" \
	"a deadlock: the import runs again and stores both runs, exit 0"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["k1", "k2"]' "$out" "both runs are in, each once"

# Five deadlocks in a row: the bound, and the cause named.
db=$(pg_db dl5)
"$BIN/prof-history" migrate --db "$db" 2>/dev/null
held_import "$db" "$T/q"
fails=0
for n in 1 2 3 4 5; do
	deadlock "$db" "$T/q.$n" || fails=$((fails + 1))
done
is "$fails" 0 "(five deadlocks made, one a try)"
wait "$imp"
is "$?:$(cat "$T/imp.err")" "2:prof-history: $db: deadlock detected; rolled back, trying again (2 of 5)
prof-history: $db: deadlock detected; rolled back, trying again (3 of 5)
prof-history: $db: deadlock detected; rolled back, trying again (4 of 5)
prof-history: $db: deadlock detected; rolled back, trying again (5 of 5)
prof-history: $db: deadlock detected
prof-history: nothing was added to '$db': 5 tries, each ended by another writer's transaction (the last by a deadlock, SQLSTATE 40P01)" \
	"five deadlocks: exit 2, one line a try, the cause named at the last"
run prof-history list --db "$db"
jq_ok 'length == 0' "$out" "and nothing is stored"

# A serialization failure: at the serializable level, another writer
# stores k2 after the import's snapshot; the import's insert of it fails
# (40001), and the import again finds it there.
db=$(pg_db ser)
"$PGBIN/psql" -X -q -d "$db" -c "ALTER DATABASE ser SET
	default_transaction_isolation = 'serializable'"
"$BIN/prof-history" migrate --db "$db" 2>/dev/null
held_import "$db" "$T/s"
until_file "$T/s.1"
run prof-history add --db "$db" "$T/d/b.json"
is "$rc:$(cat "$err")" "0:prof-history: added run 'k2' (commit c2) to '$db'" \
	"(another writer adds k2 while the import is held)"
touch "$T/s.1.go"
wait "$imp"
is "$?:$(cat "$T/imp.err")" "0:prof-history: $db: could not serialize access due to concurrent update; rolled back, trying again (2 of 5)
prof-history: imported 1 run into '$db' from 2 results files (1 already there; 0 other JSON files skipped)" \
	"a serialization failure: run again, k2 found there"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["k1", "k2"]' "$out" "both runs, each once"

# Rounds of four imports at once of overlapping folders, each in its own
# order (run i is file (7i + 11w) mod 60 of folder w): each round, every
# import exit 0 and the history the same as one import after another.
mkrun "$T/one.json" one 0 2026-04-01T00:00:00Z 1 2 3
jq -r 'range(60) as $i | range(4) as $w |
	select(($i - 12 * $w + 60) % 60 < 36) |
	"\($w)/\((7 * $i + 11 * $w) % 60 + 100)\t" +
	(.run_id = "run-\($i)" |
	.commit = ("0" * 40 + ($i | tostring))[-40:] |
	.timestamp_utc = "2026-04-01T00:" + ("0\($i)")[-2:] + ":00Z" |
	.samples |= [to_entries[] | .value.duration_ms = 10 + .key +
		(if $i >= 30 then 3 else 0 end) | .value] | tojson)' \
	"$T/one.json" |
	while IFS=$'\t' read -r name doc; do
		mkdir -p "$T/w/${name%/*}"
		printf '%s\n' "$doc" >"$T/w/$name.json"
	done
serial=$(pg_db serial)
for w in 0 1 2 3; do
	"$BIN/prof-history" import --db "$serial" "$T/w/$w" 2>/dev/null
done
# (list less added_utc, which differs by design)
"$BIN/prof-history" list --db "$serial" | jq -c 'map(del(.added_utc))' \
	>"$T/serial.list"
"$BIN/prof-history" trend --db "$serial" >"$T/serial.trend"
jq_ok 'length == 60' "$T/serial.list" "(the serial history holds the 60 runs)"
bad=
retried=0
for round in 1 2 3; do
	rdb=$(pg_db "round$round")
	"$PGBIN/psql" -X -q -d "$rdb" -c "ALTER DATABASE round$round SET
		deadlock_timeout = '50ms'"
	"$BIN/prof-history" migrate --db "$rdb" 2>/dev/null
	pids=()
	for w in 0 1 2 3; do
		"$BIN/prof-history" import --db "$rdb" "$T/w/$w" \
			2>"$T/r$round-$w.err" &
		pids+=($!)
	done
	for w in 0 1 2 3; do
		wait "${pids[$w]}" ||
			bad="$bad round $round import $w: $(tail -n 1 "$T/r$round-$w.err");"
	done
	retried=$((retried + $(cat "$T"/r$round-*.err | grep -c 'trying again')))
	"$BIN/prof-history" list --db "$rdb" | jq -c 'map(del(.added_utc))' \
		>"$T/r.list"
	"$BIN/prof-history" trend --db "$rdb" >"$T/r.trend"
	cmp -s "$T/r.list" "$T/serial.list" ||
		bad="$bad round $round: list differs;"
	cmp -s "$T/r.trend" "$T/serial.trend" ||
		bad="$bad round $round: trend differs;"
done
echo "# four importers, 3 rounds: $retried transactions run again"
is "$bad" "" "three rounds of four imports at once: all exit 0, the serial history"

# PROF_PROJECT of 256 bytes: refused, not stored under its first 255.
p255=$(printf 'p%.0s' $(seq 255))
PROF_PROJECT=${p255}q "$BIN/prof-history" import --db "$serial" "$T/d" \
	>"$out" 2>"$err"
is "$?:$(cat "$err")" "2:prof-history: PROF_PROJECT: '$(printf 'p%.0s' $(seq 40))...' is not a project name: longer than 255 bytes (256)" \
	"PROF_PROJECT of 256 bytes: exit 2, one line"
run prof-history list --db "$serial" --project "$p255"
jq_ok 'length == 0' "$out" "nothing was stored under its first 255 bytes"
finish
