#!/bin/bash
# ab-noise.sh: how often a verdict errs on a very busy machine: interleaved
# A/B (make compare, and the A/B test pair) and a baseline comparison,
# judged by today's rule and by the rule of an older prof-diff.
#
# usage: test/bench/ab-noise.sh [RUNS] [OUT_DIR]
#
# Needs `make all test-build` (bin/, bin/prof-workloads and
# build/test/prof-ab-a, prof-ab-b). prof-ab-b's test.ab does 30% more work
# than prof-ab-a's (the same output). The noise: one core kept busy by a
# loop for the whole measurement, and a bursty load on the other (200-500
# ms busy, 200-500 ms idle); both are started here and stopped by their
# PIDs at the end (and on an interrupt). Before the noise starts, one
# `make profile-quick` is taken calm: the baseline of the quick runs. Then
# each of RUNS rounds (default 20) makes, in this order, so that a busy
# stretch falls on all of them:
#   compare  make compare AGAINST= a copy of bin/prof-workloads (the same
#            binary: every row is an A/A; quick mode, 8 rows)
#   ad-aa    prof-ab-a against prof-ab-a, full, adaptive (--max-repeat 40)
#   ad-ab    prof-ab-b against prof-ab-a (+30%), adaptive
#   ad-ba    prof-ab-a against prof-ab-b (-23%), adaptive
# and with FIXED=1 also of-aa, of-ab, of-ba: the same with adaptivity off
# (--max-repeat 10). Then QUICK_RUNS (default 10) runs of
# `make profile-quick` against the calm baseline, under the same noise.
#
# Counted: for make compare every row (a warning or improved is false);
# for the test pair test.ab's status (cpu): a warning in -aa is false, in
# -ab true; improved in -ba is true; for profile-quick every time row (the
# same code as the baseline: a warning is false) and how many of the
# warnings carry the contended mark (their current samples mostly
# contended, said in the reason). Also the mean samples a side of the
# interleaved rows, and the same runs' files judged again by the prof-diff
# of OLD_REV (default 344e599, the rule before issue 29: an unsettled row
# went by the medians), built once in a git worktree under OUT_DIR and
# kept there as old-prof-diff (or OLD_DIFF=path/to/prof-diff); it sees
# the samples the new prof-time took, which stopped on the new looks.
#
# OUT_DIR (default artifacts/bench/ab-noise-STAMP) gets every run's
# folder, verdicts.tsv (one line per row judged) and summary.md (the table,
# then each wrong verdict of today's rule with its ratio, samples a side,
# settled and contended mark), which is also printed.
set -u

RUNS=${1:-20}
OUT=${2:-artifacts/bench/ab-noise-$(date -u +%Y%m%dT%H%M%SZ)}
QUICK_RUNS=${QUICK_RUNS:-10}
FIXED=${FIXED:-}
OLD_REV=${OLD_REV:-344e599}
OLD_DIFF=${OLD_DIFF:-}
MAKE=${MAKE:-make}
BIN=${PROF_BINDIR:-bin}
A=${PROF_BUILD:-build}/test/prof-ab-a
B=${PROF_BUILD:-build}/test/prof-ab-b

for n in "$RUNS" "$QUICK_RUNS"; do
	case $n in
	'' | *[!0-9]*)
		echo "ab-noise.sh: '$n' is not a number of runs" >&2
		exit 2
		;;
	esac
done
for f in "$BIN/prof-time" "$BIN/prof-merge" "$BIN/prof-diff" \
	"$BIN/prof-workloads" "$A" "$B"; do
	if [ ! -x "$f" ]; then
		echo "ab-noise.sh: '$f' is missing; run make all test-build" >&2
		exit 2
	fi
done
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
t0=$(date +%s)

# The old rule's prof-diff, built from OLD_REV unless given: the binary
# is kept, the worktree (registered in the repository) goes.
if [ -z "$OLD_DIFF" ]; then
	OLD_DIFF=$OUT/old-prof-diff
	if [ ! -x "$OLD_DIFF" ]; then
		src=$OUT/old-src
		rm -rf "$src"
		git worktree prune
		if ! { git worktree add --detach "$src" "$OLD_REV" &&
			$MAKE -C "$src" -j2 bin/prof-diff &&
			cp "$src/bin/prof-diff" "$OLD_DIFF"; } \
			>"$OUT/old-build.log" 2>&1; then
			echo "ab-noise.sh: cannot build prof-diff at $OLD_REV;" \
				"see $OUT/old-build.log" >&2
			exit 2
		fi
		git worktree remove --force "$src"
	fi
fi

# The calm baseline of the quick runs, before any noise.
if [ "$QUICK_RUNS" -gt 0 ]; then
	if ! $MAKE -s profile-quick OUTPUT="$OUT/calm" HISTORY= \
		>"$OUT/calm.log" 2>&1 && [ ! -s "$OUT/calm/results.json" ]; then
		echo "ab-noise.sh: the calm profile-quick failed; see" \
			"$OUT/calm.log" >&2
		exit 2
	fi
fi
cp "$BIN/prof-workloads" "$OUT/ref-workloads" || exit 2

# The noise: one core always busy, the other in bursts.
perl -e '1 while 1' &
busy=$!
perl -e 'use Time::HiRes qw(time sleep); srand(20260710);
	while (1) { my $e = time + 0.2 + rand(0.3); 1 while time < $e;
		sleep(0.2 + rand(0.3)); }' &
load=$!
stop_noise() {
	kill "$busy" "$load" 2>/dev/null
	wait "$busy" "$load" 2>/dev/null
}
trap 'stop_noise; exit 130' INT TERM HUP
trap stop_noise EXIT
echo "ab-noise.sh: busy loop PID $busy, bursty load PID $load; $RUNS" \
	"rounds, $QUICK_RUNS quick runs; files in $OUT" >&2

# rows PATH RUN TRUTH DIR: one line per time row of DIR's comparisons (and
# of DIR's old-comparisons.json, judged by the old rule): path, run,
# workload, what a right verdict is (stable, warning, improved), the
# status, the old rule's status, the ratio, the samples a side, whether
# it settled, and the contended mark (mostly contended current samples).
rows() {
	local old=$4/old-comparisons.json
	[ -s "$old" ] || old=$4/comparisons.json
	jq -r --arg path "$1" --arg run "$2" --arg truth "$3" \
		--slurpfile old "$old" '
		($old[0] | map(select(.phase == "timing") |
			{key: (.workload + " " + .backend), value: .status}) |
			from_entries) as $o |
		.[] | select(.phase == "timing") |
		select($path != "pair" or (.workload == "test.ab" and
			.backend == "cpu")) |
		[$path, $run, .workload + " " + .backend, $truth, .status,
		 ($o[.workload + " " + .backend] // "-"),
		 (.ratio // "-"),
		 (.interleaved.samples_a_side // .current.n),
		 (if .interleaved then (.interleaved.settled | tostring)
		  else "-" end),
		 (if (.contended.current // 0) * 2 > .current.n then "contended"
		  else "-" end)] | @tsv' "$4/comparisons.json"
}

# old_judge DIR [BASELINE]: DIR's results and its baseline (DIR's own
# baseline.json, or BASELINE) judged by the old prof-diff, without the
# fields it did not know (the CPU time, switches, threads and contended
# mark of issue 29), into DIR/old-comparisons.json.
old_judge() {
	local strip='walk(if type == "object" then
		del(.cpu_ms, .involuntary_switches, .threads, .contended)
		else . end)'
	jq -c "$strip" "$1/results.json" >"$1/old-results.json" &&
		jq -c "$strip" "${2:-$1/baseline.json}" >"$1/old-baseline.json" ||
		return 1
	"$OLD_DIFF" --baseline "$1/old-baseline.json" \
		-o "$1/old-comparisons.json" "$1/old-results.json"
}

# pair NAME CUR REF MAX: one interleaved full run of CUR against REF, and
# its files judged again by the old prof-diff.
pair() {
	local d=$OUT/$1
	mkdir -p "$d"
	"$BIN/prof-time" full -q --category test --workloads "$2" \
		--against "$3" --max-repeat "$4" \
		--output "$d/samples.jsonl" --against-output "$d/baseline.jsonl" &&
		"$BIN/prof-merge" --run-id "$1" -o "$d/results.json" \
			"$d/samples.jsonl" &&
		"$BIN/prof-merge" --run-id "$1" -o "$d/baseline.json" \
			"$d/baseline.jsonl" &&
		"$BIN/prof-diff" --baseline "$d/baseline.json" \
			-o "$d/comparisons.json" "$d/results.json" &&
		old_judge "$d"
}

# compare NAME: make compare against the copy of the workload binary.
compare() {
	local d=$OUT/$1
	$MAKE -s compare AGAINST="$OUT/ref-workloads" OUTPUT="$d" HISTORY= \
		>"$d.log" 2>&1
	[ -s "$d/comparisons.json" ] && old_judge "$d"
}

# quick NAME: make profile-quick against the calm baseline, and its files
# judged again by the old prof-diff.
quick() {
	local d=$OUT/$1
	$MAKE -s profile-quick OUTPUT="$d" BASELINE="$OUT/calm/results.json" \
		HISTORY= >"$d.log" 2>&1
	[ -s "$d/comparisons.json" ] && old_judge "$d" "$OUT/calm/results.json"
}

printf 'path\trun\trow\ttruth\tstatus\told\tratio\tn\tsettled\tcontended\n' \
	>"$OUT/verdicts.tsv"
runs="compare ad-aa:$A:$A:40 ad-ab:$B:$A:40 ad-ba:$A:$B:40"
if [ -n "$FIXED" ]; then
	runs="$runs of-aa:$A:$A:10 of-ab:$B:$A:10 of-ba:$A:$B:10"
fi
for i in $(seq 1 "$RUNS"); do
	for run in $runs; do
		IFS=: read -r name cur ref max <<<"$run"
		case $name in
		compare)
			path=compare truth=stable
			compare "compare-$i" ;;
		*)
			path=${name%%-*}-${name#*-} truth=stable
			case $name in
			*-ab) truth=warning ;;
			*-ba) truth=improved ;;
			esac
			pair "$name-$i" "$cur" "$ref" "$max" ;;
		esac || { echo "ab-noise.sh: run $name-$i failed" >&2; exit 2; }
		case $name in
		compare) rows compare "$i" "$truth" "$OUT/compare-$i" ;;
		*) rows pair "$i" "$truth" "$OUT/$name-$i" |
			sed "s/^pair\t/$path\t/" ;;
		esac >>"$OUT/verdicts.tsv"
	done
	echo "ab-noise.sh: round $i of $RUNS done ($(($(date +%s) - t0)) s)" >&2
done
for i in $(seq 1 "$QUICK_RUNS"); do
	quick "quick-$i" ||
		{ echo "ab-noise.sh: quick run $i failed" >&2; exit 2; }
	rows quick "$i" stable "$OUT/quick-$i" >>"$OUT/verdicts.tsv"
	echo "ab-noise.sh: quick run $i of $QUICK_RUNS done" \
		"($(($(date +%s) - t0)) s)" >&2
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
stop_noise
trap - EXIT INT TERM HUP

# The table: per path, the rows judged, the wrong and the right verdicts
# (today's rule, then the old one), the mean samples a side, the unsettled
# rows, and the warnings that carry the contended mark.
table() {
	awk -F'\t' '
	NR == 1 { next }
	{
		p = $1; n[p]++; s[p] += $8
		if ($9 == "false") u[p]++
		if ($4 == "stable") {
			if ($5 == "warning" || $5 == "improved") bad[p]++
			if ($6 == "warning" || $6 == "improved") obad[p]++
		} else {
			if ($5 == $4) good[p]++
			if ($6 == $4) ogood[p]++
			if ($5 != $4 && $5 != "stable") bad[p]++
			if ($6 != $4 && $6 != "stable") obad[p]++
		}
		if ($5 == "warning") { w[p]++; if ($10 == "contended") wc[p]++ }
		if (!(p in seen)) { seen[p] = 1; order[++k] = p }
	}
	END {
		label["compare"] = "make compare AGAINST= a copy (A/A, every row)"
		label["ad-aa"] = "test pair A/A, adaptive (test.ab)"
		label["ad-ab"] = "test pair +30%, adaptive (test.ab)"
		label["ad-ba"] = "test pair -23%, adaptive (test.ab)"
		label["of-aa"] = "test pair A/A, fixed 10 (test.ab)"
		label["of-ab"] = "test pair +30%, fixed 10 (test.ab)"
		label["of-ba"] = "test pair -23%, fixed 10 (test.ab)"
		label["quick"] = "make profile-quick vs calm baseline (every row)"
		for (j = 1; j <= k; j++) {
			p = order[j]
			right = "-"
			if (p ~ /-ab$/ || p ~ /-ba$/)
				right = sprintf("%d / %d", good[p], ogood[p])
			printf "| %s | %d | %d / %d | %s | %.1f | %d | %d of %d |\n",
				label[p], n[p], bad[p] + 0, obad[p] + 0, right,
				s[p] / n[p], u[p], wc[p], w[p]
		}
	}' "$OUT/verdicts.tsv"
}
# wrong: each wrong verdict of today's rule, with what the row says of its
# sampling, so that a false one can be looked up in its run's folder.
wrong() {
	awk -F'\t' '
	NR == 1 { next }
	($4 == "stable" && ($5 == "warning" || $5 == "improved")) ||
	($4 != "stable" && $5 != $4 && $5 != "stable") {
		if (!k++) {
			print "Wrong verdicts of today'"'"'s rule:"
			print ""
			print "| path | run | row | truth | status | ratio | samples a side | settled | contended |"
			print "|---|--:|---|---|---|--:|--:|---|---|"
		}
		printf "| %s | %s | `%s` | %s | %s | %.3f | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $7, $8, $9, $10
	}
	END { if (k) print "" }' "$OUT/verdicts.tsv"
}
{
	echo "# Verdicts on a very busy machine: today's rule and $OLD_REV's"
	echo
	echo "$RUNS rounds (make compare AGAINST= a copy of bin/prof-workloads,"
	echo "and the A/B test pair's full runs) and $QUICK_RUNS make profile-quick"
	echo "runs against a baseline taken calm; one core busy throughout and a"
	echo "bursty load (200-500 ms on, 200-500 ms off) on the other; load"
	echo "average at the end: $load_end. Wrong: a warning or improved where"
	echo "the code is the same, or the opposite of the true change; right:"
	echo "warning for +30%, improved for -23%. The old rule's column judges"
	echo "the same files with the prof-diff of $OLD_REV."
	echo
	echo "| path | rows | wrong (today / old rule) | right (today / old rule) | mean samples a side | not settled | warnings with the contended mark |"
	echo "|---|--:|--:|--:|--:|--:|--:|"
	table
	echo
	wrong
	echo "Command: test/bench/ab-noise.sh $RUNS $OUT (QUICK_RUNS=$QUICK_RUNS;"
	echo "$(($(date +%s) - t0)) s). Every row's verdict: verdicts.tsv."
} >"$OUT/summary.md"
cat "$OUT/summary.md"
