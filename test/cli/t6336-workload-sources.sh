#!/bin/bash
# PROF_WORKLOAD_SOURCES (issue 33): a project at its repository's top whose
# Makefile got the workloads' rule, and bench/ their source, after the
# library. The Makefile declares both as the workload sources; make
# compare REF= of the library-only commit, which has a Makefile of its own
# but no bench/, builds it with the current Makefile and bench/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 6

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
mkdir -p "$p/bench" && cd "$p" || exit 1
cp "$ROOT"/test/data/tiny-lib/sum.c "$ROOT"/test/data/tiny-lib/sum.h .
printf 'libsum.a: sum.o\n\tar rc $@ sum.o\n' >Makefile
git init -q . && git add Makefile sum.c sum.h && commit library || exit 1
cp "$ROOT"/test/data/tiny-lib/prof/tiny.c bench/
cat >Makefile <<'MK'
WORKLOADS = bin/tiny
PROF_WORKLOAD_SOURCES = Makefile bench
all: $(WORKLOADS)
include $(shell pkg-config --variable=makefile prof-harness)
libsum.a: sum.o
	ar rc $@ sum.o
bin/tiny: bench/tiny.c libsum.a
	@mkdir -p bin
	$(CC) -O2 -I. $(shell pkg-config --cflags prof-harness) -o $@ \
		bench/tiny.c libsum.a $(shell pkg-config --libs prof-harness)
MK
git add Makefile bench && commit workloads
old=$(git rev-parse HEAD~1)

mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/c"
is "$rc" 0 "make compare REF= of the commit without bench/"
like "$(cat "$err")" \
	"make compare: the workload sources (Makefile, bench) are taken from the current tree: bench does not exist at HEAD~1 ($(git rev-parse --short HEAD~1))" \
	"names the sources and the one the commit lacks"
ok "$(cmp -s Makefile "build/compare/$old/Makefile" &&
	cmp -s bench/tiny.c "build/compare/$old/bench/tiny.c"; echo $?)" \
	"all of them are the current ones, the Makefile too"
ok "$([ -x "build/compare/$old/bin/tiny" ] &&
	[ -f "build/compare/$old/libsum.a" ]; echo $?)" \
	"the commit's library and the workload are built there"
jq_ok 'length == 1 and .[0].workload == "tiny.sum"' "$T/c/comparisons.json" \
	"the workload is compared"

mk compare REF=HEAD~1 REPEAT=2 PROF_WORKLOAD_SOURCES=/etc
is "$rc:$(sed -n 1p "$err")" \
	"2:make compare: PROF_WORKLOAD_SOURCES: '/etc' is not a path inside the project" \
	"a path outside the project is refused"
finish
