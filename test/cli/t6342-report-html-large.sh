#!/bin/bash
# report.html stays a page a browser opens (issue 30): past 2000 workload x
# backend blocks it draws the errored and changed ones whole (errored: any
# error sample, also in a row whose other samples succeeded and that is
# judged stable) and counts the others by status, pointing to comparisons.json and summary.md, which
# keep every row; at 2000 blocks and below it draws them all (t3243).
# (Its peak memory at 40,000 rows is make bench-tools', not a test's.)
. "$(dirname "$0")/lib.sh"
plan 8

# rows N SLOW: N rows (test.w10000... on cpu, one sample each) at 10 ms,
# workload test.w10000 at SLOW ms, test.w10001 with a second sample that
# failed, and one more whose only sample failed.
rows() {
	jq -n --argjson n "$1" --argjson slow "$2" "$JQ_SEGMENT"'
	{os: "linux", distro: "debian", distro_version: "12",
	 machine: "x86_64", cpu_model: "Test CPU", cpu_count: 2,
	 compiler: "gcc", compiler_major: "12", backend: "cpu",
	 dtype: "float64", problem_size: "1000", tile: "none"} as $env |
	{schema: "prof.results", schema_version: 1, run_id: "rows",
	 timestamp_utc: "2026-02-01T00:00:00Z", command: "hand-made",
	 commit: "c1", samples: ([range($n) as $r |
	 {schema_version: 1, workload: ("test.w\($r + 10000)"),
	  workload_version: 1, category: "test", fixture: "none",
	  fixture_checksum: null, warning_floor_ms: 1, backend: "cpu",
	  env: $env, segment: ($env | segment_key), phase: "timing",
	  kind: "warm", index: 0,
	  duration_ms: (if $r == 0 then $slow else 10 end),
	  metrics: {}, checksum: null, outcome: "success", reason: null,
	  artifacts: []}] + [
	 {schema_version: 1, workload: "test.w10001", workload_version: 1,
	  category: "test", fixture: "none", fixture_checksum: null,
	  warning_floor_ms: 1, backend: "cpu", env: $env,
	  segment: ($env | segment_key), phase: "timing", kind: "warm",
	  index: 1, duration_ms: null, metrics: {}, checksum: null,
	  outcome: "error", reason: "it broke once", artifacts: []},
	 {schema_version: 1, workload: "test.broken", workload_version: 1,
	  category: "test", fixture: "none", fixture_checksum: null,
	  warning_floor_ms: 1, backend: "cpu", env: $env,
	  segment: ($env | segment_key), phase: "timing", kind: "warm",
	  index: 0, duration_ms: null, metrics: {}, checksum: null,
	  outcome: "error", reason: "it broke", artifacts: []}])}'
}
rows 2100 10 >"$T/base.json"
rows 2100 30 >"$T/run.json"
"$BIN/prof-diff" --baseline "$T/base.json" -o "$T/c.json" "$T/run.json"
jq_ok 'length == 2101 and ([.[] | select(.status == "warning")] |
	length) == 1' "$T/c.json" "comparisons.json holds all 2101 rows, one a warning"

run prof-report --comparisons "$T/c.json" --baseline "$T/base.json" \
	-o "$T/summary.md" -q --html "$T/page.html" "$T/run.json"
is "$rc:$(cat "$err")" "0:" "the page of 2101 blocks is written"
is "$(grep -o '<section class="row"' "$T/page.html" | wc -l)" 3 \
	"three blocks drawn whole"
is "$(grep -o 'data-workload="[^"]*"' "$T/page.html" | tr '\n' ' ')" \
	'data-workload="test.broken" data-workload="test.w10000" data-workload="test.w10001" ' \
	"the errored one, the changed one and the stable one with an error sample"
like "$(cat "$T/page.html")" "<p class=\"summarised\">2101 workload x backend blocks are too many for one page: the 3 errored or changed ones are drawn whole, and the others are counted here: 2098 stable. Every row's numbers are in comparisons.json and summary.md.</p>" \
	"the others counted by status, and where every row is"
is "$(grep -c '^| `test.w1' "$T/summary.md")" 2100 \
	"summary.md keeps every row"
ok "$([ "$(wc -c <"$T/page.html")" -lt 200000 ] && echo 0 || echo 1)" \
	"the page is small"

# 2000 blocks: every one drawn.
rows 1999 30 >"$T/run2.json"
rows 1999 10 >"$T/base2.json"
"$BIN/prof-diff" --baseline "$T/base2.json" -o "$T/c2.json" "$T/run2.json"
run prof-report --comparisons "$T/c2.json" -o "$T/s2.md" -q \
	--html "$T/page2.html" "$T/run2.json"
is "$(grep -o '<section class="row"' "$T/page2.html" | wc -l)" 2000 \
	"at 2000 blocks every block is drawn"
finish
