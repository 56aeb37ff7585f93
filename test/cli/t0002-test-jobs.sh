#!/bin/bash
# make test's TEST_JOBS (prove -j, mk/test.mk) is checked before anything
# runs: a value that is not a whole number of jobs, 1 or more, is one
# line naming it, exit 2. (make check reads it too.) Only the refusals
# are run here: a make test inside make test would run the suite again.
. "$(dirname "$0")/lib.sh"
plan 5

bad() {
	make -s --no-print-directory "$1" TEST_JOBS="$2" >"$out" 2>"$err"
	is "$?:$(sed 's/^mk\/test\.mk:[0-9]*: //' "$err"):$(cat "$out")" "2:*** TEST_JOBS: '$2': expected a whole number of jobs, 1 or more.  Stop.:" \
		"$1 TEST_JOBS='$2': refused, one line, exit 2"
}
bad test abc
bad test 0
bad test "2 3"
bad test 04
bad check -1
