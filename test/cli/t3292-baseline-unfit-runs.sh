#!/bin/bash
# prof-baseline refuses two more unfit runs (issue 28, item 3): one whose
# output checksum changes from call to call within a row (every later run
# of the row would be incomparable against it for good), and one shard of
# a run (the other shards' workloads would stay new against it). Exit 1,
# the reason, nothing written, --add or not.
. "$(dirname "$0")/lib.sh"
plan 12

D=test/data/results
B=$T/bl
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
C=cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
# sums S0 S1 S2: baseline.json with w.stable's three calls giving these
# output checksums
sums() {
	jq --arg a "$1" --arg b "$2" --arg c "$3" '.samples |= map(
		if .workload == "w.stable" then
			.checksum = [$a, $b, $c][.index] else . end)' \
		$D/baseline.json
}
sums $A $A $C >"$T/unsteady.json"
run prof-baseline --from "$T/unsteady.json" --name b --output "$B"
is "$rc:$(errline)" \
	"1:prof-baseline: refusing '$T/unsteady.json': the output of w.stable (cpu) changes from call to call: checksum aaaaaaaaaaaa at .samples[26], cccccccccccc at .samples[28]; every later run of the row would be incomparable against it" \
	"a row whose output changes between calls: exit 1, naming the workload, both checksums and places"
is "$(ls "$B" 2>/dev/null | wc -l)" 0 "nothing is written"
"$BIN/prof-baseline" --from $D/baseline.json --name b --output "$B" 2>/dev/null
cp "$B/b.json" "$T/before.json"
run prof-baseline --from "$T/unsteady.json" --name b --output "$B" --add
is "$rc" 1 "--add: refused too"
cmp -s "$B/b.json" "$T/before.json"
is "$?" 0 "and the baseline there is left as it was"

sums $A $A $A >"$T/steady.json"
run prof-baseline --from "$T/steady.json" --name steady --output "$B"
is "$rc" 0 "the same output on every call: promoted"
# Only the calls a row is made of count: a cold call, a memory sample or
# an instruction row of its own may give another output.
jq --arg c $C '.samples += [.samples[] | select(.workload == "w.stable" and
	.index == 0) | (.kind = "cold"), (.phase = "memory") |
	.checksum = $c]' "$T/steady.json" >"$T/cold.json"
run prof-baseline --from "$T/cold.json" --name cold --output "$B"
is "$rc" 0 "a cold call's or a memory sample's other output is no row's: promoted"
jq --arg c $C '.samples |= map(if .workload == "w.stable" and .index == 2
	then .phase = "instructions" | .instructions = 1000 | .checksum = $c
	else . end)' "$T/steady.json" >"$T/count.json"
run prof-baseline --from "$T/count.json" --name count --output "$B"
is "$rc" 0 "a count row is a row of its own: promoted"

# One shard of a run: refused, saying which shard it holds.
jq '{run: {mode: "quick", options: {repeat: 5}, shard: "1/3"}} + .' \
	$D/baseline.json >"$T/shard.json"
run prof-baseline --from "$T/shard.json" --name s --output "$B"
is "$rc:$(errline)" \
	"1:prof-baseline: refusing '$T/shard.json': it is shard 1/3 of a run and holds that shard's workloads only; merge the shards' results first (prof-merge --shards 3, make merge-shards) and promote the merged run" \
	"a shard's results: exit 1, naming the shard and how to get a whole run"
is "$(ls "$B/s.json" 2>/dev/null)" "" "nothing is written"
run prof-baseline --from "$T/shard.json" --name b --output "$B" --add
is "$rc:$(cmp -s "$B/b.json" "$T/before.json"; echo $?)" "1:0" \
	"--add of a shard: refused too, the baseline there unchanged"

# A merge of shards is a whole run: promoted.
jq '{run: {mode: "quick", options: {repeat: 5}, shard: null,
	shards: {"1/1": "r1"}}} + .' $D/baseline.json >"$T/merged.json"
run prof-baseline --from "$T/merged.json" --name merged --output "$B"
is "$rc" 0 "the merge of a run's shards is promoted"
jq_raw '.run.shard == null' "$B/merged.json" "and names no shard"
finish
