#!/bin/bash
# Text from outside is made valid UTF-8 before it is written (issue 19,
# item 1): one byte that is not UTF-8 on a failing command's stderr used to
# go raw into the sample's reason, and prof-merge then refused the stream,
# losing the whole run. Each tool that times a command, and the reference
# side of --against-command, writes U+FFFD instead.
. "$(dirname "$0")/lib.sh"
plan 12

bad='printf "x\377y\300" >&2; exit 3'
for tool in prof-time prof-count prof-mem prof-trace; do
	run $tool --name u --repeat 1 -q -o "$T/$tool.jsonl" -- sh -c "$bad"
	is "$rc" 1 "$tool: the failing command is an error sample (1)"
	run prof-merge -o "$T/$tool.json" "$T/$tool.jsonl"
	is "$rc:$(errline)" "0:" "$tool: prof-merge takes the stream"
done
jq_ok '.samples[0].reason == "exited with status 3, expected 0: x\ufffdy\ufffd"' \
	"$T/prof-time.json" "the reason holds U+FFFD for each bad byte"

run prof-time --name u --repeat 1 -q -o "$T/cur.jsonl" \
	--against-command "sh -c '$bad'" --against-output "$T/ref.jsonl" -- true
is "$rc" 1 "--against-command: the failing reference is an error sample"
# Each side is merged on its own, as make compare does (the two sides'
# samples are the same calls of two builds: one file would mix them).
"$BIN/prof-merge" -o "$T/cur.json" "$T/cur.jsonl" 2>/dev/null
run prof-merge -o "$T/ab.json" "$T/ref.jsonl"
is "$rc:$(errline)" "0:" "prof-merge takes the reference side"
jq_ok '[.samples[] | select(.outcome == "error")] | length > 0 and
	all(.reason | test("\ufffd"))' "$T/ab.json" "with U+FFFD in the reason"
finish
