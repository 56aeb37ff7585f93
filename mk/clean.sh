#!/bin/sh
# clean.sh: what make clean removes of BUILD, by the rule of every cleanup
# (fragment/run-lib.sh's ours_worktree): only what prof made and marked.
#
# usage: sh mk/clean.sh BUILD COMPARE_DIR
#
# BUILD goes when this tree's make made it (mk/config.mk writes
# BUILD/.prof-build when it makes the folder; the checkout's own build/
# is this tree's whatever it holds), except COMPARE_DIR inside it where
# make compare-clean (run before) left something: what it left is no
# worktree of compare or bisect, and stays. A BUILD that make did not
# make (BUILD=$HOME) is left as it is, with a line, exit 2.
set -u
build=$1
cmp=$2
say() {
	printf '%s\n' "make clean: $*" >&2
}
[ -e "$build" ] || [ -L "$build" ] || exit 0
if [ -L "$build" ] || { [ ! -f "$build/.prof-build" ] &&
	[ "$build" != build ]; }; then
	say "left '$build' as it is: this tree's make did not make it (no" \
		"'$build/.prof-build'); remove what was built there by hand"
	exit 2
fi
b=$(cd -P -- "$build" && pwd -P) || exit 2
c=
[ -d "$cmp" ] && c=$(cd -P -- "$cmp" && pwd -P)
case $c in
"$b"/*)
	# All but COMPARE_DIR, the folders above it and BUILD's mark.
	find "$b" -mindepth 1 \( -path "$c" -o -path "$b/.prof-build" \) \
		-prune -o ! -type d -exec rm -f -- {} + &&
		find "$b" -depth -mindepth 1 -type d ! -path "$c" \
			! -path "$c/*" -exec rmdir -- {} + 2>/dev/null
	say "left '$cmp' in '$build': what make compare-clean left there"
	;;
*) rm -rf -- "$build" ;;
esac
