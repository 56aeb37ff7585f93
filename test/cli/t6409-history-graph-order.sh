#!/bin/bash
# Run order follows the commit graph the runs keep (their parents), not
# only commit time: a child commit dated before its parent comes after
# every run of the parent, a merge after both its parents, ancestry is
# followed only through commits the history has runs of, and what has no
# known ancestry keeps commit-time order. list, trend, changes (and its
# bisect line), export-runs, the dashboard and the projects index's latest
# run all follow it, the same on SQLite and PostgreSQL.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 20

R=1111000000000000000000000000000000000000
A=aaaa000000000000000000000000000000000000
B=bbbb000000000000000000000000000000000000
M=dddd000000000000000000000000000000000000
X=cccc000000000000000000000000000000000000
Y=9999000000000000000000000000000000000000

# The graph: R, then A and B (children of R), then M (their merge); X's
# parent Y has no run here. The commit times contradict it: A is dated
# before R (a rebase that kept old dates), M before all of them. R was
# measured twice, the second time after everything else. plain is an
# older file, with neither time nor parents.
mkdir -p "$T/runs"
set_commit() {
	jq ".commit_time = \"$2\" | .parents = $3" "$1" >"$1.x" && mv "$1.x" "$1"
}
mkrun "$T/runs/r1.json" r1 "$R" 2026-01-02T00:00:00Z 10 10 10
mkrun "$T/runs/r2.json" r2 "$R" 2026-01-09T00:00:00Z 10 10 10
mkrun "$T/runs/a.json" a "$A" 2026-01-03T00:00:00Z 10 10 10
mkrun "$T/runs/b.json" b "$B" 2026-01-04T00:00:00Z 20 20 20
mkrun "$T/runs/m.json" m "$M" 2026-01-05T00:00:00Z 20 20 20
mkrun "$T/runs/x.json" x "$X" 2026-01-06T00:00:00Z 10 10 10
mkrun2 "$T/runs/plain.json" plain d1 2026-01-01T12:30:00Z 20 20 20
set_commit "$T/runs/r1.json" 2026-01-01T12:00:00Z '[]'
set_commit "$T/runs/r2.json" 2026-01-01T12:00:00Z '[]'
set_commit "$T/runs/a.json" 2026-01-01T10:00:00+02:00 "[\"$R\"]"
set_commit "$T/runs/b.json" 2026-01-01T13:00:00Z "[\"$R\"]"
set_commit "$T/runs/m.json" 2026-01-01T07:00:00Z "[\"$A\", \"$B\"]"
set_commit "$T/runs/x.json" 2026-01-01T06:00:00Z "[\"$Y\"]"

# By commit time alone: x m a r1 r2 plain b. Over the graph: x first (its
# parent has no run, so nothing is known before it), then R's two runs,
# A (after both of R's), plain (by its timestamp, 12:30), B, and the
# merge M last.
want='["x","r1","r2","a","plain","b","m"]'

sq=$T/h.sqlite
pg=$(pg_db graph)
for db in "$sq" "$pg"; do
	"$BIN/prof-history" import --db "$db" "$T/runs" 2>/dev/null
done

for name in sqlite postgresql; do
	[ $name = sqlite ] && db=$sq || db=$pg
	run prof-history list --db "$db"
	jq 'map(del(.added_utc))' "$out" >"$T/$name.list"
	jq_raw "[.[].run_id] == $want" "$T/$name.list" \
		"$name: list follows the graph"
	jq_raw '[.[].run_id] | (index("a") > index("r2")) and
		(index("m") > index("a")) and (index("m") > index("b"))' \
		"$T/$name.list" \
		"$name: the child dated before its parent after both of the parent's runs; the merge after both parents"
	run prof-history trend --db "$db" --workload test.step
	cp "$out" "$T/$name.trend"
	jq_raw "[.[].run_id] == $want" "$T/$name.trend" \
		"$name: trend follows it"
	run prof-history changes --db "$db"
	cp "$out" "$T/$name.changes"
	jq_raw 'length == 1 and .[0].commit_before == "'$A'" and
		.[0].commit_after == "d1" and .[0].index == 5 and
		.[0].bisect == "make bisect GOOD='$A' BAD=d1 W=test.step"' \
		"$T/$name.changes" \
		"$name: changes: one step, between A and plain, in graph order"
	run prof-history changes --db "$db" --since d1
	jq_raw 'length == 1' "$out" "$name: --since d1: the step at plain is since it"
	run prof-history changes --db "$db" --since "$B"
	jq_raw 'length == 0' "$out" \
		"$name: --since B: nothing (B comes after plain in run order)"
	rm -rf "$T/$name-out"
	"$BIN/prof-history" export-runs --db "$db" "$T/$name-out" 2>/dev/null
	"$BIN/prof-dashboard" --db "$db" --title t -o "$T/$name-dash" \
		2>/dev/null
done

is "$(cat "$T/sqlite.list")" "$(cat "$T/postgresql.list")" \
	"list: the same from both backends"
is "$(cat "$T/sqlite.trend")" "$(cat "$T/postgresql.trend")" \
	"trend: the same from both backends"
is "$(cat "$T/sqlite.changes")" "$(cat "$T/postgresql.changes")" \
	"changes: the same from both backends"
run diff -r "$T/sqlite-dash" "$T/postgresql-dash"
is "$rc" 0 "the dashboard: the same from both backends"
# The dashboard's series page draws the runs in run order (the walk).
page=$(ls "$T/sqlite-dash"/s-*.html | head -n 1)
order=$(grep -o '<title>[a-z0-9]* · ' "$page" | sed 's/<title>//; s/ · //' |
	tr '\n' ' ')
is "$order" "x r1 r2 a plain b m " \
	"the dashboard's series page draws its points in graph order"

# export-runs writes the runs back: imported again, the same order.
"$BIN/prof-history" import --db "$T/again.sqlite" "$T/postgresql-out" \
	2>/dev/null
run prof-history list --db "$T/again.sqlite"
jq_raw "[.[].run_id] == $want" "$out" \
	"export-runs, imported again: the same order (parents written back)"

# The projects index: the latest run in run order (M, made 2026-01-05),
# not the last-made one (r2, 2026-01-09), on both backends.
for name in sqlite postgresql; do
	[ $name = sqlite ] && db=$sq || db=$pg
	"$BIN/prof-dashboard" --db "$db" --projects -o "$T/$name-idx" \
		2>/dev/null
	like "$(cat "$T/$name-idx/index.html")" \
		'<td class="num">7</td><td class="mono">2026-01-05T00:00:00Z</td>' \
		"$name: the projects index's latest run is the last in run order"
done

finish
