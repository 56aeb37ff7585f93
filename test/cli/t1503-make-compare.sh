#!/bin/bash
# make compare REF=rev in a tiny project on the installed fragment (never
# this tree, whose two builds took half an hour on a busy machine): REF
# built once in a kept worktree under build/compare, then both builds
# timed interleaved; the four files; a dirty tree, a REF that is no
# commit, has one workload more or does not build.
#
# t6201 holds the rest of compare REF= in the same project, and these
# assertions, so they are not made again here: the "building REF (short)
# in build/compare/<commit>" and "reusing the build of REF" lines, the
# reference binary being REF's code, and baseline.json's commit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 20

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
head=$(git rev-parse HEAD)
short=$(git rev-parse --short HEAD)
cmp_run() {
	mk compare REPEAT=5 "$@"
}

cmp_run REF=HEAD OUTPUT="$T/r1"
is "$rc" 0 "make compare REF=HEAD in a clean repository is exit 0"
missing=
for f in results.json baseline.json comparisons.json summary.md; do
	[ -s "$T/r1/$f" ] || missing="$missing $f"
done
is "$missing" "" "it writes results, baseline, comparisons and summary.md"
is "$(git -C "build/compare/$head" rev-parse HEAD 2>&1)" "$head" \
	"REF is built in a git worktree at its commit under build/compare"
ok "$([ -f "build/compare/$head/.prof-compare-built" ] &&
	[ -x "build/compare/$head/bin/tiny" ]; echo $?)" \
	"and kept there, built"
jq -s '{c: .[0], b: .[1]}' "$T/r1/results.json" "$T/r1/baseline.json" \
	>"$T/both.json"
# REPEAT=5 a side, and up to 4 x 5 where adaptive sampling asks for more;
# one calibration for both, measured at the run's start and end (one
# workload: no group between).
jq_ok '.c.run_id == .b.run_id and
	(.c.samples | length) >= 5 and (.c.samples | length) <= 20 and
	(.b.samples | length) == (.c.samples | length) and
	.c.calibration.n == 2 and .b.calibration == .c.calibration' \
	"$T/both.json" "current and reference: one run, 5 to 20 samples on each side (adaptive), one calibration"
# Both sides are the same code: stable, or a warning that says why (a
# timing test never asserts that a noisy machine keeps quiet).
jq_ok 'length == 1 and all(.[]; (.status == "stable" or .status == "warning"
	or .status == "improved") and (.reason | length > 0) and
	.drift == null and .baseline.n >= 5 and .current.n == .baseline.n)' \
	"$T/r1/comparisons.json" \
	"every row is judged by the rule, with its reason"
is "$(head -n 1 "$T/r1/summary.md")" \
	"Interleaved A/B against HEAD ($short): baseline.json is the reference build, measured in the same run, alternating with the current build (quick)." \
	"the summary says what was compared"
ok "$(grep -q 'uncommitted' "$T/r1/summary.md"; [ $? = 1 ]; echo $?)" \
	"a clean tree is not called dirty"

# A dirty tree, against the same REF: its build is reused, not made again.
built=$(stat -c %y "build/compare/$head/bin/tiny")
echo "/* changed */" >>tiny.c
cmp_run REF=HEAD OUTPUT="$T/r2"
is "$rc" 0 "a second compare against the same REF"
is "$(stat -c %y "build/compare/$head/bin/tiny")" "$built" \
	"reuses its build: REF's binary is not built again"
like "$(cat "$T/r2/summary.md")" \
	"The work tree has uncommitted changes: it was compared as it is." \
	"a dirty tree is compared as it is, and the summary says so"
git checkout -q tiny.c

cmp_run REF=no-such-rev
is "$rc" 2 "a REF that is no commit fails make"
like "$(cat "$err")" "make compare: REF 'no-such-rev' is not a commit of this repository" \
	"and says why"
like "$(cat "$err")" "run finished with exit code 2" "with the run's code"

# A workload that only the reference build has is named in the summary.
git checkout -q -b extra
sed -n '/^static const struct prof_workload tiny_sum/,$p' tiny.c |
	sed 's/tiny_sum/tiny_gone/g; s/"tiny\.sum"/"tiny.gone"/' >"$T/gone.c"
cat "$T/gone.c" >>tiny.c
git -c user.name=t -c user.email=t@t commit -q -am extra
git checkout -q -
cmp_run REF=extra OUTPUT="$T/r3"
is "$rc" 0 "a reference with one more workload compares"
like "$(cat "$T/r3/summary.md")" \
	"Only in the reference build (missing from the current one): tiny.gone." \
	"the summary names the workload only the reference has"

git checkout -q -b broken
echo "this does not compile" >>tiny.c
git -c user.name=t -c user.email=t@t commit -q -am broken
broken=$(git rev-parse HEAD)
git checkout -q -
cmp_run REF=broken
is "$rc" 2 "a REF that does not build fails make"
like "$(cat "$err")" \
	"make compare: REF 'broken' ($(git rev-parse --short "$broken")) does not build; the end of build/compare/$broken.log:" \
	"and shows the end of its build log"
like "$(cat "$err")" "tiny.c:" "with the compiler's error"
like "$(cat "$err")" "run finished with exit code 2" "with the run's code"
finish
