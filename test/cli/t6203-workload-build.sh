#!/bin/bash
# A workload's own build in its environment (issue 21): the registration
# macro records the compile of the workload's file (workload_compiler,
# workload_compiler_major, workload_optimized, workload_isa); -O0 and -O2
# builds land in different segments; PROF_BUILD_FACT adds a project's fact.
. "$(dirname "$0")/lib.sh"
plan 11

B=$ROOT/${PROF_BUILD:-build}
build() {
	local out_bin=$1
	shift
	cc "$@" -I"$ROOT/src/harness" -I"$ROOT/src/lib" -o "$out_bin" \
		"$ROOT/test/data/tiny-project/tiny.c" "$B/libprofharness.a" \
		"$B/libprof.a" $(pkg-config --libs json-c libcrypto) -lm -ldl \
		-lpthread
}
build "$T/o0" -O0 && build "$T/o2" -O2 || exit 1
printf '#include <prof/workload.h>\nPROF_BUILD_FACT(tinylib, "1.2.3");\n' \
	>"$T/fact.c"
build "$T/fact" -O2 "$T/fact.c" || exit 1

# The context record of a one-call quick run: its env and segment id.
context() {
	"$BIN/prof-time" quick --workloads "$1" --repeat 1 -q |
		jq -c 'select(.record == "context")'
}
context "$T/o0" >"$T/c0"
context "$T/o2" >"$T/c2"
context "$T/fact" >"$T/cf"

version=$(printf '__VERSION__\n' | cc -E -P - | tr -d '"')
major="gcc $(cc -dumpversion | cut -d. -f1)"
jq_raw '.env.workload_compiler == "'"$version"'"' "$T/c2" \
	"workload_compiler is the workload compiler's __VERSION__"
jq_raw '.env.workload_compiler_major == "'"$major"'"' "$T/c2" \
	"workload_compiler_major names it and its major version"
jq_raw '.env.workload_optimized == false' "$T/c0" "-O0: not optimized"
jq_raw '.env.workload_optimized == true' "$T/c2" "-O2: optimized"
jq_raw '(.segment | fromjson | .workload_optimized == true and
	.workload_compiler_major == "'"$major"'")' "$T/c2" \
	"both are in the segment key"
is "$(jq -r .segment_id "$T/c0" "$T/c2" | sort -u | wc -l)" 2 \
	"-O0 and -O2 land in different segments"
jq_raw '.env.compiler == "gcc" and (.env.cflags | type == "string")' \
	"$T/c0" "compiler and cflags still name the harness's build"
is "$(jq -c .env.build_facts "$T/cf")" '{"tinylib":"1.2.3"}' \
	"PROF_BUILD_FACT is recorded under build_facts"
is "$(jq -r .segment_id "$T/cf")" "$(jq -r .segment_id "$T/c2")" \
	"and not keyed"
if [ "$(uname -m)" = x86_64 ]; then
	build "$T/avx2" -O2 -mavx2 -mfma || exit 1
	context "$T/avx2" >"$T/ca"
	jq_raw '.env.workload_isa | split(" ") | index("avx2") != null and
		index("fma") != null' "$T/ca" "-mavx2 -mfma: workload_isa names them"
	jq_raw '.env.workload_isa | split(" ") | index("avx2") == null' \
		"$T/c2" "and a build without them does not"
else
	skip "x86-64 only"
	skip "x86-64 only"
fi
finish
