#!/bin/bash
# prof-time --shard I/N: a deterministic split of the selected workloads by
# a hash of their id; the shards together are the unsharded selection.
. "$(dirname "$0")/lib.sh"
plan 11

sel=(full --workloads "$TW" --backend cpu --repeat 1 --warmup 0 --timeout 5
	--exclude-category hang --seed 7)
"$BIN/prof-time" "${sel[@]}" -q >"$T/all.jsonl" 2>/dev/null
for i in 1 2 3; do
	"$BIN/prof-time" "${sel[@]}" --shard $i/3 -q >"$T/s$i.jsonl" 2>/dev/null
done
key='[.[] | select(.record | not) | "\(.workload) \(.backend) \(.kind) \(.index)"] | sort'
is "$(cat "$T"/s[123].jsonl | jq -sc "$key")" "$(jq -sc "$key" "$T/all.jsonl")" \
	"the three shards hold exactly the samples of the whole run"
is "$(for i in 1 2 3; do jq -r '.workload // empty' "$T/s$i.jsonl" | sort -u; done | sort | uniq -d | wc -l)" 0 \
	"no workload is in two shards"
jq_ok -s 'length > 0 and all(.[]; .shard == "2/3")' "$T/s2.jsonl" \
	"each sample records its shard"
jq_ok -s 'all(.[]; has("shard") | not)' "$T/all.jsonl" \
	"an unsharded run records none"

"$BIN/prof-time" "${sel[@]}" --shard 2/3 -q >"$T/again.jsonl" 2>/dev/null
is "$(jq -sc '[.[].workload // empty] | unique' "$T/again.jsonl")" \
	"$(jq -sc '[.[].workload // empty] | unique' "$T/s2.jsonl")" \
	"the split is the same every time"

# The shard of a workload depends on its id alone: narrowing the selection
# to one category moves no workload to another shard.
"$BIN/prof-time" "${sel[@]}" --category test --shard 2/3 -q >"$T/narrow.jsonl" 2>/dev/null
is "$(jq -sc '[.[].workload // empty] | unique' "$T/narrow.jsonl")" \
	"$(jq -sc '[.[] | select(.category == "test") | .workload] | unique' "$T/s2.jsonl")" \
	"a smaller selection keeps each workload in its shard"

run prof-time "${sel[@]}" --shard 2/3
like "$(cat "$err")" "prof-time: shard 2/3: " "stderr names the shard and its share"

run prof-time quick --shard 0/3
is "$rc:$(errline)" "2:prof-time: --shard: '0/3' is not I/N with 1 <= I <= N <= 1000" \
	"shard 0 is refused"
run prof-time quick --shard 4/3
is "$rc:$(errline)" "2:prof-time: --shard: '4/3' is not I/N with 1 <= I <= N <= 1000" \
	"a shard past N is refused"
run prof-time --shard 1/2 --name x -- true
is "$rc:$(errline)" \
	"2:prof-time: --shard: a command is one workload; shards split quick, full and diagnose" \
	"command mode has no shards"

# More shards than workloads: an empty shard is a clean, empty run, whose
# run line alone says which shard it is (make merge-shards looks for each).
for i in $(seq 1 40); do
	"$BIN/prof-time" quick --workloads "$TW" --category test --repeat 1 \
		--shard $i/40 -q >"$T/e.jsonl" 2>/dev/null
	erc=$?
	[ "$(wc -l <"$T/e.jsonl")" -gt 1 ] || break
done
is "$erc:$(jq -c '[.record, .shard]' "$T/e.jsonl")" "0:[\"run\",\"$i/40\"]" \
	"an empty shard exits 0 with no sample, its run line only"
finish
