#!/bin/bash
# The worktrees of make compare REF= and make bisect (issue 33): compare
# and bisect say how much space they hold once it passes
# PROF_COMPARE_NOTE_MB; make compare-clean (which the project's clean
# depends on) removes them and prunes them from the project's git, and
# only them: a folder there that compare did not make stays, and compare
# does not build in it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 11

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init_lib || exit 1
echo "/* a comment */" >>../sum.c
commit "a comment"

mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/c1"
is "$rc" 0 "make compare REF=HEAD~1"
ok "$(grep -q "holds" "$err"; [ $? = 1 ]; echo $?)" \
	"a small cache is not mentioned"
mk compare REF=HEAD~2 REPEAT=2 OUTPUT="$T/c2" PROF_COMPARE_NOTE_MB=0
like "$rc:$(grep holds "$err")" \
	"0:make compare: 'build/compare' holds " \
	"past PROF_COMPARE_NOTE_MB, compare says how much the worktrees hold"
like "$(grep holds "$err")" \
	" in 2 worktree(s) of other commits; make compare-clean removes them" \
	"how many, and what removes them"
is "$(git worktree list | wc -l)" 3 "two worktrees are registered"

# A folder there that compare did not make, named by the commit asked
# for: compare neither removes it nor builds in it. (HEAD~1 after one
# more commit: a commit compare has no worktree of.)
echo "/* another */" >>../sum.c
commit "another comment"
sha=$(git rev-parse HEAD~1)
mkdir -p "build/compare/$sha" && echo mine >"build/compare/$sha/notes"
mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/c3"
is "$rc:$(grep "is there" "$err")" \
	"2:make compare: 'build/compare/$sha' is there and is no worktree that make compare or bisect made (no mark of theirs): left as it is; move it away, or set PROF_COMPARE_DIR to another folder" \
	"compare REF= where a folder not its own is: exit 2, said"
is "$(cat "build/compare/$sha/notes")" mine "and the folder is as it was"

mk clean
is "$rc" 0 "make clean"
like "$(cat "$err")" \
	"make compare-clean: removed 2 worktree(s) of other commits (" \
	"removes the worktrees of compare, and says how much they held"
is "$(git worktree list --porcelain | grep -c '^worktree ')" 1 \
	"git worktree list shows none but the project's own"
ok "$([ ! -e bin ] && [ "$(ls build/compare)" = "$sha" ] &&
	[ -f "build/compare/$sha/notes" ]; echo $?)" \
	"the project's clean ran; build/compare holds the folder not its own"
finish
