#!/bin/bash
# prof-export of a run with memory samples (prof-mem's stream merged with
# prof-time's, as MEMORY=1 does): csv has every memory number, bmf a
# measure per metric (heap-peak-bytes, allocations, bytes-allocated,
# rss-peak-bytes), gbench the numbers on each entry under Google
# Benchmark's memory keys; with --comparisons each memory row's verdict
# (the A/B pair's copy: heap peak warning, allocations stable).
. "$(dirname "$0")/lib.sh"
plan 18

for s in a b; do
	"$BIN/prof-time" full --category copy --workloads "$TBIN/prof-ab-$s" \
		--repeat 3 -q --output "$T/t$s.jsonl" &&
		"$BIN/prof-mem" full --category copy \
			--workloads "$TBIN/prof-ab-$s" -q --output "$T/m$s.jsonl" &&
		"$BIN/prof-merge" --run-id "$s" -o "$T/$s.json" "$T/t$s.jsonl" \
			"$T/m$s.jsonl"
done
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/c.json" "$T/b.json"
jq_ok '[.[] | select(.phase == "memory") | [.metric, .status]] ==
	[["host_peak_bytes", "warning"], ["host_allocs", "stable"],
	 ["host_allocated_bytes", "warning"], ["rss_peak_bytes", "stable"]] or
	[.[] | select(.phase == "memory") | [.metric, .status]] ==
	[["host_peak_bytes", "warning"], ["host_allocs", "stable"],
	 ["host_allocated_bytes", "warning"], ["rss_peak_bytes", "warning"]]' \
	"$T/c.json" "(prof-diff: the copy's heap peak and bytes warning)"
# The memory samples' values of metric M, sorted.
vals() {
	jq -c --arg m "$1" '[.samples[] | select(.phase == "memory") |
		.memory[$m]] | sort' "$T/b.json"
}
# Their median: one of them, the lower middle of an even count (bytes and
# allocations are whole numbers, t3401).
median() {
	jq -n --argjson v "$(vals "$1")" '$v | .[(length - 1) / 2 | floor]'
}

# csv: the four numbers of each memory sample, as it records them.
run prof-export --format csv "$T/b.json"
is "$(head -n 1 "$out")" "$(printf 'run_id,commit,workload,backend,segment_id,category,phase,kind,index,duration_ms,outcome,reason,instructions,host_peak_bytes,host_allocs,host_allocated_bytes,rss_peak_bytes,device_peak_allocated_bytes\r')" \
	"csv: a column for each memory metric"
tr -d '\r' <"$out" >"$T/b.csv"
is "$(grep -F ',memory,' "$T/b.csv" | cut -d, -f14-17)" \
	"$(jq -r '.samples[] | select(.phase == "memory") | .memory |
	"\(.host_peak_bytes),\(.host_allocs),\(.host_allocated_bytes),\(.rss_peak_bytes)"' \
	"$T/b.json")" "each memory sample's numbers, in its line"
is "$(grep -F ',timing,' "$T/b.csv" | cut -d, -f14-17 | sort -u)" ",,," \
	"a workload's timing samples have none"
run prof-export --format csv --comparisons "$T/c.json" "$T/b.json"
tr -d '\r' <"$out" >"$T/bs.csv"
hreason=$(jq -r '.[] | select(.metric == "host_peak_bytes") | .reason' \
	"$T/c.json")
like "$(grep -F ',memory,' "$T/bs.csv" | head -n 1)" \
	",warning,\"host_peak_bytes: $hreason; host_allocated_bytes: " \
	"a memory sample: its most severe verdict, the metrics named"

# bmf: a measure per metric, median, min and max of its values.
pv=$(vals host_peak_bytes)
pm=$(median host_peak_bytes)
nm=$(median host_allocs)
tm=$(median host_allocated_bytes)
rm=$(median rss_peak_bytes)
run prof-export --format bmf --comparisons "$T/c.json" "$T/b.json"
is "$rc" 0 "bmf with memory rows"
jq_ok '.["test.ab_copy/cpu"] | keys == ["allocations", "bytes-allocated",
	"heap-peak-bytes", "latency", "rss-peak-bytes"]' "$out" \
	"latency and four memory measures"
jq_ok ".[\"test.ab_copy/cpu\"][\"heap-peak-bytes\"] | .value == $pm and
	.lower_value == $pv[0] and .upper_value == $pv[-1] and
	.status == \"warning\" and (.status_reason | startswith(\"heap peak \"))" \
	"$out" "heap-peak-bytes: the median, min and max, the warning"
jq_ok ".[\"test.ab_copy/cpu\"].allocations | .value == $nm and
	.status == \"stable\"" "$out" "allocations: stable"
jq_ok ".[\"test.ab_copy/cpu\"][\"rss-peak-bytes\"].value == $rm" "$out" \
	"rss-peak-bytes: the median RSS peak"
jq_ok 'to_entries | all(.[]; .value | to_entries | all(.[];
	(.value.value | type == "number")))' "$out" \
	"every measure has its number (Bencher reads value)"

# gbench: the numbers on each entry, Google Benchmark's memory keys.
run prof-export --format gbench --comparisons "$T/c.json" "$T/b.json"
is "$rc" 0 "gbench with memory rows"
jq_ok ".benchmarks | length == 3 and all(.[]; .max_bytes_used == $pm and
	.allocs_per_iter == $nm and .total_allocated_bytes == $tm and
	.rss_peak_bytes == $rm)" "$out" \
	"each entry: max_bytes_used, allocs_per_iter, total_allocated_bytes, rss_peak_bytes"
jq_ok '.benchmarks | all(.[]; .memory_status.max_bytes_used == "warning"
	and .memory_status.allocs_per_iter == "stable" and
	(.memory_status_reason.max_bytes_used | startswith("heap peak ")) and
	(.status | type == "string"))' "$out" \
	"with each memory row's verdict beside the time verdict"

# A memory row of a metric prof-diff has none of: refused, named.
jq '(.[] | select(.metric == "host_allocs")).metric = "heap"' "$T/c.json" \
	>"$T/cx.json"
run prof-export --format bmf --comparisons "$T/cx.json" "$T/b.json"
is "$rc:$(cat "$err")" "2:prof-export: $T/cx.json: [2].metric: not a memory metric of prof-diff (host_peak_bytes, host_allocs, host_allocated_bytes, rss_peak_bytes)" \
	"an unknown memory metric is refused (exit 2), file and path named"
is "$(wc -c <"$out")" 0 "and nothing written"
jq '. + [.[-1]]' "$T/c.json" >"$T/cd.json"
run prof-export --format csv --comparisons "$T/cd.json" "$T/b.json"
is "$rc:$(cat "$err")" "2:prof-export: $T/cd.json: [5]: the same row as [4] (test.ab_copy, cpu)" \
	"a memory row given twice is refused"

# A command's RSS peak (prof-time -- CMD) is exported as a worker's.
"$BIN/prof-time" --name cmd --repeat 2 -q -o "$T/cmd.jsonl" -- true &&
	"$BIN/prof-merge" --run-id cmd -o "$T/cmd.json" "$T/cmd.jsonl"
run prof-export --format bmf "$T/cmd.json"
jq_ok '.["cmd/cpu"] | keys == ["latency", "rss-peak-bytes"] and
	.["rss-peak-bytes"].value > 0' "$out" \
	"a command's row: latency and rss-peak-bytes"
finish
