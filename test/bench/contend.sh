#!/bin/bash
# contend.sh: the numbers behind the contended rules of
# src/lib/model/contend.h.
#
# usage: test/bench/contend.sh [REPEAT] [OUT_DIR]
#
# Runs prof-time full (backend cpu, warmup 1, REPEAT calls a workload,
# default 20) over the quick-sized real workloads and three commands (true,
# a shell loop, sleep 0.02), under four conditions:
#   alone   the run pinned to one core at a real-time priority (chrt -f
#           10, where this user may; skipped elsewhere): each call has its
#           core, what a calm machine gives;
#   as-is   the machine as it is;
#   busy    beside two busy loops (one a core);
#   pinned  the run pinned to one core beside a busy loop pinned there:
#           every call shares its core.
# The busy loops are started here and stopped by their PIDs. For each
# workload and condition it prints: samples, the median wall time, CPU
# time, run-queue delay (run_delay_ms) and own time (wall - delay), the
# largest delay / wall, and how many samples were contended by the delay's
# rule (delay > wall x 0.05 + 0.1 ms), by today's rule (wall > CPU x 1.05
# + 0.1 ms), lay in the zone between the clusters (delay between 1% and
# 10% of the wall), and said their delay was partial. The samples go to
# OUT_DIR (default artifacts/bench/contend-STAMP). Needs bin/ built (make
# all).
set -u

REPEAT=${1:-20}
OUT=${2:-artifacts/bench/contend-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=${PROF_BINDIR:-bin}
case $REPEAT in
''|*[!0-9]*) echo "contend.sh: 'REPEAT' must be a number" >&2; exit 2 ;;
esac
mkdir -p "$OUT" || exit 2
CPU=$(taskset -cp $$ | sed 's/.*: *//; s/[,-].*//')

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

# measure LABEL [PREFIX...]: the workloads and the commands, run under
# PREFIX (taskset, chrt), into OUT/LABEL.jsonl.
measure() {
	local label=$1
	shift
	"$@" "$BIN/prof-time" full --backend cpu --repeat "$REPEAT" \
		--warmup 1 --category primitive --category pipeline \
		--category server -q -o "$OUT/$label.w.jsonl" || return
	"$@" "$BIN/prof-time" --name command.true --repeat "$REPEAT" \
		--warmup 1 -q -o "$OUT/$label.c1.jsonl" -- true || return
	"$@" "$BIN/prof-time" --name command.loop --repeat "$REPEAT" \
		--warmup 1 -q -o "$OUT/$label.c2.jsonl" -- sh -c \
		'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' || return
	"$@" "$BIN/prof-time" --name command.sleep --repeat "$REPEAT" \
		--warmup 1 -q -o "$OUT/$label.c3.jsonl" -- sleep 0.02 || return
	cat "$OUT/$label".w.jsonl "$OUT/$label".c[123].jsonl >"$OUT/$label.jsonl"
}

report() {
	jq -rs --arg cond "$1" '
	def med: sort | if length == 0 then null
		else .[(length - 1) / 2 | floor] end;
	def r3: . * 1000 | round / 1000;
	[.[] | select(.phase == "timing" and .kind == "warm" and
		.outcome == "success" and has("run_delay_ms"))] |
	group_by(.workload)[] |
	[$cond, .[0].workload, .[0].threads, length,
	 (map(.duration_ms) | med | r3), (map(.cpu_ms) | med | r3),
	 (map(.run_delay_ms) | med | r3),
	 (map(.duration_ms - .run_delay_ms) | med | r3),
	 (map(.run_delay_ms / .duration_ms) | max | r3),
	 (map(select(.run_delay_ms > .duration_ms * 0.05 + 0.1)) | length),
	 (map(select(.duration_ms > .cpu_ms * 1.05 + 0.1)) | length),
	 (map(select(.run_delay_ms > .duration_ms * 0.01 and
		.run_delay_ms <= .duration_ms * 0.1)) | length),
	 (map(select(.run_delay == "partial")) | length)] | @tsv' \
		"$OUT/$1.jsonl"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
conds=()
if chrt -f 10 true 2>/dev/null; then
	measure alone taskset -c "$CPU" chrt -f 10 || exit 1
	conds+=(alone)
fi
measure as-is || exit 1
conds+=(as-is)
for i in 1 2; do
	sh -c 'while :; do :; done' &
	busy+=($!)
done
measure busy
rc=$?
stop_busy
[ "$rc" = 0 ] || exit 1
conds+=(busy)
taskset -c "$CPU" sh -c 'while :; do :; done' &
busy+=($!)
measure pinned taskset -c "$CPU"
rc=$?
stop_busy
[ "$rc" = 0 ] || exit 1
conds+=(pinned)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
{
	printf 'machine\tworkload\tthreads\tn\twall_ms\tcpu_ms\tdelay_ms\town_ms\tmax_delay/wall\tcontended\told_rule\t1-10%%\tpartial\n'
	for c in "${conds[@]}"; do
		report "$c"
	done
} | column -t -s "$(printf '\t')" | tee "$OUT/summary.txt"
