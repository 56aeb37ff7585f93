#!/bin/bash
# suite-under-load.sh: does `make test` pass on a busy machine?
#
# usage: [TEST_JOBS=N] [NICE_RUN=0] test/bench/suite-under-load.sh [BUSY_RUNS] [OUT_DIR]
#
# Builds the tests once (make test-build), then runs the whole suite
# BUSY_RUNS times (default 3) with two busy loops beside it (each burns a
# core; started here and stopped by their PIDs after each run), and once
# more under `nice -n 19` without the loops (NICE_RUN=0: not). TEST_JOBS
# (make test's, default twice the cores) is how many tests run at once;
# each run's line names it. Each run's full prove output
# goes to OUT_DIR/run-N.log (default artifacts/bench/suite-load-STAMP);
# after each run its prove summary (the failed tests and the Files= and
# Result: lines) and its wall time are printed, and once more all together
# at the end, also written to OUT_DIR/summary.txt. Exit 0 when every run
# passed, 1 otherwise, 2 when the build failed.
set -u

RUNS=${1:-3}
OUT=${2:-artifacts/bench/suite-load-$(date -u +%Y%m%dT%H%M%SZ)}
MAKE=${MAKE:-make}

case $RUNS in
''|*[!0-9]*) echo "suite-under-load.sh: 'BUSY_RUNS' must be a number" >&2
	exit 2 ;;
esac
mkdir -p "$OUT" || exit 2
if ! $MAKE -s -j2 test-build > "$OUT/build.log" 2>&1; then
	echo "suite-under-load.sh: make test-build failed; see $OUT/build.log" >&2
	exit 2
fi

busy=()
stop_busy() {
	local p
	for p in "${busy[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	busy=()
}
trap 'stop_busy; exit 130' INT TERM HUP

summary=$OUT/summary.txt
: > "$summary"
status=0

# one_run N LABEL CMD...: run the suite, print and keep its summary.
one_run() {
	local n=$1 label=$2 log=$OUT/run-$1.log t0 t1 rc
	shift 2
	t0=$(date +%s.%N)
	"$@" test > "$log" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	[ "$rc" -eq 0 ] || status=1
	{
		printf 'run %s (%s, TEST_JOBS=%s): exit %s, wall %.1f s\n' \
			"$n" "$label" "${TEST_JOBS:-default}" "$rc" \
			"$(echo "$t1 - $t0" | bc)"
		# prove's summary: the failing files and their tests, then the
		# Files=... and Result: lines.
		sed -n '/^\(Test Summary Report\|All tests successful\)/,$p' \
			"$log"
		echo
	} | tee -a "$summary"
}

for ((i = 1; i <= RUNS; i++)); do
	sh -c 'while :; do :; done' & busy+=($!)
	sh -c 'while :; do :; done' & busy+=($!)
	one_run "$i" "two busy loops" $MAKE -s
	stop_busy
done
[ "${NICE_RUN:-1}" = 0 ] || one_run $((RUNS + 1)) "nice -n 19" nice -n 19 $MAKE -s

echo "== all runs (also in $summary)"
grep -E "^(run |Files=|Result:|test/|build/)" "$summary"
exit $status
