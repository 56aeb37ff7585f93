#!/bin/bash
# make fuzz's targets (test/fuzz/*.c, built with clang, libFuzzer, ASan and
# UBSan by make test-build) each run over their seed corpus, crash inputs
# kept as regression tests included, and then fuzz for 1 s from a fixed
# seed: none may crash, leak, hang or trip a sanitizer. CI runs them
# longer (make fuzz); here the second is a smoke test of the fuzzing
# loop, each target's whole seed corpus being run first whatever it is.
. "$(dirname "$0")/lib.sh"

FB=$ROOT/${PROF_FUZZ_BUILD:-build/fuzz}
set -- $(cd test/fuzz && ls *.c | sed 's/\.c$//')
plan $(($# * 2 + 1))

FUZZ_BUILD=$FB FUZZ_WORK=$T FUZZ_SECONDS=1 FUZZ_SEED=1 \
	sh test/fuzz/run.sh "$@" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "every target ran clean"
for t in "$@"; do
	line=$(grep "^fuzz: $t: " "$out")
	like "$line" "fuzz: $t: ok: 1 s, " "$t: ran ($line)"
	seeds=$(ls "test/fuzz/corpus/$t" | wc -l)
	n=$(echo "$line" | sed -n 's/.*, corpus \([0-9]*\)$/\1/p')
	ok "$([ "$seeds" -gt 0 ] && [ "${n:-0}" -gt 0 ]; echo $?)" \
		"$t: over its $seeds seeds ($n inputs kept)"
done
finish
