#!/bin/bash
# prof-merge: sample lines from files and stdin in, one validated results
# document out, written atomically; a bad line is FILE:LINE: reason, exit 2.
. "$(dirname "$0")/lib.sh"
plan 32

D=test/data/results
jq -c '.samples[]' $D/current.json >"$T/all.jsonl"
head -n 10 "$T/all.jsonl" >"$T/a.jsonl"
sed -n '11,30p' "$T/all.jsonl" >"$T/b.jsonl"
sed -n '31,$p' "$T/all.jsonl" >"$T/c.jsonl"
total=$(wc -l <"$T/all.jsonl")

run prof-merge -o "$T/r.json" --command 'make profile-quick' \
	--run-id 20261129T181500Z-abcd --timestamp 2026-11-29T18:15:00Z \
	--commit 0123456789abcdef0123456789abcdef01234567 \
	"$T/a.jsonl" - "$T/b.jsonl" <"$T/c.jsonl"
is "$rc" 0 "three streams, one of them stdin, merge"
is "$(cat "$out")" "" "nothing on stdout with -o"
jq_ok '.schema == "prof.results" and .schema_version == 2' "$T/r.json" \
	"the schema and its version (2: schema-1 lines are read and moved)"
jq_ok '.run_id == "20261129T181500Z-abcd" and
	.timestamp_utc == "2026-11-29T18:15:00Z" and
	.command == "make profile-quick" and
	.commit == "0123456789abcdef0123456789abcdef01234567"' "$T/r.json" \
	"run id, timestamp, command and commit as given"
jq_ok ".samples | length == $total" "$T/r.json" "every sample is there"
is "$(jq -c "$JQ_WHOLE"' whole | . as $r | .samples[] |
	{checksum: null, reason: null, artifacts: []} +
	del(.env_id, .segment_id) +
	{env: $r.envs[.env_id], segment: $r.segments[.segment_id]}' "$T/r.json" |
	jq -cS . | md5sum)" \
	"$(cat "$T/a.jsonl" "$T/c.jsonl" "$T/b.jsonl" |
	jq -cS 'del(.schema_version)' | md5sum)" \
	"in the order of the streams, unchanged but for env and segment"

run prof-merge "$T/a.jsonl"
is "$rc" 0 "no -o writes to stdout"
jq_ok '.samples | length == 10' "$out" "the results document"
jq_ok '.run_id | test("^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$")' "$out" \
	"a default run id is the UTC time and four hex digits"
jq_ok '.timestamp_utc | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")' \
	"$out" "a default timestamp is ISO 8601 UTC"
jq_ok ".command == \"prof-merge $T/a.jsonl\"" "$out" \
	"the default command is the prof-merge command line"

if head=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null); then
	run prof-merge "$T/a.jsonl"
	jq_ok ".commit == \"$head\"" "$out" "in git, the commit is HEAD"
else
	skip "the checkout is not a git repository"
fi
run prof-merge -C "$T" "$T/a.jsonl"
jq_ok '.commit == "unknown"' "$out" "outside git, the commit is unknown"

run prof-merge -o "$T/e.json" </dev/null
is "$rc" 0 "no samples at all is still a results file"
jq_ok '.samples == []' "$T/e.json" "with an empty samples array"

# A bad line: its file and line, exit 2, nothing written.
# (the lines of b, not of a again: a sample twice is refused too)
sed '2s/"duration_ms":[0-9.]*/"duration_ms":"fast"/' "$T/b.jsonl" >"$T/bad.jsonl"
run prof-merge -o "$T/bad.json" "$T/a.jsonl" "$T/bad.jsonl"
is "$rc" 2 "a sample that is not valid is exit 2"
is "$(errline)" \
	"prof-merge: $T/bad.jsonl:2: .duration_ms: expected a number, got a string" \
	"it names the file, the line and the field"
ok "$([ ! -e "$T/bad.json" ]; echo $?)" "and nothing is written"

echo '{"workload": "x"}' >"$T/notsample.jsonl"
run prof-merge "$T/notsample.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/notsample.jsonl:1: .workload_version: missing" \
	"JSON that is not a sample is rejected"

head -c 300 "$T/a.jsonl" >"$T/cut.jsonl"
run prof-merge "$T/cut.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/cut.jsonl:1:301: unexpected end of input (truncated JSON)" \
	"a line cut in the middle is rejected"

{ head -n 1 "$T/a.jsonl"; echo '{"a": 1,}'; } >"$T/syntax.jsonl"
run prof-merge - <"$T/syntax.jsonl"
is "$rc" 2 "a syntax error on stdin is exit 2"
like "$(errline)" "prof-merge: <stdin>:2:9: " "and names stdin, the line and the column"

echo '{"old": true}' >"$T/keep.json"
run prof-merge -o "$T/keep.json" "$T/bad.jsonl"
is "$(cat "$T/keep.json")" '{"old": true}' \
	"a failed merge leaves an existing output untouched"

run prof-merge "$T/missing.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/missing.jsonl: cannot open: No such file or directory" \
	"a missing input is exit 2"

run prof-merge -o "$T/no/such/dir/r.json" "$T/a.jsonl"
is "$rc" 2 "an output that cannot be created is exit 2"

if [ -w /dev/full ]; then
	"$BIN/prof-merge" "$T/a.jsonl" >/dev/full 2>"$err"
	rc=$?
	is "$rc:$(errline)" \
		"2:prof-merge: cannot write to stdout: No space left on device" \
		"a failed write to stdout is exit 2"
else
	skip "no /dev/full"
fi

# A FIFO (or /dev/null) is written through, never renamed over.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
run prof-merge -o "$T/fifo" "$T/a.jsonl"
ok "$([ "$rc" = 0 ] && [ -p "$T/fifo" ]; echo $?)" \
	"an output that is not a regular file stays what it is"
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
jq_ok '.samples | length == 10' "$T/fifo.out" "and gets the results"

run prof-merge --help
is "$rc" 0 "--help is exit 0"
like "$(cat "$out")" "usage: prof-merge [-o FILE] [--command TEXT] [--playwright FILE]..." \
	"with the usage on stdout"
run prof-merge --no-such-option
is "$rc" 2 "an unknown option is exit 2"
run prof-merge --run-id '' "$T/a.jsonl"
is "$rc:$(errline)" "2:prof-merge: --run-id: '' is not a valid run id: empty" "an empty run id is exit 2"
finish
