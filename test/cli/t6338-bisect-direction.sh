#!/bin/bash
# make bisect follows the way BAD went, on the installed fragment (a tiny
# project built with pkg-config prof-harness, the workload of
# test/cli/why.sh): step() does 50% of its extra loop at GOOD, 20% from
# "step does less" (fewer instructions), 200% from "step does more" and
# 0% from "step does none". From GOOD to after "more", BAD has more
# instructions: the bisect names "more", passes the steps of "less" as
# the other way and says so; from "less" to after "none", BAD has fewer:
# it names "none", not "more" (the old search named the first change in
# either direction: "less", then "more"). The function table names w.c
# relative to the project, not by its path in the commit's worktree
# (".../build/compare/COMMIT/bin/../w.c").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed (make deps)"
plan 15

unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR PROF_WORKLOADS HISTORY
unset BUILD BINDIR SANITIZER

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
export PKG_CONFIG_PATH=$pfx/lib/pkgconfig PATH=$pfx/bin:$PATH

tiny_repo "$T/r" >/dev/null || exit 1
cat >Makefile <<'MK'
# A project on the installed prof: one workload binary, prof's targets.
CFLAGS = -O1 -g
WORKLOADS = bin/w

# The source by its absolute path through bin/.., as a project whose
# workload sources include its library's (prof/../lib/lz4.c) names them.
bin/w: w.c
	@mkdir -p bin
	$(CC) $(CFLAGS) $(shell pkg-config --cflags prof-harness) -o $@ \
		$(CURDIR)/bin/../w.c $(shell pkg-config --libs prof-harness)

include $(shell pkg-config --variable=makefile prof-harness)
MK
sed -i 's/^#define EXTRA .*/#define EXTRA 50/' w.c
git commit -q -am "on the installed prof, step does half again"
good=$(git rev-parse HEAD)
tiny_commit "one"
tiny_commit "step does less" 20
less=$(git rev-parse HEAD)
tiny_commit "three"
three=$(git rev-parse HEAD)
tiny_commit "step does more" 200
more=$(git rev-parse HEAD)
tiny_commit "five"
five=$(git rev-parse HEAD)
tiny_commit "step does none" 0
none=$(git rev-parse HEAD)
tiny_commit "seven"

mk() {
	nice make --no-print-directory -s "$@" >"$out" 2>"$err"
	rc=$?
}
# pct A B: B against A in %, as make bisect prints it
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", (b - a) / a * 100 }'
}
# grp N: N grouped by thousands, as bisect prints counts
grp() {
	printf '%s' "$1" | rev | sed 's/[0-9]\{3\}/&,/g; s/,$//' | rev
}
# val FILE COMMIT: the count of a step of bisect.json
val() {
	jq -r --arg c "$2" '.steps[] | select(.commit == $c) | .value' "$1" |
		head -n 1
}

# More instructions at BAD: the search passes "less" and "three".
mk bisect GOOD="$good" BAD="$five" W=tiny.work OUTPUT="$T/b1"
is "$rc" 0 "make bisect, BAD with more instructions: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
b=$T/b1/bisect.json
is "$(sed -n 1p "$out")" "first changed commit: $more step does more" \
	"it names the commit that added instructions"
g=$(val "$b" "$good")
is "$(sed -n 2p "$out")" \
	"change: instructions $(grp "$g") -> $(grp "$(val "$b" "$more")") ($(pct "$g" "$(val "$b" "$more")")) against GOOD ${good:0:7}, the way BAD went ($(pct "$g" "$(val "$b" "$five")"))" \
	"the change against GOOD, the way BAD went"
bw=$(pct "$g" "$(val "$b" "$five")")
is "$(grep '^note: ' "$out")" \
	"note: commit ${less:0:7} is $(pct "$g" "$(val "$b" "$less")") (the other way from BAD's $bw)
note: commit ${three:0:7} is $(pct "$g" "$(val "$b" "$three")") (the other way from BAD's $bw)" \
	"each step it passed that went the other way is said"
like "$(grep '^note: ' "$out" | head -n 1)" "is -" "a change of fewer instructions"
jq_ok '.direction == {status: "warning", metric: null} and
	.other_way == ["'"$less"'", "'"$three"'"] and
	.first_changed.commit == "'"$more"'" and
	([.steps[] | select(.other_way) | .commit] == .other_way) and
	all(.steps[] | select(.other_way); .status == "improved" and
		(.changed | not))' "$b" \
	"bisect.json: the direction, the steps the other way, unchanged"
# The functions: step's file relative to the project, no worktree path.
like "$(grep -A 3 '^functions against ' "$out" | sed -n 4p)" " step (w.c)" \
	"the function table names w.c relative to the project"
is "$(grep -v "^bisect: " "$out" | grep -c -e "$T" -e "build/compare")" 0 \
	"and no path inside a commit's worktree"

# Fewer instructions at BAD: the search passes "more" and "five".
mk bisect GOOD="$three" BAD=HEAD W=tiny.work OUTPUT="$T/b2"
is "$rc" 0 "make bisect, BAD with fewer instructions: exit 0"
b=$T/b2/bisect.json
is "$(sed -n 1p "$out")" "first changed commit: $none step does none" \
	"it names the commit that took instructions away, not the one that added"
g=$(val "$b" "$three")
bw=$(pct "$g" "$(val "$b" "$(git rev-parse HEAD)")")
like "$bw" "-" "BAD has fewer instructions than GOOD"
is "$(grep '^note: ' "$out")" \
	"note: commit ${five:0:7} is $(pct "$g" "$(val "$b" "$five")") (the other way from BAD's $bw)" \
	"the step of more instructions it passed is said"
jq_ok '.direction.status == "improved" and
	.other_way == ["'"$five"'"] and .first_changed.status == "improved"' \
	"$b" "bisect.json: an improvement chased"

# No change in either direction: nothing chased, nothing said.
mk bisect GOOD="$less" BAD="$three" W=tiny.work OUTPUT="$T/b3"
is "$rc:$(cat "$out" | head -n 1):$(jq -c '[.direction, .other_way]' "$T/b3/bisect.json")" \
	"0:bisect: $T/b3/bisect.json (0 build(s)):[null,[]]" \
	"GOOD and BAD alike: no direction"
finish
