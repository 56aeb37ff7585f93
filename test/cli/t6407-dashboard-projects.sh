#!/bin/bash
# prof-dashboard --projects: a history of many projects (one PostgreSQL
# database) as an index of its projects, each linking to its own
# dashboard, which is the one --project draws and names no other
# project's series; a SQLite file is one project's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
. "$(dirname "$0")/pg.sh"
pg_start
plan 10

mkrun "$T/a1.json" ra1 c1 2026-01-01T00:00:00Z 1 2 3
mkrun "$T/a2.json" ra2 c2 2026-01-03T00:00:00Z 1 2 3
mkrun "$T/b.json" rb c3 2026-01-02T00:00:00Z 4 5 6
jq '.samples[].workload = "beta.only"' "$T/b.json" >"$T/b2.json"
"$BIN/prof-history" add --db "$PGURL" --project alpha "$T/a1.json" \
	"$T/a2.json" 2>/dev/null
"$BIN/prof-history" add --db "$PGURL" --project "be ta" "$T/b2.json" \
	2>/dev/null

run prof-dashboard --db "$PGURL" --projects --title T -o "$T/site"
is "$rc:$(tail -1 "$err")" "0:prof-dashboard: wrote 2 projects to '$T/site/index.html'" \
	"--projects: exit 0, the index written"
rows=$(grep -o '<tr><td><a href="[^"]*">[^<]*</a></td><td class="num">[0-9]*</td><td class="mono">[^<]*</td>' \
	"$T/site/index.html" | sed 's/<[^>]*>/ /g; s/  */ /g')
is "$rows" " alpha 2 2026-01-03T00:00:00Z 
 be ta 1 2026-01-02T00:00:00Z " \
	"the index: each project by name, its runs and its latest run"
like "$(cat "$T/site/index.html")" '<a href="alpha/index.html">alpha</a>' \
	"a project named as an id has its folder by that name"
dir=$(grep -o 'href="p-[0-9a-f]*/index.html">be ta' "$T/site/index.html" |
	sed 's|href="\([^/]*\)/.*|\1|')
ok "$([ -n "$dir" ] && [ -f "$T/site/$dir/index.html" ]; echo $?)" \
	"another name: a folder p-ID of its own, linked, there"
"$BIN/prof-dashboard" --db "$PGURL" --project alpha --title "T: alpha" \
	-o "$T/alpha" 2>/dev/null
run diff -r "$T/alpha" "$T/site/alpha"
is "$rc" 0 "a project's folder is its --project dashboard, page for page"
is "$(grep -l beta.only "$T/site/alpha"/*.html | wc -l):$(grep -l test.step "$T/site/$dir"/*.html | wc -l)" \
	0:0 "and never names another project's series"
like "$(cat "$T/site/$dir/index.html")" "beta.only" \
	"(its own series are there)"

run prof-dashboard --db "$PGURL" --projects --project alpha -o "$T/x"
is "$rc:$(cat "$err"):$(ls "$T" | grep -c '^x$')" "2:prof-dashboard: --project and --projects go apart (one project's dashboard, or every project's):0" \
	"--project with --projects: exit 2, nothing written"

"$BIN/prof-history" add --db "$T/h.sqlite" "$T/a1.json" 2>/dev/null
run prof-dashboard --db "$T/h.sqlite" --projects -o "$T/sq"
is "$rc:$(tail -1 "$err")" "0:prof-dashboard: wrote 1 project to '$T/sq/index.html'" \
	"a SQLite file: one project"
like "$(cat "$T/sq/index.html")" '">this history</a></td><td class="num">1</td>' \
	"(named 'this history', its one run)"
finish
