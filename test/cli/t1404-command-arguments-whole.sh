#!/bin/bash
# A command's arguments reach it whole through every runner: prof-time,
# prof-mem and prof-count, and the memory runs of prof-time --memory and
# prof-count --memory (the fixed environment's own vector), however many
# (prof-count passed 55 of 100, its memory runs 62), with spaces, quotes,
# backslashes, newlines and empty strings as they are.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 11

# 100 arguments: 94 numbers and six that a splitter would break.
set -- $(seq 1 94) "two words" "it's" '"quoted" \back\slash' "" \
	"$(printf 'a\nline')" ""
[ $# = 100 ] || exit 1
printf '%s\0' "$@" >"$T/want"
# Each run of the command writes its arguments, NUL-separated, into a file
# of its own ($$: each run is a fresh shell).
SH='printf "%s\0" "$@" >"$0/got.$$"'

# runs TOOL OPTIONS...: the command through the tool; says how many runs
# wrote their arguments and how many of them are the 100 whole.
runs() {
	rm -rf "$T/g" && mkdir "$T/g"
	"$BIN/$1" --name args -q -o "$T/s.jsonl" "${@:2}" -- \
		sh -c "$SH" "$T/g" "${ARGS[@]}" >"$out" 2>"$err"
	rc=$?
	n=0 whole=0
	for f in "$T"/g/got.*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		cmp -s "$f" "$T/want" && whole=$((whole + 1))
	done
	echo "$rc:$n:$whole"
}
ARGS=("$@")

is "$(runs prof-time --repeat 2)" "0:2:2" "prof-time: 100 arguments whole, each run"
is "$(runs prof-mem --repeat 2)" "0:2:2" "prof-mem: the same"
is "$(runs prof-count --repeat 1)" "0:1:1" \
	"prof-count: all 100 under callgrind (55 reached the command)"
is "$(runs prof-time --repeat 1 --memory)" "0:3:3" \
	"prof-time --memory: the timed run and both memory runs"
is "$(runs prof-count --repeat 1 --memory)" "0:3:3" \
	"prof-count --memory: the counted run and both memory runs in its fixed environment (62 reached them)"
jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
	all(.[]; .outcome == "success" and .metrics.heap_tracked == true)' \
	"$T/s.jsonl" "whose memory samples are whole"
is "$(runs prof-count --repeat 1 --against-command "sh -c 'exit 0'" \
	--against-output "$T/ref.jsonl")" "0:1:1" \
	"prof-count --against-command: the current side's command whole"

# A program given by its path, 200 arguments, one of 4,000 bytes: under
# callgrind too.
big=$(printf 'x%.0s' $(seq 1 4000))
ARGS=($(seq 1 199) "$big")
printf '%s\0' "${ARGS[@]}" >"$T/want"
is "$(runs prof-count --repeat 1 --memory)" "0:3:3" \
	"prof-count --memory: 200 arguments, one of 4,000 bytes"
is "$(runs prof-time --repeat 1 --memory)" "0:3:3" "prof-time --memory: the same"

# A workload binary's worker under callgrind keeps its own arguments
# (the wrapper's vector grows too).
run prof-count diagnose test.ok --workloads "$TW" --repeat 1
is "$rc" 0 "a worker under callgrind: exit 0"
jq_ok -s '[.[] | select(.phase == "instructions")] | length == 1 and
	.[0].outcome == "success" and .[0].instructions > 0' "$out" \
	"and its counted call"
finish
