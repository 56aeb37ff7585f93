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
mkdir -p "$T/runs"
for w in $(seq 0 7); do
	for k in $(seq 0 49); do
		i=$((50 * w + k))
		m=10
		[ "$i" -ge 200 ] && m=13
		mkrun "$T/runs/w$w-$k.json" "run-$i" "$(printf %040x "$i")" \
			"2026-04-01T$(printf %02d $((i / 60))):$(printf %02d $((i % 60))):00Z" \
			"$((m - 1))" "$m" "$((m + 1))" &
	done
	wait
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
"$PGBIN/psql" -X -q -d "$kill_db" -c "INSERT INTO prof_runs (project,
	run_id, commit_id, timestamp_utc, command, results_schema, digest,
	added_utc) VALUES ('writers', 'k2', 'x', 'x', 'x', 1, 'v2:x', 'x');
	SELECT pg_sleep(120)" >/dev/null 2>&1 &
holder=$!
# Once the holder's row is there (uncommitted), the add blocks on it.
"$BIN/prof-history" add --db "$kill_db" "$T/k1.json" "$T/k2.json" \
	>/dev/null 2>&1 &
adder=$!
waiting=0
for i in $(seq 1 300); do
	n=$("$PGBIN/psql" -X -At -d "$kill_db" -c "SELECT count(*) FROM
		pg_stat_activity WHERE wait_event_type = 'Lock' AND
		query LIKE 'INSERT INTO prof_runs%'")
	if [ "$n" = 1 ]; then
		waiting=1
		break
	fi
	sleep 0.1
done
is "$waiting" 1 "(the add has stored k1 and waits on k2 inside its transaction)"
kill -KILL "$adder"
wait "$adder" 2>/dev/null
"$PGBIN/psql" -X -q -d "$kill_db" -c "SELECT pg_terminate_backend(pid)
	FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND
	pid <> pg_backend_pid()" >/dev/null
wait "$holder" 2>/dev/null
# The server notices the dead client at once here (its socket closed).
for i in $(seq 1 100); do
	n=$("$PGBIN/psql" -X -At -d "$kill_db" -c "SELECT count(*) FROM
		pg_stat_activity WHERE query LIKE 'INSERT INTO prof_runs%'
		AND pid <> pg_backend_pid()")
	[ "$n" = 0 ] && break
	sleep 0.1
done
run prof-history list --db "$kill_db"
jq_ok 'map(.run_id) == ["run-0"]' "$out" \
	"the writer killed with SIGKILL mid-add left no run: not k1, not k2"
is "$("$PGBIN/psql" -X -At -d "$kill_db" -c "SELECT count(*) FROM prof_rows")" 1 \
	"and no row of one"
finish
