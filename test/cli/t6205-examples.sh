#!/bin/bash
# The examples, built and profiled against an install into a temporary
# prefix through the installed fragment (issue 21): examples/zlib (Debian's
# zlib: crc32, adler32, deflate level 6, inflate, each validated),
# examples/external and examples/gbench (a Google Benchmark suite over
# zlib, its binary a workload binary as it is).
. "$(dirname "$0")/lib.sh"
plan 14
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

if ! pkg-config --exists zlib || ! command -v g++ >/dev/null ||
	[ ! -e /usr/include/benchmark/benchmark.h ]; then
	skip "g++, libbenchmark-dev or zlib1g-dev is not installed"
	skip "gbench"; skip "gbench"; skip "gbench"; skip "gbench"
else
	cp -r "$ROOT/examples/gbench" "$T/gbench"
	nice make -s -C "$T/gbench" >"$out" 2>"$err"
	is "$?" 0 "examples/gbench builds against libbenchmark and zlib"
	PROF_GBENCH_FLAGS=--benchmark_min_time=0.01 nice make -s \
		-C "$T/gbench" profile-quick REPEAT=2 OUTPUT=run >"$out" 2>"$err"
	is "$?" 0 "make profile-quick in examples/gbench"
	jq_ok "$JQ_WHOLE"' whole | ([.samples[].workload] | unique) ==
		["BM_compress6", "BM_crc32.256", "BM_crc32.4096",
		 "BM_crc32.65536", "BM_uncompress"] and
		all(.samples[]; .outcome == "success" and .iterations >= 1 and
		    .metrics.bytes_per_second > 0)' "$T/gbench/run/results.json" \
		"each benchmark a workload, each sample one repetition"
	jq_ok "$JQ_WHOLE"' whole | .samples |
		map(select(.workload == "BM_compress6")) |
		all(.metrics.ratio > 2)' "$T/gbench/run/results.json" \
		"its counters kept as metrics"
	jq_ok "$JQ_WHOLE"' whole | .samples | map({(.workload): .category}) |
		add == {"BM_compress6": "codec", "BM_crc32.256": "checksum",
		"BM_crc32.4096": "checksum", "BM_crc32.65536": "checksum",
		"BM_uncompress": "codec"}' "$T/gbench/run/results.json" \
		"its categories from zlib-bench.workloads, its side file"
fi
finish
