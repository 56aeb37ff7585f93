#!/bin/bash
# make bisect where the workloads are newer than GOOD (issue 33): a
# library's repository whose prof/ (the project, on the installed
# fragment) came after the library. GOOD, the library alone, is built with
# the current prof/; the commits after it with their own; bisect names the
# commit that made the library do more work.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 6

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init_lib || exit 1
libonly=$(git rev-parse HEAD~1)
echo "/* a comment */" >>../sum.c
commit "a comment"
sed -i 's/sum += v\[i\];/sum += v[i];\n\tfor (i = 0; i < n; i++)\n\t\tsum ^= v[i];/' \
	../sum.c
commit "sum does more work"
first=$(git rev-parse HEAD)
echo "/* another */" >>../sum.c
commit "another comment"

mk bisect GOOD="$libonly" BAD=HEAD W=tiny.sum OUTPUT="$T/b"
is "$rc" 0 "make bisect from a GOOD without the workloads' folder"
is "$(sed -n 1p "$out")" "first changed commit: $first sum does more work" \
	"it names the commit that made the library do more work"
like "$(cat "$err")" \
	"make bisect: the workload sources (prof/) are taken from the current tree: prof/ does not exist at $(git rev-parse --short "$libonly")" \
	"GOOD is built with the current workload sources, and it says so"
ok "$(cmp -s tiny.c "build/compare/$libonly/prof/tiny.c" &&
	git -C "build/compare/$libonly" diff --quiet HEAD -- sum.c; echo $?)" \
	"GOOD's worktree: its own library, the current prof/"
jq_ok '.first_changed.commit == "'"$first"'" and
	.first_changed.merge == null and
	(.steps[] | select(.commit == "'"$libonly"'") | .value > 0)' \
	"$T/b/bisect.json" "bisect.json: the first changed commit, GOOD measured"
mk bisect GOOD="$libonly" BAD=HEAD W=tiny.sum OUTPUT="$T/b2"
jq_ok '.builds == 0' "$T/b2/bisect.json" "a second bisect reuses the builds"
finish
