#!/bin/bash
# resolution.sh: what a 5% time threshold resolves on a busy machine
# (issue 40): interleaved A/B runs of a command whose work is an exact
# iteration count, made 10% slower, 9% faster, 2% slower and identical,
# and make compare AGAINST= a copy of the reference suite's workload
# binary; each judged by today's rule and by the prof-diff of OLD_REV.
#
# usage: test/bench/resolution.sh [N] [OUT_DIR]
#
# Needs `make all` (bin/). The noise: one core kept busy by a loop for the
# whole measurement, and a bursty load on the other (200-500 ms busy,
# 200-500 ms idle), as test/bench/ab-noise.sh makes it; both are started
# here and stopped by their PIDs at the end (and on an interrupt).
# NOISE=0 starts neither: the calm measurement.
#
# The workload: spin, a loop of an exact number of dependent steps (a
# linear congruential generator), built here with cc; K steps are about
# SPIN_MS (default 40) ms of a calm core, from CPU time before the noise starts.
# Each case is N runs (default 20) of
#   prof-time --name spin --time-threshold 5 \
#       --against-command "spin K" -- spin K*F
# (command mode: --repeat 10, adaptive up to 40 a side) merged and judged
# by bin/prof-diff (it judges by the 5% the samples record), F 1.10
# (10% slower: a warning is right), 1/1.09 (9% faster: improved is
# right), 1.02 (2% slower: a warning is wrong) and 1 (identical: a
# warning or improved is wrong). Then N runs of
#   make compare AGAINST=<a copy of bin/prof-workloads> TIME_THRESHOLD=5
# (quick mode; every row an A/A: a warning or improved is wrong), each
# timed (wall seconds).
#
# Today's rule is bin/prof-diff's. The old one is OLD_REV's prof-diff
# (default 4d78e40, main before the time threshold, own time and
# unsettled: a fixed 20% and "not settled" rows stable), built once in a
# git worktree under OUT_DIR and kept there as old-prof-diff (or
# OLD_DIFF=path/to/prof-diff); it judges the same files with the fields
# it did not know taken out (time_threshold_pct, run_delay_ms), so at its
# own 20%.
#
# Printed (and in OUT_DIR/summary.txt): per case, the count of each
# status, the share of rows settled (not unsettled), the mean samples a
# side, the count of wrong verdicts, and the old rule's counts on the same
# samples; for make compare also the mean wall time of a run. Then the
# A/A rows (identical, and make compare's) judged again at each of
# AA_THRESHOLDS (default "5 10 20", prof-diff --time-threshold: the
# interleaved default is chosen by these): how many settled and how many
# are wrong (their sampling stopped by the 5% looks; a look that settles
# at 5% settles at a wider threshold too). OUT_DIR
# (default artifacts/bench/resolution-STAMP) keeps every run's files and
# verdicts.tsv (one line per row judged).
set -u

N=${1:-20}
OUT=${2:-artifacts/bench/resolution-$(date -u +%Y%m%dT%H%M%SZ)}
OLD_REV=${OLD_REV:-4d78e40}
OLD_DIFF=${OLD_DIFF:-}
SPIN_MS=${SPIN_MS:-40}
AA_THRESHOLDS=${AA_THRESHOLDS:-5 10 20}
MAKE=${MAKE:-make}
BIN=${PROF_BINDIR:-bin}

case $N in
'' | *[!0-9]* | 0)
	echo "resolution.sh: '$N' is not a number of runs" >&2
	exit 2
	;;
esac
for f in "$BIN/prof-time" "$BIN/prof-merge" "$BIN/prof-diff" \
	"$BIN/prof-workloads"; do
	if [ ! -x "$f" ]; then
		echo "resolution.sh: '$f' is missing; run make all" >&2
		exit 2
	fi
done
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)

# The old rule's prof-diff, built from OLD_REV unless given: the binary
# is kept, the worktree (registered in the repository) goes.
if [ -z "$OLD_DIFF" ]; then
	OLD_DIFF=$OUT/old-prof-diff
	if [ ! -x "$OLD_DIFF" ]; then
		src=$OUT/old-src
		rm -rf "$src"
		git worktree prune
		if ! { git worktree add --detach "$src" "$OLD_REV" &&
			nice $MAKE -C "$src" -j2 bin/prof-diff &&
			cp "$src/bin/prof-diff" "$OLD_DIFF"; } \
			>"$OUT/old-build.log" 2>&1; then
			echo "resolution.sh: cannot build prof-diff at $OLD_REV;" \
				"see $OUT/old-build.log" >&2
			exit 2
		fi
		git worktree remove --force "$src"
	fi
fi

# The workload: an exact number of dependent steps.
cat >"$OUT/spin.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
	unsigned long long x = 20260710, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("%llu\n", x >> 60);
	return 0;
}
C
cc -O1 -o "$OUT/spin" "$OUT/spin.c" || exit 2
SPIN=$OUT/spin

# K: SPIN_MS of a calm core, from the CPU time (user, the shortest of 5)
# of 10^8 steps: CPU time, unlike wall time, does not grow when the
# machine is already busy (a wall-time K made under load 12 was a fifth
# of a calm one's, calls of 8 ms, not 40).
per=$(for i in 1 2 3 4 5; do
	TIMEFORMAT=%3U
	{ time "$SPIN" 100000000 >/dev/null; } 2>&1
done | sort -n | sed -n 1p)
K=$(awk -v s="$per" -v ms="$SPIN_MS" 'BEGIN { if (s <= 0) s = 0.001; printf "%.0f", 1e8 * ms / (s * 1000) }')
cp "$BIN/prof-workloads" "$OUT/ref-workloads" || exit 2

# The noise: one core always busy, the other in bursts (NOISE=0: none,
# the calm measurement).
busy= load=
if [ "${NOISE:-1}" != 0 ]; then
	perl -e '1 while 1' &
	busy=$!
	perl -e 'use Time::HiRes qw(time sleep); srand(20260710);
		while (1) { my $e = time + 0.2 + rand(0.3); 1 while time < $e;
			sleep(0.2 + rand(0.3)); }' &
	load=$!
fi
stop_noise() {
	[ -n "$busy" ] || return 0
	kill "$busy" "$load" 2>/dev/null
	wait "$busy" "$load" 2>/dev/null
}
trap 'stop_noise; exit 130' INT TERM HUP
trap stop_noise EXIT
if [ -n "$busy" ]; then
	echo "resolution.sh: spin $K steps (about $SPIN_MS ms calm); busy" \
		"loop PID $busy, bursty load PID $load; $N runs a case;" \
		"files in $OUT" >&2
else
	echo "resolution.sh: spin $K steps (about $SPIN_MS ms calm); no" \
		"noise (NOISE=0); $N runs a case; files in $OUT" >&2
fi

# old_judge DIR: DIR's results.json against its baseline.json by the old
# prof-diff, the fields it did not know taken out.
old_judge() {
	local strip='walk(if type == "object" then
		del(.time_threshold_pct, .run_delay_ms, .run_delay)
		else . end)'
	jq -c "$strip" "$1/results.json" >"$1/old-results.json" &&
		jq -c "$strip" "$1/baseline.json" >"$1/old-baseline.json" &&
		"$OLD_DIFF" --baseline "$1/old-baseline.json" \
			-o "$1/old-comparisons.json" "$1/old-results.json"
}

# rows CASE RUN TRUTH DIR: one line per time row of DIR: case, run, row,
# the right verdict, today's status, the old rule's, the ratio, the
# samples a side, the threshold it was judged by.
rows() {
	jq -r --arg c "$1" --arg run "$2" --arg truth "$3" \
		--slurpfile old "$4/old-comparisons.json" '
		($old[0] | map(select(.phase == "timing") |
			{key: (.workload + " " + .backend), value: .status}) |
			from_entries) as $o |
		.[] | select(.phase == "timing") |
		[$c, $run, .workload + " " + .backend, $truth, .status,
		 ($o[.workload + " " + .backend] // "-"), (.ratio // "-"),
		 (.interleaved.samples_a_side // .current.n),
		 (.threshold_pct // "-")] | @tsv' "$4/comparisons.json"
}

printf 'case\trun\trow\ttruth\tstatus\told\tratio\tn\tthreshold\n' \
	>"$OUT/verdicts.tsv"
cases="slower10:1.10:warning faster9:0.917431:improved slower2:1.02:stable same:1:stable"
for c in $cases; do
	name=${c%%:*}
	rest=${c#*:}
	f=${rest%%:*}
	truth=${rest#*:}
	cur=$(awk -v k="$K" -v f="$f" 'BEGIN { printf "%.0f", k * f }')
	for i in $(seq 1 "$N"); do
		d=$OUT/$name-$i
		mkdir -p "$d"
		"$BIN/prof-time" --name spin -q --seed "$i" --time-threshold 5 \
			--warning-floor 0.1 \
			--against-command "$SPIN $K" \
			--against-output "$d/baseline.jsonl" \
			--output "$d/samples.jsonl" -- "$SPIN" "$cur" &&
			"$BIN/prof-merge" --run-id "$name-$i" \
				-o "$d/results.json" "$d/samples.jsonl" &&
			"$BIN/prof-merge" --run-id "$name-$i" \
				-o "$d/baseline.json" "$d/baseline.jsonl" &&
			"$BIN/prof-diff" --baseline "$d/baseline.json" \
				-o "$d/comparisons.json" "$d/results.json" &&
			old_judge "$d" &&
			rows "$name" "$i" "$truth" "$d" >>"$OUT/verdicts.tsv" ||
			echo "resolution.sh: $name run $i failed (see $d)" >&2
	done
done

# make compare against the copy: every row an A/A.
: >"$OUT/compare-seconds"
for i in $(seq 1 "$N"); do
	d=$OUT/compare-$i
	s=$(date +%s%N)
	$MAKE -s -o all compare AGAINST="$OUT/ref-workloads" OUTPUT="$d" \
		TIME_THRESHOLD=5 SEED="$i" >"$d.log" 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000)) >>"$OUT/compare-seconds"
	if [ -s "$d/comparisons.json" ] && old_judge "$d"; then
		rows compare "$i" stable "$d" >>"$OUT/verdicts.tsv"
	else
		echo "resolution.sh: make compare run $i failed (see $d.log)" >&2
	fi
done
stop_noise

# The table: per case, today's statuses, settled share, mean samples a
# side, wrong verdicts; the old rule's statuses and wrong ones.
awk -F'\t' -v secs="$(awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n / 1000 }' "$OUT/compare-seconds")" '
NR == 1 { next }
{
	c = $1; order[c] = order[c] ? order[c] : ++nc; name[order[c]] = c
	rows[c]++; st[c, $5]++; old[c, $6]++; n[c] += $8
	if ($5 != "unsettled") settled[c]++
	right = $4
	if (($5 == "warning" || $5 == "improved") && $5 != right) wrong[c]++
	if (($6 == "warning" || $6 == "improved") && $6 != right) owrong[c]++
}
END {
	printf "%-9s %5s %4s %4s %4s %4s %8s %7s %6s   old: %4s %4s %4s %6s\n",
		"case", "rows", "warn", "impr", "stab", "unst", "settled",
		"n/side", "wrong", "warn", "impr", "stab", "wrong"
	for (k = 1; k <= nc; k++) {
		c = name[k]
		printf "%-9s %5d %4d %4d %4d %4d %7.0f%% %7.1f %6d   old: %4d %4d %4d %6d\n",
			c, rows[c], st[c, "warning"], st[c, "improved"],
			st[c, "stable"], st[c, "unsettled"],
			100 * settled[c] / rows[c], n[c] / rows[c], wrong[c],
			old[c, "warning"], old[c, "improved"], old[c, "stable"],
			owrong[c]
	}
	printf "make compare: %s s a run (mean)\n", secs
}' "$OUT/verdicts.tsv" | tee "$OUT/summary.txt"

# The A/A rows again at each threshold.
for t in $AA_THRESHOLDS; do
	for d in "$OUT"/same-* "$OUT"/compare-*; do
		[ -s "$d/comparisons.json" ] || continue
		"$BIN/prof-diff" --baseline "$d/baseline.json" \
			--time-threshold "$t" "$d/results.json" |
			jq -r '.[] | select(.phase == "timing") | .status'
	done | awk -v t="$t" '{ n++; s[$1]++ }
	END { printf "A/A rows at %s%%: %d, settled %d (%.0f%%), stable %d, wrong %d\n",
		t, n, n - s["unsettled"], n ? 100 * (n - s["unsettled"]) / n : 0,
		s["stable"], s["warning"] + s["improved"] }'
done | tee -a "$OUT/summary.txt"
