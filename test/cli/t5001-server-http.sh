#!/bin/bash
# plotkit serve: the endpoints over HTTP (statuses, types, JSON checked with
# jq), the limits, keep-alive, the errors, and a clean stop on SIGTERM and
# SIGINT. The client is build/test/pk-http, one connection per call.
. "$(dirname "$0")/lib.sh"
plan 47

H=$TBIN/pk-http

# answers NAME LINE...: the last pk-http run exited 0 and printed these.
answers() {
	local name=$1
	shift
	is "$rc:$(tr '\n' '|' <"$out")" "0:$(printf '%s|' "$@")" "$name"
}

# stop SIGNAL: stop the server; its exit code in $rc. A server that has
# not stopped after 60 s is killed (rc 137) and said so, so that the test
# fails instead of hanging the suite.
stop() {
	kill -"$1" "$spid"
	for _ in $(seq 1200); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$spid" 2>/dev/null; then
		echo "# the server did not stop within 60 s of SIG$1" >&2
		kill -KILL "$spid"
	fi
	wait "$spid"
	rc=$?
	spid=
}

serve --max-body 1048576
ok $? "plotkit serve --port 0 starts"
like "$(cat "$T/serve.out")" "listening on http://127.0.0.1:$port/" \
	"and says where it listens"

# The pages and the fixture, then upload, plan and preview, on one
# connection.
run "$H" -d "$T" "$port" GET / GET /viewer.js \
	GET /fixtures/dense-circles.svg GET /api/preview.svg
answers "GET the page, the script, the fixture, and the preview (404)" \
	"200 text/html; charset=utf-8" "200 text/javascript; charset=utf-8" \
	"200 image/svg+xml" "404 application/json" "connections 1"
cmp -s "$T/1" workloads/browser/viewer.html
ok $? "GET / is viewer.html, byte for byte"
cmp -s "$T/2" workloads/browser/viewer.js
ok $? "GET /viewer.js is viewer.js"
is "$(grep -o '<circle' "$T/3" | wc -l)" 8000 "the fixture has 8000 circles"
ok "$([ "$(wc -c <"$T/3")" -gt 400000 ]; echo $?)" "in more than 400000 bytes"
jq_ok '.error == "nothing uploaded yet: POST an SVG to /api/flatten first"' \
	"$T/4" "no preview before an upload, and why"
mv "$T/3" "$T/dense.svg"

run "$H" -d "$T" "$port" POST /api/flatten @"$T/dense.svg" \
	POST /api/plan @"$T/dense.svg" GET /api/preview.svg
answers "POST the fixture to /api/flatten and /api/plan, then the preview" \
	"200 application/json" "200 application/json" "200 image/svg+xml" \
	"connections 1"
jq_ok '.paths == 8000 and .circles == 8000 and .points > 8000 and
	.pens == {"#000000": 8000} and .page_mm == [420, 297] and
	(.bounds_mm | length == 4) and .length_mm > 0' "$T/1" \
	"/api/flatten: 8000 paths, their points, length, bounds and pen"
"$BIN/plotkit" flatten "$T/dense.svg" >"$T/flat.json"
cmp -s "$T/1" "$T/flat.json"
ok $? "the same bytes as plotkit flatten prints"
jq -e --slurpfile f "$T/1" '.paths == 8000 and .points == $f[0].points and
	.strokes == 8000 and .moves == 8000 and
	.pen_down_mm == $f[0].length_mm and .pen_up_mm < .pen_up_unordered_mm
	and .time_s > 0 and (.order_checksum | test("^[0-9a-f]{16}$"))' \
	"$T/2" >/dev/null
ok $? "/api/plan: 8000 strokes, less pen-up travel, a time, a checksum"
cp "$T/2" "$T/plan.json"
is "$(grep -o '<circle' "$T/3" | wc -l)" 8000 \
	"the preview has the 8000 circles"
like "$(head -c 300 "$T/3")" 'viewBox="0 0 420 297"' "on the page, in mm"

run "$H" -d "$T" "$port" POST /api/plan @"$T/dense.svg"
cmp -s "$T/1" "$T/plan.json"
ok $? "the plan again: the same answer"

# Errors: 400 with the line, 404, 405 with Allow, all on one connection.
run "$H" -d "$T" "$port" \
	POST /api/flatten @test/data/svg/bad-unclosed.svg \
	POST /api/flatten @/dev/null \
	POST '/api/plan?tolerance=0' @"$T/dense.svg" \
	GET /nope PUT /api/flatten GET /api/plan POST /viewer.js @/dev/null \
	GET /api/preview.svg
json="application/json"
answers "400, 404 and 405 answers keep the connection" \
	"400 $json" "400 $json" "400 $json" "404 $json" \
	"405 $json allow=POST" "405 $json allow=POST" \
	"405 $json allow=GET, HEAD" "200 image/svg+xml" "connections 1"
jq_ok ".error == \"request:7: unclosed element 'g'\"" "$T/1" \
	"a bad SVG: the line and the engine's reason"
jq_ok '.error == "request:1: document is empty"' "$T/2" "an empty body"
jq_ok '.error == "bad tolerance: expected a positive number of " +
	"millimetres"' "$T/3" "a bad ?tolerance="
jq_ok ".error == \"no such path '/nope'\"" "$T/4" "an unknown path"
jq_ok ".error == \"method 'PUT' is not allowed on '/api/flatten' (allowed: POST)\"" \
	"$T/5" "a wrong method"
jq_ok ".error == \"method 'POST' is not allowed on '/viewer.js' (allowed: GET, HEAD)\"" \
	"$T/7" "names what is allowed"
is "$(grep -o '<circle' "$T/8" | wc -l)" 8000 \
	"failed uploads leave the last good one in place"

# Query parameters reach the engine.
run "$H" -d "$T" "$port" POST '/api/flatten?step=2&tolerance=0.5' \
	@"$T/dense.svg"
jq_ok '.step_mm == 2 and .tolerance_mm == 0.5 and .paths == 8000' "$T/1" \
	"?step=2&tolerance=0.5 reach the flattening"
jq -e --slurpfile f "$T/flat.json" '.points < $f[0].points' "$T/1" >/dev/null
ok $? "with fewer points"

# 413: a body over --max-body is refused before it is read.
head -c 1048577 /dev/zero | tr '\0' ' ' >"$T/big"
head -c 1048576 /dev/zero | tr '\0' ' ' >"$T/limit"
run "$H" -d "$T" -r "$port" POST /api/flatten @"$T/big" GET /viewer.js
answers "1048577 bytes: 413, and the server closes that connection" \
	"413 application/json" "200 text/javascript; charset=utf-8" \
	"connections 2"
jq_ok '.error == "request body of 1048577 bytes is over the limit of 1048576 bytes"' \
	"$T/1" "saying why in one line"
is "$(wc -l <"$T/1")" 1 "one line"
run "$H" -d "$T" "$port" POST /api/flatten @"$T/limit"
is "$rc:$(head -n 1 "$out")" "0:400 application/json" \
	"1048576 bytes are read (and are no SVG: 400)"

run "$H" "$port" GET /favicon.ico
is "$rc:$(head -n 1 "$out")" "0:204 " "/favicon.ico: 204, no content"

# Keep-alive: many requests, one connection.
set --
for i in $(seq 20); do
	set -- "$@" GET /viewer.js POST /api/flatten @test/data/svg/circle.svg
done
run "$H" "$port" "$@"
is "$rc:$(grep -c '^200 ' "$out"):$(tail -n 1 "$out")" "0:40:connections 1" \
	"40 requests on one keep-alive connection"

# HTTP/1.0 and a bogus Content-Length, by hand (bash's /dev/tcp).
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /viewer.js HTTP/1.0\r\n\r\n' >&3
IFS= read -r -t 10 line <&3
is "${line%$'\r'}" "HTTP/1.1 200 OK" \
	"HTTP/1.0 is answered (by an HTTP/1.1 server)"
exec 3<&-
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /api/flatten HTTP/1.1\r\nHost: x\r\n%s\r\n\r\n' \
	'Content-Length: 12abc' >&3
IFS= read -r -t 10 line <&3
is "${line%$'\r'}" "HTTP/1.1 400 Bad Request" "a bogus Content-Length: 400"
exec 3<&-
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /api/flatten HTTP/1.1\r\nHost: x\r\n%s\r\n\r\n' \
	'Content-Length: 99999999999' >&3
IFS= read -r -t 10 line <&3
is "${line%$'\r'}" "HTTP/1.1 413 Content Too Large" "a huge Content-Length: 413"
exec 3<&-

# A clean stop.
kill -0 "$spid"
ok $? "the server is still up"
stop TERM
is "$rc" 0 "SIGTERM stops it with exit 0"
is "$(wc -l <"$T/serve.out"):$(wc -c <"$T/serve.err")" "1:0" \
	"one line on stdout, nothing on stderr"

serve --threads 2 --timeout 5
ok $? "a second server, two threads"
run "$H" "$port" GET /
is "$rc:$(head -n 1 "$out")" "0:200 text/html; charset=utf-8" "answers"
stop INT
is "$rc" 0 "SIGINT stops it with exit 0"

# Arguments and start-up failures: exit 2, one line.
serve
run plotkit serve --port "$port"
is "$rc:$(cat "$err")" \
	"2:plotkit: serve: cannot listen on 127.0.0.1:$port: Address already in use" \
	"a port in use: exit 2, and why"
stop TERM
run plotkit serve --port 65536
is "$rc:$(cat "$err")" \
	"2:plotkit: serve: --port: '65536' is not a whole number from 0 to 65535" \
	"a bad --port: exit 2"
run plotkit serve --max-body 0
is "$rc" 2 "--max-body 0: exit 2"
run plotkit serve --port
is "$rc:$(cat "$err")" "2:plotkit: serve: option '--port' needs a value" \
	"--port without a value"
run plotkit serve extra
is "$rc:$(head -n 1 "$err")" "2:plotkit: serve: unexpected argument 'extra'" \
	"an extra argument"
run plotkit serve --help
is "$rc:$(head -n 1 "$out")" \
	"0:usage: plotkit serve [--port N] [--max-body BYTES] [--max-points N]" \
	"--help prints the usage"
run plotkit --help
like "$(cat "$out")" "serve      serve the viewer and the engine's API over HTTP" \
	"plotkit --help lists serve"
finish
