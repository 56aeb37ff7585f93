#!/bin/bash
# prof-history import: every results file under folders (schema 1 or 2,
# at any depth), once each; two histories of overlapping run files hold
# the same runs in the same order; a bad file stores nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 19

# Six runs: 1-4 in one folder tree (schema 1 and 2, nested, beside other
# JSON files), 3-6 in another; runs 5 and 6 share a timestamp.
mkdir -p "$T/a/x/y" "$T/a/z" "$T/b"
mkrun "$T/a/x/r1.json" r1 c1 2026-01-01T00:00:00Z 10 11 12
mkrun2 "$T/a/x/y/results.json" r2 c2 2026-01-02T00:00:00Z 20 21 22
mkrun "$T/a/z/results.json" r3 c3 2026-01-03T00:00:00Z 30 31 32
mkrun2 "$T/a/r4.json" r4 c4 2026-01-04T00:00:00Z 40 41 42
echo '{"schema": "prof.comparisons", "rows": []}' >"$T/a/x/comparisons.json"
echo '{"traceEvents": []}' >"$T/a/z/trace.json"
echo 'not json, not named .json' >"$T/a/z/summary.md"
cp "$T/a/z/results.json" "$T/b/r3.json"
cp "$T/a/r4.json" "$T/b/r4.json"
mkrun "$T/b/r6.json" r6 c6b 2026-01-05T00:00:00Z 60 61 62
mkrun2 "$T/b/r5.json" r5 c6a 2026-01-05T00:00:00Z 50 51 52

h1=$T/h1.sqlite
run prof-history import --db "$h1" "$T/a"
is "$rc:$(cat "$err")" \
	"0:prof-history: imported 4 runs into '$h1' from 4 results files (0 already there; 2 other JSON files skipped)" \
	"import finds the four runs at any depth, in schema 1 and 2"
run prof-history list --db "$h1"
jq_ok 'map(.run_id) == ["r1", "r2", "r3", "r4"] and
	map(.schema_version) == [1, 2, 1, 2]' "$out" "in run order"
run prof-history import --db "$h1" "$T/a"
is "$rc:$(cat "$err")" \
	"0:prof-history: imported 0 runs into '$h1' from 4 results files (4 already there; 2 other JSON files skipped)" \
	"importing the folder again adds nothing"
run prof-history list --db "$h1"
jq_ok 'map(.run_id) == ["r1", "r2", "r3", "r4"]' "$out" \
	"each run is there once"
is "$(sqlite3 "$h1" "SELECT count(*), sum(run_id <> '') FROM files")" "6|4" \
	"the files it read are known by their bytes, not parsed again"
is "$(sqlite3 "$h1" "SELECT sha256 FROM files WHERE run_id = 'r3'")" \
	"$(sha256sum <"$T/a/z/results.json" | cut -d ' ' -f 1)" \
	"a file is known by the SHA-256 of its bytes (sha256sum's)"
run prof-history import --db "$h1" "$T/b"
is "$rc:$(cat "$err")" \
	"0:prof-history: imported 2 runs into '$h1' from 4 results files (2 already there; 0 other JSON files skipped)" \
	"an overlapping folder adds only its new runs"

# The other history: the folders the other way round, one file at a
# time, newest first. The same runs, in the same order.
h2=$T/h2.sqlite
run prof-history import --db "$h2" "$T/b"
for f in "$T/a/r4.json" "$T/a/z/results.json" "$T/a/x/y/results.json" \
	"$T/a/x/r1.json"; do
	"$BIN/prof-history" add --db "$h2" "$f" 2>/dev/null
done
run prof-history import --db "$h2" "$T/a" "$T/b"
is "$rc" 0 "a second history from the same files in another order"
"$BIN/prof-history" list --db "$h1" | jq 'map(del(.added_utc))' >"$T/l1"
"$BIN/prof-history" list --db "$h2" | jq 'map(del(.added_utc))' >"$T/l2"
is "$(cmp "$T/l1" "$T/l2" && echo same)" same \
	"both histories list the same runs in the same order"
jq_ok 'map(.run_id) == ["r1", "r2", "r3", "r4", "r5", "r6"]' "$T/l2" \
	"ordered by timestamp, then commit (r5 and r6 share a second)"
"$BIN/prof-history" trend --db "$h1" >"$T/t1"
"$BIN/prof-history" trend --db "$h2" >"$T/t2"
is "$(cmp "$T/t1" "$T/t2" && echo same)" same "and the same trend"
jq_ok 'map(.median) == [11, 21, 31, 41, 51, 61]' "$T/t1" \
	"whose medians are the runs'"

# A malformed results file: named with its place, nothing stored.
mkdir -p "$T/c"
mkrun "$T/c/r7.json" r7 c7 2026-01-07T00:00:00Z 70
jq '.samples[0].duration_ms = "slow"' "$T/c/r7.json" >"$T/c/r8.json"
run prof-history import --db "$h1" "$T/c"
is "$rc:$(cat "$err")" "2:prof-history: $T/c/r8.json: .samples[0].duration_ms: expected a number, got a string
prof-history: nothing was added to '$h1'" \
	"a bad results file is exit 2, named with its JSON path"
is "$("$BIN/prof-history" list --db "$h1" | jq length)" 6 \
	"and the good file before it is not stored either"
printf '{"schema": "prof.results", "samples": [' >"$T/c/r8.json"
run prof-history import --db "$h1" "$T/c"
like "$rc:$(cat "$err")" "2:prof-history: $T/c/r8.json:1:" \
	"a truncated one names its line and column"
jq '.run_id = "r1"' "$T/c/r7.json" >"$T/c/r8.json"
run prof-history import --db "$h1" "$T/c"
is "$rc:$(cat "$err")" "2:prof-history: $h1: run 'r1' is already there with other content
prof-history: nothing was added to '$h1'" \
	"a run id with other content is refused"

run prof-history import --db "$h1" "$T/a/r4.json"
is "$rc:$(cat "$err")" \
	"2:prof-history: '$T/a/r4.json' is not a folder (import takes folders; add takes files)" \
	"import takes folders"
run prof-history import --db "$h1"
is "$rc:$(cat "$err")" "2:prof-history: give the folders to import" \
	"and at least one"
run prof-history import --db "$T/new.sqlite" "$T/b" --workload x
is "$rc:$(cat "$err")" "2:prof-history: import takes only --db, --project and folders" \
	"and no filter"
finish
