#!/bin/bash
# Every switch (V, HAVE_CUDA, COUNTS, STORIES, ADD) takes 1, 0 or nothing;
# anything else is exit 2 naming it, before any recipe runs (issue 19, item
# 19: COUNTS=yes silently meant no counts while STORIES=2 was refused).
. "$(dirname "$0")/lib.sh"
plan 22

# mk ARGS...: make in the checkout; $e is stderr without the place
# ("mk/config.mk:86: ") that make's $(error) puts first. Its own BUILD:
# a make that takes HAVE_CUDA=1 records new flags in $(BUILD)/FLAGS,
# which would rebuild the checkout's build.
mk() {
	make --no-print-directory BUILD="$T/build" "$@" >"$out" 2>"$err"
	rc=$?
	e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
}

for v in V HAVE_CUDA COUNTS STORIES ADD; do
	mk help "$v=yes"
	is "$rc:$e" "2:*** $v: 'yes': expected 0 or 1.  Stop." \
		"$v=yes is refused, naming it"
	mk help "$v=2"
	is "$rc:$e" "2:*** $v: '2': expected 0 or 1.  Stop." "$v=2 is refused"
	for x in 0 1; do
		mk help "$v=$x"
		is "$rc:$e" "0:" "$v=$x is taken"
	done
done

# The run itself never starts: no phase, no run folder.
mk profile-quick COUNTS=yes BINDIR="$BIN" WORKLOADS="$TW" OUTPUT="$T/o"
is "$rc:$e:$([ -e "$T/o" ]; echo $?)" \
	"2:*** COUNTS: 'yes': expected 0 or 1.  Stop.:1" \
	"make profile-quick COUNTS=yes: exit 2 before any phase"

# fragment/profile.sh run by hand checks them the same way.
PROF_BINDIR=${BIN#"$ROOT"/} PROF_COUNTS=yes sh fragment/profile.sh quick \
	>"$out" 2>"$err"
rc=$?
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-quick: COUNTS: 'yes': expected 0 or 1" \
	"profile.sh with PROF_COUNTS=yes is refused"
finish
