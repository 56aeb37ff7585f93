#!/bin/bash
# ab-noise.sh: how often an interleaved A/B verdict errs on a very busy
# machine, with adaptive sampling and without, on the A/B test pair.
#
# usage: test/bench/ab-noise.sh [RUNS] [OUT_DIR]
#
# Needs `make test-build` (bin/ and build/test/prof-ab-a, prof-ab-b).
# prof-ab-b's test.ab does 30% more work than prof-ab-a's (the same
# output); both have test.ab_same, the same work. The noise: one core kept
# busy by a loop for the whole measurement, and a bursty load on the other
# (200-500 ms busy, 200-500 ms idle); both are started here and stopped by
# their PIDs at the end. Each of RUNS rounds (default 20) makes six
# interleaved full-mode runs (warmup 2, repeat 10), in this order, so that
# a busy stretch falls on all of them:
#   ad-aa  prof-ab-a against prof-ab-a, adaptive (--max-repeat 40)
#   ad-ab  prof-ab-b against prof-ab-a (+30%), adaptive
#   ad-ba  prof-ab-a against prof-ab-b (-23%), adaptive
#   of-aa, of-ab, of-ba  the same with adaptivity off (--max-repeat 10)
# With BASELINE=1 each round also runs prof-ab-a and prof-ab-b alone,
# judged against one full run of prof-ab-a taken at the start (bl-aa,
# bl-ab). The verdict counted is test.ab's (cpu): a warning in -aa is
# false, in -ab true; improved in -ba is true. Also: the samples a side
# each took, test.ab_same's status (a second A/A in every run), and
# whether the rows carry a drift note.
#
# OUT_DIR (default artifacts/bench/ab-noise-STAMP) gets every run's files,
# verdicts.tsv (one line per run) and summary.md, which is also printed.
set -u

RUNS=${1:-20}
OUT=${2:-artifacts/bench/ab-noise-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=${PROF_BINDIR:-bin}
A=${PROF_BUILD:-build}/test/prof-ab-a
B=${PROF_BUILD:-build}/test/prof-ab-b
BASELINE=${BASELINE:-}

for f in "$BIN/prof-time" "$BIN/prof-merge" "$BIN/prof-diff" "$A" "$B"; do
	if [ ! -x "$f" ]; then
		echo "ab-noise.sh: '$f' is missing; run make test-build" >&2
		exit 2
	fi
done
mkdir -p "$OUT" || exit 2

# The noise: one core always busy, the other in bursts.
perl -e '1 while 1' &
busy=$!
perl -e 'use Time::HiRes qw(time sleep); srand(20260710);
	while (1) { my $e = time + 0.2 + rand(0.3); 1 while time < $e;
		sleep(0.2 + rand(0.3)); }' &
load=$!
trap 'kill "$busy" "$load" 2>/dev/null' EXIT
echo "ab-noise.sh: busy loop PID $busy, bursty load PID $load; $RUNS rounds;" \
	"files in $OUT" >&2

# verdict DIR: test.ab's status, ratio and samples a side, test.ab_same's
# status, and whether the rows carry a drift note.
verdict() {
	jq -r '(map(select(.workload == "test.ab" and .backend == "cpu"))[0]) as $a |
		(map(select(.workload == "test.ab_same" and .backend == "cpu"))[0]) as $s |
		[$a.status, ($a.ratio // "-"), $a.current.n, $s.status,
		 (if $a.drift then "drift" else "-" end)] | @tsv' "$1/comparisons.json"
}

# interleaved NAME CUR REF MAX: one interleaved full run of CUR against REF.
interleaved() {
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
			-o "$d/comparisons.json" "$d/results.json"
}

# baselined NAME CUR: one full run of CUR against the committed baseline.
baselined() {
	local d=$OUT/$1
	mkdir -p "$d"
	"$BIN/prof-time" full -q --category test --workloads "$2" \
		--output "$d/samples.jsonl" &&
		"$BIN/prof-merge" --run-id "$1" -o "$d/results.json" \
			"$d/samples.jsonl" &&
		"$BIN/prof-diff" --baseline "$OUT/baseline.json" \
			-o "$d/comparisons.json" "$d/results.json"
}

runs="ad-aa:$A:$A:40 ad-ab:$B:$A:40 ad-ba:$A:$B:40"
runs="$runs of-aa:$A:$A:10 of-ab:$B:$A:10 of-ba:$A:$B:10"
if [ -n "$BASELINE" ]; then
	mkdir -p "$OUT/base"
	"$BIN/prof-time" full -q --category test --workloads "$A" \
		--output "$OUT/base/samples.jsonl" &&
		"$BIN/prof-merge" --run-id base -o "$OUT/baseline.json" \
			"$OUT/base/samples.jsonl" || exit 2
	runs="$runs bl-aa:$A bl-ab:$B"
fi

printf 'round\tpath\tpair\ttest.ab\tratio\tn\ttest.ab_same\tdrift\n' \
	>"$OUT/verdicts.tsv"
t0=$(date +%s)
for i in $(seq 1 "$RUNS"); do
	for run in $runs; do
		IFS=: read -r name cur ref max <<<"$run"
		case $name in
		bl-*) baselined "$name-$i" "$cur" ;;
		*) interleaved "$name-$i" "$cur" "$ref" "$max" ;;
		esac || { echo "ab-noise.sh: run $name-$i failed" >&2; exit 2; }
		printf '%s\t%s\t%s\t%s\n' "$i" "${name%%-*}" "${name#*-}" \
			"$(verdict "$OUT/$name-$i")" >>"$OUT/verdicts.tsv"
	done
	echo "ab-noise.sh: round $i of $RUNS done ($(($(date +%s) - t0)) s)" >&2
done
kill "$busy" "$load" 2>/dev/null
trap - EXIT

# count PATH PAIR COLUMN VALUE; mean_n PATH PAIR
count() {
	awk -F'\t' -v p="$1" -v q="$2" -v c="$3" -v s="$4" \
		'NR > 1 && $2 == p && $3 == q && $c == s { n++ } END { print n + 0 }' \
		"$OUT/verdicts.tsv"
}
mean_n() {
	awk -F'\t' -v p="$1" -v q="$2" \
		'NR > 1 && $2 == p && $3 == q { s += $6; n++ }
		END { if (n) printf "%.1f", s / n; else print "-" }' \
		"$OUT/verdicts.tsv"
}
rounds=$(awk 'END { print NR - 1 }' "$OUT/verdicts.tsv")
{
	echo "# Interleaved A/B on a very busy machine, adaptive and not"
	echo
	echo "$RUNS rounds of full-mode runs (warmup 2, repeat 10); one core"
	echo "busy throughout and a bursty load (200-500 ms on, 200-500 ms off)"
	echo "on the other; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "test.ab of prof-ab-b does 30% more work than prof-ab-a's (B/A:"
	echo "-23%). Counted: test.ab's status; n is its samples a side."
	echo
	echo "| sampling | A/A: false warnings | A/A mean n | A/B (+30%): warnings | A/B mean n | B/A (-23%): improved | B/A mean n | test.ab_same false warnings | drift notes |"
	echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
	for p in ad of bl; do
		case $p in
		ad) label="adaptive (--max-repeat 40)" ;;
		of) label="fixed (--max-repeat 10)" ;;
		bl) label="committed baseline"
			[ -n "$BASELINE" ] || continue ;;
		esac
		echo "| $label | $(count $p aa 4 warning) / $(count $p aa 2 $p) |" \
			"$(mean_n $p aa) | $(count $p ab 4 warning) / $(count $p ab 2 $p) |" \
			"$(mean_n $p ab) | $(count $p ba 4 improved) / $(count $p ba 2 $p) |" \
			"$(mean_n $p ba) |" \
			"$(($(count $p aa 7 warning) + $(count $p ab 7 warning) + $(count $p ba 7 warning))) |" \
			"$(($(count $p aa 8 drift) + $(count $p ab 8 drift) + $(count $p ba 8 drift))) |"
	done
	echo
	echo "Command: test/bench/ab-noise.sh $RUNS $OUT ($(($(date +%s) - t0)) s,"
	echo "$rounds runs). Every run's verdict: verdicts.tsv."
} >"$OUT/summary.md"
cat "$OUT/summary.md"
