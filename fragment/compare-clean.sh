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
# Each worktree there (a folder named by its commit id, 40 or 64 hex
# digits, as compare and bisect make them) is removed with git worktree
# remove --force (its build and any change made in it go), with its build
# log, the folder itself when nothing else is left, and git worktree prune
# forgets any that was deleted by hand. Anything else in the folder is no
# worktree of theirs and is left as it is, with a line that names it
# (PROF_COMPARE_DIR=artifacts would otherwise have taken every run
# folder). One line says what was removed and how much space it held.
# Exit 0, also when there was nothing; 2 when a worktree could not be
# removed.
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
# The worktrees and their logs; the rest is counted and left.
set +f
set --
others=0
first=
for d in "$CACHE"/* "$CACHE"/.[!.]*; do
	[ -e "$d" ] || [ -L "$d" ] || continue
	b=${d##*/}
	if [ -d "$d" ] && [ ! -L "$d" ] && is_commit_id "$b"; then
		set -- "$@" "$d"
	elif [ -f "$d" ] && [ "${b%.log}" != "$b" ] &&
		is_commit_id "${b%.log}"; then
		: # a build log: with its worktree, or below
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
	if [ $ingit = 1 ] && [ -e "$d/.git" ]; then
		git worktree remove --force "$d" >/dev/null 2>&1
	fi
	if [ -e "$d" ] && ! rm -rf -- "$d"; then
		say "cannot remove '$d'"
		status=2
	fi
	rm -f -- "$d.log"
done
# Logs of builds whose worktree went before.
set +f
for f in "$CACHE"/*.log; do
	b=${f##*/}
	[ -f "$f" ] && is_commit_id "${b%.log}" && rm -f -- "$f"
done
set -f
rmdir -- "$CACHE" 2>/dev/null
[ $ingit = 1 ] && git worktree prune
say "removed $n worktree(s) of other commits ($size) from '$CACHE'"
if [ $others -gt 0 ]; then
	say "left $others other file(s) in '$CACHE' as they are (no" \
		"worktree of make compare or bisect: a name that is no commit" \
		"id), '$first' first"
fi
exit $status
