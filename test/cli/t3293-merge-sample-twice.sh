#!/bin/bash
# prof-merge refuses a sample given twice and the streams of two runs
# (issue 28, item 3): `prof-merge s.jsonl s.jsonl` doubled every sample, n
# doubled and the Mann-Whitney p shrank on no new evidence. A sample is its
# run, workload, backend, segment, phase, kind and index: a second one is
# exit 2, naming both places, nothing written.
. "$(dirname "$0")/lib.sh"
plan 16

D=test/data/results
S=$T/s.jsonl
jq -c '.samples[]' $D/current.json >"$S"
total=$(wc -l <"$S")

run prof-merge -o "$T/r.json" "$S" "$S"
is "$rc:$(errline)" \
	"2:prof-merge: $S:1: a second sample of 'w.warning' (cpu, timing, warm, index 0): the first is at $S:1; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"a stream given twice: exit 2, both places"
is "$(ls "$T/r.json" 2>/dev/null)" "" "nothing is written"
run prof-merge -o "$T/r.json" "$S" - <"$S"
like "$(errline)" "prof-merge: <stdin>:1: a second sample of 'w.warning' (cpu, timing, warm, index 0): the first is at $S:1;" \
	"the same stream on stdin"
{ cat "$S"; sed -n 3p "$S"; } >"$T/twice.jsonl"
run prof-merge -o "$T/r.json" "$T/twice.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/twice.jsonl:$((total + 1)): a second sample of 'w.warning' (cpu, timing, warm, index 2): the first is at $T/twice.jsonl:3; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"one line twice in a stream"

# A group's samples every other line (its warm and cold ones by turns),
# and out of order: the first of a repeat is still named.
W='select(.workload == "w.warning" and .phase == "timing" and
	.kind == "warm" and .index < 3)'
jq -c "$W | ., (.kind = \"cold\")" "$S" >"$T/turns.jsonl"
{ cat "$T/turns.jsonl"; sed -n 3p "$T/turns.jsonl"; } >"$T/turns2.jsonl"
run prof-merge -o "$T/r.json" "$T/turns2.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/turns2.jsonl:7: a second sample of 'w.warning' (cpu, timing, warm, index 1): the first is at $T/turns2.jsonl:3; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"samples every other line: a repeat names the first"
jq -c "$W" "$S" >"$T/w.jsonl"
for i in 3 1 2; do sed -n ${i}p "$T/w.jsonl"; done >"$T/order.jsonl"
{ cat "$T/order.jsonl"; sed -n 3p "$T/order.jsonl"; } >"$T/order2.jsonl"
run prof-merge -o "$T/r.json" "$T/order2.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/order2.jsonl:4: a second sample of 'w.warning' (cpu, timing, warm, index 1): the first is at $T/order2.jsonl:3; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"out of order: the same"
{ cat "$T/order.jsonl"; sed -n 1p "$T/order.jsonl"; } >"$T/order3.jsonl"
run prof-merge -o "$T/r.json" "$T/order3.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/order3.jsonl:4: a second sample of 'w.warning' (cpu, timing, warm, index 2): the first is at $T/order3.jsonl:1; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"and the index that came before them"

# Samples that differ in one of the parts are other samples.
jq -c '.index += 100' "$S" >"$T/more.jsonl"
jq -c 'select(.workload == "w.stable") | .kind = "cold"' "$S" >"$T/cold.jsonl"
jq -c '.backend = "other"' "$S" >"$T/other.jsonl"
jq -c '.env.cpu_model = "Other CPU" |
	.segment = (.segment | fromjson | .cpu_model = "Other CPU" | tojson)' \
	"$S" >"$T/seg.jsonl"
run prof-merge -o "$T/r.json" "$S" "$T/more.jsonl" "$T/cold.jsonl" \
	"$T/other.jsonl" "$T/seg.jsonl"
is "$rc" 0 "another index, kind, backend or segment: other samples"
jq_ok ".samples | length == $((total * 4 + $(wc -l <"$T/cold.jsonl")))" \
	"$T/r.json" "all of them kept"

# Streams of two runs: their run lines say so.
# runline ID SHARD: a run line
runline() {
	jq -cn --argjson id "$1" --argjson s "$2" '{record: "run", run_id: $id,
		mode: "quick", options: {phase: "timing"}, shard: $s}'
}
{ runline null '"1/2"'; sed -n 1,10p "$S"; } >"$T/sh1.jsonl"
{ runline null '"2/2"'; sed -n '11,$p' "$S"; } >"$T/sh2.jsonl"
run prof-merge -o "$T/r.json" "$T/sh1.jsonl" "$T/sh2.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: streams of two runs: '$T/sh2.jsonl' (shard 2/2) and '$T/sh1.jsonl' (shard 1/2); merge each shard's streams on their own, then the shards' results with --shards" \
	"the streams of two shards: exit 2, naming both"
{ runline null null; sed -n '11,$p' "$S"; } >"$T/none.jsonl"
run prof-merge -o "$T/r.json" "$T/sh1.jsonl" "$T/none.jsonl"
like "$rc:$(errline)" "2:prof-merge: streams of two runs: '$T/none.jsonl' (no shard) and '$T/sh1.jsonl' (shard 1/2);" \
	"a shard's stream and an unsharded one"
{ runline '"r1"' null; sed -n 1,10p "$S"; } >"$T/r1.jsonl"
{ runline '"r2"' null; sed -n '11,$p' "$S"; } >"$T/r2.jsonl"
run prof-merge -o "$T/r.json" "$T/r1.jsonl" "$T/r2.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: streams of two runs: '$T/r2.jsonl' (run 'r2') and '$T/r1.jsonl' (run 'r1'); a run's shards merge with --shards" \
	"streams whose run lines name two runs"
# One run's phases: run lines of one shard, no run id, other options.
{ runline null '"1/2"' | jq -c '.options.phase = "instructions"';
	sed -n '11,$p' "$S"; } >"$T/ph.jsonl"
run prof-merge -o "$T/r.json" "$T/sh1.jsonl" "$T/ph.jsonl"
is "$rc" 0 "the phases of one run merge"

# Browser rows given twice: their lines.
cat >"$T/p.jsonl" <<'ROWS'
{"workload":"browser.boot","fixture":"viewer","backend":"chromium","duration_ms":95.5,"env":{"browser":"Chromium 156"}}

{"workload":"browser.boot","fixture":"viewer","backend":"chromium","index":0,"duration_ms":96,"env":{"browser":"Chromium 156"}}
ROWS
run prof-merge -o "$T/r.json" --playwright "$T/p.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/p.jsonl:3: a second sample of 'browser.boot' (chromium, browser, warm, index 0): the first is at $T/p.jsonl:1; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"a browser row twice: its line and the first's"

# A shard's results with a sample twice: their places in the document.
jq '{run: {mode: "quick", options: {}, shard: "1/1"}} + . |
	.samples += [.samples[4]]' $D/baseline.json >"$T/shard.json"
run prof-merge --shards 1 -o "$T/r.json" "$T/shard.json"
n=$(jq '.samples | length - 1' "$T/shard.json")
is "$rc:$(errline)" \
	"2:prof-merge: $T/shard.json: .samples[$n]: a second sample of 'w.warning' (cpu, timing, warm, index 4): the first is at $T/shard.json: .samples[4]; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"--shards: a sample twice in a shard, by its JSON path"
jq '.samples |= .[:-1]' "$T/shard.json" >"$T/shard1.json"
run prof-merge --shards 1 -o "$T/r.json" "$T/shard1.json"
is "$rc" 0 "and without it the shard merges"
finish
