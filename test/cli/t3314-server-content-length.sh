#!/bin/bash
# plotkit serve (issue 28, item 5): a Content-Length that is not a number
# of bytes below 2^64 (-1, 2^64, 1x) gets one well-framed 400 and the
# connection closed. libmicrohttpd 0.9.75 refuses such a header itself,
# and sent its status line and headers twice (its error response builds
# them, and its state machine builds them again); the server's logger
# answers in its place (server.c, on_mhd_log()). With one worker thread
# and with four.
. "$(dirname "$0")/lib.sh"
plan 13

# raw REQUEST: send REQUEST (printf %b) on a new connection and print all
# the server sends back before it closes (10 s at most), CRs taken out,
# the Date header's value left out.
raw() {
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	printf '%b' "$1" >&3
	timeout 10 cat <&3 | tr -d '\r' | sed 's/^Date: .*/Date: -/'
	exec 3<&-
}

want='HTTP/1.1 400 Bad Request
Connection: close
Cache-Control: no-store
Content-Type: application/json
Date: -
Content-Length: 77

{"error":"bad Content-Length header: expected a number of bytes below 2^64"}'

for threads in 1 4; do
	serve --threads $threads
	ok "$([ -n "$port" ]; echo $?)" "the server starts ($threads thread(s))"
	is "$(raw 'POST /api/flatten HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n<svg/>')" \
		"$want" "Content-Length: -1: one 400, well framed"
	is "$(raw 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551616\r\n\r\n')" \
		"$want" "2^64: the same (it was a 413, twice)"
	# After an answered request on the same connection; nothing after it
	# is read as a request.
	got=$(raw 'GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\nPOST /api/plan HTTP/1.1\r\nHost: x\r\ncontent-length: 1x\r\n\r\nGET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n')
	is "$(grep -c '^HTTP/' <<<"$got"):$(tail -n 1 <<<"$got")" \
		'2:{"error":"bad Content-Length header: expected a number of bytes below 2^64"}' \
		"kept alive, then 1x: a 204 and one 400, and the connection closed"
	run "$TBIN/pk-http" "$port" GET /favicon.ico
	is "$rc:$(head -n 1 "$out")" "0:204 " "the server still answers"
	kill -TERM "$spid"
	wait "$spid"
	is "$?:$(cat "$T/serve.err")" "0:" "and stops cleanly, nothing logged"
	spid=
done
# A good Content-Length is libmicrohttpd's and ours as before.
serve
is "$(raw 'POST /api/flatten HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\n<svg>' | grep -c '^HTTP/')" \
	1 "a good one: one answer"
finish
