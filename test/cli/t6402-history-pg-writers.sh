#!/bin/bash
# prof-history over PostgreSQL with many writers at once: 8 writers of 50
# runs each (some runs added by two of them) give exactly 400 runs and the
# same trends and change points as a SQLite history fed the same files;
# two imports of one folder at once store it once; a writer killed with
# SIGKILL in the middle of its transaction leaves nothing of it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 11
export PROF_PROJECT=writers

# 400 runs: writer w's k-th run at minute 50w + k of a day, 10 ms, then
# 13 ms from run 200 on (one change point).
# One jq for all of them (from one mkrun run): 400 jq processes took
# minutes on a loaded machine.
mkdir -p "$T/runs"
mkrun "$T/one.json" one 0 2026-04-01T00:00:00Z 1 2 3
jq -r 'range(400) as $i | ($i / 50 | floor) as $w |
	(if $i >= 200 then 13 else 10 end) as $m |
	"\($w)-\($i % 50)\t" + (.run_id = "run-\($i)" |
	.commit = ("0" * 40 + ($i | tostring))[-40:] |
	.timestamp_utc = "2026-04-01T" +
		("0\($i / 60 | floor)")[-2:] + ":" + ("0\($i % 60)")[-2:] + ":00Z" |
	.samples |= [to_entries[] | .value.duration_ms = $m - 1 + .key |
		.value] | tojson)' "$T/one.json" |
	while IFS=$'\t' read -r name doc; do
		printf '%s\n' "$doc" >"$T/runs/w$name.json"
	done

# Each writer adds its 50 runs one add at a time, and the first run of
# the next writer too: 408 adds, 400 runs.
writer() {
	local w=$1 k
	for k in $(seq 0 49) next; do
		if [ "$k" = next ]; then
			"$BIN/prof-history" add --db "$PGURL" \
				"$T/runs/w$(((w + 1) % 8))-0.json" || return 1
		else
			"$BIN/prof-history" add --db "$PGURL" "$T/runs/w$w-$k.json" ||
				return 1
		fi
	done 2>>"$T/w$w.err"
}
pids=()
for w in $(seq 0 7); do
	writer "$w" &
	pids+=($!)
done
fails=0
for p in "${pids[@]}"; do
	wait "$p" || fails=$((fails + 1))
done
is "$fails" 0 "8 writers at once: every add exit 0"
is "$(cat "$T"/w*.err | grep -c "^prof-history: added run ")" 400 \
	"400 runs added"
is "$(cat "$T"/w*.err | grep -c "is already in .*; nothing changed")" 8 \
	"the 8 added twice: already there, nothing changed"
run prof-history list --db "$PGURL"
jq_ok 'length == 400 and (map(.run_id) | unique | length) == 400' "$out" \
	"the history holds exactly 400 runs, each once"
"$BIN/prof-history" import --db "$T/h.sqlite" "$T/runs" 2>/dev/null
for v in trend changes; do
	"$BIN/prof-history" "$v" --db "$T/h.sqlite" >"$T/sq.$v"
	"$BIN/prof-history" "$v" --db "$PGURL" >"$T/pg.$v"
	run cmp "$T/sq.$v" "$T/pg.$v"
	is "$rc" 0 "$v: the same as a SQLite history fed the same files"
done
jq_ok 'length == 1 and .[0].run_after == "run-200"' "$T/pg.changes" \
	"(one change point, at run 200)"

# Two imports of one folder at once: each run once.
imp=$(pg_db imp)
"$BIN/prof-history" import --db "$imp" "$T/runs" 2>"$T/i1.err" &
p1=$!
"$BIN/prof-history" import --db "$imp" "$T/runs" 2>"$T/i2.err" &
p2=$!
wait "$p1"
r1=$?
wait "$p2"
r2=$?
is "$r1:$r2:$("$BIN/prof-history" list --db "$imp" | jq length)" "0:0:400" \
	"two imports of one folder at once: both exit 0, 400 runs"

# A writer killed in the middle of its transaction: its add of two runs
# has stored the first and waits, inside its transaction, on the second,
# which another session is inserting and holds uncommitted.
kill_db=$(pg_db killed)
mkrun "$T/k1.json" k1 e1 2026-05-01T00:00:00Z 5 5 5
mkrun "$T/k2.json" k2 e2 2026-05-02T00:00:00Z 6 6 6
"$BIN/prof-history" add --db "$kill_db" "$T/runs/w0-0.json" 2>/dev/null
# Each session is told by its application name. The holder's row is in
# place (its INSERT done, its transaction open) before the add starts: a
# holder that came second would wait on the add instead, and the add
# would store both runs (what t6402 once did on a loaded machine).
PGAPPNAME=holder "$PGBIN/psql" -X -q -d "$kill_db" -c "INSERT INTO prof_runs
	(project, run_id, commit_id, timestamp_utc, command, results_schema,
	digest, added_utc) VALUES ('writers', 'k2', 'x', 'x', 'x', 1, 'v2:x',
	'x'); SELECT pg_sleep(600)" >/dev/null 2>&1 &
holder=$!
# until SQL NAME: wait (without a clock: up to 3000 polls) for a query of
# one count to say 1.
until_one() {
	local i n
	for i in $(seq 1 3000); do
		n=$("$PGBIN/psql" -X -At -d "$kill_db" -c "$1")
		[ "$n" = 1 ] && return 0
		sleep 0.1
	done
	echo "# $2: not seen" >&2
	return 1
}
until_one "SELECT count(*) FROM pg_stat_activity WHERE application_name =
	'holder' AND wait_event = 'PgSleep'" "the holder's row in place"
PGAPPNAME=adder "$BIN/prof-history" add --db "$kill_db" "$T/k1.json" \
	"$T/k2.json" >/dev/null 2>&1 &
adder=$!
# The add has stored k1 and waits, inside its transaction, on k2.
until_one "SELECT count(*) FROM pg_stat_activity WHERE application_name =
	'adder' AND wait_event_type = 'Lock'" "the add waiting on k2"
ok $? "(the add has stored k1 and waits on k2 inside its transaction)"
kill -KILL "$adder"
wait "$adder" 2>/dev/null
"$PGBIN/psql" -X -q -d "$kill_db" -c "SELECT pg_terminate_backend(pid)
	FROM pg_stat_activity WHERE application_name = 'holder'" >/dev/null
wait "$holder" 2>/dev/null
# The killed add's session ends once its lock wait does (its client is
# gone): its transaction is rolled back, not committed.
until_one "SELECT (count(*) = 0)::int FROM pg_stat_activity WHERE
	application_name IN ('adder', 'holder')" "the sessions ended" ||
	true
run prof-history list --db "$kill_db"
jq_ok 'map(.run_id) == ["run-0"]' "$out" \
	"the writer killed with SIGKILL mid-add left no run: not k1, not k2"
is "$("$PGBIN/psql" -X -At -d "$kill_db" -c "SELECT count(*) FROM prof_rows")" 1 \
	"and no row of one"
finish
