#!/bin/bash
# The machine-drift guard: prof-time's calibration records, prof-merge's
# "calibration", prof-diff's drift note and the summary's opening line.
. "$(dirname "$0")/lib.sh"
plan 22

A=$TBIN/prof-ab-a


run prof-time quick --workloads "$A" --seed 3 --output "$T/s.jsonl"
is "$rc" 0 "a timing run"
jq_raw -s '[.[] | select(.record == "calibration")] | length == 3 and
	all(.[]; .kernel == "prof-calib-1" and .int_ms > 0 and .mem_ms > 0 and
	.ms == ((.int_ms + .mem_ms) * 1e6 | round / 1e6))' "$T/s.jsonl" \
	"writes a calibration record at the start, between groups and at the end"
jq_raw -s '[.[] | select(.record == "machine")] | length == 1 and
	(.[0] | (.load_avg | length == 3) and has("steal_pct") and
	has("governor") and (.aslr | type == "number"))' "$T/s.jsonl" \
	"and one machine record: load, steal, governor, ASLR"
run prof-time --name t --repeat 1 -o "$T/t.jsonl" -- true
jq_raw -s 'map(select(.record != "run" and .record != "context") | .record) ==
	["calibration", null, "calibration", "machine"]' \
	"$T/t.jsonl" "a command run is calibrated at its start and end"

run prof-merge --run-id cur -o "$T/cur.json" "$T/s.jsonl"
is "$rc" 0 "prof-merge takes the records"
jq_ok '(.samples | length == 6) and .calibration.kernel == "prof-calib-1" and
	.calibration.n == 3 and (.calibration.points | map(.at)) ==
	["start", "between", "end"] and .calibration.median_ms > 0 and
	.calibration.min_ms <= .calibration.median_ms and
	.calibration.spread_pct >= 0 and (.calibration.machine.load_avg | length == 3)' \
	"$T/cur.json" "into the results' top-level calibration, not the samples"

# A baseline whose calibration is 30% faster: this machine is now slower.
jq '.run_id = "base" | .calibration.median_ms /= 1.3' "$T/cur.json" >"$T/fast.json"
run prof-diff --baseline "$T/fast.json" -o "$T/c.json" "$T/cur.json"
is "$rc" 0 "drift never changes the exit code"
jq_ok 'length == 2 and all(.[]; .drift | startswith("machine 30% slower than when the baseline was taken"))' \
	"$T/c.json" "every row carries the drift note"
jq_ok 'all(.[]; .drift | endswith(": timing warnings may be noise; instruction counts and `make compare` are not affected"))' \
	"$T/c.json" "which says what is not affected"
jq_ok 'all(.[]; .status == "stable")' "$T/c.json" "statuses are the rule's"
run prof-report --comparisons "$T/c.json" -o "$T/summary.md" "$T/cur.json"
# (The run's own spread may add "and machine unsteady ...".)
like "$(head -n 1 "$T/summary.md")" \
	"machine 30% slower than when the baseline was taken" \
	"summary.md opens with the drift line"
is "$(sed -n 2p "$T/summary.md")" "" "then a blank line"
# The note is the tools' own Markdown: its code is a code span, never
# backslash-escaped text.
line=$(head -n 1 "$T/summary.md")
case "$line" in
*\\*) ok 1 "the note's \`make compare\` a code span, no backslash" ;;
*"instruction counts and \`make compare\` are not affected") ok 0 \
	"the note's \`make compare\` a code span, no backslash" ;;
*) ok 1 "the note's \`make compare\` a code span, no backslash" ;;
esac
[ "${line#*\\}" = "$line" ] || echo "#   got: '$line'" >&2

# Made by hand: steady and alike, no note; unsteady, a note.
steady='.calibration = {kernel: "prof-calib-1", points: [], n: 3,
	min_ms: 4, median_ms: 4, max_ms: 4.2, spread_pct: 5, machine: null}'
jq "$steady" "$T/cur.json" >"$T/c1.json"
jq ".run_id = \"b\" | $steady | .calibration.median_ms = 4.3" "$T/cur.json" >"$T/b1.json"
run prof-diff --baseline "$T/b1.json" -o "$T/c.json" "$T/c1.json"
jq_ok 'all(.[]; .drift == null)' "$T/c.json" "7% apart and a 5% spread: no note"
run prof-report --comparisons "$T/c.json" -o "$T/summary.md" "$T/c1.json"
like "$(head -n 1 "$T/summary.md")" "# Performance profile" \
	"and the summary opens as always"
jq '.calibration.median_ms = 3.5' "$T/b1.json" >"$T/b2.json"
run prof-diff --baseline "$T/b2.json" -o "$T/c.json" "$T/c1.json"
jq_ok 'all(.[]; .drift | startswith("machine 14% slower"))' "$T/c.json" \
	"14% apart: a note"
jq '.calibration.median_ms = 5' "$T/b1.json" >"$T/b3.json"
run prof-diff --baseline "$T/b3.json" -o "$T/c.json" "$T/c1.json"
jq_ok 'all(.[]; .drift | startswith("machine 20% faster"))' "$T/c.json" \
	"a faster machine: a note too"
jq '.calibration.spread_pct = 25' "$T/c1.json" >"$T/c2.json"
run prof-diff --baseline "$T/b1.json" -o "$T/c.json" "$T/c2.json"
jq_ok 'all(.[]; .drift | startswith("machine unsteady during this run (calibration spread 25%)"))' \
	"$T/c.json" "a run's own spread above 10%: a note"
jq 'del(.calibration)' "$T/b1.json" >"$T/b4.json"
run prof-diff --baseline "$T/b4.json" -o "$T/c.json" "$T/c1.json"
jq_ok 'all(.[]; .drift == null)' "$T/c.json" \
	"a baseline without a calibration: nothing to compare"

# Bad input names its place.
jq '.calibration.median_ms = "4"' "$T/b1.json" >"$T/bad.json"
run prof-diff --baseline "$T/bad.json" "$T/c1.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .calibration.median_ms: expected a number, got a string" \
	"a malformed calibration is exit 2, by its path"
printf '%s\n' '{"record":"calibration","kernel":"prof-calib-1","at":"start","int_ms":"x","mem_ms":1,"ms":1}' \
	>"$T/bad.jsonl"
run prof-merge "$T/bad.jsonl"
is "$rc:$(errline)" "2:prof-merge: $T/bad.jsonl:1: .int_ms: expected a number, got a string" \
	"a malformed record is exit 2, by file and line"
is "$(cat "$out")" "" "and nothing is written"
finish
