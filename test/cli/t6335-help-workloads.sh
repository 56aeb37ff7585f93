#!/bin/bash
# make help's workloads (issue 33): they are the built binary's, and when
# make would build it again (its source changed since) help says so, where
# it listed 4 workloads of a source that has 5 without a word.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 6

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
mk
mk help
like "$(cat "$out")" "  tiny.sum " "make help lists the built binary's workloads"
ok "$(grep -q 'as last built' "$out"; [ $? = 1 ]; echo $?)" \
	"built from the current source: no note"

# A second workload in the source, not built yet (the binary made older
# than the edit, whatever the clock's resolution).
touch -d '-1 minute' bin/tiny
sed -n '/^static const struct prof_workload tiny_sum/,$p' tiny.c |
	sed 's/tiny_sum/tiny_sum2/; s/"tiny.sum"/"tiny.sum2"/' >>tiny.c
mk help
is "$rc" 0 "make help, the source newer than the binary"
is "$(sed -n '/^workloads/{n;p}' "$out")" \
	"  (as last built: bin/tiny is older than its source; make builds it, and then make help lists the current source's)" \
	"says that it lists the binary as last built"
mk
mk help
like "$(cat "$out")" "  tiny.sum2 " "after make, the current source's"
ok "$(grep -q 'as last built' "$out"; [ $? = 1 ]; echo $?)" \
	"and no note"
finish
