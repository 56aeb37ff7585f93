#!/bin/bash
# prof-report --html finds each row's comparison and baseline by key, not
# by a search over all of them: ten times the rows cost about ten times
# the instructions (callgrind's count of the page's three steps, its
# choice, its loading and its writing, which a busy machine cannot
# move), where a search per row made it eighteen. make bench-tools times
# the same at 2,000 to 40,000 rows.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
# make check's tools are built with ASan, which valgrind cannot run.
valgrind -q --tool=none "$BIN/prof-report" --help >/dev/null 2>&1 ||
	skip_all "prof-report does not run under valgrind (a sanitized build)"
plan 5

# rows N: a results file of N rows (test.w10000... on cpu, one sample
# each), compared with itself.
rows() {
	local n=$1
	jq -n --argjson n "$n" "$JQ_SEGMENT"'
	{os: "linux", distro: "debian", distro_version: "12",
	 machine: "x86_64", cpu_model: "Test CPU", cpu_count: 2,
	 compiler: "gcc", compiler_major: "12", backend: "cpu",
	 dtype: "float64", problem_size: "1000", tile: "none"} as $env |
	{schema: "prof.results", schema_version: 1, run_id: "rows",
	 timestamp_utc: "2026-02-01T00:00:00Z", command: "hand-made",
	 commit: "c1", samples: [range($n) as $r |
	 {schema_version: 1, workload: ("test.w\($r + 10000)"),
	  workload_version: 1, category: "test", fixture: "none",
	  fixture_checksum: null, warning_floor_ms: 1, backend: "cpu",
	  env: $env, segment: ($env | segment_key), phase: "timing",
	  kind: "warm", index: 0, duration_ms: (10 + $r / 1000),
	  metrics: {}, checksum: null, outcome: "success", reason: null,
	  artifacts: []}]}' >"$T/r$n.json"
	"$BIN/prof-diff" --baseline "$T/r$n.json" -o "$T/c$n.json" \
		"$T/r$n.json"
}

# count N: the instructions the page executes on N rows: what it draws
# chosen, loaded (rep_load_drawn: the baseline's index) and written.
count() {
	local n=$1
	valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect=prof_runpage_choose \
		--toggle-collect=rep_load_drawn \
		--toggle-collect=prof_runpage_write \
		--callgrind-out-file="$T/cg$n" "$BIN/prof-report" -q \
		-o "$T/s$n.md" --comparisons "$T/c$n.json" \
		--baseline "$T/r$n.json" --html "$T/p$n.html" "$T/r$n.json" \
		>"$out" 2>"$err"
	rc=$?
	sed -n 's/^summary: *//p' "$T/cg$n"
}

rows 100
rows 1000
is "$(jq length "$T/c100.json"):$(jq length "$T/c1000.json")" \
	"100:1000" "100 and 1000 rows, each compared with itself"
small=$(count 100)
is "$rc" 0 "prof-report --html on 100 rows, counted"
large=$(count 1000)
is "$rc" 0 "on 1000 rows"
is "$(grep -o 'class="badge s-[a-z]*"' "$T/p1000.html" | sort | uniq -c |
	sed 's/^ *//')" '2000 class="badge s-stable"' \
	"every row found its comparison (overview and section)"
ratio=$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.2f", b / a }')
ok "$(awk -v a="$small" -v r="$ratio" 'BEGIN { exit !(a > 0 && r < 14) }'
	echo $?)" \
	"10x the rows: ${ratio}x the instructions ($small, $large), under 14x"
finish
