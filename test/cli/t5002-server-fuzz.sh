#!/bin/bash
# plotkit serve under fire: pk-http-fuzz sends thousands of seeded random,
# truncated, dripped, pipelined and malformed requests (see its --help),
# checking every answer is well-formed HTTP and that the server keeps
# answering; then a good request must still get the right answer, and the
# server must still stop cleanly.
. "$(dirname "$0")/lib.sh"
plan 8

# One thread, as plotkit serve runs by default (t5003 has the pool).
serve --max-body 65536 --max-points 200000 --timeout 5
ok "$([ -n "$port" ]; echo $?)" "the server starts"

run "$TBIN/pk-http-fuzz" --seed 20260710 --requests 6000 "$port"
is "$rc:$(cat "$err")" "0:" "6000 fuzzed requests: the server held up"
jq_ok '.requests == 6000 and .answered > 1000 and .closed > 100 and
	(.statuses | has("200") and has("400") and has("404") and
	 has("405") and has("413")) and ([.kinds[]] | all(. > 200))' "$out" \
	"every kind was sent, and every status seen"

run "$TBIN/pk-http-fuzz" --seed 7 --requests 2000 "$port"
is "$rc:$(cat "$err")" "0:" "another seed, 2000 more"

run "$TBIN/pk-http" "$port" POST /api/flatten @test/data/svg/circle.svg
is "$rc:$(head -n 1 "$out")" "0:200 application/json" \
	"a good request afterwards is answered"
"$BIN/plotkit" flatten test/data/svg/circle.svg >"$T/want.json"
run "$TBIN/pk-http" -d "$T" "$port" POST /api/flatten @test/data/svg/circle.svg
cmp -s "$T/1" "$T/want.json"
ok $? "and right"

kill -TERM "$spid"
wait "$spid"
rc=$?
spid=
is "$rc" 0 "the server stops with exit 0"
is "$(wc -c <"$T/serve.err")" 0 "having said nothing on stderr"
finish
