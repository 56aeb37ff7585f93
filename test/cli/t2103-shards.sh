#!/bin/bash
# Shards: a run split with prof-time --shard I/N, each shard merged on its
# own, then merged back with prof-merge --shards N (make merge-shards): the
# same samples, comparisons and report as the run unsplit; shards that are
# not one whole run are exit 2, naming the shard.
. "$(dirname "$0")/lib.sh"
plan 26

D=test/data/results

# Real shards of the test workloads: the same selection as the whole run.
sel=(full --workloads "$TW" --backend cpu --repeat 1 --warmup 0 --timeout 5
	--exclude-category hang --seed 7)
"$BIN/prof-time" "${sel[@]}" -q >"$T/all.jsonl" 2>/dev/null
"$BIN/prof-merge" --run-id all --commit c0 -o "$T/all.json" "$T/all.jsonl"
mkdir -p "$T/real/1" "$T/real/2"
for i in 1 2; do
	"$BIN/prof-time" "${sel[@]}" --shard $i/2 -q >"$T/s$i.jsonl" 2>/dev/null
	"$BIN/prof-merge" --run-id run-$i --commit c0 \
		-o "$T/real/$i/results.json" "$T/s$i.jsonl"
done
jq_ok '.run.shard == "2/2" and .run.mode == "full"' "$T/real/2/results.json" \
	"a shard's results record its shard, mode and options"
run prof-merge --shards 2 -o "$T/real.json" "$T/real/1" "$T/real/2"
is "$rc" 0 "two shards' run folders merge"
key='[.samples[] | "\(.workload) \(.backend) \(.kind) \(.index) \(.outcome)"] | sort'
is "$(jq -c "$key" "$T/real.json")" "$(jq -c "$key" "$T/all.json")" \
	"into exactly the samples of the unsharded selection"
jq_ok '.run.shard == null and .run.shards == {"1/2": "run-1", "2/2": "run-2"}
	and .run.mode == "full" and .commit == "c0" and
	all(.samples[]; .shard == "1/2" or .shard == "2/2")' "$T/real.json" \
	"each sample keeps its shard; run.shards names each shard's run"

jq_ok '(.shard_calibrations | keys) == ["1/2", "2/2"] and
	.shard_calibrations["1/2"].kernel == "prof-calib-1" and
	(has("calibration") | not)' "$T/real.json" \
	"each shard's calibration is kept under its shard"

# Drift is judged shard by shard: only the rows of the shard whose machine
# ran the calibration kernel slower than for the baseline get the note.
# calib MS: a calibration whose median is MS
calib() {
	echo '{"kernel": "prof-calib-1", "points": [{"at": "start",
		"int_ms": 1, "mem_ms": 1, "ms": '"$1"'}], "n": 1, "min_ms": '"$1"',
		"median_ms": '"$1"', "max_ms": '"$1"', "spread_pct": 0,
		"machine": null}'
}
mkdir -p "$T/drift"
jq --argjson c "$(calib 10)" '.calibration = $c' "$T/real/1/results.json" \
	>"$T/drift/1.json"
jq --argjson c "$(calib 3.1)" '.calibration = $c' "$T/real/2/results.json" \
	>"$T/drift/2.json"
jq --argjson c "$(calib 3)" '.calibration = $c' "$T/all.json" >"$T/base.json"
"$BIN/prof-merge" --shards 2 -o "$T/drift.json" "$T/drift/1.json" \
	"$T/drift/2.json"
run prof-diff --baseline "$T/base.json" "$T/drift.json"
is "$rc" 0 "a merge of shards with one slow machine compares"
note='shard 1/2: machine 233% slower than when the baseline was taken: timing warnings may be noise; instruction counts and `make compare` are not affected'
w1=$(jq -r '[.samples[] | select(.shard == "1/2") | .workload][0]' \
	<(jq "$JQ_WHOLE whole" "$T/drift.json"))
is "$(jq -r --arg w "$w1" '.[] | select(.workload == $w) | .drift' "$out" |
	sort -u)" "$note" "the rows of that shard carry its note"
is "$(jq -r '[.[] | select(.drift == null)] | length > 0' "$out")" true \
	"the rows of the steady shard carry none"
cp "$out" "$T/drift-c.json"
run prof-report --comparisons "$T/drift-c.json" -o "$T/drift.md" -q \
	"$T/drift.json"
# In the summary as text (issue 28, item 4), its paired backticks a code
# span (PROF_MD_SPANS), not escaped.
is "$(head -n 1 "$T/drift.md")" "$note" \
	"the summary opens with the note"
jq '.shard_calibrations["2/2"].median_ms = "x"' "$T/drift.json" >"$T/bad.json"
run prof-diff --baseline "$T/base.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .shard_calibrations.2/2.median_ms: expected a number, got a string" \
	"a bad shard calibration: exit 2 with its path"

# Shards cut by hand from one fit run: merged, compared and reported
# exactly like the run itself.
# shard I ID FILTER: baseline.json's samples that FILTER keeps, as shard I/2
shard() {
	jq --arg s "$1/2" --arg id "$2" '.run_id = $id |
		{run: {mode: "quick", options: {repeat: 5}, shard: $s}} + . |
		.samples |= map(select('"$3"'))' $D/baseline.json
}
mkdir -p "$T/d"
# The deterministic split of these ids in two (prof_shard_of(), FNV-1a; the
# browser rows go with shard 1): prof-merge --shards checks it.
S1='.workload | IN("browser.boot", "w.gpu", "w.version", "w.warning",
	"w.zero")'
shard 1 r1 "$S1" >"$T/d/s1.json"
shard 2 r2 "($S1) | not" >"$T/d/s2.json"
ok "$(jq -e '.samples | length > 0' "$T/d/s1.json" "$T/d/s2.json" \
	>/dev/null; echo $?)" "both hand-made shards hold samples"
run prof-merge --shards 2 -o "$T/m.json" "$T/d/s2.json" "$T/d/s1.json"
is "$rc" 0 "results files merge in any order"
is "$(as_v1 "$T/m.json" | jq -c '.samples | sort_by(.workload, .backend,
	.index)')" "$(jq -cS '.samples | sort_by(.workload, .backend, .index)' \
	$D/baseline.json)" "the merged samples are the run's"
"$BIN/prof-diff" --baseline $D/baseline.json $D/baseline.json |
	jq -S 'del(.[].run_id)' >"$T/c1.json"
"$BIN/prof-diff" --baseline $D/baseline.json "$T/m.json" |
	jq -S 'del(.[].run_id)' >"$T/c2.json"
is "$(md5sum <"$T/c2.json")" "$(md5sum <"$T/c1.json")" \
	"and compare exactly like it"

mk() { make --no-print-directory "$@" >"$out" 2>"$err"; rc=$?; }
mk merge-shards DIR="$T/d" OUTPUT="$T/out" BASELINE=$D/baseline.json
is "$rc" 0 "make merge-shards: exit 0"
is "$(tail -n 2 "$out" | head -n 1)" "summary: $T/out/summary.md" \
	"prints the summary"
jq_ok '.run.shards | keys == ["1/2", "2/2"]' "$T/out/results.json" \
	"writes the merged results"
"$BIN/prof-report" --comparisons <("$BIN/prof-diff" \
	--baseline $D/baseline.json $D/baseline.json) -o "$T/one.md" -q \
	$D/baseline.json
is "$(grep '^| `' "$T/out/summary.md")" "$(grep '^| `' "$T/one.md")" \
	"and the summary's rows are the single run's"

# What is not one whole run: exit 2, the shard named, nothing written.
# bad NAME FILES...: a folder of shards
bad() {
	local name=$1
	shift
	rm -rf "$T/$name"
	mkdir -p "$T/$name"
	cp "$@" "$T/$name/"
	mk merge-shards DIR="$T/$name" OUTPUT="$T/o-$name" \
		BASELINE=$D/baseline.json
}
bad missing "$T/d/s1.json"
is "$rc:$(errline)" "2:prof-merge: shard 2/2 missing" \
	"a missing shard: exit 2, named"
ok "$([ ! -e "$T/o-missing/results.json" ]; echo $?)" "nothing is written"
cp "$T/d/s1.json" "$T/s1b.json"
bad twice "$T/d/s1.json" "$T/s1b.json" "$T/d/s2.json"
is "$rc:$(errline)" \
	"2:prof-merge: shard 1/2 twice: '$T/twice/s1.json' and '$T/twice/s1b.json'" \
	"a shard twice: exit 2, named with both files"
jq '.commit = "fedcba9876543210fedcba9876543210fedcba98"' "$T/d/s2.json" \
	>"$T/s2.json"
bad commit "$T/d/s1.json" "$T/s2.json"
like "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/commit/s2.json') is of another run than '$T/commit/s1.json': commit" \
	"a shard of another commit: exit 2, named"
jq '.run.options.repeat = 3' "$T/d/s2.json" >"$T/s2.json"
bad options "$T/d/s1.json" "$T/s2.json"
like "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/options/s2.json') is of another run than '$T/options/s1.json': options" \
	"a shard run with other options: exit 2, named"
jq '.run.mode = "full"' "$T/d/s2.json" >"$T/s2.json"
bad mode "$T/d/s1.json" "$T/s2.json"
like "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/mode/s2.json') is of another run than '$T/mode/s1.json': mode" \
	"a shard of another mode: exit 2, named"
jq '.run.shard = "3/3"' "$T/d/s2.json" >"$T/s2.json"
bad count "$T/d/s1.json" "$T/s2.json"
is "$rc:$(errline)" \
	"2:prof-merge: shard 3/3 ('$T/count/s2.json') is not one of 2 shards" \
	"a shard of another split: exit 2, named"
run prof-merge --shards 2 -o "$T/x.json" $D/baseline.json
is "$rc:$(errline)" \
	"2:prof-merge: '$D/baseline.json' is not a shard's results (run.shard is missing)" \
	"an unsharded run is not a shard"
finish
