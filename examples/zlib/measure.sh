#!/bin/sh
# measure.sh: what the zlib example measures on this machine, as a table:
# each workload's median and p90 time (REPEAT timed calls, default 10) and
# its instruction count (callgrind, COUNTS=1), through the installed
# fragment.
#
# usage: sh measure.sh [REPEAT]   (in examples/zlib, with PKG_CONFIG_PATH
#                                  naming an installed prof)
set -eu
repeat=${1:-10}
out=${OUTPUT:-artifacts/measure}
make -s
make -s profile-quick REPEAT="$repeat" COUNTS=1 OUTPUT="$out" >/dev/null
echo "| workload | n | median ms | p90 ms | instructions (median) |"
echo "|---|--:|--:|--:|--:|"
jq -r 'def median: length as $n | if $n == 0 then null
	elif $n % 2 == 1 then .[($n - 1) / 2]
	else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
	.groups as $g | [.samples[] | (if .group_id then $g[.group_id] +
	del(.group_id) else . end) | select(.kind == "warm" and
	.outcome == "success")] | group_by(.workload)[] |
	(map(select(.phase == "timing") | .duration_ms) | sort) as $t |
	(map(select(.phase == "instructions") | .instructions) | sort) as $i |
	"| \(.[0].workload) | \($t | length) | " +
	"\($t | median * 1000 | round / 1000) | " +
	"\($t[(($t | length) * 0.9 | ceil) - 1] * 1000 | round / 1000) | " +
	"\($i | median | if . == null then "-" else round end) |"' \
	"$out/results.json"
echo
echo "zlib $(jq -r '[.envs[].build_facts.zlib // empty] | unique | join(", ")' \
	"$out/results.json"), $(jq -r '[.envs[].workload_compiler_major //
	empty] | unique | join(", ")' "$out/results.json"); run folder $out"
