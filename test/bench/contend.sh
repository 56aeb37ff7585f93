#!/bin/bash
# contend.sh: the numbers behind the contended rule of src/lib/contend.h.
#
# usage: test/bench/contend.sh [REPEAT] [OUT_DIR]
#
# Runs prof-time full (backend cpu, warmup 1, REPEAT calls a workload,
# default 20) over the quick-sized real workloads and a command (true),
# once as the machine is and once beside two busy loops (one a core,
# started here and stopped by their PIDs), and prints for each workload
# and condition: samples, the median wall and CPU time, how many had wall
# at most 1.02 x CPU (the call had its core), how many were above that but
# left uncontended by the rule (wall <= CPU x 1.05 + 0.1 ms), how many
# were contended but under 1.3 x (the zone between the clusters), how
# many were contended, and how many had an involuntary switch. The samples
# go to OUT_DIR (default artifacts/bench/contend-STAMP). Needs bin/
# built (make all).
set -u

REPEAT=${1:-20}
OUT=${2:-artifacts/bench/contend-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=${PROF_BINDIR:-bin}
case $REPEAT in
''|*[!0-9]*) echo "contend.sh: 'REPEAT' must be a number" >&2; exit 2 ;;
esac
mkdir -p "$OUT" || exit 2

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

# measure LABEL: the workloads and the command, into OUT/LABEL.jsonl.
measure() {
	"$BIN/prof-time" full --backend cpu --repeat "$REPEAT" --warmup 1 \
		--category primitive --category pipeline --category server \
		-q -o "$OUT/$1.w.jsonl" || return
	"$BIN/prof-time" --name command.true --repeat "$REPEAT" --warmup 1 \
		-q -o "$OUT/$1.c.jsonl" -- true || return
	cat "$OUT/$1.w.jsonl" "$OUT/$1.c.jsonl" >"$OUT/$1.jsonl"
}

report() {
	jq -rs --arg cond "$1" '
	def med: sort | if length == 0 then null
		else .[(length - 1) / 2 | floor] end;
	def r3: . * 1000 | round / 1000;
	[.[] | select(.phase == "timing" and .kind == "warm" and
		.outcome == "success" and has("cpu_ms"))] |
	group_by(.workload)[] |
	[$cond, .[0].workload, .[0].threads, length,
	 (map(.duration_ms) | med | r3), (map(.cpu_ms) | med | r3),
	 (map(select(.duration_ms <= .cpu_ms * 1.02)) | length),
	 (map(select(.duration_ms > .cpu_ms * 1.02 and
		(.contended | not))) | length),
	 (map(select(.contended and .duration_ms < .cpu_ms * 1.3)) |
		length),
	 (map(select(.contended)) | length),
	 (map(select(.involuntary_switches > 0)) | length)] | @tsv' \
		"$OUT/$1.jsonl"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
measure as-is || exit 1
for i in 1 2; do
	sh -c 'while :; do :; done' &
	busy+=($!)
done
measure busy
rc=$?
stop_busy
[ "$rc" = 0 ] || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
{
	printf 'machine\tworkload\tthreads\tn\twall_ms\tcpu_ms\t<=1.02x\tabove,uncontended\tcontended<1.3x\tcontended\tswitched\n'
	report as-is
	report busy
} | column -t -s "$(printf '\t')" | tee "$OUT/summary.txt"
