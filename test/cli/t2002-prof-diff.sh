#!/bin/bash
# prof-diff: each status rule on hand-made results and baselines
# (test/data/results/gen.sh), the contract fields, and the exit codes.
. "$(dirname "$0")/lib.sh"
plan 41

D=test/data/results
C=$T/c.json

run prof-diff --baseline $D/baseline.json -o "$C" $D/current.json
is "$rc" 0 "a run with a warning is still exit 0"
is "$(cat "$out")$(cat "$err")" "" "and prints nothing with -o"

# status WORKLOAD [BACKEND]: the status of a row
status() {
	jq -r --arg w "$1" --arg b "${2:-cpu}" \
		'.[] | select(.phase == "timing" and .workload == $w and .backend == $b) | .status' "$C"
}
reason() {
	jq -r --arg w "$1" --arg b "${2:-cpu}" \
		'.[] | select(.phase == "timing" and .workload == $w and .backend == $b) | .reason' "$C"
}

is "$(status w.warning)" warning \
	"30% slower median, all samples above the baseline median: warning"
is "$(reason w.warning)" \
	"median 30.0% slower (+3.000 ms >= floor 1 ms), more than the 20% threshold, 5 of 5 samples above the baseline median" \
	"with its reason"
is "$(status w.under_floor)" stable "the same with a delta under the floor: stable"
is "$(reason w.under_floor)" \
	"median 30.0% slower but +0.300 ms is under the floor of 1 ms" \
	"because of the floor"
is "$(status w.half)" stable \
	"slower median, only half the samples above the baseline median: stable"
is "$(reason w.half)" \
	"median 27.5% slower (+2.750 ms >= floor 1 ms), more than the 20% threshold, but only 2 of 4 samples above the baseline median (3 needed)" \
	"because of the count"
is "$(status w.version)" incomparable "another workload version: incomparable"
is "$(reason w.version)" "workload version 2 != baseline 1" "says which"
is "$(status w.checksum)" incomparable "another fixture checksum: incomparable"
is "$(reason w.checksum)" "fixture checksum bbbbbbbbbbbb != baseline aaaaaaaaaaaa" \
	"says which"
is "$(status w.zero)" incomparable "a baseline median of 0: incomparable"
is "$(reason w.zero)" "baseline median 0 ms is not positive" "says so"
is "$(status w.new)" new "a workload the baseline lacks: new"
is "$(status w.gpu gpu)" new \
	"a segment the baseline lacks (GPU here, CPU there): new"
is "$(reason w.gpu gpu)" \
	"no baseline row for this segment (the baseline has this workload in 1 other segment)" \
	"so CPU and GPU numbers are never compared"
is "$(status w.crash)" incomparable "a workload whose samples all errored"
is "$(status w.stable)" stable "the same speed: stable"
is "$(status browser.boot chromium)" stable "browser rows are compared like timing"
is "$(jq '[.[] | select(.phase == "timing")] | length' "$C")" 11 \
	"one time row per workload x backend x segment"
jq_ok '[.[] | select(.phase == "memory") | [.workload, .metric, .status]] ==
	[["w.gpu", "host_peak_bytes", "new"], ["w.gpu", "host_allocs", "new"],
	 ["w.gpu", "rss_peak_bytes", "new"],
	 ["w.gpu", "device_peak_allocated_bytes", "new"],
	 ["w.warning", "host_peak_bytes", "new"],
	 ["w.warning", "host_allocs", "new"],
	 ["w.warning", "rss_peak_bytes", "new"]]' "$C" \
	"memory samples make rows of their own, one per metric they hold"

jq_ok 'all(.[]; has("workload") and has("backend") and has("segment") and
	has("status") and has("reason") and has("delta_ms") and has("ratio") and
	has("p_value") and has("warning_floor_ms") and
	has("workload_version") and has("fixture_checksum") and
	has("above_baseline_median") and has("needed_above") and
	(.current, .baseline | has("n") and has("min") and has("median") and
	 has("p90") and has("max")))' "$C" "every row has the contract's fields"

row='.[] | select(.phase == "timing" and .workload == "w.warning")'
jq_ok "$row | .current == {n: 5, min: 12.8, median: 13, p90: 13.3, max: 13.3,
	errors: 0, workload_version: 1, fixture_checksum: (\"a\" * 68),
	output_checksum: .current.output_checksum}" "$C" \
	"odd n: median the middle, p90 sorted[4]; cold, memory and profile samples left out"
jq_ok "$row | .baseline.n == 5 and .baseline.median == 10" "$C" "the baseline side"
jq_ok "$row | .delta_ms == 3 and .ratio == 1.3 and .delta_pct == 30" "$C" \
	"delta in ms, ratio and percent"
jq_ok "$row | .above_baseline_median == 5 and .needed_above == 4 and
	.warning_floor_ms == 1" "$C" "the counts and the floor beside the rule"
jq_ok "$row | .p_value > 0 and .p_value < 0.05" "$C" \
	"and the Mann-Whitney p-value, independent of the rule"
jq_ok '.[] | select(.phase == "timing" and .workload == "w.half") | .current.median == 12.75 and
	.current.p90 == 17 and .current.n == 4' "$C" \
	"even n: median the mean of the middle two, p90 sorted[3]"
jq_ok '[.[] | select(.phase == "timing" and .status == "new") | .p_value] == [null, null]' "$C" \
	"p_value is null when the baseline side is empty"
jq_ok '.[] | select(.phase == "timing" and .workload == "w.crash") | .p_value == null and
	.current.n == 0 and .current.median == null and .errors == 1' "$C" \
	"and when the current side is"

# A missing baseline file: every row incomparable, exit 0.
run prof-diff --baseline "$T/does/not/exist.json" $D/current.json
is "$rc" 0 "a missing baseline file is exit 0"
jq_ok "all(.[]; .status == \"incomparable\" and
	.reason == \"baseline file '$T/does/not/exist.json' not found\")" "$out" \
	"and makes every row incomparable, saying why"

# A malformed baseline: exit 2 with the place, nothing written.
run prof-diff --baseline $D/schema-bad.json -o "$T/bad.json" $D/current.json
is "$rc:$(errline)" \
	"2:prof-diff: $D/schema-bad.json: .samples[2].duration_ms: expected a number, got a string" \
	"a malformed baseline is exit 2 with its JSON path"
ok "$([ ! -e "$T/bad.json" ]; echo $?)" "and nothing is written"
mkdir "$T/dir.json"
run prof-diff --baseline "$T/dir.json" $D/current.json
is "$rc" 2 "a baseline that cannot be read is exit 2, not missing"

run prof-diff --baseline $D/baseline.json - <$D/current.json
is "$rc" 0 "results from stdin"
jq_ok 'length == 18' "$out" "give the same rows"

run prof-diff $D/current.json
is "$rc:$(errline)" "2:prof-diff: give the baseline: --baseline FILE" \
	"--baseline is required"
run prof-diff --baseline $D/baseline.json
is "$rc:$(errline)" "2:prof-diff: give the results file (- for stdin)" \
	"the results file is required"
run prof-diff --baseline $D/baseline.json "$T/none.json"
is "$rc:$(errline)" "2:prof-diff: $T/none.json: cannot open: No such file or directory" \
	"a missing results file is exit 2"
finish
