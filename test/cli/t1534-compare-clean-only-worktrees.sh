#!/bin/bash
# Data first, make compare-clean: only what compare and bisect keep under
# PROF_COMPARE_DIR goes (a folder named by its full commit id, with its
# id.log); anything else there is left, and said. It removed every folder
# under it: PROF_COMPARE_DIR=artifacts/profiling took every run folder,
# PROF_COMPARE_DIR=. the project's own sources.
. "$(dirname "$0")/lib.sh"
plan 6

C=$T/cache
sha=0123456789abcdef0123456789abcdef01234567
mkdir -p "$C/$sha/bin" "$C/run-1" "$C/20261201T101010Z-abcd"
echo '{}' >"$C/run-1/results.json"
echo 'built' >"$C/$sha/bin/w"
echo log >"$C/$sha.log"
echo 'notes' >"$C/notes.log"
cd "$T" || exit 1
PROF_COMPARE_DIR=$C sh "$ROOT/fragment/compare-clean.sh" >"$out" 2>"$err"
rc=$?
# (the size as du gives it on this file system)
is "$rc:$(sed 's/ ([0-9]* kB) / (N kB) /' "$err")" "0:make compare-clean: removed 1 worktree(s) of other commits (N kB) from '$C'
make compare-clean: left 3 other file(s) in '$C' as they are (no worktree of make compare or bisect: a name that is no commit id), '20261201T101010Z-abcd' first" \
	"exit 0: the worktree removed, the rest left, said in one line"
ok "$([ ! -e "$C/$sha" ] && [ ! -e "$C/$sha.log" ]; echo $?)" \
	"the commit's folder and its log are gone"
is "$(cat "$C/run-1/results.json")" "{}" "a run folder there is as it was"
ok "$([ -d "$C/20261201T101010Z-abcd" ] && [ -f "$C/notes.log" ]; echo $?)" \
	"and so are the other folder and the other log"

# Nothing of theirs: nothing goes, the folder stays.
PROF_COMPARE_DIR=$C sh "$ROOT/fragment/compare-clean.sh" >"$out" 2>"$err"
is "$?:$(head -n 1 "$err")" "0:make compare-clean: removed 0 worktree(s) of other commits (0 kB) from '$C'" \
	"again: none removed"
ok "$([ -f "$C/run-1/results.json" ]; echo $?)" "the run folder still there"
finish
