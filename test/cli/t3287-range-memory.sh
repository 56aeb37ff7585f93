#!/bin/bash
# A sample's memory numbers (bytes and counts, compared exactly) are
# range-checked where they are read (issue 28, item 2): a host peak of
# 1e308 bytes was taken and summary.md printed a 300-digit host peak.
. "$(dirname "$0")/lib.sh"
plan 4

D=test/data/results
bad() { # FILTER: current.json's memory sample made bad, then prof-diff
	jq "(.samples[] | select(.phase == \"memory\") | .memory) |= ($1)" \
		$D/current.json >"$T/bad.json"
	run prof-diff --baseline $D/baseline.json -o "$T/c.json" "$T/bad.json"
}
bad '.host_peak_bytes = 1e308'
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .samples[6].memory.host_peak_bytes: a memory number 1e+308 is out of range (expected from 0 to 1e+15)" \
	"a host peak of 1e308 bytes is refused with its path and range"
ok "$([ ! -e "$T/c.json" ]; echo $?)" "and nothing is written"
bad '.host_allocs = -1'
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .samples[6].memory.host_allocs: a memory number -1 is out of range (expected from 0 to 1e+15)" \
	"a count below 0"
bad '.device_peak_reserved_bytes = null | .rss_peak_bytes = 1e15'
is "$rc:$(errline)" "0:" "null, and a petabyte, are taken"
finish
