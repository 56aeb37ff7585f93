#!/bin/bash
# prof-history: memory series. add and import keep each memory metric of a
# row (the median comparisons.json's memory row gives as current) with its
# verdict; trend gives them, changes finds their change points, a run
# added again with its comparisons takes the memory verdicts it lacks, an
# older history is migrated (t7022: the same over PostgreSQL).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/memory.sh"
. "$(dirname "$0")/history.sh"
plan 19

story "$T/h.sqlite" "$T/s"
trend=$T/s/trend.json
changes=$T/s/changes.json

is "$(cat "$T/s/add.rc"):$(cat "$T/s/judge.rc")" "0:0" \
	"runs of the memory phase are added, and judged afterwards"
like "$(cat "$T/s/judge.err")" "the statuses of its rows were added" \
	"the run added again with its comparisons takes them"
jq_ok 'length == 6 and (map(.run_id) == ["m1","m2","m3","m4","m5","m6"])' \
	"$trend" "trend has a row per run"
is "$(jq -c '.[3] | {median: .host_peak_bytes, status: .host_peak_bytes_status, reason: .host_peak_bytes_reason}' "$trend")" \
	"$(mrow host_peak_bytes)" \
	"m4's heap peak and its verdict are comparisons.json's"
is "$(jq -c '.[3] | {median: .host_allocs, status: .host_allocs_status, reason: .host_allocs_reason}' "$trend")" \
	"$(mrow host_allocs)" "its allocations too"
is "$(jq -c '.[3] | {median: .host_allocated_bytes, status: .host_allocated_bytes_status, reason: .host_allocated_bytes_reason}' "$trend")" \
	"$(mrow host_allocated_bytes)" "its bytes allocated too"
is "$(jq -c '.[3] | {median: .rss_peak_bytes, status: .rss_peak_bytes_status, reason: .rss_peak_bytes_reason}' "$trend")" \
	"$(mrow rss_peak_bytes)" "its RSS peak too"
is "$(jq -r '.[3].host_peak_bytes_status' "$trend"):$(jq -r '.[0].host_peak_bytes_status' "$trend")" \
	"warning:null" "the copy is a warning; a run added without comparisons has no verdict"
is "$(jq -c '[.[].host_peak_bytes]' "$trend")" "[$pb,$pb,$pb,$pa,$pa,$pa]" \
	"the heap peak series: a's three runs, then b's"
jq_ok '[.[] | select(.channel == "time")] | length == 0' "$changes" \
	"no time change point: the runs have no times"
is "$(jq -c '.[] | select(.metric == "host_peak_bytes") | [.channel, .unit, .commits, .median_before, .median_after, .change_pct, .status_before, .status_after, .index]' "$changes")" \
	"[\"memory\",\"bytes\",\"c3c3c3..c4c4c4\",$pb,$pa,$(jq -n "($pa / $pb - 1) * 10000 | round / 100"),null,\"warning\",4]" \
	"changes finds the heap peak's step, with its verdict after it"
is "$(jq -c '.[] | select(.metric == "host_allocs") | [.unit, .commits, .median_before, .median_after]' "$changes")" \
	'["allocations","c3c3c3..c4c4c4",1,2]' \
	"and the allocations' step, in allocations"
is "$(jq -r '.[] | select(.metric == "host_peak_bytes") | .bisect' "$changes")" \
	"make bisect GOOD=c3c3c3 BAD=c4c4c4 W=test.ab_copy CHANNEL=memory" \
	"with the make bisect line that finds it: by memory"

# Added again with other statuses: refused, naming the metric.
run prof-history add --db "$T/h.sqlite" --comparisons "$T/cmp4-other.json" \
	"$T/runs/m4.json"
is "$rc:$(cat "$err")" \
	"2:prof-history: $T/h.sqlite: run 'm4' is already there with other statuses (test.ab_copy, cpu, host_peak_bytes: 'warning', not 'stable')" \
	"a memory verdict stored is never changed"

# import keeps the memory of a run folder's comparisons.json too.
mkdir -p "$T/dir/r4"
cp "$T/runs/m4.json" "$T/dir/r4/results.json"
cp "$T/cmp4.json" "$T/dir/r4/comparisons.json"
"$BIN/prof-history" import --db "$T/i.sqlite" "$T/dir" 2>/dev/null
is "$("$BIN/prof-history" trend --db "$T/i.sqlite" | jq -c '.[0] | {median: .host_peak_bytes, status: .host_peak_bytes_status, reason: .host_peak_bytes_reason}')" \
	"$(mrow host_peak_bytes)" "import stores the memory and its verdicts"

# A version-5 history (before memory series) is migrated: its run keeps
# its peaks and has no allocations, and takes new runs with theirs.
sqlite3 "$T/v5.sqlite" <"$ROOT/test/data/history/schema-v5.sql"
run prof-history add --db "$T/v5.sqlite" --comparisons "$T/cmp4.json" \
	"$T/runs/m4.json"
is "$rc:$(sqlite3 "$T/v5.sqlite" 'PRAGMA user_version')" "0:8" \
	"a version-5 history is migrated to version 8"
is "$("$BIN/prof-history" trend --db "$T/v5.sqlite" | jq -c 'map([.run_id, .host_peak_bytes, .host_allocs, .host_peak_bytes_status])')" \
	"[[\"run-v5\",1052656,null,null],[\"m4\",$pa,2,\"warning\"]]" \
	"the old run keeps its peak, the new one has its metrics and verdicts"


# The CUDA device allocator's peak is a metric too (hand-made: a memory
# sample of each run with its device peak; the second doubles it).
for r in 1 2; do
	mkrun "$T/d$r.json" "d$r" "d$r" "2026-06-0${r}T00:00:00Z" 10 10
	jq --argjson d "$((r * 1000000))" '.samples += [range(2) as $i |
		.samples[0] | .phase = "memory" | .index = $i | .call = 0 |
		.memory = {host_peak_bytes: 65536, device_peak_allocated_bytes: $d}]' \
		"$T/d$r.json" >"$T/x.json" && mv "$T/x.json" "$T/d$r.json"
done
"$BIN/prof-diff" --baseline "$T/d1.json" -o "$T/dc.json" "$T/d2.json"
"$BIN/prof-history" add --db "$T/d.sqlite" "$T/d1.json" 2>/dev/null
run prof-history add --db "$T/d.sqlite" --comparisons "$T/dc.json" "$T/d2.json"
is "$rc:$("$BIN/prof-history" trend --db "$T/d.sqlite" | jq -c 'map([.device_peak_allocated_bytes, .device_peak_allocated_bytes_status])')" \
	"0:[[1000000,null],[2000000,\"$(jq -r '.[] | select(.metric == "device_peak_allocated_bytes") | .status' "$T/dc.json")\"]]" \
	"the device peak and its verdict are kept as comparisons.json says them"
jq_ok '[.[] | select(.metric == "device_peak_allocated_bytes") | .status] == ["warning"]' \
	"$T/dc.json" "and doubling it is a warning"
