#!/bin/bash
# The tree's layout (issue 31): what make install ships for other projects
# to run prof with (the fragment, its man page, its run scripts, the
# pkg-config template) is fragment/, every file of it and nothing else;
# mk/ is this tree's build, none of it installed; this tree includes the
# very fragment it installs; the binaries only the tests run are built by
# test/bins.mk; and the opening comments of fragment/ and mk/ name only
# files that exist.
. "$(dirname "$0")/lib.sh"
plan 8

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."

# Where each file of fragment/ is installed.
installed_as() {
	case $1 in
	*.mk) echo "share/prof/$1" ;;
	*.sh) echo "libexec/prof/$1" ;;
	*.7.scd) echo "share/man/man7/${1%.scd}" ;;
	*.pc.in) echo "lib/pkgconfig/${1%.in}" ;;
	*) echo "?" ;;
	esac
}
files=$(git ls-files fragment)
ok "$([ -n "$files" ] && echo 0 || echo 1)" "fragment/ holds files"
missing=
for f in $files; do
	n=${f#fragment/}
	[ -e "$pfx/$(installed_as "$n")" ] || missing="$missing $n"
done
is "$missing" "" "every file of fragment/ is installed"

# The fragment's scripts and makefile go in as they are: each is its
# fragment/ file byte for byte, and none comes from anywhere else.
other=
for f in "$pfx"/share/prof/* "$pfx"/libexec/prof/*.sh; do
	cmp -s "$f" "fragment/${f##*/}" || other="$other ${f#"$pfx"/}"
done
is "$other" "" "what is installed for the fragment is fragment/'s files"
shipped=
for f in $(git ls-files mk); do
	n=${f#mk/}
	for d in share/prof libexec/prof share/man/man7 lib/pkgconfig; do
		[ -e "$pfx/$d/$n" ] || [ -e "$pfx/$d/${n%.in}" ] &&
			shipped="$shipped $f"
	done
done
is "$shipped" "" "no file of mk/ is installed"

# This tree's make reads the very fragment it installs.
printf 'show:\n\t@echo $(PROF_MK) $(PROF_LIBEXEC)\n' >"$T/show.mk"
is "$(make -s --no-print-directory -f Makefile -f "$T/show.mk" \
	BUILD="$T/build" show 2>&1)" "fragment/prof.mk fragment" \
	"the Makefile includes fragment/prof.mk; its scripts are fragment/'s"

is "$(grep -l 'TEST_BINS *+=' Makefile mk/*.mk fragment/*.mk | tr '\n' ' ')" \
	"" "no test-only binary is built by mk/ (test/bins.mk builds them)"

# The opening comment of each file names only paths that exist (profile.sh
# once named mk/profile.mk).
stale=
for f in $(git ls-files mk fragment test/bins.mk); do
	for p in $(sed -n '1,/^[^#]/p' "$f" |
		grep -oE '\b(mk|fragment|src|test)/[A-Za-z0-9_.-]+\.(sh|mk|c|h|scd|in)\b' |
		sort -u); do
		[ -e "$p" ] || stale="$stale $f:$p"
	done
done
is "$stale" "" "the opening comments name files that exist"
finish
