#!/bin/bash
# An installed prof (issue 21): the preload libraries under lib/prof/ and
# found there by the installed tools, prof's own workloads under
# libexec/prof/, and prof-time without --workloads (and without
# PROF_WORKLOADS) saying what to give it.
. "$(dirname "$0")/lib.sh"
plan 8
unset PROF_WORKLOADS

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
missing=
for f in lib/prof/libprof-alloc.so lib/prof/libprof-cpuprofile.so \
	lib/prof/libprof-fixedtime.so libexec/prof/prof-workloads; do
	[ -e "$pfx/$f" ] || missing="$missing $f"
done
is "$missing" "" "preload libraries in lib/prof/, prof's workloads in libexec/prof/"
is "$(cd "$pfx/bin" && ls *.so prof-workloads 2>/dev/null)" "" \
	"and neither in bin/"

cd "$T" || exit 1
run "$pfx/bin/prof-time" quick
is "$rc:$(errline)" \
	"2:prof-time: no workload binary: give --workloads BIN (one linked with \`pkg-config --libs prof-harness\`), or WORKLOADS= in a Makefile that includes prof.mk" \
	"prof-time without --workloads says what to give it"
run "$pfx/bin/prof-time" --list --workloads "$pfx/libexec/prof/prof-workloads"
like "$(cat "$out")" "pipeline." "prof's own workloads run when named"

# The installed tools find their preload libraries in lib/prof/.
run "$pfx/bin/prof-mem" diagnose test.ok --workloads "$TW" -q
is "$rc" 0 "the installed prof-mem loads lib/prof/libprof-alloc.so"
if command -v valgrind >/dev/null; then
	run "$pfx/bin/prof-count" diagnose test.ok --workloads "$TW" \
		--repeat 1 -q
	is "$rc" 0 "the installed prof-count loads lib/prof/libprof-fixedtime.so"
	jq_ok 'length == 1 and .[0].instructions > 0' <(jq -s . "$out") \
		"and counts"
else
	skip "valgrind is not installed"
	skip "valgrind is not installed"
fi
finish
