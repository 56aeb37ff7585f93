#!/bin/bash
# make install PREFIX=... installs the harness for other projects:
# archives, headers and prof-harness.pc; examples/external builds against
# it and is profiled through the installed make fragment.
. "$(dirname "$0")/lib.sh"
plan 12

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
missing=
for f in bin/prof-time bin/prof-history bin/prof-export lib/libprofharness.a \
	lib/libprof.a include/prof/workload.h include/prof/sum.h \
	lib/pkgconfig/prof-harness.pc; do
	[ -e "$pfx/$f" ] || missing="$missing $f"
done
is "$missing" "" \
	"installs the tools, archives, public headers and pkg-config file"
export PKG_CONFIG_PATH=$pfx/lib/pkgconfig
is "$(pkg-config --cflags prof-harness | cut -d' ' -f1)" "-I$pfx/include" \
	"pkg-config --cflags names the installed headers"
like "$(pkg-config --libs prof-harness)" "-L$pfx/lib -lprofharness -lprof" \
	"and --libs the archives"

cp -r "$ROOT/examples/external" "$T/ext"
make -s -C "$T/ext" >"$out" 2>"$err"
is "$?" 0 "examples/external builds against the installed prefix"
run "$pfx/bin/prof-time" --list --workloads "$T/ext/my-workloads"
like "$(cat "$out")" "external.sort_u32" "prof-time --workloads lists its workload"
run "$pfx/bin/prof-time" quick --workloads "$T/ext/my-workloads" -q
is "$rc" 0 "and runs it"
jq_ok -s 'length == 3 and all(.[]; .workload == "external.sort_u32" and
	.outcome == "success" and .duration_ms > 0 and
	.metrics.items == 200000 and (.checksum | length == 64))' "$out" \
	"three warm samples, validated and checksummed"
(unset PROF_BINDIR PROF_BUILD PROF_WORKLOADS HISTORY
	make -s -C "$T/ext" profile-quick OUTPUT=run) >"$out" 2>"$err"
is "$?" 0 "make profile-quick in the example: the installed fragment end to end"
jq_ok '[.samples[] | .workload] | unique == ["external.sort_u32"]' \
	"$T/ext/run/results.json" "its results.json"
like "$(cat "$T/ext/run/summary.md")" '| `external.sort_u32` | cpu | 3 |' \
	"and its summary.md"
make -s --no-print-directory -o all install PREFIX=/opt/prof \
	DESTDIR="$T/stage" >"$out" 2>"$err"
is "$(sed -n 's/^prefix=//p' "$T/stage/opt/prof/lib/pkgconfig/prof-harness.pc")" \
	/opt/prof "DESTDIR stages it; the .pc names the real prefix"
finish
