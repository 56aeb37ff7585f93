#!/bin/bash
# A segment key is derived from its env (issue 28, item 3): a context line,
# a schema-1 sample or a results file whose segment is not its env's key
# (env.cpu_model "Fake CPU 9000" against a segment of "AMD EPYC") was
# accepted, and summary.md named a machine the rows were not keyed by.
# Every reader recomputes the key and refuses a mismatch, exit 2, with its
# place: FILE:LINE for a stream, the JSON path for a results file.
. "$(dirname "$0")/lib.sh"
plan 11

D=test/data/results
jq -c '.samples[0]' $D/current.json >"$T/one.jsonl"
seg_amd='.segment = (.segment | fromjson | .cpu_model = "AMD EPYC" | tojson)'
fake='.env.cpu_model = "Fake CPU 9000"'

# A stream's context line: its own env and segment.
jq -c "{record: \"context\", env_id: \"e1\", segment_id: \"s1\",
	env: ($fake | .env), segment: ($seg_amd | .segment)},
	(del(.env, .segment, .schema_version) + {env_id: \"e1\",
	segment_id: \"s1\"})" "$T/one.jsonl" >"$T/ctx.jsonl"
run prof-merge -o "$T/r.json" "$T/ctx.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/ctx.jsonl:1: .segment: cpu_model is \"AMD EPYC\" in the segment key, \"Fake CPU 9000\" in its env" \
	"a context line whose segment is not its env's key: exit 2, its line and field"
is "$(ls "$T/r.json" 2>/dev/null)" "" "nothing is written"

# A schema-1 sample line: its env and segment.
jq -c "$fake" "$T/one.jsonl" >"$T/v1.jsonl"
run prof-merge -o "$T/r.json" "$T/v1.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/v1.jsonl:1: .segment: cpu_model is \"Test CPU 3000\" in the segment key, \"Fake CPU 9000\" in its env" \
	"a schema-1 sample line"
jq -c '.segment = (.segment | fromjson | .os_extra = "x" | tojson)' \
	"$T/one.jsonl" >"$T/extra.jsonl"
run prof-merge -o "$T/r.json" "$T/extra.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/extra.jsonl:1: .segment: the segment key has os_extra (\"x\"), which its env does not key" \
	"a segment key with a field no env keys"

# Two good context lines, and a sample that pairs one's env with the
# other's segment.
jq -c '{record: "context", env_id: "e1", segment_id: "s1", env, segment},
	({record: "context", env_id: "e2", segment_id: "s2"} +
	(.env.cpu_model = "AMD EPYC" | '"$seg_amd"' | {env, segment})),
	(del(.env, .segment, .schema_version) + {env_id: "e1",
	segment_id: "s2"})' "$T/one.jsonl" >"$T/pair.jsonl"
run prof-merge -o "$T/r.json" "$T/pair.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/pair.jsonl:3: .segment_id: segment 's2' is not the key of env 'e1': cpu_model is \"AMD EPYC\" in the segment key, \"Test CPU 3000\" in its env" \
	"a sample naming one context's env and another's segment"

# Results files: schema 1 (each sample's own), schema 2 (its tables), by
# every reader.
jq '.samples[3] |= ('"$fake"')' $D/baseline.json >"$T/b1.json"
run prof-diff --baseline "$T/b1.json" $D/current.json
is "$rc:$(errline)" \
	"2:prof-diff: $T/b1.json: .samples[3].segment: cpu_model is \"Test CPU 3000\" in the segment key, \"Fake CPU 9000\" in its env" \
	"prof-diff: a schema-1 baseline, by its JSON path"
"$BIN/prof-merge" -o "$T/good.json" "$T/one.jsonl"
jq '.envs[].cpu_model = "Fake CPU 9000"' "$T/good.json" >"$T/b2.json"
sid=$(jq -r '.segments | keys[0]' "$T/b2.json")
eid=$(jq -r '.envs | keys[0]' "$T/b2.json")
want="$T/b2.json: .samples[0].segment_id: segment '$sid' is not the key of env '$eid': cpu_model is \"Test CPU 3000\" in the segment key, \"Fake CPU 9000\" in its env"
run prof-diff --baseline $D/baseline.json "$T/b2.json"
is "$rc:$(errline)" "2:prof-diff: $want" "prof-diff: a schema-2 results file"
run prof-baseline --from "$T/b2.json" --name b --output "$T/bl"
is "$rc:$(errline)" "2:prof-baseline: $want" "prof-baseline: malformed, nothing promoted"
run prof-report -q -o "$T/s.md" "$T/b2.json"
is "$rc:$(errline)" "2:prof-report: $want" "prof-report"
jq -S . "$T/b2.json" >"$T/sorted.json"
run prof-diff --baseline $D/baseline.json "$T/sorted.json"
is "$rc:$(errline)" "2:prof-diff: ${want/b2.json/sorted.json}" \
	"tables after the samples (jq -S): checked at the end, the same place"
run prof-diff --baseline $D/baseline.json "$T/good.json"
is "$rc" 0 "a segment that is its env's key is read"
finish
