#!/bin/bash
# long-reason.sh: what one long reason costs the readers (issue 19).
#
# usage: test/bench/long-reason.sh [MIB] [OUT_DIR]
#
# Needs the tools (make). Writes a copy of test/data/results/current.json
# whose error sample's reason is MIB MiB (default 50) of 'x', then prints
# the peak RSS and the wall time of prof-report, prof-diff and prof-export
# reading it (GNU time's %M and %e), one line each:
#   prof-report: 7488 KB, 0.38 s
# A reader keeps at most 64 KiB of a string and 4 KiB of a reason, so the
# RSS does not grow with MIB. OUT_DIR defaults to a temporary folder,
# removed at the end.
set -u

MIB=${1:-50}
OUT=${2:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$ROOT/bin
D=$ROOT/test/data/results
if [ -z "$OUT" ]; then
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/prof-long-reason.XXXXXX") || exit 2
	trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT" || exit 2
n=$(grep -n '"reason": "worker killed' "$D/current.json" | cut -d: -f1)
{
	head -n $((n - 1)) "$D/current.json"
	printf '      "reason": "'
	head -c $((MIB * 1048576)) /dev/zero | tr '\0' x
	printf '",\n'
	tail -n +$((n + 1)) "$D/current.json"
} >"$OUT/long.json" || exit 2
measure() { # NAME CMD...
	local name=$1 t
	shift
	t=$(/usr/bin/time -f '%M KB, %e s' "$@" 2>&1 >/dev/null | tail -n 1)
	echo "$name: $t"
}
measure prof-report "$BIN/prof-report" -o "$OUT/s.md" "$OUT/long.json"
measure prof-diff "$BIN/prof-diff" --baseline "$D/baseline.json" \
	-o "$OUT/c.json" "$OUT/long.json"
measure prof-export "$BIN/prof-export" -f csv -o "$OUT/x.csv" "$OUT/long.json"
