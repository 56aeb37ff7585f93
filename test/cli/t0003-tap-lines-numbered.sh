#!/bin/bash
# Every CLI test prints its TAP lines through lib.sh (ok, skip), which
# number them: a line of its own such as `echo "ok - # SKIP ..."` has no
# number, which prove reads as "Tests out of sequence", so a test that
# skips so fails where what it skips for is missing (t6331 without
# valgrind did).
. "$(dirname "$0")/lib.sh"
plan 2

# The lines that print a TAP result themselves, anywhere but lib.sh.
own=$(grep -nE "(echo|printf)[[:space:]]+['\"]?(not )?ok\b" test/cli/*.sh |
	grep -v '^test/cli/lib\.sh:' | grep -v '^test/cli/t0003-')
is "$own" "" "no test prints a TAP result line of its own"
# lib.sh's skip numbers its line, as ok does.
is "$(bash -c '. test/cli/lib.sh >/dev/null; ok 0 a; skip "b c"')" \
	"ok 1 - a
ok 2 # skip b c" "lib.sh's skip is numbered TAP"
finish
