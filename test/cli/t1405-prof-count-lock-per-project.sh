#!/bin/bash
# prof-count's fixed folder, and its lock, are one per project
# (/tmp/prof-count-UID/PROJECT, 16 hex digits of the project's name), not
# one per user for the whole machine: while a count of one project runs,
# another project's count runs at once, in a HOME and PWD of its own of
# the same length; a second count of the same project waits for the
# first, and says so.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
command -v flock >/dev/null || skip_all "flock is not installed"
plan 9

top=/tmp/prof-count-$(id -u)
key() {
	printf '%s' "$1" | sha256sum | cut -c1-16
}
a=t1405-a-$$ b=t1405-b-$$
ka=$(key "$a") kb=$(key "$b")
trap 'rm -rf "$T" "$top/$ka" "$top/$kb"' EXIT

# Project a's lock, held here as a running count of it would hold it.
mkdir -p -m 0700 "$top" "$top/$ka"
exec 9>"$top/$ka/lock"
flock 9

# env NAME: where the command found HOME and PWD, under project NAME.
PROF_PROJECT=$b "$BIN/prof-count" --name env --repeat 1 -o "$T/b.jsonl" -- \
	sh -c 'echo "$HOME $PWD" >"$0/b.env"' "$T" >"$out" 2>"$err"
is "$?" 0 "project b counts while project a's lock is held: exit 0"
is "$(cat "$T/b.env")" "$top/$kb/home $top/$kb/cwd" \
	"in HOME and PWD of its own project's folder"
is "$(grep -c waiting "$err")" 0 "without waiting"
jq_ok -s '[.[] | select(.phase == "instructions")] | length == 1 and
	.[0].outcome == "success"' "$T/b.jsonl" "its count"

# A count of project a waits for the lock, and says so; it goes on when
# the lock is let go.
: >"$T/a.err"
PROF_PROJECT=$a "$BIN/prof-count" --name env --repeat 1 -o "$T/a.jsonl" -- \
	sh -c 'echo "$HOME $PWD" >"$0/a.env"' "$T" >"$T/a.out" 2>"$T/a.err" 9>&- &
pid=$!
until grep -q waiting "$T/a.err"; do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
is "$(cat "$T/a.err")" "prof-count: waiting for another prof-count of project '$a' ($top/$ka/lock)" \
	"a second count of project a waits, naming its project and lock"
ok "$([ ! -e "$T/a.env" ]; echo $?)" "and has not run the command yet"
exec 9>&-
wait "$pid"
is "$?" 0 "it runs once the lock is let go: exit 0"
is "$(cat "$T/a.env")" "$top/$ka/home $top/$ka/cwd" \
	"in project a's folder"
is "${#ka}:${#kb}" "16:16" "every project's folder name is as long"
finish
