#!/bin/bash
# A failed import leaves no new database behind: it left an empty
# h.sqlite, and make dashboard HISTORY=h.sqlite then wrote "0 series over 0
# runs", exit 0. A new history is made, with its first transaction, in a
# temporary sibling that only the commit links into place (prof-history(1),
# --db); an existing one keeps what it held.
. "$(dirname "$0")/lib.sh"
plan 8

D=test/data/results
mkdir -p "$T/tree/a" "$T/tree/b"
cp $D/current.json "$T/tree/a/results.json"
cp $D/truncated.json "$T/tree/b/results.json"

run prof-history import --db "$T/h.sqlite" "$T/tree"
is "$rc:$(errline)" \
	"2:prof-history: $T/tree/b/results.json:89:10: unexpected end of input (truncated JSON)" \
	"an import with a bad results file fails, naming it"
like "$(cat "$err")" "nothing was added to '$T/h.sqlite'" "and says nothing was added"
is "$(ls -A "$T" | grep -c -e '^h\.sqlite' -e '^\.h\.sqlite')" 0 \
	"no database is left, nor its temporary sibling or journal"
run prof-dashboard --db "$T/h.sqlite" -o "$T/site"
is "$rc" 2 "so the dashboard of it fails, rather than showing 0 runs"

# A first add whose comparisons are of another run: nothing made either.
run prof-history add --db "$T/h.sqlite" --comparisons $D/baseline.json \
	"$T/tree/a/results.json"
is "$rc:$(ls -A "$T" | grep -c -e 'h\.sqlite')" "2:0" \
	"a failed first add leaves no database"

# An existing history keeps its runs through a failed import.
run prof-history add --db "$T/h.sqlite" "$T/tree/a/results.json"
is "$rc" 0 "a history with one run"
run prof-history import --db "$T/h.sqlite" "$T/tree"
is "$rc" 2 "a failed import into it"
run prof-history list --db "$T/h.sqlite"
jq_ok 'map(.run_id) == ["20261129T181500Z-c0de"]' "$out" \
	"keeps its run, and only that"
finish
