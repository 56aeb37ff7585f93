#!/bin/bash
# Each tool declares its options once, in one table (cli.h): getopt_long's
# tables, its --help and the hidden --help-options list come from it, and
# t6202 checks each man page against that list. Here: what the list says,
# that the man-page check catches a page missing an option or documenting
# one that does not exist, and that every tool's --help (from its table)
# fits a terminal and is the usage a wrong option gets on stderr.
. "$(dirname "$0")/lib.sh"
tools=$(cd src && ls prof-*.c | sed 's/\.c$//')
plan $((8 + $(echo $tools | wc -w) * 3))

run prof-diff --help-options
is "$rc:$(cat "$out")" "0:--baseline FILE
--time-threshold PCT
-o, --output FILE" "prof-diff --help-options: its table's options, as --help names them"
# Not in getopt's table (there --hel, --help's abbreviation, would be
# ambiguous; t0104): only the whole command line.
run prof-diff --help-options r.json
is "$rc:$(errline)" "2:$BIN/prof-diff: unrecognized option '--help-options'" \
	"--help-options with anything else is not an option"
run prof-diff --help
is "$(grep -c -e --help-options -e --version "$out")" 0 \
	"--help shows neither --help-options nor --version"
if [ -w /dev/full ]; then
	"$BIN/prof-diff" --help-options >/dev/full 2>"$err"
	is "$?:$(errline)" \
		"2:prof-diff: cannot write to stdout: No space left on device" \
		"--help-options to a full disk is exit 2, said"
else
	skip "no /dev/full"
fi

page=$ROOT/src/prof-diff.1.scd
is "$(man_options "$page")" "$("$BIN/prof-diff" --help-options | sort -u)" \
	"prof-diff's page documents its table's options"
grep -v -x -F '*--baseline* _FILE_' "$page" >"$T/missing.1.scd"
is "$(man_options "$T/missing.1.scd")" "--time-threshold PCT
-o, --output FILE" \
	"a page without --baseline's term lacks it (t6202 fails on it)"
sed 's/^\*-o\*, \*--output\* _FILE_$/&, *--bogus* _N_\n\t&/' "$page" \
	>"$T/extra.1.scd"
is "$(man_options "$T/extra.1.scd")" "--baseline FILE
--bogus N
--time-threshold PCT
-o, --output FILE" "a page documenting --bogus has it (t6202 fails on it)"
printf '%s\n' '*-q*' '	quiet' >"$T/alone.1.scd"
is "$(man_options "$T/alone.1.scd")" "(a letter alone: -q, )" \
	"a short letter without its long name is named as such"

for t in $tools; do
	run "$t" --help
	is "$rc:$(awk 'length > 79' "$out")" "0:" \
		"$t --help: exit 0, no line over 79 columns"
	cp "$out" "$T/help"
	run "$t" --no-such-option
	is "$rc:$(head -n 1 "$err")" "2:$BIN/$t: unrecognized option '--no-such-option'" \
		"$t: an unknown option is exit 2, named (by getopt)"
	is "$(tail -n +2 "$err")" "$(cat "$T/help")" \
		"$t: then the usage, as --help writes it"
done
finish
