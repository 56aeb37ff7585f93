#!/bin/sh
# run.sh: run libFuzzer targets over their seed corpus for a while each.
#
#   FUZZ_SECONDS=N FUZZ_BUILD=DIR [FUZZ_WORK=W] [FUZZ_SEED=S] sh test/fuzz/run.sh TARGET...
#
# DIR/bin/TARGET runs over test/fuzz/corpus/TARGET/ and the test data it
# reads (data_of below; both never written) and W/corpus/TARGET/ (W is DIR
# unless given; where it keeps what it finds),
# with the dictionary test/fuzz/TARGET.dict when there is one. A crash, a
# leak, a sanitizer report or a hang is saved as W/crashes/TARGET-*, the
# log as W/log/TARGET.log. FUZZ_SEED 0 (the default) is a random seed.
# One line per target on stdout:
#   fuzz: TARGET: ok: 10 s, 123456 runs, 12345 exec/s, cov 812, ft 2345, corpus 123
# Exit status: 0 every target ran clean, 1 one found something, 2 bad use.
set -u

: "${FUZZ_BUILD:=build/fuzz}" "${FUZZ_SECONDS:=10}" "${FUZZ_SEED:=0}"
: "${FUZZ_WORK:=$FUZZ_BUILD}"
case $FUZZ_SECONDS in
'' | *[!0-9]*)
	echo "fuzz: FUZZ_SECONDS='$FUZZ_SECONDS' is not a whole number" >&2
	exit 2
	;;
esac
[ $# -gt 0 ] || {
	echo "usage: sh test/fuzz/run.sh TARGET..." >&2
	exit 2
}

# The test data folders a target takes as seeds besides its corpus, so
# that no test file is committed twice.
data_of() {
	case $1 in
	json | results) echo test/data/results ;;
	callgrind) echo test/data/callgrind test/data/why ;;
	dhat) echo test/data/dhat ;;
	svg) echo test/data/svg ;;
	esac
}

status=0
for t in "$@"; do
	bin=$FUZZ_BUILD/bin/$t
	seeds=test/fuzz/corpus/$t
	work=$FUZZ_WORK/corpus/$t
	log=$FUZZ_WORK/log/$t.log
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "fuzz: $t: no $bin or no $seeds" >&2
		exit 2
	fi
	mkdir -p "$work" "$FUZZ_WORK/crashes" "$FUZZ_WORK/log"
	dict=
	[ -f "test/fuzz/$t.dict" ] && dict=-dict=test/fuzz/$t.dict
	# -timeout: one input running this long is a hang; the total time
	# is wall time, so a loaded machine runs fewer inputs, not longer.
	"$bin" -max_total_time="$FUZZ_SECONDS" -seed="$FUZZ_SEED" \
		-timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$FUZZ_WORK/crashes/$t-" $dict \
		"$work" "$seeds" $(data_of "$t") >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	if [ "$rc" = 0 ]; then
		echo "fuzz: $t: ok: $FUZZ_SECONDS s, ${runs:-?} runs," \
			"${eps:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}," \
			"corpus ${corp:-?}"
	else
		status=1
		crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" |
			tail -n 1)
		why=$(grep -m 1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' "$log")
		echo "fuzz: $t: FAILED (exit $rc): ${why:-see $log}" >&2
		echo "fuzz: $t: input: ${crash:-none saved}; log: $log" >&2
	fi
done
exit $status
