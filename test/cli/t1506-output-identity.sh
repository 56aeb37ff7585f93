#!/bin/bash
# Output identity: a row whose two sides computed different outputs is
# incomparable, never judged on time or count, and its reason names both
# checksums. Workloads checksum their own output (the A/B pair's
# test.ab_wrong is faster on the B side because it does half the work);
# commands with --check-output hash each call's stdout (SHA-256), in
# timing, interleaved A/B and prof-count.
. "$(dirname "$0")/lib.sh"
plan 15

A=$TBIN/prof-ab-a
B=$TBIN/prof-ab-b
sum_a=$(echo a | sha256sum | cut -c1-12)
sum_b=$(echo b | sha256sum | cut -c1-12)

# judge CUR REF: merge both sides and compare them.
judge() {
	"$BIN/prof-merge" --run-id io -o "$T/cur.json" "$1" &&
		"$BIN/prof-merge" --run-id io -o "$T/ref.json" "$2" &&
		"$BIN/prof-diff" --baseline "$T/ref.json" -o "$T/cmp.json" \
			"$T/cur.json"
}
# A workload's time or count row (a command has a memory row beside it).
row() {
	jq -r --arg w "$1" ".[] | select(.workload == \$w and
		.phase != \"memory\") | $2" "$T/cmp.json"
}

# A workload: the B side is faster and wrong.
run prof-time full --category wrong --workloads "$B" --against "$A" \
	--repeat 4 --seed 3 --output "$T/w1.jsonl" --against-output "$T/w2.jsonl"
is "$rc" 0 "the A/B run is exit 0"
judge "$T/w1.jsonl" "$T/w2.jsonl"
ca=$(jq -r 'select(.workload == "test.ab_wrong") | .checksum' "$T/w2.jsonl" |
	sort -u | cut -c1-12)
cb=$(jq -r 'select(.workload == "test.ab_wrong") | .checksum' "$T/w1.jsonl" |
	sort -u | cut -c1-12)
is "$(row test.ab_wrong .status)" incomparable \
	"a faster build that computes something else: incomparable"
is "$(row test.ab_wrong .reason)" \
	"output checksum $cb != baseline $ca: the two sides computed different outputs" \
	"the reason names both checksums"
jq_ok ".[0].ratio == null and .[0].p_value == null and
	(.[0].current.output_checksum | startswith(\"$cb\")) and
	(.[0].baseline.output_checksum | startswith(\"$ca\"))" "$T/cmp.json" \
	"no ratio and no p-value; each side's checksum in the comparison"

# Commands: --check-output is SHA-256 of stdout.
run prof-time --name out --repeat 2 --check-output -- echo a
full_a=$(echo a | sha256sum | cut -d' ' -f1)
jq_ok -s "[.[] | select(.workload == \"out\") | .checksum] ==
	[range(2) | \"$full_a\"]" "$out" "each call's stdout hashed into checksum"
run prof-time --name out --repeat 2 -- echo a
jq_ok -s '[.[] | select(.workload == "out") | .checksum] == [null, null]' \
	"$out" "without --check-output no checksum"
run prof-time --name out --repeat 3 --check-output \
	--against-command "echo b" --against-output "$T/c2.jsonl" \
	--output "$T/c1.jsonl" -- echo a
is "$rc" 0 "an A/B of two commands with --check-output"
judge "$T/c1.jsonl" "$T/c2.jsonl"
is "$(row out .status):$(row out .reason)" \
	"incomparable:output checksum $sum_a != baseline $sum_b: the two sides computed different outputs" \
	"different outputs between the sides: incomparable"
run prof-time --name out --repeat 3 --check-output \
	--against-command "echo a" --against-output "$T/c2.jsonl" \
	--output "$T/c1.jsonl" -- echo a
judge "$T/c1.jsonl" "$T/c2.jsonl"
ok "$([ "$(row out .status)" != incomparable ]; echo $?)" \
	"the same output on both sides is judged"
run prof-time --name out --repeat 3 --check-output \
	--against-command "echo a" --against-output "$T/c2.jsonl" \
	--output "$T/c1.jsonl" -- sh -c 'echo $$'
judge "$T/c1.jsonl" "$T/c2.jsonl"
is "$(row out .status)" incomparable \
	"outputs that differ between calls of one side: incomparable"
like "$(row out .reason)" "differ between calls of the current side" \
	"and says so"

# prof-count: the same for counts.
if command -v valgrind >/dev/null; then
	# One command line (so one fixture), two outputs.
	run prof-count --name out --check-output --env V=a -o "$T/k1.jsonl" \
		-- sh -c 'echo $V'
	is "$rc" 0 "prof-count --check-output"
	jq_ok -s "[.[] | select(.workload == \"out\") | .checksum] ==
		[range(2) | \"$full_a\"]" "$T/k1.jsonl" \
		"hashes the counted command's stdout"
	"$BIN/prof-count" -q --name out --check-output --env V=b \
		-o "$T/k2.jsonl" -- sh -c 'echo $V'
	judge "$T/k1.jsonl" "$T/k2.jsonl"
	is "$(row out .status):$(row out .reason)" \
		"incomparable:output checksum $sum_a != baseline $sum_b: the two sides computed different outputs" \
		"different outputs: an incomparable count row"
else
	skip "valgrind is not installed"
	skip "valgrind is not installed"
	skip "valgrind is not installed"
fi

run prof-time full --check-output
is "$rc:$(errline)" \
	"2:prof-time: --check-output: only for a command (--name ID -- CMD); a workload checksums its own output, and a Google Benchmark binary's has none to check" \
	"--check-output on workloads is exit 2"
