#!/bin/bash
# plotkit serve and slow clients: 520 connections from one address that
# trickle their request heads (a byte every 100 ms, never done) lock no one
# out. At most --max-waiting connections (64 here) wait for a request,
# all clients together: each new one over that sheds the one that has
# waited longest, so the 456 oldest go before they send a byte; another
# client from the same address (every local client's) is answered while
# they trickle, shedding one; the others are cut at the request deadline
# (--request-timeout, 5 s here), never before, however busy they keep
# their connections; then the same address is answered again. The same
# holds for a body that trickles after a whole head. pk-trickle (see its
# --help) stops by itself after 60 s at most. t3244 has many slow clients
# from many addresses beside good requests.
. "$(dirname "$0")/lib.sh"
plan 10

spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$T"' EXIT

"$BIN/plotkit" serve --port 0 --request-timeout 5 --max-waiting 64 \
	>"$T/serve.out" 2>"$T/serve.err" &
spid=$!
port=
# Until the server says its port, or has ended: no time limit (a busy
# machine may take long to start it).
while :; do
	port=$(sed -n 's|^listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' \
		"$T/serve.out")
	[ -n "$port" ] && break
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.05
done
ok "$([ -n "$port" ]; echo $?)" "the server starts"

run "$TBIN/pk-trickle" "$port" 520 60
is "$rc:$(cat "$err")" "0:" "pk-trickle ran"
jq_ok '.other_client == 200' "$out" \
	"another client is answered while 520 connections trickle"
jq_ok '.held == 64 and .refused == 456' "$out" \
	"64 connections wait; the 456 oldest are shed at once"
jq_ok '.open == 0 and .cut == .held' "$out" \
	"every trickler held is cut, though it kept sending"
jq_ok '(.cut_ms | length) == 64 and .cut_ms[0] < 5000 and
	.cut_ms[1] >= 5000' "$out" \
	"the oldest shed for the other client, none other before its 5 s deadline"
jq_ok '.same_client_after == 200' "$out" \
	"then the same address is answered again"

# The deadline is the whole request's: a whole head, then a body that
# trickles, is cut as well.
run "$TBIN/pk-trickle" "$port" 20 60 body
is "$rc:$(cat "$err")" "0:" "pk-trickle body ran"
jq_ok '.held == 20 and .cut == 20 and .open == 0 and .other_client == 200' \
	"$out" "20 bodies trickling: another client answered, all 20 cut"
jq_ok '.cut_after_ms[0] >= 5000' "$out" "none before its deadline"
kill -TERM "$spid"
wait "$spid"
spid=
finish
