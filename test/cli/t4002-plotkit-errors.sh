#!/bin/sh
# plotkit: a bad SVG is one line on stderr naming the file and the line,
# exit 2, nothing on stdout (test/data/svg/bad-NAME.svg and its .err); bad
# arguments are exit 2 with the reason.
. "$(dirname "$0")/lib.sh"

set -- test/data/svg/bad-*.svg
plan $(($# * 2 + 12))

for svg in "$@"; do
	name=$(basename "$svg" .svg)
	run plotkit flatten "$svg"
	is "$rc:$(wc -c <"$out"):$(wc -l <"$err")" "2:0:1" \
		"$name: exit 2, one line on stderr, nothing on stdout"
	is "$(cat "$err")" "$(cat "${svg%.svg}.err")" "$name: the message"
done

run plotkit flatten - <test/data/svg/bad-unclosed.svg
is "$rc:$(cat "$err")" "2:plotkit: <stdin>:7: unclosed element 'g'" \
	"stdin is named <stdin>"

run plotkit flatten "$T/missing.svg"
is "$rc:$(cat "$err")" \
	"2:plotkit: cannot open '$T/missing.svg': No such file or directory" \
	"a missing file is exit 2 and named"

run plotkit flatten --step zero test/data/svg/circle.svg
is "$rc:$(cat "$err")" \
	"2:plotkit: --step: 'zero' is not a positive number of millimetres" \
	"a bad --step is exit 2"
run plotkit flatten --tolerance -1 test/data/svg/circle.svg
is "$rc:$(errline)" \
	"2:plotkit: --tolerance: '-1' is not a positive number of millimetres" \
	"a negative --tolerance is exit 2"
run plotkit flatten --step
is "$rc:$(errline)" "2:plotkit: flatten: option '--step' needs a value" \
	"--step without a value is exit 2"
run plotkit flatten --bogus test/data/svg/circle.svg
is "$rc:$(errline)" "2:plotkit: flatten: unknown option '--bogus'" \
	"an unknown option is exit 2"
run plotkit flatten
is "$rc:$(errline)" "2:plotkit: flatten: give one FILE, or - for stdin" \
	"no file is exit 2"
run plotkit flatten a.svg b.svg
is "$rc" 2 "two files are exit 2"

run plotkit
is "$rc:$(head -n 1 "$err")" "2:usage: plotkit <command> [<args>]" \
	"no command: the usage, exit 2"
run plotkit frobnicate
is "$rc:$(cat "$err")" \
	"2:plotkit: unknown command 'frobnicate' (see 'plotkit --help')" \
	"an unknown command is exit 2"
run plotkit --help
is "$rc:$(wc -c <"$err")" "0:0" "--help: exit 0, nothing on stderr"
like "$(cat "$out")" "  flatten    read an SVG, flatten it" \
	"and it lists the commands"
finish
