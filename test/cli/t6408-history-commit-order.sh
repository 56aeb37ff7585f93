#!/bin/bash
# Runs keep their commit's time and parents (prof-merge --commit-time,
# --parents): a series' runs come out of the history in commit order, a
# later-made run of an older commit where its commit falls, on SQLite and
# on PostgreSQL alike; trend shows both, export-runs writes them back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 18

A=aaaa000000000000000000000000000000000000
B=bbbb000000000000000000000000000000000000
C=cccc000000000000000000000000000000000000

# prof-merge: bad values refused, one line naming the option, exit 2.
D=test/data/results
jq -c '.samples[]' $D/current.json | head -n 4 >"$T/s.jsonl"
run prof-merge -o "$T/m.json" --commit-time yesterday "$T/s.jsonl"
is "$rc:$(wc -l <"$err"):$(errline)" \
	"2:1:prof-merge: --commit-time: 'yesterday': not ISO 8601 (YYYY-MM-DDTHH:MM:SS and Z or +HH:MM)" \
	"--commit-time: a bad time is one line, exit 2"
run prof-merge -o "$T/m.json" --parents "$A XYZ" "$T/s.jsonl"
is "$rc:$(wc -l <"$err"):$(errline)" \
	"2:1:prof-merge: --parents: 'XYZ' is not 4 to 64 lowercase hex digits" \
	"--parents: a bad hash is one line, exit 2"
ok "$([ ! -e "$T/m.json" ]; echo $?)" "nothing written on a bad value"
run prof-merge -o "$T/m.json" --commit "$C" \
	--commit-time 2026-01-01T09:00:00-04:00 --parents "$A $B" "$T/s.jsonl"
is "$rc" 0 "prof-merge with both: exit 0"
jq_raw '.commit_time == "2026-01-01T09:00:00-04:00" and
	.parents == ["'$A'", "'$B'"]' "$T/m.json" \
	"results.json: commit_time as given, parents an array of hex strings"
run prof-merge -o "$T/root.json" --parents "" "$T/s.jsonl"
jq_raw '.parents == [] and (has("commit_time") | not)' "$T/root.json" \
	"--parents '': a root commit's empty array; no --commit-time, none"

mkdir -p "$T/runs"
# Made in the opposite order of their commits: A (08:00Z) is measured
# last, C (09:00-04:00, 13:00Z; before A as text, after it in time) next,
# B (the next day) first; "plain", an older file, has neither.
mkrun "$T/runs/a.json" old-late "$A" 2026-01-05T00:00:00Z 10 10 10
mkrun "$T/runs/b.json" new-early "$B" 2026-01-03T00:00:00Z 12 12 12
mkrun "$T/runs/c.json" mid "$C" 2026-01-04T00:00:00Z 11 11 11
mkrun2 "$T/runs/p.json" plain d1 2026-01-01T12:00:00Z 10 10 10
with() {
	jq "$1" "$2" >"$2.x" && mv "$2.x" "$2"
}
with '.commit_time = "2026-01-01T10:00:00+02:00" | .parents = []' "$T/runs/a.json"
with '.commit_time = "2026-01-02T00:00:00Z" | .parents = ["'$A'"]' "$T/runs/b.json"
with '.commit_time = "2026-01-01T09:00:00-04:00" | .parents = ["'$A'"]' "$T/runs/c.json"
want='["old-late","plain","mid","new-early"]'

check() {
	local db=$1 name=$2
	run prof-history import --db "$db" "$T/runs"
	is "$rc" 0 "$name: import exit 0"
	run prof-history trend --db "$db" --workload test.step
	cp "$out" "$T/$name.trend"
	jq_raw "[.[].run_id] == $want" "$T/$name.trend" \
		"$name: trend in commit order, not the runs' timestamps"
	jq_raw 'map(select(.run_id == "mid"))[0] |
		.commit_time == "2026-01-01T09:00:00-04:00" and
		.parents == "'$A'"' "$T/$name.trend" \
		"$name: trend shows commit_time and parents (space-separated)"
	jq_raw 'map(select(.run_id == "plain"))[0] |
		.commit_time == null and .parents == null' "$T/$name.trend" \
		"$name: an older file's run has neither"
	rm -rf "$T/$name-out"
	run prof-history export-runs --db "$db" "$T/$name-out"
	jq_raw '.commit_time == "2026-01-01T09:00:00-04:00" and
		.parents == ["'$A'"]' "$T/$name-out/mid.json" \
		"$name: export-runs writes them back"
}
check "$T/h.sqlite" sqlite
check "$(pg_db order)" postgresql
is "$(cat "$T/sqlite.trend")" "$(cat "$T/postgresql.trend")" \
	"the same trend from both backends"

# A results file with a bad commit_time is refused with its JSON path.
mkrun "$T/bad.json" bad "$A" 2026-01-06T00:00:00Z 10
with '.commit_time = "2026-13-01T00:00:00Z"' "$T/bad.json"
run prof-history add --db "$T/h.sqlite" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-history: $T/bad.json: .commit_time: month 13 is out of range (expected 01 to 12)" \
	"add: a bad commit_time refused, exit 2, with its path"

finish
