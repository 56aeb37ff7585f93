# lib-project.sh: a tiny project on the installed fragment, for the tests
# of the make targets that build other revisions (compare REF=, bisect):
# never this tree, whose every build takes minutes on a busy machine.
# Source it after lib.sh.
#
#   project_install    make install PREFIX=$T/prefix (nothing built again;
#                      sets $rc); pkg-config and PATH then find the prefix
#   project_init       test/data/tiny-project as a git repository with one
#                      commit in $T/project ($p), the current folder
#   project_init_lib   test/data/tiny-lib as a git repository in $T/lib
#                      ($lib): a commit of the library alone (sum.c), then
#                      one that adds its workloads' folder prof/, the
#                      current folder (a project newer than the library)
#   commit MSG         git commit -qam MSG in the current repository
#   mk ARGS...         nice make in the current folder: $rc, $out, $err

# The project's make sees neither this tree's test settings nor its
# history (lib.sh exports HISTORY; the project keeps its default).
unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR PROF_WORKLOADS HISTORY \
	PROF_HISTORY
unset BUILD BINDIR SANITIZER

pfx=$T/prefix
p=$T/project

project_install() {
	make -s --no-print-directory -o all install PREFIX="$pfx" \
		>"$out" 2>"$err"
	rc=$?
	export PKG_CONFIG_PATH=$pfx/lib/pkgconfig PATH=$pfx/bin:$PATH
}

project_init() {
	mkdir -p "$p" && cp "$ROOT"/test/data/tiny-project/* "$p"/ &&
		cd "$p" && git init -q . && git add Makefile tiny.c &&
		git -c user.name=t -c user.email=t@t commit -q -m one
}

lib=$T/lib

commit() {
	git -c user.name=t -c user.email=t@t commit -q -am "$1"
}

project_init_lib() {
	mkdir -p "$lib" && cp -R "$ROOT"/test/data/tiny-lib/. "$lib"/ &&
		cd "$lib" && git init -q . && git add sum.c sum.h &&
		git -c user.name=t -c user.email=t@t commit -q -m library &&
		git add prof && commit workloads && cd prof
}

mk() {
	nice make --no-print-directory -s "$@" >"$out" 2>"$err"
	rc=$?
}

# run() sums a copy of its TINY_N * 4-byte buffer: one allocation more,
# twice the heap peak (the memory channel's tests: t7007, t7015, t7018).
project_copy_run() {
	python3 - <<'PY'
s = open("tiny.c").read()
s = s.replace("""	for (i = 0; i < TINY_N; i++)
		sum += s->v[i];
	s->sum = sum;""", """	uint32_t *copy = malloc(TINY_N * sizeof(*copy));

	if (!copy)
		return prof_fail(ctx, "out of memory");
	for (i = 0; i < TINY_N; i++)
		copy[i] = s->v[i];
	for (i = 0; i < TINY_N; i++)
		sum += copy[i];
	free(copy);
	s->sum = sum;""")
open("tiny.c", "w").write(s)
PY
}
