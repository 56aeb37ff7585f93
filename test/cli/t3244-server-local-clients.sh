#!/bin/bash
# plotkit serve: local clients do not lock each other out. Every client of
# a server on 127.0.0.1 is local, so a cap per address was shared by all:
# 64 slow connections from 127.0.0.1 kept good requests from 127.0.0.1
# out, again at each reconnect, and 530 over 200 loopback addresses
# filled the server. Slow connections are now capped as a class (the one
# that has waited longest is shed for a new one) and requests that are
# whole keep room of their own: beside slow clients that reconnect as
# soon as they are closed, every good request is answered. pk-crowd (see
# its --help) stops by itself after 60 s at most; the load is bounded and
# on loopback only.
. "$(dirname "$0")/lib.sh"
plan 9


stop() {
	kill -TERM "$spid"
	wait "$spid"
	rc=$?
	spid=
}

# Slow clients cut at a 2 s deadline reconnect while 44 good requests
# come, 100 ms apart: a wave of reconnections in the middle.
serve --request-timeout 2
ok $? "a server with a 2 s request deadline"
run "$TBIN/pk-crowd" "$port" 64 1 44 60
is "$rc:$(cat "$err")" "0:" "64 slow clients from 127.0.0.1, 44 good requests"
jq_ok '.answered == 44 and .unanswered == 0' "$out" \
	"every good request from the same address is answered"
jq_ok '.closed >= 64 and .opened >= 128' "$out" \
	"while the slow ones were cut at their deadline and came back"
stop
is "$rc:$(cat "$T/serve.err")" "0:" "the server stops cleanly"

# 530 slow clients over 200 addresses, more than may wait: they hold
# their connections (a 30 s deadline) and reconnect when shed.
serve --request-timeout 30
run "$TBIN/pk-crowd" "$port" 530 200 44 60
is "$rc:$(cat "$err")" "0:" "530 slow clients over 200 addresses"
jq_ok '.answered == 44 and .unanswered == 0' "$out" \
	"every good request is answered"
jq_ok '.closed >= 82' "$out" \
	"while the slow ones over the 448 that may wait were shed"
run "$TBIN/pk-http" "$port" GET /favicon.ico
answer=$rc:$(head -n 1 "$out")
stop
is "$answer:$rc" "0:204 :0" \
	"and the server still answers, then stops cleanly"
finish
