#!/bin/bash
# Symbolic links into and out of the history. import follows a link to a
# folder of runs (it skipped one without a word: "imported 0 runs ... 0
# other JSON files skipped", and a rebuilt history silently lacked them),
# walks each folder once however many links lead to it (a loop ends),
# says so in its count line, and names each link that leads nowhere.
# --db (HISTORY=) a link to a history not yet made makes the history
# where the link leads (it failed with "nothing was added to
# 'link.sqlite'" and no reason).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 9

mkdir -p "$T/store/2026" "$T/record"
mkrun "$T/store/2026/a.json" a c1 2026-01-01T00:00:00Z 10 10 10
mkrun "$T/store/2026/b.json" b c2 2026-01-02T00:00:00Z 11 11 11
mkrun "$T/record/c.json" c c3 2026-01-03T00:00:00Z 12 12 12
ln -s ../store "$T/record/runs"
db=$T/h.sqlite
run prof-history import --db "$db" "$T/record"
is "$rc:$(cat "$err")" "0:prof-history: imported 3 runs into '$db' from 3 results files (0 already there; 0 other JSON files skipped; 1 symbolic link followed)" \
	"a link to a folder of runs is followed, and said"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["a", "b", "c"]' "$out" "its runs are in the history"

# A loop (a link to a folder above), a second link to a folder walked,
# a link to nothing and a link named *.json to a FIFO.
ln -s .. "$T/store/2026/up"
ln -s ../store/2026 "$T/record/runs-2026"
ln -s gone "$T/record/old"
mkfifo "$T/fifo"
ln -s ../fifo "$T/record/f.json"
db2=$T/h2.sqlite
timeout 60 "$BIN/prof-history" import --db "$db2" "$T/record" >"$out" 2>"$err"
rc=$?
is "$rc:$(cat "$err")" "0:prof-history: skipped '$T/record/f.json': a symbolic link to a FIFO (import reads regular files only)
prof-history: skipped '$T/record/old': a symbolic link to nothing (No such file or directory)
prof-history: imported 3 runs into '$db2' from 3 results files (0 already there; 0 other JSON files skipped; 1 symbolic link followed, 2 to what was read already)" \
	"a loop ends, each folder once; a link to nothing or to a FIFO is named"
run prof-history list --db "$db2"
jq_ok 'map(.run_id) == ["a", "b", "c"]' "$out" "each run once"

# --db a link to a history not yet made: made where the link leads.
mkdir -p "$T/keep"
ln -s keep/h.sqlite "$T/link.sqlite"
run prof-history add --db "$T/link.sqlite" "$T/record/c.json"
is "$rc:$(cat "$err")" "0:prof-history: added run 'c' (commit c3) to '$T/link.sqlite'" \
	"--db a link to no history yet: the run is added"
ok "$([ -L "$T/link.sqlite" ] && [ -f "$T/keep/h.sqlite" ]; echo $?)" \
	"the history is made where the link leads; the link stays a link"
run prof-history list --db "$T/link.sqlite"
jq_ok 'map(.run_id) == ["c"]' "$out" "and read through it"
# A link whose folder is not there, and links that loop: the reason.
ln -s nowhere/h.sqlite "$T/bad.sqlite"
run prof-history add --db "$T/bad.sqlite" "$T/record/c.json"
is "$rc:$(cat "$err")" "2:prof-history: $T/nowhere/h.sqlite: cannot create: No such file or directory" \
	"a link into a folder that is not there: exit 2, the reason"
ln -s loop2 "$T/loop1"
ln -s loop1 "$T/loop2"
run prof-history add --db "$T/loop1" "$T/record/c.json"
is "$rc:$(cat "$err")" "2:prof-history: $T/loop1: symbolic links that loop" \
	"links that loop: exit 2, the reason"

finish
