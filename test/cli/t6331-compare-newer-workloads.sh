#!/bin/bash
# Workloads newer than the revision they measure (issue 33): a library's
# repository whose workloads' folder prof/ (the project, on the installed
# fragment) was added after the library. make compare REF= of the commit
# before it builds that commit's library with the current prof/, as asv
# runs today's benchmarks on old commits; CURRENT_WORKLOADS=1 does so where
# the commit has its own; COUNTS=1 counts both sides; and a REF that does
# not build says what to try.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 24

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init_lib || exit 1
# The library does more work after the workloads came.
sed -i 's/sum += v\[i\];/sum += v[i];\n\tfor (i = 0; i < n; i++)\n\t\tsum ^= v[i];/' \
	../sum.c
commit "sum does more work"
libonly=$(git rev-parse HEAD~2)
short=$(git rev-parse --short HEAD~2)
wt=build/compare/$libonly

mk compare REF=HEAD~2 REPEAT=3 OUTPUT="$T/c1"
is "$rc" 0 "make compare REF= of a commit without the workloads' folder"
like "$(cat "$err")" \
	"make compare: the workload sources (prof/) are taken from the current tree: prof/ does not exist at HEAD~2 ($short)" \
	"it says that the workload sources come from the current tree"
ok "$([ -x "$wt/prof/bin/tiny" ] && cmp -s tiny.c "$wt/prof/tiny.c" &&
	git -C "$wt" diff --quiet HEAD -- sum.c; echo $?)" \
	"REF's library is built with the current prof/"
ok "$(grep -q 'sum ^=' "$wt/sum.c"; [ $? = 1 ]; echo $?)" \
	"and the library is REF's"
jq_ok '.commit == "'"$libonly"'"' "$T/c1/baseline.json" \
	"baseline.json is the reference side, at REF's commit"
jq_ok 'length == 1 and .[0].workload == "tiny.sum"' "$T/c1/comparisons.json" \
	"the workload is compared"
like "$(cat "$T/c1/summary.md")" \
	"The reference build: the workload sources (prof/) are taken from the current tree: prof/ does not exist at HEAD\\~2 ($short)." \
	"the summary says so"

mk compare REF=HEAD~2 REPEAT=2 OUTPUT="$T/c2"
like "$rc:$(cat "$err")" "0:make compare: reusing the build of HEAD~2" \
	"a second compare reuses that build"

# COUNTS=1: the count phase on both sides, judged as profile-quick's.
if command -v valgrind >/dev/null; then
	mk compare REF=HEAD~2 REPEAT=2 COUNTS=1 OUTPUT="$T/c3"
	is "$rc" 0 "make compare COUNTS=1"
	ok "$([ -s "$T/c3/counts.jsonl" ] &&
		[ -s "$T/c3/baseline-counts.jsonl" ]; echo $?)" \
		"counts both sides"
	jq_ok 'any(.[]; .phase == "instructions" and .workload == "tiny.sum"
		and .status == "warning")' "$T/c3/comparisons.json" \
		"the count row sees the library's added work: warning"
	jq_ok '.command == "make compare REF=HEAD~2 REPEAT=2 OUTPUT='"$T/c3"' COUNTS=1"' \
		"$T/c3/results.json" "results.json records COUNTS=1"
else
	for i in 1 2 3 4; do
		skip "valgrind is not installed"
	done
fi

# A commit that has prof/: its own, unless CURRENT_WORKLOADS=1.
sed -i 's/\.version = 1,/.version = 2,/' tiny.c
commit "tiny.sum version 2"
prev=$(git rev-parse HEAD~1)
mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/c4"
ok "$([ "$rc" = 0 ] && grep -q '\.version = 1,' "build/compare/$prev/prof/tiny.c";
	echo $?)" "a REF with its own workload sources is built with them"
jq_ok '.[0].status == "incomparable"' "$T/c4/comparisons.json" \
	"(so the row compares versions 2 and 1: incomparable)"
mk compare REF=HEAD~1 REPEAT=2 CURRENT_WORKLOADS=1 OUTPUT="$T/c5"
is "$rc" 0 "make compare CURRENT_WORKLOADS=1"
like "$(cat "$err")" \
	"make compare: building HEAD~1 ($(git rev-parse --short HEAD~1)) in build/compare/$prev again, with other workload sources" \
	"builds the same commit again, in place, with the current sources"
ok "$(grep -q '\.version = 2,' "build/compare/$prev/prof/tiny.c"; echo $?)" \
	"the current workload sources"
jq_ok '.[0].status != "incomparable"' "$T/c5/comparisons.json" \
	"so both sides run version 2"
mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/c6"
ok "$([ "$rc" = 0 ] && grep -q '\.version = 1,' "build/compare/$prev/prof/tiny.c";
	echo $?)" "without it again, REF's own sources are back"
jq_ok '.[0].status == "incomparable"' "$T/c6/comparisons.json" \
	"and its binary is built from them again"

mk compare REF=HEAD~1 CURRENT_WORKLOADS=yes
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err")" \
	"2:*** CURRENT_WORKLOADS: 'yes': expected 0 or 1.  Stop." \
	"CURRENT_WORKLOADS takes 1 or 0"

# A REF that does not build: the hint names the variables.
git checkout -q -b broken HEAD~3
echo 'syntax error' >>../sum.c
commit "does not build"
git checkout -q -
mk compare REF=broken PROF_WORKLOAD_SOURCES=. REPEAT=2
like "$rc:$(cat "$err")" "2:make compare: building broken" \
	"a REF that does not build is exit 2"
like "$(cat "$err")" "make compare: REF 'broken' ($(git rev-parse --short broken)) does not build" \
	"and says so"
like "$(cat "$err")" "PROF_WORKLOAD_SOURCES (taken from the current tree where the commit lacks one; CURRENT_WORKLOADS=1: always); or compare with binaries at hand: make compare with AGAINST= the reference binaries" \
	"and names PROF_WORKLOAD_SOURCES, CURRENT_WORKLOADS and AGAINST"
finish
