#!/bin/bash
# Browser rows: the stories' form and the seed's older form, read by
# prof-merge --playwright as browser samples; bad rows name their line.
. "$(dirname "$0")/lib.sh"
plan 17

cat >"$T/new.jsonl" <<'ROWS'
{"workload":"browser.large_viewport","workload_version":1,"fixture":"dense-circles-8000","fixture_checksum":"abc","warning_floor_ms":50,"backend":"chromium","kind":"warm","index":0,"outcome":"success","duration_ms":412.25,"metrics":{"shapes":8000,"layout_ms":12.5},"reason":null,"env":{"browser":"Chromium 156.0.8078.108","viewport":"2560x1600"}}
{"workload":"browser.boot","fixture":"viewer","backend":"chromium","duration_ms":95.5,"metrics":{"script_ms":3.25},"env":{"browser":"Chromium 156.0.8078.108","viewport":"1280x800"}}
{"workload":"browser.boot","fixture":"viewer","backend":"chromium","outcome":"error","reason":"Timeout 60000ms exceeded","duration_ms":null,"env":{"browser":"Chromium 156.0.8078.108"}}
ROWS
cat >"$T/old.jsonl" <<'ROWS'
{"story": "boot", "duration_ms": 812.5, "pfm": 3, "shapes": 0}

{"story": "boot", "duration_ms": 790}
ROWS

run prof-merge --playwright "$T/new.jsonl" --playwright "$T/old.jsonl" -o "$T/r.json"
is "$rc" 0 "both forms merge"
jq_ok '.samples | length == 5 and all(.[]; .phase == "browser" and
	.category == "browser" and .backend == "chromium")' "$T/r.json" \
	"every row is a browser sample"
jq_ok '. as $r | .samples[0] | .workload == "browser.large_viewport" and
	.metrics.shapes == 8000 and .duration_ms == 412.25 and
	.fixture_checksum == "abc" and
	$r.envs[.env_id].browser == "Chromium 156.0.8078.108" and
	($r.segments[.segment_id] | fromjson |
	.browser == "Chromium 156.0.8078.108" and
	.problem_size == "2560x1600" and .backend == "chromium")' "$T/r.json" \
	"the browser version and viewport are in the segment"
jq_ok '[.samples[] | select(.workload == "browser.boot" and .fixture == "viewer")]
	| map(.index) == [0, 1] and .[1].outcome == "error" and
	.[1].reason == "Timeout 60000ms exceeded"' "$T/r.json" \
	"rows without an index are numbered, error rows kept"
jq_ok '[.samples[] | select(.fixture == "playwright-existing")] |
	length == 2 and all(.[]; .workload == "browser.boot") and
	.[0].metrics == {"pfm": 3, "shapes": 0} and map(.index) == [0, 1] and
	.[1].duration_ms == 790 and .[0].warning_floor_ms == 50' "$T/r.json" \
	"older rows: browser.<story>, fixture playwright-existing, metrics"

bad() {
	printf '%s\n' '{"story":"boot","duration_ms":1}' '{"story":"boot","duration_ms":2}' "$1" >"$T/bad.jsonl"
	run prof-merge --playwright "$T/bad.jsonl" -o "$T/bad.json"
}
bad '{"story":"boot","duration_ms":"fast"}'
is "$rc:$(cat "$err")" "2:prof-merge: $T/bad.jsonl:3: .duration_ms: expected a number, got a string" \
	"a non-numeric duration names line 3"
ok "$([ ! -e "$T/bad.json" ]; echo $?)" "and nothing is written"
bad '{"story":"boot"}'
is "$(cat "$err")" "prof-merge: $T/bad.jsonl:3: .duration_ms: missing" "a missing duration"
bad '{"story":"boot","duration_ms":3,"pfm":{"a":1}}'
is "$(cat "$err")" "prof-merge: $T/bad.jsonl:3: .pfm: expected a scalar metric, got an object" \
	"a non-scalar metric of an older row"
bad '{"workload":"browser.boot","duration_ms":3,"metrics":{"x":[1]}}'
is "$(cat "$err")" "prof-merge: $T/bad.jsonl:3: .metrics.x: expected a scalar metric, got an array" \
	"a non-scalar metric of a new row"
bad '{"story":"boot","duration_ms":'
is "$(cat "$err")" "prof-merge: $T/bad.jsonl:3:31: unexpected end of input (truncated JSON)" \
	"malformed JSON"
bad '{"duration_ms":3}'
is "$(cat "$err")" "prof-merge: $T/bad.jsonl:3: .workload: missing (a row needs workload, or the older story)" \
	"a row with neither workload nor story"
bad '{"story":"boot","duration_ms":-1}'
is "$rc:$(cat "$err")" "2:prof-merge: $T/bad.jsonl:3: .duration_ms: expected a number >= 0" \
	"a negative duration"

# Through make: the run stops before any results when a row is bad.
bad '{"story":"boot","duration_ms":"x"}'
make -s --no-print-directory -o all BINDIR="$BIN" profile-full \
	WORKLOADS="$TW" CATEGORY=test REPEAT=1 OUTPUT="$T/run" \
	PLAYWRIGHT="$T/bad.jsonl" >"$out" 2>"$err"
rc=$?
is "$rc" 2 "make profile-full PLAYWRIGHT=<bad line 3> fails"
like "$(cat "$err")" "$T/bad.jsonl:3: .duration_ms: expected a number, got a string" \
	"naming line 3"
ok "$([ ! -e "$T/run/results.json" ]; echo $?)" "and writes no results"
make -s --no-print-directory -o all BINDIR="$BIN" profile-full \
	WORKLOADS="$TW" CATEGORY=test REPEAT=2 OUTPUT="$T/run2" \
	PLAYWRIGHT="$T/new.jsonl" >"$out" 2>"$err"
jq_ok '[.samples[] | select(.phase == "browser")] | length == 3' \
	"$T/run2/results.json" "good rows join the run's results"
finish
