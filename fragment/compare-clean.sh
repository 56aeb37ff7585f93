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
# Each worktree there is removed with git worktree remove --force (its
# build and any change made in it go), the folder itself with its build
# logs, and git worktree prune forgets any that was deleted by hand. One
# line says what was removed and how much space it held. Exit 0, also
# when there was nothing; 2 when a worktree could not be removed.
set -u
set -f

CACHE=${PROF_COMPARE_DIR:-build/compare}
label="make compare-clean"

. "$(dirname "$0")/run-lib.sh"

ingit=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ingit=1
if [ ! -d "$CACHE" ]; then
	[ $ingit = 1 ] && git worktree prune
	say "nothing to remove: '$CACHE' does not exist"
	exit 0
fi
size=$(cache_size)
n=0
status=0
set +f
for d in "$CACHE"/*/; do
	d=${d%/}
	[ -d "$d" ] || continue
	n=$((n + 1))
	if [ $ingit = 1 ] && [ -e "$d/.git" ]; then
		git worktree remove --force "$d" >/dev/null 2>&1
	fi
	if [ -e "$d" ] && ! rm -rf -- "$d"; then
		say "cannot remove '$d'"
		status=2
	fi
done
rm -f -- "$CACHE"/*.log
set -f
rmdir -- "$CACHE" 2>/dev/null
[ $ingit = 1 ] && git worktree prune
say "removed $n worktree(s) of other commits ($size) from '$CACHE'"
exit $status
