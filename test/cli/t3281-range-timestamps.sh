#!/bin/bash
# Timestamps are RFC 3339 UTC to the second wherever they enter (issue 28,
# item 2): prof-merge --timestamp, a results file's timestamp_utc (every
# reader: prof-diff, prof-history add and import). 'tomorrow', month 13
# and an unpadded date were taken, and the history then ordered runs
# r10..r16 before r1..r9 as text.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 14

form="(expected YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T08:30:54Z)"
: >"$T/empty.jsonl"
run prof-merge --timestamp tomorrow -o "$T/m.json" "$T/empty.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: --timestamp: 'tomorrow': not an RFC 3339 UTC time $form" \
	"prof-merge --timestamp tomorrow is refused"
ok "$([ ! -e "$T/m.json" ]; echo $?)" "and nothing is written"
run prof-merge --timestamp 2026-12-01T08:30:54.250Z -o "$T/m.json" \
	"$T/empty.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: --timestamp: '2026-12-01T08:30:54.250Z': not a time to the second: fractional seconds are not taken (expected RFC 3339 UTC, YYYY-MM-DDTHH:MM:SSZ)" \
	"fractional seconds are refused (they would sort before the second)"
run prof-merge --timestamp 2024-02-29T23:59:60Z -o "$T/m.json" \
	"$T/empty.jsonl"
is "$rc:$(jq -r .timestamp_utc "$T/m.json")" "0:2024-02-29T23:59:60Z" \
	"a leap day and a leap second are taken"

mkrun "$T/good.json" r1 c1 2026-01-01T00:00:00Z 5 5 5
bad() { # TIMESTAMP: the results file with it
	jq --arg t "$1" '.timestamp_utc = $t' "$T/good.json" >"$T/bad.json"
}
bad 2026-13-45T99:99:99Z
run prof-diff --baseline "$T/good.json" -o "$T/c.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .timestamp_utc: month 13 is out of range (expected 01 to 12)" \
	"a results file's month 13 is refused with its path"
bad 2026-02-30T00:00:00Z
run prof-diff --baseline "$T/good.json" -o "$T/c.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .timestamp_utc: day 30 is out of range (expected 01 to 28 in 2026-02)" \
	"a day the month does not have"
bad 2026-01-01T24:00:00Z
run prof-diff --baseline "$T/good.json" -o "$T/c.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .timestamp_utc: hour 24 is out of range (expected 00 to 23)" \
	"hour 24"
bad '<img src=x onerror=alert(1)>'
run prof-history add --db "$T/h.sqlite" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-history: $T/bad.json: .timestamp_utc: not an RFC 3339 UTC time $form" \
	"markup is refused by prof-history add"
ok "$([ ! -s "$T/h.sqlite" ] || [ "$(sqlite3 "$T/h.sqlite" \
	'SELECT count(*) FROM runs')" = 0 ]; echo $?)" "and no run is added"
bad 2026-1-5T00:00:00Z
mkdir "$T/runs"
cp "$T/bad.json" "$T/runs/r2.json"
cp "$T/good.json" "$T/runs/r1.json"
run prof-history import --db "$T/i.sqlite" "$T/runs"
is "$rc:$(errline)" \
	"2:prof-history: $T/runs/r2.json: .timestamp_utc: not an RFC 3339 UTC time $form" \
	"an unpadded date is refused by prof-history import"
bad 2026-12-01T08:30:54+01:00
run prof-diff --baseline "$T/good.json" -o "$T/c.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .timestamp_utc: not an RFC 3339 UTC time $form" \
	"an offset other than Z"
run prof-diff --baseline "$T/good.json" -o "$T/c.json" "$T/good.json"
is "$rc:$(errline)" "0:" "a good timestamp is taken"

# The run record in a git branch (mk/runs-branch.sh): a file that import
# would refuse is never recorded, or one bad file would stop every later
# import of the branch.
export PROF_BINDIR=$BIN GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@localhost
git init -q --bare "$T/origin.git"
git init -q "$T/a"
git -C "$T/a" remote add origin "$T/origin.git"
bad 2026-1-5T00:00:00Z
(cd "$T/a" && sh "$ROOT/mk/runs-branch.sh" record prof-runs "$T/bad.json") \
	>"$out" 2>"$err"
is "$?:$(cat "$err")" \
	"2:runs-branch: '$T/bad.json' is not recorded (import would refuse it): $T/bad.json: .timestamp_utc: not an RFC 3339 UTC time $form" \
	"runs-branch record refuses an unpadded date, naming it"
ok "$(git ls-remote --exit-code --heads "$T/origin.git" prof-runs \
	>/dev/null; [ $? = 2 ]; echo $?)" "and the branch is not made"
finish
