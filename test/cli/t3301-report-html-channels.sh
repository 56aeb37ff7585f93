#!/bin/bash
# report.html reads a workload's two channels together: one block per
# workload x backend with its time channel and its instruction channel
# side by side, each with its status, numbers and reason; instruction
# rows in counts (grouped digits, never ms); the baseline's count drawn
# as a marker against the current count; the disagreement line of
# summary.md, from the same code; and no empty chart where a channel was
# not measured (the message stays where samples were taken and all
# failed). Opened in Debian's chromium through playwright-core, as t6004.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 23

# counted FILE RUN STEP_COUNT COUNT_ONLY MS...: a run as prof-time and
# prof-count merged would write it: test.step timed (MS...) and counted
# (STEP_COUNT) in a segment of its own (valgrind's version in its key),
# test.flat timed only, test.count counted only (COUNT_ONLY).
counted() {
	local file=$1 run=$2 step=$3 only=$4
	shift 4
	mkrun "$file.t" "$run" "c-$run" 2026-02-01T00:00:00Z "$@"
	jq --argjson step "$step" --argjson only "$only" '
	(.samples[0] | .env.valgrind = "valgrind-3.19.0" |
	 .segment = (.segment | fromjson | .valgrind = "valgrind-3.19.0" |
	 tojson) | .phase = "instructions" | .index = 0 |
	 .count_threshold_pct = 1 | .duration_ms = 900) as $count |
	.samples += [.samples[] | .workload = "test.flat" |
		.duration_ms = 5 + .index / 10] |
	.samples += [($count | .instructions = $step),
		($count | .workload = "test.count" | .instructions = $only)]' \
		"$file.t" >"$file"
}
mkdir -p "$T/run"
counted "$T/base.json" base 30822000 1000000 10 10.2 9.9
counted "$T/run/results.json" cur 56099498 985000 4.4 4.5 4.6
# test.fail was timed and every sample failed (not in the baseline).
jq '.samples += [.samples[0] | .workload = "test.fail" | .outcome = "error" |
	.duration_ms = null | .reason = "exit status 3"]' \
	"$T/run/results.json" >"$T/x.json" && mv "$T/x.json" "$T/run/results.json"
run prof-diff --baseline "$T/base.json" -o "$T/run/comparisons.json" \
	"$T/run/results.json"
jq_ok '[.[] | [.workload, .phase, .status]] | sort == [
	["test.count", "instructions", "improved"],
	["test.fail", "timing", "new"],
	["test.flat", "timing", "stable"],
	["test.step", "instructions", "warning"],
	["test.step", "timing", "improved"]]' "$T/run/comparisons.json" \
	"time improved and counts a warning for test.step; the others alone"
run prof-report --comparisons "$T/run/comparisons.json" \
	--baseline "$T/base.json" -o "$T/run/summary.md" \
	--html "$T/run/report.html" -q "$T/run/results.json"
is "$rc:$(cat "$err")" "0:" "prof-report --html writes the page"
html=$T/run/report.html

node test/browser/report-html.mjs --html "$html" --shots "$T" \
	>"$T/seen.json" 2>"$err"
is "$?:$(cat "$err")" "0:" "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == [] and .dialogs == [] and
	(.overflow | not) and (.overflow_narrow | not)' "$T/seen.json" \
	"with no console errors, nothing overflowing at 1280 or 800 pixels"
jq_ok '[.blocks[].workload] ==
	["test.count", "test.fail", "test.flat", "test.step"]' "$T/seen.json" \
	"one block per workload, each once"
jq_ok '[.blocks[] | [.channels[].kind]] == [["instructions"], ["time"],
	["time"], ["time", "instructions"]]' "$T/seen.json" \
	"test.step holds its time and instruction channels, the others one"
jq_ok '.blocks[3].channels | map([.status, .badge]) ==
	[["improved", "improved"], ["warning", "warning"]]' "$T/seen.json" \
	"each channel with its own status"
jq_ok '.blocks[3].channels[1].text | test("\\bms\\b") | not' \
	"$T/seen.json" "the instruction channel says no ms, hover titles included"
jq_ok '.blocks[3].channels[0].text | test("\\bms\\b")' "$T/seen.json" \
	"the time channel does"
like "$(cat "$html")" '<tr><td>current</td><td class="num">1</td><td class="num">56,099,498</td><td class="num">56,099,498</td><td class="num">56,099,498</td></tr><tr><td>baseline</td><td class="num">1</td><td class="num">30,822,000</td>' \
	"counts in grouped digits"
jq_ok '.blocks[3].channels[1].text |
	contains("+25,277,498 instructions (+82.01%)") and
	contains("current #0: 56,099,498 instructions")' "$T/seen.json" \
	"the change in instructions and %, the dots' titles in instructions"
jq_ok '.blocks[3].channels[1].text |
	contains("instructions 30,822,000 -> 56,099,498 (+82.01%)")' \
	"$T/seen.json" "with the channel's reason"
line=$(sed -n 's/^- `test.step` (cpu): \(time .*\)/\1/p' "$T/run/summary.md" |
	tr -d '*')
like "$line" "time improved 55%, instructions +82% (warning): more instructions per cycle" \
	"summary.md has the disagreement line"
is "$(jq -r '.blocks[3].disagree' "$T/seen.json")" \
	"Time and instructions disagree: $line" "and the page the same words"
jq_ok '[.blocks[] | .disagree] | .[0:3] == [null, null, null]' \
	"$T/seen.json" "no such line where nothing disagrees"
jq_ok '.blocks[3].channels | map(.figures) ==
	[["distribution"], ["counts"]]' "$T/seen.json" \
	"a chart per channel: samples in ms, counts in instructions"
jq_ok '.blocks[3].channels[1].mark |
	.title == "baseline 30,822,000 instructions (1 sample)" and
	.width > 5' "$T/seen.json" "the baseline's count is a marker"
jq_ok '.blocks[3].channels[1] | (.dots | length) == 1 and
	.mark.x < .dots[0] - 100' "$T/seen.json" \
	"drawn against the current count, well to its left"
jq_ok '.blocks[0].channels[0] | .figures == ["counts"] and
	.status == "improved" and .mark.title ==
	"baseline 1,000,000 instructions (1 sample)"' "$T/seen.json" \
	"a count-only workload: its counts, no time channel"
jq_ok '.blocks[2].channels[0].figures == ["distribution"]' \
	"$T/seen.json" "a time-only workload: no instruction channel"
jq_ok '[.blocks[].channels[].captions[] |
	select(startswith("No successful"))] ==
	["No successful warm samples to draw."]' "$T/seen.json" \
	"no empty chart where a channel was not measured"
jq_ok '.blocks[1] | .status == "error" and
	.channels[0].figures == ["distribution"]' "$T/seen.json" \
	"the message only where every sample failed"
jq_ok '.statuses == ["improved", "error", "stable", "warning"] and
	.visible_after_filter == ["warning"]' "$T/seen.json" \
	"a block's status is its most telling channel's, as the filter reads it"
finish
