#!/bin/bash
# CSV formula injection (issue 19, item 10): a text cell that a
# spreadsheet would run as a formula gets a single quote in front, quoted
# (OWASP); numbers and plain text are written as they were. (A commit or
# a workload id cannot begin so: the readers refuse them.)
. "$(dirname "$0")/lib.sh"
plan 9

D=test/data/results
jq '.samples[0] |= (.outcome = "error" |
		.reason = "=HYPERLINK(\"http://x\",\"y\")") |
	.samples[1] |= (.outcome = "error" | .reason = "@SUM(A1)") |
	.samples[2] |= (.outcome = "error" | .reason = "+1") |
	.samples[3] |= (.outcome = "error" | .reason = "\tx") |
	.samples[4] |= (.outcome = "error" | .reason = "\ry") |
	.samples[5] |= (.outcome = "error" | .reason = "a=b, -c") |
	.samples[6] |= (.outcome = "error" | .reason = "-2+3")' \
	$D/current.json >"$T/evil.json"
run prof-export -f csv "$T/evil.json"
is "$rc" 0 "exit 0"
csv=$(cat "$out")
q="'"
like "$csv" ",\"${q}=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"," \
	"a reason that begins with '=': a quote in front, quoted"
like "$csv" ",\"${q}-2+3\"," "a reason that begins with '-'"
like "$csv" ",\"${q}@SUM(A1)\"," "with '@'"
like "$csv" ",\"${q}+1\"," "with '+'"
like "$csv" ",\"${q}"$'\t'"x\"," "with a tab"
like "$csv" ",\"${q}"$'\r'"y\"," "with a carriage return"
like "$csv" ',"a=b, -c",' "a formula sign inside a text is left alone"
w=$(jq -r '.samples[0].workload' $D/current.json)
like "$csv" ",$w,cpu," "plain text is written as it is"
finish
