#!/bin/bash
# A shard relabelled as another (issue 19, item 4): the split is
# deterministic, so prof-merge --shards (and make merge-shards) checks that
# every workload of a shard is one of that shard's and that none comes
# from two shards; otherwise exit 2, naming it, nothing written.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
# shard I ID FILTER: baseline.json's samples that FILTER keeps, as shard I/2
shard() {
	jq --arg s "$1/2" --arg id "$2" '.run_id = $id |
		{run: {mode: "quick", options: {repeat: 5}, shard: $s}} + . |
		.samples |= map(select('"$3"'))' $D/baseline.json
}
# The split of these ids in two (prof_shard_of(); browser rows: shard 1).
S1='.workload | IN("browser.boot", "w.gpu", "w.version", "w.warning",
	"w.zero")'
mkdir "$T/d"
shard 1 r1 "$S1" >"$T/d/s1.json"
shard 2 r2 "($S1) | not" >"$T/d/s2.json"
run prof-merge --shards 2 -o "$T/ok.json" "$T/d/s1.json" "$T/d/s2.json"
is "$rc" 0 "the two true shards merge"

# Shard 1's results marked 2/2, beside shard 1: the issue's case.
jq '.run.shard = "2/2" | .run_id = "r1b"' "$T/d/s1.json" >"$T/s1-as-2.json"
run prof-merge --shards 2 -o "$T/x.json" "$T/d/s1.json" "$T/s1-as-2.json"
is "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/s1-as-2.json') holds 'w.warning', a workload of shard 1/2: is it another shard's results, relabelled?" \
	"shard 1 relabelled 2/2: exit 2, naming the shard and a workload"
ok "$([ ! -e "$T/x.json" ]; echo $?)" "nothing is written"

# The two shards' labels swapped.
jq '.run.shard = "2/2"' "$T/d/s1.json" >"$T/a.json"
jq '.run.shard = "1/2"' "$T/d/s2.json" >"$T/b.json"
run prof-merge --shards 2 -o "$T/x.json" "$T/a.json" "$T/b.json"
like "$rc:$(errline)" "2:prof-merge: shard 2/2 ('$T/a.json') holds '" \
	"two shards' labels swapped: exit 2"

# A workload of shard 2 slipped into shard 1 as well.
jq --slurpfile b "$T/d/s2.json" '.samples += [$b[0].samples[0]]' \
	"$T/d/s1.json" >"$T/s1-more.json"
w=$(jq -r '.samples[0].workload' "$T/d/s2.json")
run prof-merge --shards 2 -o "$T/x.json" "$T/s1-more.json" "$T/d/s2.json"
is "$rc:$(errline)" \
	"2:prof-merge: shard 1/2 ('$T/s1-more.json') holds '$w', a workload of shard 2/2: is it another shard's results, relabelled?" \
	"a workload of another shard: exit 2"

# Browser rows go with shard 1 only.
jq --slurpfile a "$T/d/s1.json" \
	'.samples += [$a[0].samples[] | select(.phase == "browser")]' \
	"$T/d/s2.json" >"$T/s2-browser.json"
run prof-merge --shards 2 -o "$T/x.json" "$T/d/s1.json" "$T/s2-browser.json"
is "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/s2-browser.json') holds 'browser.boot', a workload of shard 1/2 (browser rows go with shard 1): is it another shard's results, relabelled?" \
	"browser rows in shard 2: exit 2"

# A workload in two shards: browser.boot's browser rows in shard 1 (their
# shard) and timed in shard 2 (its id's shard).
jq '.samples += [.samples[0] | .workload = "browser.boot"]' \
	"$T/d/s2.json" >"$T/s2-two.json"
run prof-merge --shards 2 -o "$T/x.json" "$T/d/s1.json" "$T/s2-two.json"
is "$rc:$(errline)" \
	"2:prof-merge: workload 'browser.boot' comes from two shards: 1/2 ('$T/d/s1.json') and 2/2 ('$T/s2-two.json')" \
	"a workload from two shards: exit 2, naming both"

# make merge-shards says the same and writes nothing.
mkdir "$T/m"
cp "$T/d/s1.json" "$T/m/1.json"
cp "$T/s1-as-2.json" "$T/m/2.json"
make --no-print-directory merge-shards DIR="$T/m" OUTPUT="$T/out" \
	BASELINE=$D/baseline.json >"$out" 2>"$err"
rc=$?
is "$rc:$(errline)" \
	"2:prof-merge: shard 2/2 ('$T/m/2.json') holds 'w.warning', a workload of shard 1/2: is it another shard's results, relabelled?" \
	"make merge-shards: exit 2, the same words"
ok "$([ ! -e "$T/out/results.json" ]; echo $?)" "no results.json"
ok "$(ls -A "$T" | grep -c '\.tmp\.')" "no temporary file"
finish
