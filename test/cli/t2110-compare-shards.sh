#!/bin/bash
# An interleaved A/B split into shards by workload: prof-time --against
# and --against-command --shard I/N run a shard's workloads, both sides of
# each; make compare takes SHARD=I/N or the engine's own variables as a
# profile run does; make merge-shards joins the shards' run folders into
# one A/B run judged as the unsharded one is: the same rows, each
# workload in exactly one shard, both sides under one run id.
. "$(dirname "$0")/lib.sh"
plan 22

# prof-time: shards of an A/B of the test workloads.
sel=(quick --workloads "$TW" --against "$TW" --repeat 1 --max-repeat 1
	--warmup 0 --timeout 5 --seed 7 -q)
for i in 1 2 3; do
	"$BIN/prof-time" "${sel[@]}" --shard $i/3 -o "$T/a$i.jsonl" \
		--against-output "$T/b$i.jsonl" 2>/dev/null
done
ids() {
	jq -r 'select(.record == null and .workload != null) |
		"\(.workload) \(.ab.side)"' "$@" | sort -u
}
"$BIN/prof-time" "${sel[@]}" -o "$T/a.jsonl" --against-output "$T/b.jsonl" \
	2>/dev/null
is "$(ids "$T"/a[123].jsonl "$T"/b[123].jsonl)" \
	"$(ids "$T/a.jsonl" "$T/b.jsonl")" \
	"prof-time --against --shard: the shards hold the unsharded run's workloads, both sides"
dup=$(for i in 1 2 3; do
	jq -r 'select(.workload != null) | .workload' "$T/a$i.jsonl" \
		"$T/b$i.jsonl" | sort -u
done | sort | uniq -d)
is "$dup" "" "each workload in exactly one shard"
# A shard that holds no workload: each side's run line alone.
empty=
for i in 1 2 3 4 5 6 7 8; do
	[ -n "$empty" ] && break
	"$BIN/prof-time" "${sel[@]}" --shard $i/8 -o "$T/e.jsonl" \
		--against-output "$T/f.jsonl" 2>/dev/null
	[ -n "$(jq -r 'select(.workload != null) | .workload' "$T/e.jsonl")" ] ||
		empty=$i/8
done
jq_raw -s 'length == 1 and .[0].record == "run" and .[0].shard == "'"$empty"'"' \
	"$T/f.jsonl" "a shard with no workload: the reference side's run line alone"
jq_raw -s 'length == 1 and .[0].record == "run" and .[0].shard == "'"$empty"'"' \
	"$T/e.jsonl" "and the current side's"

# --against-command: the command is one workload, run in its id's shard.
for i in 1 2; do
	"$BIN/prof-time" --name cmd.true --repeat 2 --max-repeat 2 --shard $i/2 \
		-o "$T/c$i.jsonl" --against-output "$T/d$i.jsonl" \
		--against-command true -- true 2>"$T/c$i.err"
	echo "$?" >"$T/c$i.rc"
done
is "$(cat "$T/c1.rc" "$T/c2.rc" | tr '\n' ' ')" "0 0 " \
	"--against-command --shard: exit 0 in each shard"
is "$(jq -s -c '[.[] | select(.workload == "cmd.true") | .ab.side] |
	group_by(.) | map(length)' "$T"/c[12].jsonl "$T"/d[12].jsonl)" "[2,2]" \
	"the command's interleaving is whole in one shard"
k=$(grep -l "'cmd.true' is in shard" "$T/c1.err" "$T/c2.err" | wc -l)
is "$k:$(grep -h "'cmd.true' is in shard" "$T/c1.err" "$T/c2.err" |
	sed 's/[12]\/2/I\/2/g')" \
	"1:prof-time: shard I/2: 0 of 1 group(s) ('cmd.true' is in shard I/2)" \
	"the other shard says where the command is"
run prof-count quick --workloads "$TW" --against "$TW" \
	--against-output "$T/x.jsonl" --shard 1/2 -o "$T/y.jsonl"
is "$rc:$(errline)" "2:prof-count: --shard: prof-count's A/B is not split into shards" \
	"prof-count's A/B is still whole"

# make compare: unsharded, then two shards by GitLab's variables, merged.
SEL=(AGAINST=bin/prof-workloads CATEGORY="primitive pipeline" REPEAT=1
	SEED=5)
mk() {
	make -s --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
}
mk compare "${SEL[@]}" OUTPUT="$T/whole"
is "$rc" 0 "make compare, unsharded: exit 0"
for i in 1 2; do
	CI_NODE_INDEX=$i CI_NODE_TOTAL=2 mk compare "${SEL[@]}" \
		OUTPUT="$T/shards/$i"
	echo "$rc" >"$T/s$i.rc"
done
is "$(cat "$T/s1.rc" "$T/s2.rc" | tr '\n' ' ')" "0 0 " \
	"make compare with CI_NODE_INDEX 1 and 2 of CI_NODE_TOTAL 2: exit 0 each"
jq_ok '.run.shard == "2/2" and .run.engine.shard_from == "CI_NODE_INDEX"' \
	"$T/shards/2/results.json" "a shard records its shard and where it came from"
jq_ok '.run.shard == "2/2" and .run.engine.shard_from == "CI_NODE_INDEX"' \
	"$T/shards/2/baseline.json" "so does its reference side"
rows='[.[] | "\(.workload) \(.backend) \(.kind)"] | sort'
is "$(jq -c -s "map($rows) | add | sort" "$T"/shards/[12]/comparisons.json)" \
	"$(jq -c "$rows" "$T/whole/comparisons.json")" \
	"the shards' rows: the unsharded run's, each workload in one shard"
mk merge-shards DIR="$T/shards" OUTPUT="$T/merged"
is "$rc" 0 "make merge-shards of the compare shards: exit 0"
is "$(tail -n 2 "$out")" "summary: $T/merged/summary.md
report: $T/merged/report.html" "it prints the summary's path"
is "$(jq -c "$rows" "$T/merged/comparisons.json")" \
	"$(jq -c "$rows" "$T/whole/comparisons.json")" \
	"the merged run has the unsharded run's rows"
jq -s '{c: .[0], b: .[1]}' "$T/merged/results.json" \
	"$T/merged/baseline.json" >"$T/both.json"
jq_raw '.c.run_id == .b.run_id and (.c.run.shards | keys) == ["1/2", "2/2"]
	and (.b.run.shards | keys) == ["1/2", "2/2"] and
	.b.command == "make merge-shards DIR='"$T"'/shards OUTPUT='"$T"'/merged (reference side: bin/prof-workloads)"' \
	"$T/both.json" "both sides merged as shards, under one run id"
"$BIN/prof-diff" --baseline "$T/merged/baseline.json" \
	"$T/merged/results.json" >"$T/again.json"
is "$(jq -c 'map(del(.run_id))' "$T/again.json")" \
	"$(jq -c 'map(del(.run_id))' "$T/merged/comparisons.json")" \
	"judged by prof-diff as one interleaved run: no drift, the A/B rule"
like "$(head -n 1 "$T/merged/summary.md")" \
	"Interleaved A/B against bin/prof-workloads: baseline.json is the reference build" \
	"the summary says what was compared"

# A shard the scheduler stopped (ENGINE=slurm's PROF_SHARD_LOST): its
# workloads planned, none run, each side's an error sample saying why.
PROF_SHARD_LOST="shard 2/2 was stopped" mk compare "${SEL[@]}" SHARD=2/2 \
	OUTPUT="$T/lost"
jq -s '{c: .[0], b: .[1], w: .[2]}' "$T/lost/results.json" \
	"$T/lost/baseline.json" "$T/shards/2/results.json" >"$T/lost.json"
jq_raw "$JQ_WHOLE"'(.c | whole | [.samples[] | [.workload, .outcome, .reason]]
	| unique) == (.w | whole | [.samples[].workload] | unique |
	map([., "error", "shard 2/2 was stopped"])) and
	(.b | whole | all(.samples[]; .outcome == "error"))' "$T/lost.json" \
	"a lost shard: its workloads as error samples on both sides, none run"

mk compare "${SEL[@]}" SHARD=1/2 WHY=1 OUTPUT="$T/why"
is "$rc:$(head -n 1 "$err"):$([ -e "$T/why" ]; echo $?)" \
	"2:make compare: WHY=1: a sharded compare is not explained (make merge-shards judges its rows again); run make compare WHY=1 W=\"the changed rows' workloads\" unsharded:1" \
	"WHY=1 with a shard: exit 2, one line, nothing run"

# A folder of compare shards and a profile run's shard: refused.
mk profile-quick CATEGORY=primitive REPEAT=1 SHARD=1/2 HISTORY= \
	BASELINE="$T/none.json" OUTPUT="$T/mixed/1"
cp -r "$T/shards/2" "$T/mixed/2"
mk merge-shards DIR="$T/mixed" OUTPUT="$T/m2"
is "$rc:$(grep "^make merge-shards: .*no make compare shard" "$err")" \
	"2:make merge-shards: '$T/mixed/1/results.json' is no make compare shard (no baseline.json beside it), unlike the others: give the shards of one run" \
	"compare shards mixed with a profile shard: exit 2, named"
finish
