#!/bin/bash
# summary.md's statuses give each row's Mann-Whitney p once: a reason that
# names it already (an interleaved row that did not settle: "not settled
# after 12 samples a side (p = 0.312): ...") is not followed by a second
# "; p = 0.312"; a reason that does not name it (a settled interleaved
# row, a baseline row) still ends with "; p = P".
. "$(dirname "$0")/lib.sh"
plan 5

"$BIN/prof-time" --name w --repeat 1 --max-repeat 1 -q \
	--against-command true --against-output "$T/tr.jsonl" \
	--output "$T/t.jsonl" -- true || exit 1

# side FILE SIDE REPEAT MAX SCALE VALUES...: one side's samples of w, the
# values times SCALE (REPEAT 0: no "ab", a baseline run).
side() {
	local f=$1 s=$2 rp=$3 mx=$4 scale=$5
	shift 5
	grep '"record"' "$T/t.jsonl" >"$f"
	grep -v '"record"' "$T/t.jsonl" | head -n 1 |
		jq -c --arg s "$s" --argjson rp "$rp" --argjson mx "$mx" \
			--argjson scale "$scale" --arg v "$*" '
		($v | split(" ") | map(tonumber)) as $v |
		. as $t | range(0; $v | length) as $i |
		$t | .duration_ms = ($v[$i] * $scale | . * 1e6 | round / 1e6) |
		.index = $i | .warning_floor_ms = 0.5 |
		del(.contended, .run_delay_ms, .run_delay) |
		(if $rp > 0 then .ab = {side: $s, slot: (2 * $i), round: ($i + 1),
			repeat: $rp, max_repeat: $mx} else del(.ab) end)' >>"$f"
}
judge() {
	"$BIN/prof-merge" --run-id ab -o "$T/cur.json" "$T/c.jsonl" &&
		"$BIN/prof-merge" --run-id ab -o "$T/ref.json" "$T/r.jsonl" &&
		"$BIN/prof-diff" --baseline "$T/ref.json" -o "$T/cmp.json" \
			"$T/cur.json" &&
		"$BIN/prof-report" --comparisons "$T/cmp.json" \
			-o "$T/summary.md" "$T/cur.json" >/dev/null
}
# The bullet of w in summary.md's statuses.
bullet() { grep '^- `w` (cpu): \*\*' "$T/summary.md"; }

# Issue 29's two-cluster A/A: not settled in 12 a side.
CUR="5.20 7.12 3.03 7.09 6.97 2.83 6.92 6.91 6.20 6.85 4.57 2.77"
REF="2.93 3.09 7.23 2.86 7.29 2.83 2.89 6.83 6.85 3.96 2.82 3.57"
side "$T/c.jsonl" current 3 12 1 $CUR
side "$T/r.jsonl" reference 3 12 1 $REF
judge
is "$?" 0 "the unsettled A/A merges, compares and reports"
like "$(bullet)" "**unsettled**: not settled after 12 samples a side (p = 0.312): median 95.9% slower" \
	"its bullet gives the reason, which names the p"
is "$(bullet | grep -o 'p = 0\.312' | wc -l)" 1 "and the p only once"

# A settled interleaved row: its reason names no p, the bullet adds it.
side "$T/c.jsonl" current 10 10 1.3 $REF $REF
side "$T/r.jsonl" reference 10 10 1 $REF $REF
judge
like "$(bullet)" "; p = " "a settled row's bullet ends with its p"

# A baseline row: the same.
side "$T/c.jsonl" current 0 0 1.3 $REF
side "$T/r.jsonl" reference 0 0 1 $REF
judge
like "$(bullet)" "; p = " "a baseline row's bullet ends with its p"
finish
