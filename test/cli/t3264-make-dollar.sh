#!/bin/bash
# A '$' that make would expand, in a variable given on make's command line
# or in the environment, is refused by make itself at parse time, naming
# the variable, before any value is expanded: make compare
# REF='$(shell touch X)' (or a branch name holding it) ran the touch. '$$'
# is make's escape for a '$' and passes; PROF_BUILD is a command that make
# expands by design; a makefile's own values are make code. The same in
# the fragment (fragment/prof.mk) a project includes.
. "$(dirname "$0")/lib.sh"

# Every variable the tree lets a user set (each `?=` of the makefiles, as
# t3261), but PROF_BUILD.
vars=$(grep -ho '^[A-Za-z_][A-Za-z0-9_]* *?=' Makefile mk/*.mk fragment/*.mk |
	sed 's/ *?=$//' | sort -u | grep -vx PROF_BUILD)
nvars=$(echo "$vars" | wc -l)
plan $((nvars + 12))

X=$T/X
touch_x="\$(shell touch $X)"

# make's $(error) line, without its place in the makefiles.
msg() {
	echo "*** $1: holds a '\$' that make would expand (write '\$\$' for a '\$'); nothing was run.  Stop."
}

# mk ARGS...: make in the checkout (its own BUILD), stdout and stderr
# apart; $e is stderr without the place that make puts first; $x is 0
# when X was created.
mk() {
	rm -f "$X"
	make --no-print-directory BUILD="$T/build" "$@" >"$out" 2>"$err"
	rc=$?
	e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
	x=$([ -e "$X" ]; echo $?)
}

# The issue's command, with and without -i.
mk compare REF="$touch_x"
is "$rc:$e:$x:$(wc -c <"$out")" "2:$(msg REF):1:0" \
	"make compare REF='\$(shell touch X)': exit 2, REF named, no X, nothing run"
mk -i compare REF="$touch_x"
is "$rc:$e:$x" "2:$(msg REF):1" "the same with make -i"

# make's other forms of a reference.
mk compare REF="\${shell touch $X}"
is "$rc:$e:$x" "2:$(msg REF):1" "\${shell ...} is refused"
mk help W='a$X'
is "$rc:$e" "2:$(msg W)" "a one-letter variable \$X is refused"
mk help W="\$\$\$(shell touch $X)"
is "$rc:$e:$x" "2:$(msg W):1" "a '\$' after an escaped '\$\$' is refused"

# Every variable on the command line (make help needs no build).
for v in $vars; do
	mk help "$v=$touch_x"
	is "$rc:$e:$x" "2:$(msg "$v"):1" "$v holding \$(shell ...) is refused"
done

# From the environment too, and any variable of the command line.
rm -f "$X"
REF=$touch_x make --no-print-directory BUILD="$T/build" help \
	>"$out" 2>"$err"
rc=$?
e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
is "$rc:$e:$([ -e "$X" ]; echo $?)" "2:$(msg REF):1" \
	"REF from the environment is refused"
mk help NOT_OURS="$touch_x"
is "$rc:$e:$x" "2:$(msg NOT_OURS):1" \
	"any variable given on the command line is checked"

# '$$' is a '$': it reaches the recipe as text, never expanded.
mk help REF="a\$$touch_x"
is "$rc:$x" "0:1" "'\$\$' passes the check, and nothing runs"
like "$(cat "$out")" "= a$touch_x" "make help shows it as a plain '\$'"

# PROF_BUILD: a command, expanded by make (t6201 builds REF with $(MAKE)).
mk help PROF_BUILD='$(MAKE) bin/tiny'
is "$rc:$(grep -c '^  PROF_BUILD  *= make bin/tiny$' "$out")" "0:1" \
	"PROF_BUILD is expanded, not refused"

# The fragment a project includes: the same check, and the project's own
# makefile may use make's syntax in its values.
mkdir -p "$T/p" || exit 1
printf 'OUT := bin\nWORKLOADS = $(OUT)/x\nall:\n\t@:\ninclude %s\n' \
	"$ROOT/fragment/prof.mk" >"$T/p/Makefile"
pmk() {
	rm -f "$X"
	make --no-print-directory -C "$T/p" "$@" >"$out" 2>"$err"
	rc=$?
	e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
	x=$([ -e "$X" ]; echo $?)
}
pmk compare REF="$touch_x"
is "$rc:$e:$x" "2:$(msg REF):1" "the fragment refuses REF='\$(shell ...)'"
pmk help
is "$rc:$(grep -c '^  WORKLOADS  *= bin/x$' "$out")" "0:1" \
	"and takes the project's own \$(OUT) in WORKLOADS"
finish
