#!/bin/bash
# Bytes and allocations are whole numbers on every page: a memory row's
# median is one of its samples (the lower middle of an even count, as an
# instruction row's count), never the mean of the two middle ones (two
# runs of 240 and 241 allocations gave 240.5 allocations in
# comparisons.json, its delta 0.5, and in prof-export's bmf and gbench,
# and in the history). And prof-time --memory's memory samples carry
# their run's RSS peak, as a worker's (prof-mem) do: csv and report.html
# read it from them.
. "$(dirname "$0")/lib.sh"
plan 11

# A command's run: two timed samples with their RSS peaks, two memory
# runs; then the second memory run made to differ from the first.
run prof-time --name cmd.mem --repeat 2 --memory -o "$T/t.jsonl" -- true
is "$rc" 0 "prof-time --memory -- CMD: exit 0"
jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
	all(.[]; (.memory.rss_peak_bytes | type == "number" and . > 0) and
	.memory.rss_peak_bytes == .metrics.max_rss_bytes)' "$T/t.jsonl" \
	"its memory samples carry their run's RSS peak (= max_rss_bytes)"
jq -c 'if .phase == "memory" and .index == 1 then
		.memory.host_allocs += 1 | .memory.host_allocated_bytes += 1 |
		.memory.host_peak_bytes += 1 |
		.memory.rss_peak_bytes += 4097
	else . end' "$T/t.jsonl" >"$T/b.jsonl"
"$BIN/prof-merge" --run-id a -o "$T/a.json" "$T/t.jsonl" &&
	"$BIN/prof-merge" --run-id b -o "$T/b.json" "$T/b.jsonl" &&
	"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/c.json" "$T/b.json" ||
	exit 1

# whole: every number of a memory row's sides, and its delta.
whole='def whole: type == "number" and . == floor;'
jq_ok "$whole"' [.[] | select(.phase == "memory")] | length == 4 and
	all(.[]; (.current | [.min, .median, .p90, .max] | all(whole)) and
	(.baseline | [.min, .median, .p90, .max] | all(whole)) and
	(.delta | whole))' "$T/c.json" \
	"prof-diff: every memory row's numbers are whole"
# The lower middle of each metric's values, as the samples have them.
low() {
	jq --arg m "$1" "$JQ_WHOLE"' whole | [.samples[] |
		.memory[$m] // empty] | sort | .[(length - 1) / 2 | floor]' \
		"$T/b.json"
}
jq_ok "map({(.metric // \"time\"): .current.median}) | add |
	.host_allocs == $(low host_allocs) and
	.rss_peak_bytes == $(low rss_peak_bytes)" "$T/c.json" \
	"the median is one of the samples, the lower middle"
jq_ok '.[] | select(.metric == "host_allocs") | .delta == 0' "$T/c.json" \
	"and the delta of 240 and 241 allocations against 240 is 0, not 0.5"

run prof-export --format bmf --comparisons "$T/c.json" "$T/b.json"
jq_ok "$whole"' [.[] | del(.latency) | .[] | .value, .lower_value,
	.upper_value] | length == 12 and all(whole)' "$out" \
	"prof-export bmf: every memory measure whole"
run prof-export --format gbench "$T/b.json"
jq_ok "$whole"' [.benchmarks[] | .max_bytes_used, .allocs_per_iter,
	.total_allocated_bytes, .rss_peak_bytes] | length == 8 and all(whole)' \
	"$out" "prof-export gbench: max_bytes_used, allocs_per_iter, ... whole"
run prof-export --format csv "$T/b.json"
is "$(tr -d '\r' <"$out" | grep -F ',memory,' | cut -d, -f17 | grep -c '^[0-9][0-9]*$')" \
	2 "prof-export csv: each memory sample's line has its RSS peak"

"$BIN/prof-history" add --db "$T/h.sqlite" --comparisons "$T/c.json" \
	"$T/b.json" 2>"$err"
run prof-history trend --db "$T/h.sqlite"
jq_ok "$whole"' length == 1 and (.[0] | [.host_peak_bytes, .host_allocs,
	.host_allocated_bytes, .rss_peak_bytes] | all(whole))' "$out" \
	"the history keeps them whole"
is "$(jq -c '.[0] | [.host_allocs, .rss_peak_bytes]' "$out")" \
	"$(jq -c '[.[] | select(.phase == "memory") | .current.median] |
	[.[1], .[3]]' "$T/c.json")" "the numbers comparisons.json has"

run prof-report --comparisons "$T/c.json" -o "$T/s.md" \
	--html "$T/r.html" "$T/b.json"
like "$(grep -F '| `cmd.mem` | cpu | allocations |' "$T/s.md")" \
	"| $(jq -r '.[] | select(.metric == "host_allocs") | .current.median' \
	"$T/c.json") |" "summary.md: the same allocations"
finish
