#!/bin/bash
# -o through a symbolic link writes the file the link names, atomically,
# and leaves the link a link; an open file named by /proc (/dev/stdout)
# and a FIFO are written straight through, never replaced (issue 19,
# item 3). Every tool writes its outputs through src/lib/base/afile.c.
. "$(dirname "$0")/lib.sh"
plan 25

D=test/data/results
mkdir "$T/real" "$T/links"

# linked NAME: a link $T/links/NAME -> ../real/NAME (relative, from the
# link's own folder), its target not there yet.
linked() {
	ln -s "../real/$1" "$T/links/$1"
	echo "$T/links/$1"
}
# kept NAME WHAT: the link is still a link, and its target was written.
kept() {
	ok "$([ -L "$T/links/$1" ] && [ -f "$T/real/$1" ] &&
		[ -s "$T/real/$1" ]; echo $?)" "$2"
}

"$BIN/prof-time" --name u --repeat 1 --warmup 0 -q -o "$(linked s.jsonl)" \
	-- true
kept s.jsonl "prof-time -o LINK"
"$BIN/prof-mem" --name u -q -o "$(linked m.jsonl)" -- true 2>/dev/null
kept m.jsonl "prof-mem -o LINK"
"$BIN/prof-trace" --name u --artifacts "$T/a" -q -o "$(linked t.jsonl)" \
	-- true 2>/dev/null
kept t.jsonl "prof-trace -o LINK"
if command -v valgrind >/dev/null; then
	"$BIN/prof-count" --name u -q -o "$(linked n.jsonl)" -- true
	kept n.jsonl "prof-count -o LINK"
else
	skip "no valgrind"
fi
run prof-merge -o "$(linked r.json)" "$T/links/s.jsonl"
is "$rc" 0 "prof-merge -o LINK: exit 0"
kept r.json "prof-merge keeps the link and writes its target"
jq_ok '.samples | length == 1' "$T/real/r.json" "the target holds the run"
run prof-diff --baseline $D/baseline.json -o "$(linked c.json)" \
	$D/current.json
kept c.json "prof-diff -o LINK"
run prof-report -q --comparisons "$T/real/c.json" -o "$(linked s.md)" \
	--html "$(linked r.html)" $D/current.json
is "$rc" 0 "prof-report -o LINK --html LINK: exit 0"
kept s.md "prof-report -o LINK"
kept r.html "prof-report --html LINK"
ln -s ../real/cpu-x.json "$T/links/cpu-x.json"
run prof-baseline --from $D/baseline.json --name cpu-x --output "$T/links"
kept cpu-x.json "prof-baseline: a baseline that is a link"
run prof-why -o "$(linked w.txt)" test/data/callgrind/call-0.out \
	test/data/callgrind/final.out
kept w.txt "prof-why -o LINK"
for f in csv bmf gbench; do
	run prof-export -f $f -o "$(linked e.$f)" $D/current.json
	kept e.$f "prof-export -f $f -o LINK"
done

# A link to a link, and a link to a link in another folder.
ln -s e.csv "$T/real/again.csv"
ln -s ../real/again.csv "$T/links/two.csv"
run prof-export -f csv -o "$T/links/two.csv" $D/baseline.json
ok "$([ -L "$T/links/two.csv" ] && [ -L "$T/real/again.csv" ] &&
	cmp -s "$T/real/e.csv" <("$BIN/prof-export" -f csv $D/baseline.json)
	echo $?)" "a chain of links: every link kept, the last target written"

# A dangling link: its target is made.
ln -s ../real/new.csv "$T/links/new.csv"
run prof-export -f csv -o "$T/links/new.csv" $D/current.json
kept new.csv "a dangling link: its target is created"
ok "$(ls -A "$T/real" "$T/links" | grep -c '\.tmp\.')" \
	"no temporary file is left beside a target or a link"

# An open file named by /proc, as /dev/stdout is: written straight through
# to the tool's stdout, and the link stays.
ln -s /proc/self/fd/1 "$T/links/stdout"
"$BIN/prof-export" -f csv -o "$T/links/stdout" $D/current.json \
	>"$T/via.csv"
rc=$?
is "$rc" 0 "-o a link to /proc/self/fd/1: exit 0"
stdout_kept=1
[ -L "$T/links/stdout" ] || stdout_kept=0
ok "$([ $stdout_kept = 1 ]; echo $?)" "the link is still a link"
"$BIN/prof-export" -f csv $D/current.json >"$T/plain.csv"
ok "$(cmp -s "$T/via.csv" "$T/plain.csv"; echo $?)" \
	"and the CSV went to stdout"
"$BIN/prof-diff" --baseline $D/baseline.json -o "$T/links/stdout" \
	$D/current.json | jq -e 'length > 0' >/dev/null
ok "$?" "to a pipe too"

# The real /dev/stdout only once the link above was kept (a tool that
# replaced it would replace the machine's /dev/stdout as root).
if [ $stdout_kept = 1 ] && [ -L /dev/stdout ]; then
	"$BIN/prof-export" -f csv -o /dev/stdout $D/current.json \
		>"$T/dev.csv"
	ok "$([ -L /dev/stdout ] && cmp -s "$T/dev.csv" "$T/plain.csv"
		echo $?)" "-o /dev/stdout: /dev/stdout is still a link"
else
	skip "/dev/stdout is not a link here, or the link above was replaced"
fi

# A FIFO is written straight through, not replaced by a file.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.csv" &
reader=$!
"$BIN/prof-export" -f csv -o "$T/fifo" $D/current.json
rc=$?
wait $reader
ok "$([ $rc = 0 ] && [ -p "$T/fifo" ] && cmp -s "$T/fifo.csv" \
	"$T/plain.csv"; echo $?)" "a FIFO is written through and stays a FIFO"
finish
