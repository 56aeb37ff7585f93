#!/bin/sh
# compare-clean.sh: remove the worktrees that make compare REF= and make
# bisect keep (make compare-clean), and forget them in the project's git.
#
# usage: sh compare-clean.sh
#
# Settings come from the environment (prof.mk sets them):
#   PROF_COMPARE_DIR       where the worktrees are kept (default
#                          build/compare)
#
# Only what compare and bisect made there goes, by the mark they wrote
# when they made it (run-lib.sh's ours_worktree and ours_log): a
# worktree of this repository that they added and marked (a folder named
# by its commit id) is removed with git worktree remove --force (its
# build and any change made in it go), with its build log; a build log
# of theirs whose worktree went before goes too; the folder itself when
# nothing else is left; and git worktree prune forgets any that was
# deleted by hand. Anything else is no one's to remove, whatever its
# name: another repository's worktree, one made by hand, a plain folder
# named by a commit id, a run folder (PROF_COMPARE_DIR=artifacts) are
# left as they are, with a line that counts them and names the first.
# One line says what was removed and how much space it held. Exit 0,
# also when there was nothing; 2 when a worktree could not be removed.
set -u
set -f

CACHE=${PROF_COMPARE_DIR:-build/compare}
label="make compare-clean"

. "$(dirname "$0")/run-lib.sh"

# is_commit_id NAME: whether NAME is a full commit id (SHA-1 or SHA-256).
is_commit_id() {
	case $1 in
	*[!0-9a-f]*) return 1 ;;
	esac
	[ ${#1} = 40 ] || [ ${#1} = 64 ]
}

ingit=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ingit=1
if [ ! -d "$CACHE" ]; then
	[ $ingit = 1 ] && git worktree prune
	say "nothing to remove: '$CACHE' does not exist"
	exit 0
fi
# Their worktrees and logs; the rest is counted and left.
set +f
set --
logs=
others=0
first=
for d in "$CACHE"/* "$CACHE"/.[!.]*; do
	[ -e "$d" ] || [ -L "$d" ] || continue
	b=${d##*/}
	if is_commit_id "$b" && [ $ingit = 1 ] && ours_worktree "$d"; then
		set -- "$@" "$d"
	elif [ "${b%.log}" != "$b" ] && is_commit_id "${b%.log}" &&
		{ ours_log "$d" "${b%.log}" ||
			{ [ -f "$d" ] && [ ! -L "$d" ] && [ $ingit = 1 ] &&
				ours_worktree "${d%.log}"; }; }; then
		# a build log: of theirs, or beside a worktree of theirs
		logs="$logs $b"
	else
		others=$((others + 1))
		[ -n "$first" ] || first=$b
	fi
done
set -f
kb=0
[ $# -eq 0 ] || kb=$(du -sck -- "$@" 2>/dev/null | tail -n 1 | cut -f1)
size=$(human_kb "$kb")
n=0
status=0
for d; do
	n=$((n + 1))
	git worktree remove --force "$d" >/dev/null 2>&1
	if [ -e "$d" ] && ! rm -rf -- "$d"; then
		say "cannot remove '$d'"
		status=2
	fi
done
# (names of checked commit ids and .log: no blank or glob in them)
for b in $logs; do
	rm -f -- "$CACHE/$b"
done
rmdir -- "$CACHE" 2>/dev/null
[ $ingit = 1 ] && git worktree prune
say "removed $n worktree(s) of other commits ($size) from '$CACHE'"
if [ $others -gt 0 ]; then
	say "left $others other file(s) in '$CACHE' as they are (none made" \
		"by make compare or bisect: no mark of theirs), '$first' first"
fi
exit $status
