#!/bin/bash
# plotkit serve: a request whose body could end in two places (two
# Content-Length headers, Transfer-Encoding beside Content-Length) is
# refused with 400 and its connection closed, so that nothing after it is
# read as a request of its own; and a body refused while it is still
# coming (413) is read and dropped after the answer (a lingering close),
# so that the client's writes do not meet a reset and it reads the 413.
. "$(dirname "$0")/lib.sh"
plan 13

serve --max-body 1048576
ok "$([ -n "$port" ]; echo $?)" "the server starts"

# raw HEADERS BODY: a POST to /api/flatten with these headers and body,
# then a GET of /favicon.ico (the last) on the same connection; every
# status line and error the server sends back before it closes (10 s at
# most).
raw() {
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	printf 'POST /api/flatten HTTP/1.1\r\nHost: x\r\n%b\r\n\r\n%b' \
		"$1" "$2" >&3
	printf 'GET /favicon.ico HTTP/1.1\r\nHost: x\r\n%s\r\n\r\n' \
		'Connection: close' >&3
	timeout 10 cat <&3 | tr -d '\r' |
		grep -aoE '^HTTP/1.1 [0-9]+|^Connection: close|"error":"[^"]*"' |
		tr '\n' '|'
	exec 3<&-
}

is "$(raw 'Content-Length: 0\r\nContent-Length: 46' \
	'GET /api/preview.svg HTTP/1.1\r\nHost: x\r\n\r\n')" \
	'HTTP/1.1 400|Connection: close|"error":"more than one Content-Length header"|' \
	"two Content-Length headers: 400, closed, nothing after it answered"
is "$(raw 'Content-Length: 5\r\ncontent-length: 5' '<svg>')" \
	'HTTP/1.1 400|Connection: close|"error":"more than one Content-Length header"|' \
	"even equal ones"
is "$(raw 'Transfer-Encoding: chunked\r\nContent-Length: 3' \
	'0\r\n\r\n')" \
	'HTTP/1.1 400|Connection: close|"error":"both Transfer-Encoding and Content-Length headers"|' \
	"Transfer-Encoding with Content-Length: 400, closed"
is "$(raw 'Content-Length: 3\r\nTransfer-Encoding: chunked' \
	'0\r\n\r\n')" \
	'HTTP/1.1 400|Connection: close|"error":"both Transfer-Encoding and Content-Length headers"|' \
	"in either order"
is "$(raw 'Content-Length: 5' '<svg>')" \
	"HTTP/1.1 400|\"error\":\"request:1: unclosed element 'svg'\"|HTTP/1.1 204|Connection: close|" \
	"one Content-Length: answered, and the next request too"
is "$(raw 'Transfer-Encoding: chunked' '5\r\n<svg>\r\n0\r\n\r\n')" \
	"HTTP/1.1 400|\"error\":\"request:1: unclosed element 'svg'\"|HTTP/1.1 204|Connection: close|" \
	"chunked alone: the same"

# 413 while the body is still coming: the client gets all of it out.
run "$TBIN/pk-linger" "$port" 1048577
is "$rc:$(cat "$out")" \
	"0:sent 1048577 of 1048577; HTTP/1.1 413 Content Too Large" \
	"a body one byte over --max-body, sent on after the 413: read"
run "$TBIN/pk-linger" "$port" 4194304
is "$rc:$(cat "$out")" \
	"0:sent 4194304 of 4194304; HTTP/1.1 413 Content Too Large" \
	"4 times --max-body: read"
# Past 4 times --max-body the server stops reading: the rest is refused.
run "$TBIN/pk-linger" "$port" 67108864
like "$rc:$(cat "$out")" "0:sent " "64 MiB: the client is cut off"
ok "$(awk '{ exit !($2 < 67108864) }' "$out"; echo $?)" \
	"before it has sent it all ($(cut -d';' -f1 "$out"))"
run "$TBIN/pk-http" "$port" GET /favicon.ico
is "$rc:$(head -n 1 "$out")" "0:204 " "and the server still answers"
kill -TERM "$spid"
wait "$spid"
is "$?:$(cat "$T/serve.err")" "0:" "and stops cleanly"
spid=
finish
