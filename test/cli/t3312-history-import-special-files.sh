#!/bin/bash
# prof-history import reads regular files only (issue 28, item 5): a FIFO
# named x.json once blocked it for ever, a comparisons.json that is a FIFO
# too. Each file it skips is one line on stderr; skipping is not an error
# (exit 0), and the regular files beside are imported. A symbolic link to
# a file read already is counted, not read again (t6413: links).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 5

mkdir -p "$T/d/r"
mkrun "$T/d/a.json" r1 c1 2026-01-01T00:00:00Z 10 11 12
mkfifo "$T/d/x.json"
ln -s a.json "$T/d/s.json"
# A run folder whose comparisons.json is a FIFO: the run, no verdicts.
mkrun "$T/d/r/results.json" r2 c2 2026-01-02T00:00:00Z 20 21 22
mkfifo "$T/d/r/comparisons.json"
db=$T/h.sqlite
# timeout: the old import waited for a writer to the FIFO for ever.
timeout 20 "$BIN/prof-history" import --db "$db" "$T/d" >"$out" 2>"$err"
rc=$?
is "$rc" 0 "import ends, exit 0: a skipped file is not an error"
is "$(cat "$err")" \
	"prof-history: skipped '$T/d/r/comparisons.json': a FIFO (import reads regular files only)
prof-history: skipped '$T/d/x.json': a FIFO (import reads regular files only)
prof-history: imported 2 runs into '$db' from 2 results files (0 already there; 0 other JSON files skipped; 0 symbolic links followed, 1 to what was read already)" \
	"one line for each file skipped, then the count"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["r1", "r2"]' "$out" "the regular files' runs are in"

mkdir -p "$T/e"
mkrun "$T/e/b.json" r3 c3 2026-01-03T00:00:00Z 30
mkfifo "$T/e/y.json"
timeout 20 "$BIN/prof-history" import --db "$db" "$T/e" >"$out" 2>"$err"
rc=$?
is "$rc:$(head -n 1 "$err")" \
	"0:prof-history: skipped '$T/e/y.json': a FIFO (import reads regular files only)" \
	"a second folder: the same"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["r1", "r2", "r3"]' "$out" "and its run is added"
finish
