#!/bin/bash
# prof-history: runs into SQLite once each, trends in run order, change
# points, and refusing what is not a history without losing what is.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 37

db=$T/h.sqlite
mkrun "$T/a.json" run-a c1 2026-01-01T00:00:00Z 10 11 12
run prof-history add --db "$db" "$T/a.json"
is "$rc" 0 "add stores a run"
is "$(cat "$err")" "prof-history: added run 'run-a' (commit c1) to '$db'" \
	"and says so"
run prof-history add --db "$db" "$T/a.json"
is "$rc:$(cat "$err")" "0:prof-history: run 'run-a' is already in '$db'; nothing changed" \
	"adding the same run again changes nothing"
run prof-history list --db "$db"
jq_ok 'length == 1 and .[0].run_id == "run-a" and .[0].rows == 1 and
	.[0].commit == "c1" and .[0].schema_version == 1' "$out" \
	"the history holds it once"
run prof-history trend --db "$db"
jq_ok 'length == 1 and .[0].n == 3 and .[0].median == 11 and
	.[0].p90 == 12 and .[0].min == 10 and .[0].max == 12 and
	.[0].instructions == null and (.[0].segment_id | test("^[0-9a-f]{16}$"))' \
	"$out" "one trend point with the row's statistics"
is "$(sqlite3 "$db" 'PRAGMA journal_mode; PRAGMA user_version' | tr '\n' ' ')" \
	"wal 8 " "the database is in WAL mode, schema version 8"

run prof-history --db "$db" list
jq_ok 'length == 1' "$out" "options may come before the command"
run prof-history frob
is "$rc:$(cat "$err")" "2:prof-history: unknown command 'frob' (add, import, list, trend, changes, migrate, prune, export-runs)" \
	"an unknown command is exit 2"
run prof-history list --db "$T/none.sqlite"
is "$rc:$(cat "$err")" "2:prof-history: $T/none.sqlite: No such file or directory" \
	"reading a history that does not exist is exit 2"

# Three hand-made runs, added out of order, come back in commit order.
t3=$T/t3.sqlite
mkrun "$T/r3.json" r3 c3 2026-01-03T00:00:00Z 30 30 30
mkrun "$T/r1.json" r1 c1 2026-01-01T00:00:00Z 10 10 10
mkrun2 "$T/r2.json" r2 c2 2026-01-02T00:00:00Z 20 20 20
run prof-history add --db "$t3" "$T/r3.json" "$T/r1.json" "$T/r2.json"
is "$rc" 0 "three runs, one of them schema 2, go in"
run prof-history trend --db "$t3" --workload test.step --backend cpu
jq_ok 'map(.commit) == ["c1", "c2", "c3"] and map(.median) == [10, 20, 30]' \
	"$out" "the trend has three points in commit order"
sid=$(jq -r '.[0].segment_id' "$out")
run prof-history trend --db "$t3" --segment "${sid:0:6}" --backend gpu
jq_ok 'length == 0' "$out" "filters narrow it"
jq_ok '.schema_version == 2' "$T/r2.json" "(r2 is schema 2)"

# 20 runs, a 30% step at run 11, and noise of about 3%.
noise=(1.00 1.03 0.98 1.02 0.97 1.01 1.03 0.99 0.98 1.02
	1.01 0.97 1.03 0.99 1.02 0.98 1.01 1.03 0.97 1.00)
mkseries() {
	local db=$1 step=$2 i m files=()
	for i in $(seq 1 20); do
		m=$(awk -v n="${noise[$((i - 1))]}" -v i="$i" -v s="$step" \
			'BEGIN { printf "%.6f", 10 * n * (i >= 11 ? s : 1) }')
		mkrun "$T/s$i.json" "s$(printf %02d "$i")" "commit$i" \
			"2026-02-$(printf %02d "$i")T00:00:00Z" \
			"$(awk -v m="$m" 'BEGIN { printf "%.6f", m * 0.99 }')" \
			"$m" "$(awk -v m="$m" 'BEGIN { printf "%.6f", m * 1.02 }')"
		files+=("$T/s$i.json")
	done
	"$BIN/prof-history" add --db "$db" "${files[@]}" 2>/dev/null
}
mkseries "$T/step.sqlite" 1.3
run prof-history changes --db "$T/step.sqlite"
jq_ok 'length == 1' "$out" "a 30% step at run 11 of 20 is one change point"
jq_ok '.[0] | .index == 11 and .commits == "commit10..commit11" and
	.commit_after == "commit11" and .run_after == "s11" and
	.runs_before == 10 and .runs_after == 10 and
	(.change_pct > 25 and .change_pct < 35) and .workload == "test.step"' \
	"$out" "at that run, with its commit range, size and runs on each side"
run prof-history changes --db "$T/step.sqlite" --since commit12
jq_ok 'length == 0' "$out" "--since a later commit leaves it out"
run prof-history changes --db "$T/step.sqlite" --since commit11
jq_ok 'length == 1' "$out" "--since its commit keeps it"
run prof-history changes --db "$T/step.sqlite" --since nope
is "$rc:$(cat "$err")" "2:prof-history: $T/step.sqlite: no run of commit 'nope'" \
	"an unknown --since is exit 2"
mkseries "$T/flat.sqlite" 1.0
run prof-history changes --db "$T/flat.sqlite"
jq_ok 'length == 0' "$out" "a flat noisy series has no change point"
run prof-history trend --db "$T/flat.sqlite"
jq_ok 'length == 20' "$out" "(of 20 runs)"

# What is not a history is refused before anything is written to it.
printf 'not a database, just text\n' >"$T/text.db"
cp "$T/text.db" "$T/text.orig"
run prof-history add --db "$T/text.db" "$T/a.json"
is "$rc:$(cat "$err")" "2:prof-history: $T/text.db: file is not a database" \
	"a text file is exit 2, named"
ok "$(cmp -s "$T/text.db" "$T/text.orig"; echo $?)" "and is left as it was"
sqlite3 "$T/other.db" 'CREATE TABLE t (x); INSERT INTO t VALUES (1)'
run prof-history add --db "$T/other.db" "$T/a.json"
is "$rc:$(cat "$err")" "2:prof-history: $T/other.db: a SQLite database, but not a prof history" \
	"another SQLite database is exit 2"
is "$(sqlite3 "$T/other.db" 'SELECT count(*) FROM sqlite_master')" 1 \
	"and gets no tables"

# A corrupt history: a page overwritten in the middle of the file.
cp "$T/flat.sqlite" "$T/corrupt.sqlite"
size=$(stat -c %s "$T/corrupt.sqlite")
head -c 3000 /dev/zero | tr '\0' 'x' | dd of="$T/corrupt.sqlite" bs=1 \
	seek=$((size - 4096 - 2000)) conv=notrunc 2>/dev/null
run prof-history list --db "$T/corrupt.sqlite"
is "$rc" 2 "a corrupt history is exit 2"
like "$(cat "$err")" "prof-history: $T/corrupt.sqlite: " "naming it"
run prof-history add --db "$T/corrupt.sqlite" "$T/a.json"
is "$rc" 2 "and nothing is added to it"

# A failed add keeps what is stored.
printf '{"schema": "prof.results", "schema_version": 1,\n  "run_id": 7}\n' \
	>"$T/bad.json"
run prof-history add --db "$t3" "$T/a.json" "$T/bad.json"
is "$rc" 2 "a bad results file fails the add"
is "$(head -n 1 "$err")" "prof-history: $T/bad.json: .run_id: expected a string, got a number" \
	"naming the file and the place"
run prof-history list --db "$t3"
jq_ok 'map(.run_id) == ["r1", "r2", "r3"]' "$out" \
	"the history keeps its runs and gains none"
jq '.samples[0].duration_ms = 99' "$T/r1.json" >"$T/r1b.json"
run prof-history add --db "$t3" "$T/r1b.json"
is "$rc:$(cat "$err")" "2:prof-history: $t3: run 'r1' is already there with other content" \
	"a run id with other content is refused"
run prof-history trend --db "$t3"
jq_ok 'map(.median) == [10, 20, 30]' "$out" "and changes nothing"

# Forward migration from a version-1 history; a newer one is refused.
v1=$T/v1.sqlite
sqlite3 "$v1" <"$ROOT/test/data/history/schema-v1.sql"
run prof-history add --db "$v1" "$T/a.json"
is "$rc" 0 "a version-1 history is migrated and takes a run"
is "$(sqlite3 "$v1" 'PRAGMA user_version; SELECT count(*) FROM runs;
	SELECT instructions IS NULL FROM rows LIMIT 1' | tr '\n' ' ')" \
	"8 2 1 " "it is version 8 now and keeps its run"
sqlite3 "$T/new.sqlite" 'PRAGMA application_id = 1886547814;
	PRAGMA user_version = 99; CREATE TABLE runs (x)'
run prof-history list --db "$T/new.sqlite"
is "$rc:$(cat "$err")" "2:prof-history: $T/new.sqlite: history schema version 99 is newer than this prof's (8)" \
	"a newer history is refused"

# Two adds at once: WAL and the busy timeout let both in.
for i in 1 2 3 4; do
	mkrun "$T/p$i.json" "p$i" "cp$i" "2026-03-0${i}T00:00:00Z" 5 5 5
done
"$BIN/prof-history" add --db "$T/par.sqlite" "$T/p1.json" "$T/p2.json" \
	2>"$T/e1" &
pid=$!
"$BIN/prof-history" add --db "$T/par.sqlite" "$T/p3.json" "$T/p4.json" \
	2>"$T/e2"
rc2=$?
wait "$pid"
is "$?:$rc2" "0:0" "two processes add at once"
is "$(sqlite3 "$T/par.sqlite" 'SELECT count(*) FROM runs')" 4 \
	"and all four runs are there"
finish
