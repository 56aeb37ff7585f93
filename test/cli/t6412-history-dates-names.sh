#!/bin/bash
# One date checker and one project-name checker for every tool: a day that
# is no day (2026-13-01, 2026-02-30, 24:00) is refused by prune --before
# with one line, exit 2, nothing deleted (prune --before 2026-13-01 took
# every run of 2026), and by prof-merge's --timestamp and --commit-time
# the same way (date.h); a project name longer than 255 bytes is refused
# wherever it comes from (--project, $PROF_PROJECT, make PROF_PROJECT=),
# never cut (two projects once shared one PostgreSQL series).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 16

mkdir -p "$T/runs"
mkrun "$T/runs/a.json" a c1 2025-12-31T23:59:59Z 10 10 10
mkrun "$T/runs/b.json" b c2 2026-01-05T00:00:00Z 11 11 11
mkrun "$T/runs/c.json" c c3 2026-03-01T00:00:00Z 12 12 12
db=$T/h.sqlite
"$BIN/prof-history" import --db "$db" "$T/runs" 2>/dev/null

# bad DATE WHY: prune --before DATE is exit 2 with that one line.
bad() {
	run prof-history prune --db "$db" --before "$1"
	is "$rc:$(cat "$err")" "2:prof-history: --before: '$1': $2" \
		"prune --before $1: exit 2, one line"
}
bad 2026-13-01 "month 13 is out of range (expected 01 to 12)"
bad 2026-02-30 "day 30 is out of range (expected 01 to 28 in 2026-02)"
bad 2026-04-31 "day 31 is out of range (expected 01 to 30 in 2026-04)"
bad 2026-01-01T24:00:00Z "hour 24 is out of range (expected 00 to 23)"
bad 2026-01-01T12:60:00Z "minute 60 is out of range (expected 00 to 59)"
bad 2026-13 "not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ)"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["a", "b", "c"]' "$out" "nothing was deleted"
run prof-history prune --db "$db" --before 2024-02-29
is "$rc:$(cat "$err")" "0:prof-history: pruned 0 runs from before 2024-02-29 out of '$db'" \
	"a leap day is a day"

# The same calendar for prof-merge's times.
run prof-merge --timestamp 2026-02-30T00:00:00Z -o "$T/m.json" "$T/runs/a.json"
is "$rc:$(cat "$err")" "2:prof-merge: --timestamp: '2026-02-30T00:00:00Z': day 30 is out of range (expected 01 to 28 in 2026-02)" \
	"prof-merge --timestamp: the same day refused the same way"
run prof-merge --commit-time 2026-02-29T10:00:00+01:00 -o "$T/m.json" \
	"$T/runs/a.json"
is "$rc:$(cat "$err")" "2:prof-merge: --commit-time: '2026-02-29T10:00:00+01:00': day 29 is out of range (expected 01 to 28 in 2026-02)" \
	"prof-merge --commit-time: and a commit's time"

# Project names: 255 bytes are one, 256 are not, from every source.
p255=$(printf 'p%.0s' $(seq 255))
p256=${p255}q
run prof-history list --db "$db" --project "$p255"
is "$rc" 0 "--project of 255 bytes: taken"
run prof-history list --db "$db" --project "$p256"
is "$rc:$(cat "$err")" "2:prof-history: --project: '$(printf 'p%.0s' $(seq 40))...' is not a project name: longer than 255 bytes (256)" \
	"--project of 256 bytes: exit 2, one line"
mkrun "$T/d.json" d c4 2026-03-02T00:00:00Z 13
PROF_PROJECT=$p256 "$BIN/prof-history" add --db "$db" "$T/d.json" \
	>"$out" 2>"$err"
rc=$?
is "$rc:$(head -n 1 "$err")" "2:prof-history: PROF_PROJECT: '$(printf 'p%.0s' $(seq 40))...' is not a project name: longer than 255 bytes (256)" \
	"PROF_PROJECT of 256 bytes: refused as --project is, not cut"
run prof-history list --db "$db"
jq_ok 'map(.run_id) == ["a", "b", "c"]' "$out" "and nothing was added"
PROF_PROJECT=$p256 "$BIN/prof-dashboard" --db "$db" -o "$T/dash" \
	>"$out" 2>"$err"
is "$?:$(cat "$err")" "2:prof-dashboard: PROF_PROJECT: '$(printf 'p%.0s' $(seq 40))...' is not a project name: longer than 255 bytes (256)" \
	"prof-dashboard: the same"

# make PROF_PROJECT=: refused before the run, with the same words.
make -s --no-print-directory -o all WORKLOADS="$TW" CATEGORY=test REPEAT=1 \
	OUTPUT="$T/o" BASELINE="$T/none.json" HISTORY="$db" \
	PROF_PROJECT="$p256" profile-quick >"$out" 2>"$err"
rc=$?
is "$rc:$(grep '^make [a-z-]*: ' "$err")" "2:make profile-quick: PROF_PROJECT: '$(printf 'p%.0s' $(seq 40))...' is not a project name: longer than 255 bytes (256)
make profile-quick: run finished with exit code 2 (infrastructure or argument failure)" \
	"make profile-quick PROF_PROJECT= of 256 bytes: exit 2 before the run"
finish
