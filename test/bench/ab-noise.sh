#!/bin/bash
# ab-noise.sh: how often a verdict errs on a busy machine, interleaved A/B
# against the committed-baseline path, on the A/B test pair.
#
# usage: test/bench/ab-noise.sh [RUNS] [OUT_DIR]
#
# Needs `make test-build` (bin/ and build/test/prof-ab-a, prof-ab-b).
# prof-ab-b's test.ab does 30% more work in run() than prof-ab-a's; both
# have test.ab_same, the same work. With a bursty background load running
# (a loop that burns a core for 200-500 ms, then sleeps 200-500 ms;
# started here and stopped by its PID at the end), each of RUNS rounds
# (default 20) makes four full-mode runs, in this order, so that a busy
# stretch of the machine falls on all four:
#   ab-aa  prof-time full: prof-ab-a against prof-ab-a, interleaved
#   ab-ab  prof-time full: prof-ab-b against prof-ab-a, interleaved
#   bl-aa  prof-time full of prof-ab-a, judged against a baseline
#   bl-ab  prof-time full of prof-ab-b, judged against the same baseline
# The baseline is one full run of prof-ab-a taken at the start, under the
# same load, as `make baseline-update` would promote it. The verdict
# counted is test.ab's (cpu): a warning in an -aa run is false, in an -ab
# run true. Also counted: drift notes, and test.ab_same's warnings (a
# second A/A in every run).
#
# OUT_DIR (default artifacts/bench/ab-noise-STAMP) gets every run's files,
# verdicts.tsv (one line per run) and summary.md, which is also printed.
set -u

RUNS=${1:-20}
OUT=${2:-artifacts/bench/ab-noise-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=${PROF_BINDIR:-bin}
A=${PROF_BUILD:-build}/test/prof-ab-a
B=${PROF_BUILD:-build}/test/prof-ab-b

for f in "$BIN/prof-time" "$BIN/prof-merge" "$BIN/prof-diff" "$A" "$B"; do
	if [ ! -x "$f" ]; then
		echo "ab-noise.sh: '$f' is missing; run make test-build" >&2
		exit 2
	fi
done
mkdir -p "$OUT" || exit 2

# The bursty load: one core, on and off.
perl -e 'use Time::HiRes qw(time sleep); srand(20260710);
	while (1) { my $e = time + 0.2 + rand(0.3); 1 while time < $e;
		sleep(0.2 + rand(0.3)); }' &
load=$!
trap 'kill "$load" 2>/dev/null' EXIT
echo "ab-noise.sh: bursty load PID $load; $RUNS rounds; files in $OUT" >&2

# verdict DIR: test.ab's status, its ratio, test.ab_same's status, and
# whether the rows carry a drift note.
verdict() {
	jq -r '(map(select(.workload == "test.ab" and .backend == "cpu"))[0]) as $a |
		(map(select(.workload == "test.ab_same" and .backend == "cpu"))[0]) as $s |
		[$a.status, ($a.ratio // "-"), $s.status,
		 (if $a.drift then "drift" else "-" end)] | @tsv' "$1/comparisons.json"
}

# interleaved NAME CUR: one interleaved full run of CUR against prof-ab-a.
interleaved() {
	local d=$OUT/$1
	mkdir -p "$d"
	"$BIN/prof-time" full -q --workloads "$2" --against "$A" \
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
	"$BIN/prof-time" full -q --workloads "$2" --output "$d/samples.jsonl" &&
		"$BIN/prof-merge" --run-id "$1" -o "$d/results.json" \
			"$d/samples.jsonl" &&
		"$BIN/prof-diff" --baseline "$OUT/baseline.json" \
			-o "$d/comparisons.json" "$d/results.json"
}

mkdir -p "$OUT/base"
"$BIN/prof-time" full -q --workloads "$A" --output "$OUT/base/samples.jsonl" &&
	"$BIN/prof-merge" --run-id base -o "$OUT/baseline.json" \
		"$OUT/base/samples.jsonl" || exit 2

printf 'round\tpath\tpair\ttest.ab\tratio\ttest.ab_same\tdrift\n' >"$OUT/verdicts.tsv"
t0=$(date +%s)
for i in $(seq 1 "$RUNS"); do
	for run in ab-aa:"$A" ab-ab:"$B" bl-aa:"$A" bl-ab:"$B"; do
		name=${run%%:*}
		cur=${run#*:}
		case $name in
		ab-*) interleaved "$name-$i" "$cur" ;;
		*) baselined "$name-$i" "$cur" ;;
		esac || { echo "ab-noise.sh: run $name-$i failed" >&2; exit 2; }
		printf '%s\t%s\t%s\t%s\n' "$i" "${name%%-*}" "${name#*-}" \
			"$(verdict "$OUT/$name-$i")" >>"$OUT/verdicts.tsv"
	done
	echo "ab-noise.sh: round $i of $RUNS done ($(($(date +%s) - t0)) s)" >&2
done
kill "$load" 2>/dev/null
trap - EXIT

# count PATH PAIR COLUMN STATUS
count() {
	awk -F'\t' -v p="$1" -v q="$2" -v c="$3" -v s="$4" \
		'NR > 1 && $2 == p && $3 == q && $c == s { n++ } END { print n + 0 }' \
		"$OUT/verdicts.tsv"
}
{
	echo "# Interleaved A/B against the committed baseline, on a busy machine"
	echo
	echo "$RUNS rounds, full mode (warmup 2, repeat 10), a bursty load of"
	echo "one core (200-500 ms on, 200-500 ms off) throughout; load average"
	echo "at the end: $(cut -d' ' -f1-3 /proc/loadavg). test.ab of prof-ab-b"
	echo "does 30% more work than prof-ab-a's."
	echo
	echo "| path | A/A: false warnings | A/B (+30%): true warnings | test.ab_same warnings (A/A) | runs with a drift note |"
	echo "|---|--:|--:|--:|--:|"
	for p in ab bl; do
		label="interleaved (prof-time --against)"
		[ $p = bl ] && label="committed baseline"
		echo "| $label | $(count $p aa 4 warning) / $RUNS |" \
			"$(count $p ab 4 warning) / $RUNS |" \
			"$(($(count $p aa 6 warning) + $(count $p ab 6 warning))) / $((2 * RUNS)) |" \
			"$(($(count $p aa 7 drift) + $(count $p ab 7 drift))) / $((2 * RUNS)) |"
	done
	echo
	echo "Command: test/bench/ab-noise.sh $RUNS $OUT ($(($(date +%s) - t0)) s)."
	echo "Every run's verdict: verdicts.tsv."
} >"$OUT/summary.md"
cat "$OUT/summary.md"
