#!/bin/bash
# prof-time -- CMD: every command sample carries the command's RSS peak as
# prof-mem records a worker's, "memory": {"rss_peak_bytes"} (wait4's
# ru_maxrss in bytes); a command that allocates 50 MB shows more than
# 40 MB; prof-diff judges it in a memory row by ratio beside the time row:
# an A/A stable, twice the memory a warning.
. "$(dirname "$0")/lib.sh"
plan 9

# A command that touches $N bytes (the same arguments, so that both sides
# are the same command): python3's bytearray, else a shell variable read
# from /dev/zero.
timed() {
	local cmd
	if command -v python3 >/dev/null; then
		cmd=(python3 -c 'import os; b = bytearray(int(os.environ["N"]))')
	else
		cmd=(sh -c 'x=$(head -c "$N" /dev/zero | tr "\\0" a)')
	fi
	N=$2 "$BIN/prof-time" --name big --repeat 3 -q -o "$T/$1.jsonl" -- \
		"${cmd[@]}" && "$BIN/prof-merge" --run-id "$1" -o "$T/$1.json" \
		"$T/$1.jsonl"
}

run prof-time --name small --repeat 2 -- true
jq_ok -s 'length == 2 and all(.[]; (.memory | keys) == ["rss_peak_bytes"]
	and (.memory.rss_peak_bytes | type == "number" and . > 0) and
	.memory.rss_peak_bytes == .metrics.max_rss_bytes)' "$out" \
	"every command sample has its RSS peak, in bytes (= max_rss_bytes)"
run prof-time --name f --repeat 1 -- false
jq_ok '.outcome == "error" and .memory.rss_peak_bytes > 0' "$out" \
	"an error sample too"

timed a 50000000
jq_ok '[.samples[] | .memory.rss_peak_bytes] | length == 3 and
	all(. > 40000000)' "$T/a.json" \
	"a command that allocates 50 MB: an RSS peak above 40 MB"
timed b 50000000
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/aa.json" "$T/b.json" \
	2>"$err"
jq_ok '[.[] | .phase] == ["timing", "memory"]' "$T/aa.json" \
	"prof-diff: a time row and a memory row"
jq_ok '.[1] | .metric == "rss_peak_bytes" and .rule == "ratio" and
	.unit == "bytes" and .status == "stable" and .deterministic == null' \
	"$T/aa.json" "the RSS peak's row: by ratio, A/A stable"
timed c 120000000
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/ac.json" "$T/c.json" \
	2>"$err"
jq_ok '.[] | select(.phase == "memory") | .status == "warning" and
	(.reason | startswith("RSS peak "))' "$T/ac.json" \
	"120 MB against 50 MB: the memory row is a warning"
run prof-report --comparisons "$T/ac.json" -o "$T/s.md" "$T/c.json"
like "$(cat "$T/s.md")" "| \`big\` | cpu | RSS peak (bytes) |" \
	"summary.md's Memory table has the command's row"

# prof-mem's samples and a command's timing samples judged alike: the
# memory row of a command and of a worker share their rule.
jq_ok '[.[] | select(.phase == "memory") | .floor] == [1048576]' \
	"$T/ac.json" "with the RSS floor of 1 MiB"
"$BIN/prof-time" --name big --repeat 1 -q -o "$T/d.jsonl" -- true
jq '.memory = null' -c "$T/d.jsonl" | grep -v '^null$' >"$T/e.jsonl"
"$BIN/prof-merge" --run-id e -o "$T/e.json" "$T/e.jsonl" 2>"$err"
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/ae.json" "$T/e.json" \
	2>>"$err"
jq_ok '[.[] | .phase] == ["timing"]' "$T/ae.json" \
	"a timing sample without memory (an older run) has no memory row"
finish
