#!/bin/bash
# The comparisons reader range-checks its numbers (issue 28, item 2): a
# p-value of 5, a ratio of -1 and a sample count of -1 were printed into
# summary.md as they were.
. "$(dirname "$0")/lib.sh"
plan 4

D=test/data/results
"$BIN/prof-diff" --baseline $D/baseline.json -o "$T/c.json" $D/current.json
bad() { # FILTER: the comparisons made bad, then prof-report
	jq "$1" "$T/c.json" >"$T/bad.json"
	run prof-report --comparisons "$T/bad.json" -o "$T/s.md" \
		$D/current.json
}
bad '.[0].p_value = 5'
is "$rc:$(errline)" \
	"2:prof-report: $T/bad.json: [0].p_value: a p-value 5 is out of range (expected from 0 to 1)" \
	"a p-value of 5 is refused with its path and range"
ok "$([ ! -e "$T/s.md" ]; echo $?)" "and no summary is written"
bad '.[1].ratio = -1'
is "$rc:$(errline)" \
	"2:prof-report: $T/bad.json: [1].ratio: a ratio -1 is out of range (expected from 0 to inf)" \
	"a ratio below 0"
bad '.[1].current.n = -1'
is "$rc:$(errline)" \
	"2:prof-report: $T/bad.json: [1].current.n: a sample count -1 is out of range (expected from 0 to 1e+15)" \
	"a sample count below 0"
finish
