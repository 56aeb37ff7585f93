#!/bin/bash
# prof-trace: a CPU profile of the timed calls only and a Chrome trace.
. "$(dirname "$0")/lib.sh"
plan 16

mkdir -p "$T/run"
run prof-trace diagnose test.ok --workloads "$TW" --min-seconds 0.3 \
	-o "$T/run/profile.jsonl"
is "$rc" 0 "the diagnostic phase exits 0"
jq_ok '.phase == "profile" and .outcome == "success" and
	.artifacts == ["test.ok.prof", "test.ok.trace.json"]' \
	"$T/run/profile.jsonl" "one profile sample with its two files"
jq_ok '.metrics.calls >= 1 and .metrics.covered_ms >= 300 and
	.metrics.profile_samples > 0 and (.metrics.binary | endswith("/prof-test-workloads"))' \
	"$T/run/profile.jsonl" "it records the calls, the coverage, the samples and the binary"
ok "$(test -s "$T/run/test.ok.prof"; echo $?)" "the .prof is beside the samples"
google-pprof --text "$TW" "$T/run/test.ok.prof" >"$T/pprof.txt" 2>/dev/null
like "$(cat "$T/pprof.txt")" "sum_run" "google-pprof reads it, the workload's own function on top"
ok "$(grep -q sum_validate "$T/pprof.txt"; [ $? = 1 ]; echo $?)" \
	"validate() is outside the profile"
jq_ok '.traceEvents | type == "array"' "$T/run/test.ok.trace.json" \
	"the trace has a traceEvents array"
jq_ok '[.traceEvents[] | select(.ph == "X") | .cat] | unique ==
	["prepare", "timed", "validate", "warmup"]' "$T/run/test.ok.trace.json" \
	"with prepare, warmup, timed calls and validate as complete events"
jq_ok 'all(.traceEvents[] | select(.ph == "X"); (.ts | type == "number")
	and .dur >= 0 and (.pid | type == "number"))' "$T/run/test.ok.trace.json" \
	"in the Trace Event format"

# A call that sleeps gets no CPU time, so gperftools' timer never fires:
# the calls go on past --min-seconds, to 4 times it, and no further.
run prof-trace diagnose test.waits --workloads "$TW" --min-seconds 0.1 \
	-o "$T/run/waits.jsonl"
is "$rc" 0 "a call that sleeps is profiled too"
jq_ok 'select(.phase == "profile") | .metrics.profile_samples < 50 and
	.metrics.covered_ms >= 400 and .metrics.covered_ms < 800' \
	"$T/run/waits.jsonl" "short of samples, the calls cover 4 times --min-seconds"

run prof-trace diagnose test.crash --workloads "$TW" --artifacts "$T/run2"
is "$rc" 1 "a crash in the diagnostic phase is an error sample"

printf '%s\n' $(seq 1 200000) >"$T/data.txt"
run prof-trace --name gzip.data --artifacts "$T/cmd" -- gzip -9 -c "$T/data.txt"
is "$rc" 0 "prof-trace -- CMD profiles a program that is not ours"
jq_ok '.artifacts == ["gzip.data.prof", "gzip.data.trace.json"] and
	(.metrics.binary | endswith("/gzip"))' "$out" "with its files and binary"
google-pprof --text "$(command -v gzip)" "$T/cmd/gzip.data.prof" >"$T/gz.txt" 2>/dev/null
like "$(head -n 1 "$T/gz.txt")" "Total:" "google-pprof reads the command's profile"
jq_ok '[.traceEvents[] | select(.ph == "X")] | length == 1' \
	"$T/cmd/gzip.data.trace.json" "and its trace has the run"
finish
