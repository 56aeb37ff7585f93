#!/bin/bash
# Every tool has a man page beside its source (src/prof-<verb>.1.scd) and
# the fragment has one (fragment/prof.mk.7.scd), and so do the concepts and
# rules (src/prof.7.scd): built by make, rendered by man
# without a warning, installed under PREFIX/share/man; each tool's options
# in its page are the options its --help lists, the options its page
# documents (the terms of its lists) are those of the tool's option table
# (--help-options, cli.h), and the fragment's page names every target and
# variable of `make help`.
. "$(dirname "$0")/lib.sh"
tools=$(cd src && ls prof-*.c | sed 's/\.c$//')
plan $(($(echo $tools | wc -w) * 5 + 6))

# The long options a text names (--help and --version are every tool's).
opts() {
	grep -o -- '--[a-z][a-z0-9-]*' | grep -v -x -e --help -e --version |
		sort -u | tr '\n' ' '
}
# A page's source as text: scdoc's escapes undone.
src_text() {
	sed 's/\\\(.\)/\1/g' "$1"
}

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=... installs the man pages too"

for t in $tools; do
	page=$ROOT/${PROF_BUILD:-build}/man/$t.1
	ok "$([ -f "$ROOT/src/$t.1.scd" ] && [ -s "$page" ]; echo $?)" \
		"$t: src/$t.1.scd, built into $page"
	warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	is "$warn" "" "$t: man -l renders it without a warning"
	is "$(src_text "$ROOT/src/$t.1.scd" | opts)" \
		"$("$BIN/$t" --help | opts)" \
		"$t: the page's options are the ones --help lists"
	is "$(man_options "$ROOT/src/$t.1.scd")" \
		"$("$BIN/$t" --help-options | sort -u)" \
		"$t: the options the page documents are its option table's"
	is "$(MANPAGER=cat man -M "$pfx/share/man" "$t" 2>&1 | head -n 1 |
		cut -d' ' -f1)" "$t(1)" "$t: man -M PREFIX/share/man $t shows it"
done

page=$ROOT/${PROF_BUILD:-build}/man/prof.7
warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
is "$warn" "" "prof(7) renders without a warning"
is "$(MANPAGER=cat man -M "$pfx/share/man" 7 prof 2>&1 | head -n 1 |
	cut -d' ' -f1)" "prof(7)" "man -M PREFIX/share/man 7 prof shows it"

page=$ROOT/${PROF_BUILD:-build}/man/prof.mk.7
warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
is "$warn" "" "prof.mk(7) renders without a warning"
is "$(MANPAGER=cat man -M "$pfx/share/man" 7 prof.mk 2>&1 | head -n 1 |
	cut -d' ' -f1)" "prof.mk(7)" "man -M PREFIX/share/man 7 prof.mk shows it"
# The fragment's targets (their ## comments) and variables (PROF_HELP_VARS).
targets=$(sed -n 's/^\([a-z-]*\):.*## .*/\1/p' "$ROOT/fragment/prof.mk" | sort -u)
vars=$(sed -n '/^PROF_HELP_VARS :=/,/[^\\]$/p' "$ROOT/fragment/prof.mk" |
	sed 's/^PROF_HELP_VARS :=//; s/\\$//' | tr -s ' \t' '\n' | grep . | sort -u)
text=$(src_text "$ROOT/fragment/prof.mk.7.scd")
missing=
for w in $targets $vars; do
	grep -q -- "\*$w\*" <<<"$text" || missing="$missing $w"
done
is "$missing" "" "prof.mk(7) names every target and variable of the fragment"
finish
