#!/bin/bash
# Numbers that overflow in the engine are bad input everywhere: plotkit
# flatten exits 2 with one line, and /api/flatten and /api/plan answer 400
# with the same reason (test/data/svg/bad-range-*.svg and their .err); a
# refused upload leaves the preview as it was, and nothing says inf or nan.
. "$(dirname "$0")/lib.sh"

set -- test/data/svg/bad-range-*.svg
plan $(($# * 4 + 7))

H=$TBIN/pk-http
serve
ok "$([ -n "$port" ]; echo $?)" "the server starts"

run "$H" "$port" POST /api/flatten @test/data/svg/circle.svg
is "$rc:$(head -n 1 "$out")" "0:200 application/json" "a good upload first"

for svg in "$@"; do
	name=$(basename "$svg" .svg)
	# The reason without "plotkit: FILE:": "LINE: why".
	want=$(sed "s|^plotkit: $svg:||" "${svg%.svg}.err")
	run plotkit flatten "$svg"
	is "$rc:$(wc -c <"$out"):$(cat "$err")" "2:0:$(cat "${svg%.svg}.err")" \
		"$name: plotkit flatten: exit 2, the reason, no output"
	run "$H" -d "$T" "$port" POST /api/flatten @"$svg" POST /api/plan @"$svg"
	is "$rc:$(tr '\n' '|' <"$out")" \
		"0:400 application/json|400 application/json|connections 1|" \
		"$name: /api/flatten and /api/plan answer 400"
	jq -e --arg w "request:$want" '.error == $w' "$T/1" >/dev/null
	ok $? "$name: /api/flatten says why, with the line"
	jq -e --arg w "request:$want" '.error == $w' "$T/2" >/dev/null
	ok $? "$name: /api/plan says the same"
done

# The issue's own examples, on stdin: no inf or nan anywhere.
printf '%s\n' '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm">' \
	'<circle r="2" stroke="black" transform="scale(1e308)"/></svg>' |
	"$BIN/plotkit" flatten - >"$out" 2>"$err"
is "$?:$(cat "$err")" "2:plotkit: <stdin>:2: element 'circle' is out of range (coordinates or sizes beyond 1e12 mm)" \
	"scale(1e308): exit 2, not length_mm nan"

run "$H" -d "$T" "$port" GET /api/preview.svg
is "$rc:$(head -n 1 "$out")" "0:200 image/svg+xml" "the preview is still there"
is "$(grep -c '<circle' "$T/1")" 1 "and still the good upload's circle"
is "$(grep -ciE 'inf|nan' "$T/1")" 0 "with no inf or nan in it"

kill -TERM "$spid"
wait "$spid"
rc=$?
spid=
is "$rc:$(wc -c <"$T/serve.err")" "0:0" "the server stops cleanly, silent"
finish
