#!/bin/bash
# Results schema 2: each environment and segment key once per file, by
# SHA-256 ids; schema-1 results and baselines (committed ones included)
# still read, and compare exactly as before.
. "$(dirname "$0")/lib.sh"
plan 23

D=test/data/results
id_of() { printf %s "$1" | sha256sum | cut -c1-16; }

# Schema-1 lines in, schema 2 out.
jq -c '.samples[]' $D/current.json >"$T/v1.jsonl"
run prof-merge --run-id 20261129T181500Z-c0de --commit abc -o "$T/r.json" \
	"$T/v1.jsonl"
is "$rc" 0 "schema-1 sample lines merge"
jq_ok '.schema_version == 2 and (.envs | length) == 3 and
	(.segments | length) == 3 and
	all(.samples[]; has("env") or has("segment") or has("schema_version")
	| not)' "$T/r.json" "into schema 2: envs and segments once each"
seg=$(jq -r '.segments | to_entries[0].value' "$T/r.json")
is "$(jq -r '.segments | to_entries[0].key' "$T/r.json")" "$(id_of "$seg")" \
	"a segment's id is the first 16 hex digits of its SHA-256"
env=$(jq -cS '.envs | to_entries[0].value' "$T/r.json")
is "$(jq -r '.envs | to_entries[0].key' "$T/r.json")" "$(id_of "$env")" \
	"an env's, of its canonical JSON"
is "$(as_v1 "$T/r.json" | jq -c '.samples')" \
	"$(jq -cS '.samples' $D/current.json)" \
	"the samples are the schema-1 samples, env and segment by id"

# Schema 1 reads as before: the same comparisons from either schema.
"$BIN/prof-diff" --baseline $D/baseline.json $D/current.json >"$T/c1.json"
run prof-diff --baseline $D/baseline.json "$T/r.json"
is "$rc" 0 "schema-2 results against a schema-1 baseline"
is "$(jq -S . "$out" | md5sum)" "$(jq -S . "$T/c1.json" | md5sum)" \
	"the same comparisons as schema-1 results"
"$BIN/prof-baseline" --from $D/baseline.json --name b2 --output "$T" \
	2>/dev/null
run prof-diff --baseline "$T/b2.json" $D/current.json
is "$(jq -S . "$out" | md5sum)" "$(jq -S . "$T/c1.json" | md5sum)" \
	"a schema-2 baseline compares like its schema-1 original"
run prof-report -o "$T/s.md" -q $D/current.json
is "$rc" 0 "prof-report reads schema 1"

# Keys in any order: tables after the samples (jq -S puts them so).
jq -S . "$T/r.json" >"$T/sorted.json"
run prof-diff --baseline $D/baseline.json "$T/sorted.json"
is "$(jq -S . "$out" | md5sum)" "$(jq -S . "$T/c1.json" | md5sum)" \
	"a file whose tables come after its samples reads the same"

# A file on one line: an error far along it still names its column.
jq -c . $D/current.json | sed 's/"duration_ms":13.3,/"duration_ms":13.3 x,/' \
	>"$T/one.json"
col=$(($(grep -bo '13.3 x' "$T/one.json" | cut -d: -f1) + 6))
run prof-diff --baseline $D/baseline.json "$T/one.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/one.json:1:$col: object value separator ',' expected" \
	"a syntax error on a long line: its line and column"
jq -c . $D/current.json | head -c 20000 >"$T/cut.json"
run prof-diff --baseline $D/baseline.json "$T/cut.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/cut.json:1:20001: unexpected end of input (truncated JSON)" \
	"a cut one-line file: the column where it ends"

# A sample naming an id the tables lack (through its group).
jq '.groups[.samples[0].group_id].env_id = "ffffffffffffffff"' "$T/r.json" \
	>"$T/noenv.json"
run prof-diff --baseline $D/baseline.json "$T/noenv.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/noenv.json: .samples[0].env_id: no such id in .envs" \
	"an unknown env_id is exit 2 with its path"

# Groups: what every sample of a workload x backend x env x segment x run
# repeats is stored once; a sample keeps its own fields.
jq -e '(.groups | length) == 11 and all(.samples[]; has("group_id") and
	(has("workload") or has("backend") or has("env_id") or
	has("segment_id") or has("order_seed")) == false)' "$T/r.json" >/dev/null
is "$?" 0 "a group per workload, backend and segment; samples by group_id"
g=$(jq -c '.groups | to_entries[0].value' "$T/r.json")
is "$(jq -r '.groups | to_entries[0].key' "$T/r.json")" \
	"$(id_of "$(jq -cS . <<<"$g")")" "a group's id: of its canonical JSON"
jq -e 'all(.samples[]; (.reason == null | not) or (has("reason") | not))
	and all(.samples[]; (.artifacts | length > 0) or (has("artifacts") |
	not))' "$T/r.json" >/dev/null
is "$?" 0 "a null reason and empty artifacts are left out"
is "$(jq -c "$JQ_WHOLE"' whole | .samples[36] | [.workload, .backend,
	.outcome, .reason]' "$T/r.json")" \
	'["w.crash","cpu","error","worker killed by signal 11 (SIGSEGV: Segmentation fault)"]' \
	"the README's jq function makes the samples whole again"

# A grouped file that a tool rewrote with its keys sorted still reads;
# one whose groups come after its samples is refused.
jq '{samples} + del(.samples)' "$T/r.json" >"$T/late.json"
run prof-diff --baseline $D/baseline.json "$T/late.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/late.json: .samples[0].group_id: no such id in .groups (which must come before .samples)" \
	"groups after the samples: exit 2, and why"
jq '.samples[1].workload = "w.other"' "$T/r.json" >"$T/twice.json"
run prof-report -o "$T/t.md" "$T/twice.json"
gid=$(jq -r '.samples[1].group_id' "$T/r.json")
is "$rc:$(errline)" \
	"2:prof-report: $T/twice.json: .samples[1].workload: also in its group (.groups.$gid)" \
	"a field both in a sample and in its group: exit 2 with its path"

# The reference suite: the average sample in results.json is at most 380
# bytes, counted as the lines of .samples: the issue's target of 300, and
# about 50 more since every timing sample keeps its call's cpu_ms,
# involuntary_switches and contended mark (issue 29; threads is a group's),
# and 30 more for its run_delay_ms (issue 40).
make -s --no-print-directory -o all BINDIR="$BIN" profile-quick \
	OUTPUT="$T/ref" >/dev/null 2>&1
is "$?" 0 "make profile-quick on the reference suite"
ref=$T/ref/results.json
n=$(jq '.samples | length' "$ref")
bytes=$(sed -n '/^  "samples": \[/,/^  \]/p' "$ref" | sed '1d;$d' | wc -c)
ok "$([ "$n" -ge 24 ] && [ $((bytes / n)) -le 380 ]; echo $?)" \
	"its average sample is at most 380 bytes ($((bytes / n)) over $n)"

# The stream prof-time writes: a run line, then context before samples
# (other records, the calibration's, may come between).
"$BIN/prof-time" quick --workloads "$TW" --backend cpu --repeat 2 \
	--warmup 0 --category test -q >"$T/s.jsonl" 2>/dev/null
ok "$(jq -en '[inputs | select(.record == null or .record == "run" or
	.record == "context")] | .[0].record == "run" and .[0].mode == "quick" and
	.[1].record == "context" and (.[1].env | type == "object") and
	(.[2] | has("record") | not) and .[2].env_id == .[1].env_id and
	.[2].segment_id == .[1].segment_id' "$T/s.jsonl" >/dev/null; echo $?)" \
	"a stream: a run line, a context line, then the samples by id"
n=$(grep -c '"record":"context"' "$T/s.jsonl")
is "$n" "$(jq -r 'select(.record | not) | "\(.env_id) \(.segment_id)"' \
	"$T/s.jsonl" | sort -u | wc -l)" "one context line per env and segment"
finish
