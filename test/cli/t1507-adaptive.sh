#!/bin/bash
# Adaptive interleaved sampling: --max-repeat (default four times
# --repeat; equal to it, adaptivity is off), every sample records its
# round, and the comparison's reason says how the sampling ended. The
# decision itself is tested on fixed samples (lib-verdict-seq).
. "$(dirname "$0")/lib.sh"
plan 14

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
# the row did not settle within its budget, and is unsettled whatever the
# medians say.
jq_ok '.[0] | .status == "unsettled" and
	(.reason | startswith("not settled after 3 samples a side (p = ")) and
	.interleaved.settled == false and .interleaved.max_repeat == 3' \
	"$T/cmp.json" "adaptivity off, 3 a side: unsettled"

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

# One number for a row (issue 30): the progress line's change is the
# row's judged ratio (the samples its last look judged, not the medians
# of all), as summary.md's table and comparisons.json give it.
run prof-time quick --workloads "$TBIN/prof-ab-b" --against "$TBIN/prof-ab-a" \
	--repeat 6 --seed 5 --output "$T/b.jsonl" --against-output "$T/a.jsonl"
is "$rc" 0 "an adaptive A/B of two workloads"
judge "$T/b.jsonl" "$T/a.jsonl"
"$BIN/prof-report" --comparisons "$T/cmp.json" -o "$T/s.md" "$T/cur.json"
# Each row: workload, the progress line's percentage, the table's cell;
# and the line's two medians, which are of the samples and the time that
# were judged, so that their order agrees with the percentage's sign
# (issue 41: "median 0.031 ms, reference 0.026 ms (-10.2% ...)").
ok=0 rows=0 order=0
for w in $(jq -r '.[] | select(.phase == "timing") | .workload' "$T/cmp.json"); do
	rows=$((rows + 1))
	line=$(grep -F "] $w cpu: " "$err")
	awk -v l="$line" 'BEGIN {
		u["ns"] = 1e-6; u["µs"] = 1e-3; u["ms"] = 1; u["s"] = 1e3
		if (!match(l, /median [0-9.]+ [^ ,]+, reference [0-9.]+ [^ ,]+ \([-+][0-9.]+%/))
			exit 1
		split(substr(l, RSTART, RLENGTH), f, /[ ,(%]+/)
		c = f[2] * u[f[3]]; r = f[5] * u[f[6]]; p = f[7] + 0
		# A percentage that rounds to 0.0% may sit beside medians
		# that differ in their last digit, and equal medians (3
		# decimals) beside a percentage under 0.05%: both agree.
		d = (c - r) / r; if (d < 0) d = -d
		exit !((c > r && p > 0) || (c < r && p < 0) ||
			(p == 0 && d < 0.0005) || (c == r && p * p < 0.0025))
	}' && order=$((order + 1))
	pct=$(sed -n 's/.* ms (\([-+][0-9.]*%\) judged on .*/\1/p' <<<"$line")
	cell=$(grep -F "| \`$w\` |" "$T/s.md" | awk -F' [|] ' '{print $13}')
	jq -e --arg w "$w" --arg p "${pct%\%}" '.[] | select(.workload == $w and
		.phase == "timing") | ($p | length > 0) and
		((((.ratio - 1) * 100) - ($p | tonumber)) | fabs) <= 0.05' \
		"$T/cmp.json" >/dev/null && [ "$pct" = "$cell" ] && ok=$((ok + 1))
done
is "$ok/$rows" "2/2" \
	"each row's progress percentage is comparisons.json's ratio and summary.md's cell"
is "$order/$rows" "2/2" \
	"each progress line's medians are the judged ones: their order is its sign's"
like "$(cat "$err")" " judged on " "the progress line says which samples it judged"

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
