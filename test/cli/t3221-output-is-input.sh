#!/bin/bash
# An output that is an input, reached another way (stdin, a link), is
# refused with exit 2, naming it, and the input is left as it was (issue
# 19, item 2).
. "$(dirname "$0")/lib.sh"
plan 15

D=test/data/results
cp $D/current.json "$T/in.json"
sum=$(md5sum <"$T/in.json")
intact() {
	is "$(md5sum <"$T/in.json")" "$sum" "$1"
}

# Stdin is an input: its file is not replaced.
run prof-export -f csv -o "$T/in.json" - <"$T/in.json"
is "$rc:$(errline)" \
	"2:prof-export: -o: '$T/in.json' is an input (stdin); refusing to overwrite it" \
	"prof-export -o IN - <IN: exit 2, naming it"
intact "the input is intact"
run prof-export -f bmf -o "$T/in.json" - <"$T/in.json"
is "$rc" 2 "the same in BMF"
run prof-diff --baseline $D/baseline.json -o "$T/in.json" - <"$T/in.json"
is "$rc:$(errline)" \
	"2:prof-diff: -o: '$T/in.json' is an input (stdin); refusing to overwrite it" \
	"prof-diff reading stdin"
run prof-report -q -o "$T/in.json" - <"$T/in.json"
is "$rc:$(errline)" \
	"2:prof-report: -o: '$T/in.json' is an input (stdin); refusing to overwrite it" \
	"prof-report reading stdin"
ln -s in.json "$T/link.json"
run prof-report -q -o "$T/s.md" --html "$T/link.json" "$T/in.json"
is "$rc:$(errline)" \
	"2:prof-report: --html: '$T/link.json' is an input; refusing to overwrite it" \
	"prof-report --html through a link to its input"
run prof-baseline --from - --name in --output "$T" <"$T/in.json"
is "$rc:$(errline)" \
	"2:prof-baseline: --name: '$T/in.json' is an input (stdin); refusing to overwrite it" \
	"prof-baseline --from - over stdin's file"
intact "the input is still intact"

# prof-merge reads stdin when no file is named: the library refuses the
# output that is stdin's file, whichever tool opens it.
"$BIN/prof-time" --name u --repeat 1 --warmup 0 -q -o "$T/s.jsonl" -- true
ssum=$(md5sum <"$T/s.jsonl")
run prof-merge -o "$T/s.jsonl" <"$T/s.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/s.jsonl: is an input; refusing to overwrite it" \
	"prof-merge -o IN <IN: exit 2, naming it"
is "$(md5sum <"$T/s.jsonl")" "$ssum" "the stream is intact"
run prof-merge -o "$T/m.json" <"$T/s.jsonl"
is "$rc" 0 "stdin merged into another file is fine"

# A link to an input, and a path through a linked folder, are the input.
run prof-export -f csv -o "$T/link.json" "$T/in.json"
is "$rc:$(errline)" \
	"2:prof-export: -o: '$T/link.json' is an input; refusing to overwrite it" \
	"a link to the input is the input"
mkdir "$T/d"
ln -s .. "$T/d/up"
run prof-diff --baseline "$T/in.json" -o "$T/d/up/in.json" $D/current.json
is "$rc:$(errline)" \
	"2:prof-diff: -o: '$T/d/up/in.json' is an input; refusing to overwrite it" \
	"so is the input reached through a linked folder"
intact "and the input is intact"
ok "$(ls -A "$T" "$T/d" | grep -c '\.tmp\.')" "no temporary file is left"
finish
