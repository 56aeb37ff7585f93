#!/bin/bash
# gbench-overhead.sh: what prof costs on a Google Benchmark binary, and how
# many samples its interleaved A/B needs on a busy machine.
#
# usage: test/bench/gbench-overhead.sh [ROUNDS] [AB_RUNS] [OUT_DIR]
#
# Needs `make all` (bin/) and g++ with Debian's libbenchmark-dev and
# zlib1g-dev. Builds test/data/gbench-project's bench.cc twice: as it is
# (A) and with BM_adler32 over 30% more bytes (B, 4096 -> 5325; BM_crc32/1024
# the same in both).
#
# 1. Overhead per sample, in ROUNDS (default 5) rounds, each in turn:
#    direct  the binary alone, run 10 times as prof runs it for one sample
#            (--benchmark_filter=^BM_adler32$, one repetition, JSON out,
#            PROF_GBENCH_FLAGS), each run's wall time (EPOCHREALTIME)
#    prof1   prof-time diagnose BM_adler32 --warmup 0 --repeat 1 on it
#    prof11  the same with --repeat 11
#    The per-sample cost through prof is (prof11 - prof1) / 10 (what one
#    more sample adds, its start-up taken out), against the direct run's
#    median; prof's fixed cost a run (listing the binary, its side file,
#    the environment) is prof1 - the direct median.
# 2. Samples an interleaved A/B needs with one busy loop on this machine
#    (`sh -c 'while :; do :; done'`, started here and stopped by its PID,
#    also on an interrupt): AB_RUNS (default 4) runs each of A against A
#    and B against A, prof-time full (repeat 10, adaptive up to 40, as
#    make compare MODE=full), merged and judged by prof-diff as make
#    compare does. Per run and row: the status, the samples a side (n)
#    and the reason's "settled after N rounds".
#
# PROF_GBENCH_FLAGS defaults to --benchmark_min_time=0.01 (as the tests);
# PAIRS (default "aa ab") chooses the A/B pairs run.
# OUT_DIR (default artifacts/bench/gbench-overhead-STAMP) gets every run's
# files and summary.txt, which is also printed, with uptime before and
# after.
set -u

ROUNDS=${1:-5}
AB_RUNS=${2:-4}
OUT=${3:-artifacts/bench/gbench-overhead-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=${PROF_BINDIR:-bin}
export PROF_GBENCH_FLAGS=${PROF_GBENCH_FLAGS:---benchmark_min_time=0.01}
W=BM_adler32

mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
busy=
stop_busy() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null && wait "$busy" 2>/dev/null
	busy=
}
trap 'stop_busy; exit 130' INT TERM
trap stop_busy EXIT

src=test/data/gbench-project/bench.cc
g++ -O2 -o "$OUT/bench-a" "$src" -lbenchmark -lpthread -lz || exit 2
sed 's/buf(4096, 3)/buf(5325, 3)/' "$src" >"$OUT/bench-b.cc" &&
	g++ -O2 -o "$OUT/bench-b" "$OUT/bench-b.cc" -lbenchmark -lpthread -lz ||
	exit 2
cp "$OUT/bench-a" "$OUT/bench-a2"

now() { echo "${EPOCHREALTIME/./}"; }	# microseconds
# shellcheck disable=SC2086 # PROF_GBENCH_FLAGS is a list of words
direct() {
	"$OUT/bench-a" "--benchmark_filter=^$W\$" --benchmark_repetitions=1 \
		--benchmark_format=json $PROF_GBENCH_FLAGS >/dev/null
}
prof() {
	"$BIN/prof-time" diagnose "$W" --workloads "$OUT/bench-a" \
		--warmup 0 --repeat "$1" -q -o /dev/null
}

{
	echo "uptime before: $(uptime)"
	echo "PROF_GBENCH_FLAGS=$PROF_GBENCH_FLAGS"
} >"$OUT/summary.txt"
: >"$OUT/rounds.tsv"
for r in $(seq 1 "$ROUNDS"); do
	for i in $(seq 1 10); do
		t0=$(now)
		direct
		t1=$(now)
		echo "direct $r $((t1 - t0))" >>"$OUT/rounds.tsv"
	done
	for n in 1 11; do
		t0=$(now)
		prof "$n"
		t1=$(now)
		echo "prof$n $r $((t1 - t0))" >>"$OUT/rounds.tsv"
	done
done
awk '
	function med(a, n,    i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$1 == "direct" { d[++nd] = $3 }
	$1 == "prof1" { p1[$2] = $3 }
	$1 == "prof11" { p11[$2] = $3; per[++np] = ($3 - p1[$2]) / 10;
		fix[np] = p1[$2] }
	END {
		dm = med(d, nd) / 1000; pm = med(per, np) / 1000
		fm = med(fix, np) / 1000
		printf "overhead: %d rounds, %d direct runs\n", np, nd
		printf "  direct run of the binary (one sample as prof runs it): median %.1f ms\n", dm
		printf "  one more sample through prof-time: median %.1f ms (%+.1f ms, %.2fx)\n", pm, pm - dm, pm / dm
		printf "  prof-time with one sample: median %.1f ms (its fixed cost %.1f ms)\n", fm, fm - dm
	}' "$OUT/rounds.tsv" >>"$OUT/summary.txt"

# 2. A/B under one busy loop.
sh -c 'while :; do :; done' &
busy=$!
echo "busy loop: pid $busy; uptime at its start: $(uptime)" >>"$OUT/summary.txt"
: >"$OUT/ab.tsv"
for r in $(seq 1 "$AB_RUNS"); do
	for name in ${PAIRS:-aa ab}; do
		case $name in
		aa) cur=$OUT/bench-a2 ;;
		ab) cur=$OUT/bench-b ;;
		*) echo "PAIRS: '$name' is not aa or ab" >&2; exit 2 ;;
		esac
		d=$OUT/$name-$r
		mkdir -p "$d"
		"$BIN/prof-time" full --workloads "$cur" --against "$OUT/bench-a" \
			-q --output "$d/samples.jsonl" \
			--against-output "$d/baseline.jsonl"
		id=gbench-overhead-$name-$r
		"$BIN/prof-merge" --run-id "$id" -o "$d/results.json" \
			"$d/samples.jsonl" &&
			"$BIN/prof-merge" --run-id "$id" -o "$d/baseline.json" \
				"$d/baseline.jsonl" &&
			"$BIN/prof-diff" --baseline "$d/baseline.json" \
				-o "$d/comparisons.json" "$d/results.json" ||
			{ echo "run $name-$r failed" >>"$OUT/summary.txt"; continue; }
		jq -r --arg run "$name-$r" '.[] | select(.phase != "instructions") |
			[$run, .workload, .status, .current.n, .baseline.n,
			 ((.reason // "") | (capture("settled after (?<n>[0-9]+) rounds") |
			  .n) // "-"),
			 ((.ratio // 0) * 1000 | round / 1000)] | @tsv' \
			"$d/comparisons.json" >>"$OUT/ab.tsv"
	done
done
echo "uptime at the busy loop's end: $(uptime)" >>"$OUT/summary.txt"
stop_busy
{
	echo "A/B under one busy loop, prof-time full (repeat 10, up to 40):"
	printf '  %-6s %-14s %-8s %4s %4s %8s %6s\n' run workload status n \
		ref_n settled ratio
	awk '{ printf "  %-6s %-14s %-8s %4s %4s %8s %6s\n", $1, $2, $3, $4, $5, $6, $7 }' \
		"$OUT/ab.tsv"
	awk '{ k = substr($1, 1, 2) " " $2; s[k] += $4; c[k]++;
		st[k] = st[k] " " $3 }
		END { for (k in s) printf "  %s: mean %.1f samples a side; statuses%s\n",
			k, s[k] / c[k], st[k] }' "$OUT/ab.tsv" | sort
	echo "uptime after: $(uptime)"
} >>"$OUT/summary.txt"
cat "$OUT/summary.txt"
