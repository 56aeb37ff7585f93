#!/bin/bash
# make bisect through a merge (issue 33): the change sits inside a branch
# merged into the first-parent line. bisect names the merge, says so, and
# prints the command that bisects its second parent's commits, with the
# variables given but the range and OUTPUT; that command, run as printed,
# names the commit inside the branch.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 7

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init_lib || exit 1
good=$(git rev-parse HEAD)
trunk=$(git rev-parse --abbrev-ref HEAD)
git checkout -q -b feature
echo "/* one */" >>../sum.c
commit "feature one"
sed -i 's/sum += v\[i\];/sum += v[i];\n\tfor (i = 0; i < n; i++)\n\t\tsum ^= v[i];/' \
	../sum.c
commit "sum does more work"
inside=$(git rev-parse HEAD)
echo "/* three */" >>../sum.c
commit "feature three"
git checkout -q "$trunk"
echo "/* trunk */" >>../sum.h
commit "trunk one"
git -c user.name=t -c user.email=t@t merge -q --no-ff -m "merge feature" \
	feature || exit 1
merge=$(git rev-parse HEAD)
echo "/* trunk two */" >>../sum.h
commit "trunk two"

mk bisect GOOD="$good" BAD=HEAD W=tiny.sum OUTPUT="$T/b" TIMEOUT=600
is "$rc" 0 "make bisect over a range with a merge"
is "$(sed -n 1p "$out")" "first changed commit: $merge merge feature" \
	"the first-parent search names the merge"
# The command keeps the variables given (TIMEOUT), but the range and
# OUTPUT (a new run gets a new folder): it runs as printed.
cmd="make bisect GOOD=$(git rev-parse --short "$good") BAD=$(git rev-parse --short "$merge")^2 W=tiny.sum TIMEOUT=600"
is "$(sed -n 2p "$out")" \
	"it is a merge: the change came in with the commits of its second parent (or with the merge itself); to find the commit among them, run: $cmd" \
	"says it is a merge, and the exact command that bisects into it"
jq_ok '.first_changed.merge == {merge_base: "'"$good"'",
	second_parent: "'"$(git rev-parse "$merge^2")"'",
	command: "'"$cmd"'"}' "$T/b/bisect.json" \
	"bisect.json: first_changed.merge, with the command"

eval "nice $cmd" >"$out" 2>"$err"
is "$?" 0 "that command, as printed"
is "$(sed -n 1p "$out")" "first changed commit: $inside sum does more work" \
	"names the commit inside the branch"
jq_ok '.first_changed.merge == null' \
	"$(sed -n 's/^bisect: \(.*\) ([0-9]* build(s))$/\1/p' "$out")" \
	"which is no merge"
finish
