#!/bin/bash
# A control character in any make variable is refused by make itself, at
# parse time, naming the variable: no recipe line is ever built from it
# (issue 19, item 9: a newline split make compare's recipe in two).
. "$(dirname "$0")/lib.sh"

# Every variable the tree lets a user set: each `?=` of the makefiles.
vars=$(grep -ho '^[A-Za-z_][A-Za-z0-9_]* *?=' Makefile mk/*.mk fragment/*.mk |
	sed 's/ *?=$//' | sort -u)
nvars=$(echo "$vars" | wc -l)
plan $((nvars + 12))

# make's $(error) line, without its place in the makefiles.
msg() {
	echo "*** $1: holds a control character (a newline, a tab or another byte below 0x20, or 0x7f); nothing was run.  Stop."
}

# mk ARGS...: make in the checkout, stdout and stderr apart; $e is
# stderr without the place ("mk/config.mk:33: ") that make puts first.
# Its own BUILD, so that a make that runs never touches the checkout's.
mk() {
	make --no-print-directory BUILD="$T/build" "$@" >"$out" 2>"$err"
	rc=$?
	e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
}

# The issue's command: with -i, the recipe's second line ran the touch.
mk -i compare REF="$(printf 'HEAD\ntouch %s #' "$T/X")"
is "$rc:$e" "2:$(msg REF)" "make -i compare REF=HEAD<newline>touch X: exit 2, REF named"
ok "$([ ! -e "$T/X" ] && [ ! -s "$out" ]; echo $?)" \
	"no X was created and nothing was run"
mk compare REF="$(printf 'HEAD\ntouch %s #' "$T/X")"
is "$rc:$e:$([ -e "$T/X" ]; echo $?)" "2:$(msg REF):1" \
	"without -i the same, not a bash error"

# Every variable, with a newline, on the command line (make help needs no
# build, so nothing else stops it first).
for v in $vars; do
	mk help "$v=$(printf 'a\nb')"
	is "$rc:$e" "2:$(msg "$v")" "$v with a newline is refused"
done

# Each kind of control character; the other kinds of whitespace split a
# value in make too.
for c in '\t' '\r' '\v' '\001' '\033' '\177'; do
	mk help W="$(printf "x${c}y")"
	is "$rc:$e" "2:$(msg W)" "W with $c is refused"
done

# From the environment too, and any variable of the command line.
REF=$(printf 'HEAD\ntouch %s #' "$T/X") make --no-print-directory help \
	>"$out" 2>"$err"
rc=$?
e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
is "$rc:$e" "2:$(msg REF)" "REF from the environment is refused"
mk help NOT_OURS="$(printf 'a\nb')"
is "$rc:$e" "2:$(msg NOT_OURS)" \
	"any variable given on the command line is checked"

# Spaces, UTF-8 and make's own syntax pass the check untouched.
mk help CATEGORY='a b' W="$(printf 'caf\303\251')" OUTPUT='x$$y'
is "$rc:$e" "0:" "spaces and UTF-8 are not control characters"
finish
