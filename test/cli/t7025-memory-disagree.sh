#!/bin/bash
# Time and memory read together, in summary.md and report.html alike: a
# run whose time is the baseline's and whose allocations doubled says
# "more allocations in the same time"; one whose bytes allocated halved,
# "fewer bytes allocated in the same time"; in the metric's own words,
# the same line on both pages.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 8

# withmem FILE ALLOCS BYTES: two memory samples (the memory phase's two
# workers, call 0) of test.step beside its timing samples.
withmem() {
	jq --argjson a "$2" --argjson b "$3" '.samples += [range(2) as $i |
		.samples[0] | .phase = "memory" | .index = $i | .call = 0 |
		.duration_ms = 1 |
		.memory = {host_peak_bytes: 65536, host_allocs: $a,
			   host_allocated_bytes: $b, rss_peak_bytes: 8388608}]' \
		"$1" >"$1.m" && mv "$1.m" "$1"
}
mkrun "$T/base.json" base c0 2026-01-01T00:00:00Z 10 10 10 10
mkrun "$T/cur.json" cur c1 2026-01-02T00:00:00Z 10 10 10 10
withmem "$T/base.json" 100 1048576
withmem "$T/cur.json" 200 524288
"$BIN/prof-diff" --baseline "$T/base.json" -o "$T/c.json" "$T/cur.json"
is "$(jq -c '[.[] | [.phase, .metric, .status]]' "$T/c.json")" \
	'[["timing",null,"stable"],["memory","host_peak_bytes","stable"],["memory","host_allocs","warning"],["memory","host_allocated_bytes","improved"],["memory","rss_peak_bytes","stable"]]' \
	"time stable, allocations a warning, bytes allocated improved"
run prof-report -q --comparisons "$T/c.json" --html "$T/r.html" \
	-o "$T/s.md" "$T/cur.json"
is "$rc" 0 "prof-report writes both pages"
like "$(cat "$T/s.md")" \
	'- `test.step` (cpu): time **stable** +0.0%, allocations +100% (**warning**): more allocations in the same time, which another machine, allocator or a larger input may not forgive' \
	"summary.md: more allocations in the same time"
like "$(cat "$T/s.md")" \
	'- `test.step` (cpu): time **stable** +0.0%, bytes allocated -50% (**improved**): fewer bytes allocated in the same time' \
	"summary.md: fewer bytes allocated in the same time"
like "$(cat "$T/r.html")" \
	'<p class="disagree" data-metric="host_allocs">Time and memory disagree: time stable +0.0%, allocations +100% (warning): more allocations in the same time, which another machine, allocator or a larger input may not forgive</p>' \
	"report.html: the same line, in the block"
like "$(cat "$T/r.html")" \
	'<p class="disagree" data-metric="host_allocated_bytes">Time and memory disagree: time stable +0.0%, bytes allocated -50% (improved): fewer bytes allocated in the same time</p>' \
	"and the bytes allocated's"
is "$(grep -o 'class="disagree"' "$T/r.html" | wc -l | tr -d ' ')" 2 \
	"a stable memory row says nothing"
like "$(cat "$T/r.html")" \
	'<tr data-metric="host_allocs"><td>allocations</td><td class="num">200</td><td class="num">100</td><td class="num">+100</td><td><a class="gl" href="#g-warning"><span class="badge s-warning">warning</span></a></td></tr>' \
	"the memory channel has the allocations' row"
