#!/bin/bash
# The examples, built and profiled against an install into a temporary
# prefix through the installed fragment (issue 21): examples/zlib (Debian's
# zlib: crc32, adler32, deflate level 6, inflate, each validated) and
# examples/external.
. "$(dirname "$0")/lib.sh"
plan 9
unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR PROF_WORKLOADS HISTORY
unset BUILD BINDIR SANITIZER

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
export PKG_CONFIG_PATH=$pfx/lib/pkgconfig

if ! pkg-config --exists zlib; then
	skip "zlib1g-dev is not installed"; skip "zlib"; skip "zlib"
	skip "zlib"; skip "zlib"
else
	cp -r "$ROOT/examples/zlib" "$T/zlib"
	nice make -s -C "$T/zlib" >"$out" 2>"$err"
	is "$?" 0 "examples/zlib builds against the installed prefix"
	nice make -s -C "$T/zlib" profile-quick REPEAT=2 OUTPUT=run \
		>"$out" 2>"$err"
	is "$?" 0 "make profile-quick in examples/zlib"
	jq_ok '([.samples[].workload] | unique) == ["zlib.adler32",
		"zlib.crc32", "zlib.deflate6", "zlib.inflate"] and
		all(.samples[]; .outcome == "success" and
		(.checksum | length == 64))' "$T/zlib/run/results.json" \
		"its four workloads, each validated and checksummed"
	is "$(jq -r '[.envs[].build_facts.zlib] | unique | join(" ")' \
		"$T/zlib/run/results.json")" \
		"$(sed -n 's/^#define ZLIB_VERSION "\(.*\)"/\1/p' /usr/include/zlib.h)" \
		"the environment names the zlib it was built against"
	ok "$([ -s "$T/zlib/run/report.html" ] &&
		[ -s "$T/zlib/artifacts/history.sqlite" ]; echo $?)" \
		"report.html, and the project's history"
fi

cp -r "$ROOT/examples/external" "$T/ext"
nice make -s -C "$T/ext" >"$out" 2>"$err"
is "$?" 0 "examples/external builds"
nice make -s -C "$T/ext" profile-quick REPEAT=2 OUTPUT=run >"$out" 2>"$err"
is "$?" 0 "make profile-quick in examples/external"
jq_ok '[.samples[].workload] | unique == ["external.sort_u32"]' \
	"$T/ext/run/results.json" "its results.json"
finish
