#!/bin/bash
# Adaptive interleaved sampling: --max-repeat (default four times
# --repeat; equal to it, adaptivity is off), every sample records its
# round, and the comparison's reason says how the sampling ended. The
# decision itself is tested on fixed samples (lib-verdict-seq).
. "$(dirname "$0")/lib.sh"
plan 10

judge() {
	"$BIN/prof-merge" --run-id ad -o "$T/cur.json" "$1" &&
		"$BIN/prof-merge" --run-id ad -o "$T/ref.json" "$2" &&
		"$BIN/prof-diff" --baseline "$T/ref.json" -o "$T/cmp.json" \
			"$T/cur.json"
}

run prof-time --name t --repeat 3 --max-repeat 3 --against-command true \
	--against-output "$T/r.jsonl" --output "$T/c.jsonl" -- true
is "$rc" 0 "--max-repeat equal to --repeat: exit 0"
jq_ok -s '[.[] | select(.ab)] | length == 3 and
	(map(.ab.round) == [1, 2, 3]) and
	all(.[]; .ab.repeat == 3 and .ab.max_repeat == 3)' "$T/c.jsonl" \
	"adaptivity off: exactly --repeat samples, each with its round"
judge "$T/c.jsonl" "$T/r.jsonl"
# One look, at 3 samples a side: too few to bound the ratio at 95%, so
# the row did not settle within its budget, and is stable whatever the
# medians say.
jq_ok '.[0] | .status == "stable" and
	(.reason | startswith("not settled after 3 samples a side (p = ")) and
	.interleaved.settled == false and .interleaved.max_repeat == 3' \
	"$T/cmp.json" "adaptivity off, 3 a side: stable, and not settled"

run prof-time --name t --repeat 3 --against-command true \
	--against-output "$T/r.jsonl" --output "$T/c.jsonl" -- true
is "$rc" 0 "adaptive by default"
jq_ok -s '[.[] | select(.ab)] as $s | ($s | length) >= 3 and
	($s | length) <= 12 and ($s | map(.ab.round)) == [range(1; ($s | length) + 1)]
	and all($s[]; .ab.max_repeat == 12)' "$T/c.jsonl" \
	"between --repeat and four times it, rounds in order"
judge "$T/c.jsonl" "$T/r.jsonl"
like "$(jq -r '.[0].reason' "$T/cmp.json")" "settled after " \
	"the reason says how the sampling ended"
jq_ok -s '[.[] | select(.ab)] | length' "$T/r.jsonl" \
	"the reference side has its samples too"

run prof-time --name t --repeat 4 --max-repeat 3 --against-command true \
	--against-output "$T/r.jsonl" -- true
is "$rc:$(errline)" "2:prof-time: --max-repeat: 3 is less than --repeat 4" \
	"a budget under --repeat is exit 2"
run prof-time --name t --max-repeat 8 -- true
is "$rc:$(errline)" \
	"2:prof-time: --max-repeat: only for an interleaved A/B (--against BIN or --against-command STRING)" \
	"--max-repeat without an A/B is exit 2"
run prof-count --name t --max-repeat 8 -- true
is "$rc" 2 "prof-count has no A/B to extend"
