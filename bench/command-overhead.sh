#!/bin/bash
# How much prof-time adds to a command sample: the median of /bin/true
# (warmup 5, repeat 100) under prof-time, under hyperfine -N (when it is
# installed) and under spawn-floor (posix_spawn and wait4, nothing else),
# in ROUNDS interleaved rounds of the same run, so that the machine's drift
# falls on all three. Prints each round and the median ratios.
#
# usage: bench/command-overhead.sh BINDIR FLOOR [ROUNDS]
set -euo pipefail
bindir=$1
floor=$2
rounds=${3:-5}
cmd=/bin/true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_hf=0
if command -v hyperfine >/dev/null; then
	have_hf=1
else
	echo "hyperfine is not installed (apt-get install -y hyperfine): the ratio to it is left out" >&2
fi
printf '%-6s %12s %12s %12s\n' round floor_ms prof_time_ms hyperfine_ms
for r in $(seq 1 "$rounds"); do
	f=$("$floor" 5 100 "$cmd" | jq '.median_ms')
	p=$("$bindir/prof-time" --name bench.true --warmup 5 --repeat 100 -q -- "$cmd" |
		jq -s 'map(.duration_ms) | sort | .[length / 2 | floor]')
	h=null
	if [ "$have_hf" = 1 ]; then
		hyperfine -N --warmup 5 --runs 100 --export-json "$tmp/hf.json" \
			"$cmd" >/dev/null 2>&1
		h=$(jq '.results[0].median * 1e7 | round / 1e4' "$tmp/hf.json")
	fi
	printf '%-6s %12.4f %12.4f %12s\n' "$r" "$f" "$p" "$h"
	echo "{\"floor\": $f, \"prof_time\": $p, \"hyperfine\": $h}" >>"$tmp/rounds.jsonl"
done
jq -rs '
	def med: sort | .[length / 2 | floor];
	(map(.prof_time / .floor) | med) as $pf |
	"prof-time / spawn floor: \($pf * 1000 | round / 1000)x (median of \(length) rounds)",
	(if .[0].hyperfine == null then empty else
	 (map(.prof_time / .hyperfine) | med) as $ph |
	 "prof-time / hyperfine -N: \($ph * 1000 | round / 1000)x (target: at most 1.05x)"
	 end)' "$tmp/rounds.jsonl"
