#!/bin/bash
# plotkit serve (issue 28, item 5): a step or tolerance is range-checked
# as plotkit flatten checks it (pk_flatten_parse_mm(): 0.000001 to 1000000
# mm; ?step=1e-300 was answered "step_mm": 0, a value the server itself
# refuses); a parameter given twice is refused, naming it (the first was
# taken); a NUL (%00) anywhere in the URL is a 400 ("/viewer.js%00.svg"
# was served as /viewer.js, "?step=1%00x" read as step 1). Each is one
# answer on a connection that stays open.
. "$(dirname "$0")/lib.sh"
plan 15

serve
ok "$([ -n "$port" ]; echo $?)" "the server starts"

svg=@test/data/svg/circle.svg
json="application/json"
run "$TBIN/pk-http" -d "$T" "$port" \
	POST '/api/flatten?step=1e-300' $svg \
	POST '/api/flatten?tolerance=1e-320' $svg \
	POST '/api/plan?step=1e7' $svg \
	POST '/api/flatten?step=1&step=2' $svg \
	POST '/api/plan?tolerance=1&st%65p=1&step=2&step=3' $svg \
	GET '/viewer.js%00.svg' \
	POST '/api/flatten?step=1%00x' $svg \
	GET '/viewer.js%2500' \
	POST '/api/flatten?step=0.000001&tolerance=1000000' $svg
is "$rc:$(tr '\n' '|' <"$out")" \
	"0:400 $json|400 $json|400 $json|400 $json|400 $json|400 $json|400 $json|404 $json|200 $json|connections 1|" \
	"eight refusals and an answer, on one connection"
range='out of range: expected 0.000001 to 1000000 millimetres'
jq_ok ".error == \"bad step: $range\"" "$T/1" \
	"?step=1e-300: out of range, not step_mm 0"
jq_ok ".error == \"bad tolerance: $range\"" "$T/2" \
	"?tolerance=1e-320 (an underflow): out of range"
jq_ok ".error == \"bad step: $range\"" "$T/3" "?step=1e7: out of range"
jq_ok ".error == \"parameter 'step' is given 2 times: give it once\"" \
	"$T/4" "?step=1&step=2: refused, naming the parameter"
jq_ok ".error == \"parameter 'step' is given 3 times: give it once\"" \
	"$T/5" "however it is spelt"
jq_ok ".error == \"the URL holds a NUL byte (%00): '/viewer.js%00.svg'\"" \
	"$T/6" "/viewer.js%00.svg: 400, not the script"
jq_ok ".error == \"the URL holds a NUL byte (%00): '/api/flatten'\"" \
	"$T/7" "a %00 in the query: 400, not step 1"
jq_ok ".error == \"no such path '/viewer.js%00'\"" "$T/8" \
	"an escaped '%' is no NUL: the path '/viewer.js%00' is not there"
jq_ok '.step_mm == 0.000001 and .tolerance_mm == 1000000' "$T/9" \
	"the bounds themselves are taken, and written as given"
kill -TERM "$spid"
wait "$spid"
is "$?:$(cat "$T/serve.err")" "0:" "the server stops cleanly"
spid=

# plotkit flatten takes the same range through the same function.
run "$BIN/plotkit" flatten --step 1e-300 test/data/svg/circle.svg
is "$rc:$(cat "$err")" \
	"2:plotkit: --step: '1e-300' is out of range (0.000001 to 1000000 millimetres)" \
	"plotkit flatten --step 1e-300: exit 2, the range"
run "$BIN/plotkit" flatten --tolerance inf test/data/svg/circle.svg
is "$rc:$(cat "$err")" \
	"2:plotkit: --tolerance: 'inf' is out of range (0.000001 to 1000000 millimetres)" \
	"--tolerance inf: the same"
run "$BIN/plotkit" flatten --step -1e-400 test/data/svg/circle.svg
is "$rc:$(cat "$err")" \
	"2:plotkit: --step: '-1e-400' is not a positive number of millimetres" \
	"a negative one is no positive number, however small"
finish
