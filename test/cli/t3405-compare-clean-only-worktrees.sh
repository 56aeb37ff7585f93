#!/bin/bash
# Data first, make compare-clean: only what compare and bisect made under
# PROF_COMPARE_DIR goes, by the mark they wrote when they made it (a
# worktree of this repository that they added and marked, its build log);
# anything else there is left, and said, whatever its name. It removed
# every folder there named by 40 or 64 hex digits: another repository's
# worktree with uncommitted work, a plain folder (and before that every
# folder: PROF_COMPARE_DIR=artifacts/profiling took every run folder).
# And make clean (mk/clean.sh) removes BUILD only when make made it, and
# never what compare-clean left in it.
. "$(dirname "$0")/lib.sh"
plan 14

# A repository of three commits, the current folder, as a project's.
r=$T/repo
mkdir -p "$r" && cd "$r" && git init -q . || exit 1
for i in 1 2 3; do
	echo "$i" >f
	git add f && git -c user.name=t -c user.email=t@t commit -q -m "c$i"
done
c1=$(git rev-parse HEAD~2)
c2=$(git rev-parse HEAD~1)
c3=$(git rev-parse HEAD)
C=$T/cache
mkdir -p "$C"
# ours: a worktree as make compare makes one (run-lib.sh's worktree_add),
# with its build log.
(label=test; . "$ROOT/fragment/run-lib.sh"; worktree_add "$C/$c1" "$c1" &&
	log_mark "$c1" >"$C/$c1.log") >/dev/null 2>&1
echo built >"$C/$c1/bin-w"
# ours, made before the mark: at its commit, with the build stamp.
git worktree add -q --detach "$C/$c2" "$c2"
echo commit >"$C/$c2/.prof-compare-built"
# not ours: a worktree of this repository made by hand, at its commit...
git worktree add -q --detach "$C/$c3" "$c3"
# ...another repository's worktree, named by its commit, with work in it
o=$T/other
mkdir -p "$o" && (cd "$o" && git init -q . && echo x >g && git add g &&
	git -c user.name=t -c user.email=t@t commit -q -m other)
oc=$(git -C "$o" rev-parse HEAD)
git -C "$o" worktree add -q --detach "$C/$oc" "$oc"
echo "uncommitted work" >"$C/$oc/g"
# ...a plain folder named by a commit id, a plain file named as a log,
# a run folder and another log.
plain=0123456789abcdef0123456789abcdef01234567
mkdir -p "$C/$plain/bin" "$C/run-1"
echo 'built' >"$C/$plain/bin/w"
echo 'my notes' >"$C/$plain.log"
echo '{}' >"$C/run-1/results.json"
echo 'notes' >"$C/notes.log"

PROF_COMPARE_DIR=$C sh "$ROOT/fragment/compare-clean.sh" >"$out" 2>"$err"
rc=$?
first=$(cd "$C" && ls | grep -v "^$c1\|^$c2" | head -n 1)
# (the size as du gives it on this file system)
is "$rc:$(sed 's/ ([0-9]* kB) / (N kB) /' "$err")" "0:make compare-clean: removed 2 worktree(s) of other commits (N kB) from '$C'
make compare-clean: left 6 other file(s) in '$C' as they are (none made by make compare or bisect: no mark of theirs), '$first' first" \
	"exit 0: its two worktrees removed, the rest left, said in one line"
ok "$([ ! -e "$C/$c1" ] && [ ! -e "$C/$c1.log" ] && [ ! -e "$C/$c2" ]; echo $?)" \
	"its worktrees and the log are gone"
is "$(git worktree list --porcelain | grep -c '^worktree ')" 2 \
	"and forgotten by git: the one made by hand is still there"
is "$(cat "$C/$oc/g"):$(git -C "$C/$oc" status --porcelain)" \
	"uncommitted work: M g" \
	"another repository's worktree with uncommitted work: as it was"
is "$(cat "$C/$plain/bin/w"):$(cat "$C/$plain.log")" "built:my notes" \
	"a plain folder named by a commit id and a file named as its log: kept"
ok "$([ -f "$C/$c3/f" ] && [ -f "$C/run-1/results.json" ] &&
	[ -f "$C/notes.log" ]; echo $?)" \
	"a worktree made by hand, a run folder and another log: kept"

# Nothing of theirs: nothing goes, the folder stays.
PROF_COMPARE_DIR=$C sh "$ROOT/fragment/compare-clean.sh" >"$out" 2>"$err"
is "$?:$(head -n 1 "$err")" "0:make compare-clean: removed 0 worktree(s) of other commits (0 kB) from '$C'" \
	"again: none removed"
ok "$([ -f "$C/$oc/g" ] && [ -f "$C/$plain/bin/w" ]; echo $?)" \
	"and still nothing else"

# make clean: BUILD is removed when make made it (its mark), but for
# what compare-clean left in PROF_COMPARE_DIR inside it.
b=$T/b
mkdir -p "$b/compare/$plain" "$b/src/lib"
echo 'made by make (prof): make clean removes it' >"$b/.prof-build"
echo o >"$b/src/lib/x.o"
echo keep >"$b/compare/$plain/w"
sh "$ROOT/mk/clean.sh" "$b" "$b/compare" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:make clean: left '$b/compare' in '$b': what make compare-clean left there" \
	"make clean: BUILD's own files go, what compare-clean left stays, said"
is "$(cd "$b" && find . | sort | tr '\n' ' ')" \
	". ./.prof-build ./compare ./compare/$plain ./compare/$plain/w " \
	"nothing else is left"
sh "$ROOT/mk/clean.sh" "$b/compare/$plain" "$b/compare" >"$out" 2>"$err"
is "$?:$(cat "$err")" "2:make clean: left '$b/compare/$plain' as it is: this tree's make did not make it (no '$b/compare/$plain/.prof-build'); remove what was built there by hand" \
	"make clean BUILD= a folder make did not make: exit 2, left"
ok "$([ -f "$b/compare/$plain/w" ]; echo $?)" "and its file is there"
rm -rf "$b/compare"
sh "$ROOT/mk/clean.sh" "$b" "$b/compare" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "make clean: a BUILD of make's alone"
ok "$([ ! -e "$b" ]; echo $?)" "goes whole"
finish
