#!/bin/bash
# libprof never prints and never exits: the tools do (lib.mk, err.h).
# Checked on the archive's objects (nm), beside t0101's runner check.
#
# What nm can tell: a symbol an object uses. So the rule is that no object
# of libprof names stdout or stderr, calls a function that can only print
# to them (printf, puts, perror, err(3), ...), ends the process (exit,
# abort, assert), or uses the cli module. fprintf, fputs and fwrite stay
# allowed: with no standard stream named, the only streams the library
# can write are ones it opened itself (a file) or ones the caller passed
# ("-" in out.h and rwriter.h, whose inline wrappers give
# the tools' stdout from the tools' own objects). nm cannot see write(2)
# on a descriptor number; grep for that in review.
. "$(dirname "$0")/lib.sh"

LIB=$ROOT/${PROF_BUILD:-build}/libprof.a
command -v nm >/dev/null || skip_all "nm is not installed"
[ -f "$LIB" ] || skip_all "$LIB is not built"
plan 7

streams="stdout stderr"
printers="printf vprintf puts putchar putchar_unlocked perror psignal \
psiginfo err errx verr verrx warn warnx vwarn vwarnx error error_at_line \
__printf_chk __vprintf_chk"
enders="exit _exit _Exit quick_exit abort __assert_fail"

# uses SYMBOLS FILE...: "object:symbol" for each object of the archives
# or objects given that uses one of SYMBOLS, one a line, sorted.
uses() {
	local syms=$1
	shift
	nm -A -u "$@" 2>/dev/null | awk -v syms=" $syms " '
		index(syms, " " $NF " ") {
			n = split($1, p, ":")
			print p[n - 1] ":" $NF
		}' | sort -u | tr '\n' ' '
}

# Every library source is in the archive the tools link, those of its
# folders (src/lib/history/) too: ar names a member by its file's name.
want=$(cd "$ROOT/src/lib" && ls */*.c | sed 's|.*/||; s/\.c$/.o/' |
	sort | tr '\n' ' ')
got=$(ar t "$LIB" | sort | tr '\n' ' ')
is "$got" "$want" "libprof.a holds every object of src/lib"

is "$(uses "$streams" "$LIB")" "" "no object of libprof names stdout or stderr"
is "$(uses "$printers" "$LIB")" "" \
	"no object calls a function that prints to them"
is "$(uses "$enders" "$LIB")" "" "no object exits, aborts or asserts"
is "$(nm -A "$LIB" 2>/dev/null | awk '$NF ~ /^cli_/ { print $NF }' |
	sort -u | tr '\n' ' ')" "" "no object defines or uses a cli_ symbol"

# The rule sees what it looks for: the tools' objects and their cli layer
# (which says every message, --help to stderr included) name both streams.
tools=$(ls "$ROOT/${PROF_BUILD:-build}"/src/prof-*.o \
	"$ROOT/${PROF_BUILD:-build}"/src/cli/*.o 2>/dev/null)
if [ -n "$tools" ]; then
	# shellcheck disable=SC2086
	like "$(uses "$streams" $tools)" "cli/cli.o:stderr" \
		"the same check finds a tool's stderr"
	# shellcheck disable=SC2086
	like "$(uses "$streams" $tools)" "prof-merge.o:stdout" \
		"and a tool's stdout"
else
	ok 0 "# SKIP the tools' objects are not built"
	ok 0 "# SKIP the tools' objects are not built"
fi
