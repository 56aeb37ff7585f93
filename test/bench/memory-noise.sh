#!/bin/bash
# memory-noise.sh: what the memory channel costs and how still it is: the
# memory phase's time per workload against the timing phase's, the spread
# of each memory metric over runs of the quick suite (calm, and beside two
# busy loops), and how many memory warnings A/A compares give.
#
# usage: test/bench/memory-noise.sh [RUNS] [AA_RUNS] [OUT_DIR]
#
# Needs `make all` (bin/ and bin/prof-workloads). Three parts:
#  (a) cost: each run of the quick suite is `prof-time quick` then
#      `prof-mem quick` (the MEMORY=1 phase: each workload in two fresh
#      workers under the interposer), their progress lines on stderr
#      stamped as they come ($EPOCHREALTIME); a workload's phase time is
#      the time from the line before its own to its own (groups run one
#      after another; the timing phase's includes the calibration kernel
#      between groups, a few ms); "(whole phase)" is the phase from its
#      first line to its last. The median over the calm runs.
#  (b) spread: RUNS runs (default 10) calm, then RUNS beside two busy loops
#      (`sh -c 'while :; do :; done'`, twice, started here and stopped by
#      their PIDs at the end and on an interrupt). Per workload x metric:
#      whether every value of one call index is the same over all runs
#      and both workers (what prof-diff asks of an exact metric), and the
#      spread (max - min) / median in % over all of them.
#  (c) A/A: AA_RUNS (default 20) calm `make compare AGAINST=` a copy of
#      bin/prof-workloads `MEMORY=1`: its memory rows counted by status
#      (a warning or improved is false: the two sides are one binary),
#      and how many were judged by ratio as not deterministic.
# The machine's load (uptime) is recorded before and after each part.
#
# OUT_DIR (default artifacts/bench/memory-noise-STAMP) gets every run's
# files, cost.tsv, spread.tsv, aa.tsv and summary.md, which is also
# printed.
set -u

RUNS=${1:-10}
AA_RUNS=${2:-20}
OUT=${3:-artifacts/bench/memory-noise-$(date -u +%Y%m%dT%H%M%SZ)}
MAKE=${MAKE:-make}
BIN=${PROF_BINDIR:-bin}
W=$BIN/prof-workloads
METRICS='["host_peak_bytes", "host_allocs", "host_allocated_bytes",
	"rss_peak_bytes", "device_peak_allocated_bytes"]'

for n in "$RUNS" "$AA_RUNS"; do
	case $n in
	'' | *[!0-9]*)
		echo "memory-noise.sh: '$n' is not a number of runs" >&2
		exit 2
		;;
	esac
done
for t in prof-time prof-mem prof-merge prof-diff prof-workloads; do
	if [ ! -x "$BIN/$t" ]; then
		echo "memory-noise.sh: '$BIN/$t' is not built (make all)" >&2
		exit 2
	fi
done
mkdir -p "$OUT" || exit 2

busy=
stop_busy() {
	local p
	for p in $busy; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	busy=
}
trap 'stop_busy; exit 130' INT TERM
trap 'stop_busy' EXIT

load() {
	echo "$1: $(uptime | sed 's/^ *//')" >>"$OUT/load.txt"
}

# Each stderr line with the time it came.
stamp() {
	local l
	while IFS= read -r l; do
		printf '%s\t%s\n' "$EPOCHREALTIME" "$l"
	done
}

# quick_run DIR: one run of the quick suite, timing then memory phase.
quick_run() {
	mkdir -p "$1"
	"$BIN/prof-time" quick --workloads "$W" -o "$1/samples.jsonl" 2>&1 |
		stamp >"$1/timing.err"
	"$BIN/prof-mem" quick --workloads "$W" -o "$1/memory.jsonl" 2>&1 |
		stamp >"$1/memory.err"
}

# phase_times COND PHASE FILE: "COND PHASE WORKLOAD SECONDS" per workload.
phase_times() {
	awk -F'\t' -v cond="$1" -v phase="$2" '
		NR == 1 { first = prev = $1; next }
		{
			last = $1
			split($2, f, " ")
			if (f[2] !~ /^\[[0-9]+\/[0-9]+\]$/)
				next
			s[f[3]] += $1 - prev
			prev = $1
		}
		END {
			for (w in s)
				printf "%s\t%s\t%s\t%.3f\n", cond, phase, w, s[w]
			printf "%s\t%s\t(whole phase)\t%.3f\n", cond, phase,
				last - first
		}
	' "$3"
}

# spread COND DIR...: per workload x backend x metric over the runs.
spread() {
	local cond=$1
	shift
	cat "${@/%//memory.jsonl}" | jq -n -r --arg cond "$cond" \
		--argjson metrics "$METRICS" '
		[inputs | select(.phase == "memory" and .outcome == "success")]
		| group_by([.workload, .backend])[]
		| . as $g
		| $metrics[] as $m
		| [$g[] | select(.memory[$m] | type == "number")] as $s
		| select($s | length > 0)
		| ($s | map(.memory[$m]) | sort) as $v
		| ($v[(($v | length) - 1) / 2 | floor]) as $med
		| [$cond, $g[0].workload, $g[0].backend, $m, ($v | length),
		   (if ($s | group_by(.call) |
			all(map(.memory[$m]) | unique | length == 1))
		    then "yes" else "no" end),
		   (if $med > 0 then (($v[-1] - $v[0]) / $med * 100 * 10000 |
			round / 10000) else 0 end),
		   $v[0], $med, $v[-1]]
		| @tsv'
}

# (a) and (b): calm, then busy.
: >"$OUT/cost.tsv"
: >"$OUT/spread.tsv"
for cond in calm busy; do
	if [ $cond = busy ]; then
		sh -c 'while :; do :; done' &
		busy="$busy $!"
		sh -c 'while :; do :; done' &
		busy="$busy $!"
	fi
	load "$cond: before"
	dirs=()
	for i in $(seq 1 "$RUNS"); do
		d=$OUT/$cond-$i
		quick_run "$d"
		dirs+=("$d")
		phase_times "$cond" timing "$d/timing.err" >>"$OUT/cost.tsv"
		phase_times "$cond" memory "$d/memory.err" >>"$OUT/cost.tsv"
	done
	load "$cond: after"
	spread "$cond" "${dirs[@]}" >>"$OUT/spread.tsv"
	stop_busy
done

# (c) A/A compares, calm.
cp "$W" "$OUT/ref-workloads" || exit 2
: >"$OUT/aa.tsv"
load "aa: before"
for i in $(seq 1 "$AA_RUNS"); do
	d=$OUT/aa-$i
	$MAKE -s --no-print-directory compare AGAINST="$OUT/ref-workloads" \
		MEMORY=1 OUTPUT="$d" >"$d.log" 2>&1
	jq -r --arg i "$i" '.[] | select(.phase == "memory") |
		[$i, .workload, .metric, .status, .rule,
		 (.deterministic | tostring)] | @tsv' \
		"$d/comparisons.json" >>"$OUT/aa.tsv" ||
		printf '%s\tERROR\t-\tno comparisons.json (see %s.log)\t-\t-\n' \
			"$i" "$d" >>"$OUT/aa.tsv"
done
load "aa: after"

# The summary.
{
	echo "# memory-noise.sh $RUNS $AA_RUNS"
	echo
	echo '```'
	cat "$OUT/load.txt"
	echo '```'
	echo
	echo "## (a) phase seconds per workload (median of $RUNS calm runs)"
	echo
	echo "| workload | timing phase s | memory phase s | memory / timing |"
	echo "|---|---|---|---|"
	awk -F'\t' '$1 == "calm" { v[$3 "\t" $2] = v[$3 "\t" $2] " " $4; w[$3] = 1 }
		function med(s,   a, n, i, j, t) {
			n = split(s, a, " ")
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[int((n + 1) / 2)]
		}
		END {
			for (k in w) {
				t = med(v[k "\ttiming"]); m = med(v[k "\tmemory"])
				printf "| %s | %.3f | %.3f | %.2f |\n", k, t, m,
					(t > 0 ? m / t : 0)
			}
		}' "$OUT/cost.tsv" | sort
	echo
	echo "## (b) spread over $RUNS runs x 2 workers"
	echo
	echo "| condition | workload | metric | n | identical per call index | spread % | min | median | max |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		$1, $2, $4, $5, $6, $7, $8, $9, $10 }' "$OUT/spread.tsv"
	echo
	echo "Per metric: workloads identical per call index, and the largest spread:"
	echo
	awk -F'\t' '{ k = $1 " " $4; n[k]++; if ($6 == "yes") y[k]++
		if ($7 + 0 > mx[k] + 0) mx[k] = $7 }
		END { for (k in n) printf "- %s: %d/%d identical, largest spread %s%%\n",
			k, y[k], n[k], mx[k] + 0 }' "$OUT/spread.tsv" | sort
	echo
	echo "## (c) A/A make compare MEMORY=1, $AA_RUNS runs"
	echo
	awk -F'\t' '{ n++; s[$4]++; if ($6 ~ /false/) nd++
		if ($4 == "warning" || $4 == "improved") bad[$1] = 1 }
		END {
			for (k in s) printf "- memory rows %s: %d\n", k, s[k]
			printf "- rows in all: %d; judged by ratio as not deterministic: %d\n", n, nd + 0
			printf "- runs with a memory warning or improved: %d of '"$AA_RUNS"'\n", length(bad)
		}' "$OUT/aa.tsv"
	awk -F'\t' '$4 == "warning" || $4 == "improved" { printf "  - run %s: %s %s %s\n", $1, $2, $3, $4 }' \
		"$OUT/aa.tsv"
} >"$OUT/summary.md"
cat "$OUT/summary.md"
