#!/bin/bash
# prof-history: one segment id everywhere (the results file's), old
# histories migrated to it; read verbs never write a file they may not
# change; another program's SQLite file is refused; a signal during add or
# import is said, exit 2, and stores nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 29

# The id a results file gives a segment is the one the history and the
# CSV export use, in schema 2 and in schema 1.
db=$T/h.sqlite
mkrun2 "$T/a2.json" run-a2 c1 2026-01-01T00:00:00Z 10 11 12
mkrun "$T/a1.json" run-a1 c2 2026-01-02T00:00:00Z 20 21 22
sid=$(jq -r '.segments | keys[0]' "$T/a2.json")
is "$sid" "$(jq -r '.samples[0].segment' "$T/a1.json" | tr -d '\n' |
	sha256sum | cut -c1-16)" "schema 1 and 2 files name one segment"
run prof-history add --db "$db" "$T/a2.json" "$T/a1.json"
is "$rc" 0 "both runs are added"
run prof-history trend --db "$db" --segment "$sid"
jq_ok "length == 2 and all(.segment_id == \"$sid\")" "$out" \
	"trend --segment with the results file's id finds both"
run prof-export -f csv "$T/a2.json"
is "$(tail -n 1 "$out" | cut -d, -f5)" "$sid" \
	"the CSV export's segment_id is the results file's"
run prof-export -f csv "$T/a1.json"
is "$(tail -n 1 "$out" | cut -d, -f5)" "$sid" "of a schema-1 file too"

# A version-2 history as the older prof-history wrote it, with the old
# ids: migrated when opened, its run kept under the new id.
old=$T/old.sqlite
sqlite3 "$old" <"$ROOT/test/data/history/schema-v2-ids.sql"
oldsid=$(jq -r '.samples[0].segment' "$T/a1.json" | tr -d '\n' |
	sha256sum | cut -c1-16)
is "$(sqlite3 "$old" 'SELECT segment_id FROM rows')" c5143024a0cce5aa \
	"the old history holds the old id"
cp "$old" "$T/old-ro.sqlite"
run prof-history trend --db "$old" --segment "$oldsid"
jq_ok 'length == 1 and .[0].run_id == "run-old" and .[0].median == 10' \
	"$out" "trend --segment with the new id finds the old run"
is "$(sqlite3 "$old" 'PRAGMA user_version; SELECT segment_id FROM rows;
	SELECT segment_id FROM segments' | tr '\n' ' ')" \
	"8 $oldsid $oldsid " "the history is version 8, one id left"
run prof-history add --db "$old" "$T/a1.json"
run prof-history trend --db "$old" --segment "$oldsid"
jq_ok 'map(.run_id) == ["run-old", "run-a1"]' "$out" \
	"a new run joins the old run's series"

# A read-only old history is read, migrated in memory, never changed.
ro=$T/old-ro.sqlite
chmod 444 "$ro"
sum=$(sha256sum <"$ro")
run prof-history trend --db "$ro" --segment "$oldsid"
is "$rc" 0 "a read-only old history is read"
jq_ok 'length == 1 and .[0].run_id == "run-old"' "$out" \
	"under the new id"
is "$(sha256sum <"$ro")" "$sum" "and the file is not changed"
is "$(ls "$ro"-* 2>/dev/null)" "" "nothing is left beside it"

# A read-only history in WAL mode: list leaves no -wal or -shm.
cp "$db" "$T/ro.sqlite"
is "$(sqlite3 "$T/ro.sqlite" 'PRAGMA journal_mode')" wal \
	"a history in WAL mode"
chmod 444 "$T/ro.sqlite"
run prof-history list --db "$T/ro.sqlite"
jq_ok 'length == 2' "$out" "list reads a read-only file"
is "$(ls "$T/ro.sqlite"-* 2>/dev/null)" "" "and leaves no -wal or -shm"
# add still refuses to write it, and says why.
mkrun "$T/b.json" run-b c3 2026-01-03T00:00:00Z 30
if [ "$(id -u)" = 0 ]; then
	skip "root may write a file without write bits"
else
	run prof-history add --db "$T/ro.sqlite" "$T/b.json"
	like "$rc:$(cat "$err")" "^2:prof-history: .*readonly" \
		"add to a read-only file is exit 2"
fi

# A folder this user may not write: list works.
mkdir -p "$T/rodir"
cp "$db" "$T/rodir/h.sqlite"
chmod 755 "$T"
chmod 555 "$T/rodir"
chmod 644 "$T/rodir/h.sqlite"
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere: read as nobody.
	as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
	as=()
fi
"${as[@]}" "$BIN/prof-history" list --db "$T/rodir/h.sqlite" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "list reads a history in a read-only folder"
jq_ok 'length == 2' "$out" "all of it"
chmod 755 "$T/rodir"

# Another program's SQLite file, even one with no tables yet, is refused.
sqlite3 "$T/app.db" 'PRAGMA application_id = 42'
run prof-history add --db "$T/app.db" "$T/b.json"
is "$rc:$(cat "$err")" \
	"2:prof-history: $T/app.db: a SQLite database, but not a prof history" \
	"add refuses another program's application id"
is "$(sqlite3 "$T/app.db" 'PRAGMA application_id;
	SELECT count(*) FROM sqlite_master' | tr '\n' ' ')" "42 0 " \
	"and leaves the file as it was"

# Signals: said, exit 2, nothing stored. add reads stdin before it opens
# the history; import hashes each file inside its transaction, here a
# large sparse one after a run is already added to it (import reads
# regular files only: a FIFO is skipped, t3312).
n0=$(sqlite3 "$db" 'SELECT count(*) FROM runs')
for sig in INT TERM HUP; do
	mkfifo "$T/fifo"
	"$BIN/prof-history" add --db "$db" "$T/b.json" - <"$T/fifo" \
		2>"$err" &
	pid=$!
	exec 9>"$T/fifo"
	sleep 0.3
	kill -"$sig" "$pid"
	exec 9>&-
	wait "$pid"
	rc=$?
	rm -f "$T/fifo"
	is "$rc:$(cat "$err")" \
		"2:prof-history: interrupted by SIG$sig; nothing was added to '$db'" \
		"SIG$sig during add: said, exit 2"
done
is "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" "$n0" "nothing was added"

mkdir -p "$T/imp"
cp "$T/b.json" "$T/imp/a.json"
# 64 GiB of holes: minutes to hash, no room on the disk.
truncate -s 64G "$T/imp/z.json"
"$BIN/prof-history" import --db "$db" "$T/imp" 2>"$err" &
pid=$!
# z.json is opened once the first run is in the transaction.
for _ in $(seq 600); do
	ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'z\.json$' && break
	sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
rc=$?
is "$rc:$(cat "$err")" \
	"2:prof-history: interrupted by SIGTERM; nothing was added to '$db'" \
	"SIGTERM during import: said, exit 2"
is "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" "$n0" \
	"and the run it had added is rolled back"
is "$(sqlite3 "$db" 'PRAGMA integrity_check')" ok "the history is whole"
rm -f "$T/imp/z.json"
run prof-history import --db "$db" "$T/imp"
is "$rc:$(sqlite3 "$db" 'SELECT count(*) FROM runs')" "0:$((n0 + 1))" \
	"importing again without the FIFO adds the run"
finish
