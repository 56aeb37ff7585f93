#!/bin/bash
# make compare REF=rev from a clean clone: REF built once in a kept
# worktree under build/compare, then both builds timed interleaved; the
# four files; a dirty tree, a REF that is no commit or does not build.
. "$(dirname "$0")/lib.sh"
plan 22

# Under `make test` the outer make's variables would reach these makes.
unset MAKEFLAGS MFLAGS MAKELEVEL
unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR
# make check exports its BUILD, BINDIR and SANITIZER: the clone builds its own.
unset BUILD BINDIR SANITIZER

git clone -q "$ROOT" "$T/c" || exit 1
cd "$T/c" || exit 1
head=$(git rev-parse HEAD)
short=$(git rev-parse --short HEAD)
# The test pair's A side: small to build in REF's worktree.
cmp_run() {
	nice make --no-print-directory -s compare WORKLOADS=build/test/prof-ab-a \
		REPEAT=5 "$@" >"$out" 2>"$err"
	rc=$?
}

cmp_run REF=HEAD OUTPUT="$T/r1"
is "$rc" 0 "make compare REF=HEAD in a clean clone is exit 0"
for f in results.json baseline.json comparisons.json summary.md; do
	ok "$([ -s "$T/r1/$f" ]; echo $?)" "it writes $f"
done
like "$(cat "$err")" "make compare: building HEAD ($short) in build/compare/$head" \
	"REF is built in a worktree under build/compare"
ok "$([ -f "build/compare/$head/.prof-compare-built" ]; echo $?)" \
	"and kept there"
jq -s '{c: .[0], b: .[1]}' "$T/r1/results.json" "$T/r1/baseline.json" \
	>"$T/both.json"
jq_ok '.c.run_id == .b.run_id and .b.commit == "'"$head"'" and
	(.c.samples | length) >= 10 and (.c.samples | length) <= 40 and
	(.b.samples | length) == (.c.samples | length) and
	.c.calibration.n == 3 and .b.calibration == .c.calibration' \
	"$T/both.json" "current and reference: one run, 5 to 20 samples a row on each side (adaptive), one calibration"
# Both sides are the same code: stable, or a warning that says why (a
# timing test never asserts that a noisy machine keeps quiet).
jq_ok 'length == 2 and all(.[]; (.status == "stable" or .status == "warning"
	or .status == "improved") and (.reason | length > 0) and
	.drift == null and .baseline.n >= 5 and .current.n == .baseline.n)' \
	"$T/r1/comparisons.json" \
	"every row is judged by the rule, with its reason"
is "$(head -n 1 "$T/r1/summary.md")" \
	"Interleaved A/B against HEAD ($short): baseline.json is the reference build, measured in the same run, alternating with the current build (quick)." \
	"the summary says what was compared"
ok "$(grep -q 'uncommitted' "$T/r1/summary.md"; [ $? = 1 ]; echo $?)" \
	"a clean tree is not called dirty"

echo "# changed" >>README.md
cmp_run REF=HEAD OUTPUT="$T/r2"
is "$rc" 0 "a second compare against the same REF"
like "$(cat "$err")" "make compare: reusing the build of HEAD ($short)" \
	"reuses its build"
like "$(cat "$T/r2/summary.md")" \
	"The work tree has uncommitted changes: it was compared as it is." \
	"a dirty tree is compared as it is, and the summary says so"
git checkout -q README.md

cmp_run REF=no-such-rev
is "$rc" 2 "a REF that is no commit fails make"
like "$(cat "$err")" "make compare: REF 'no-such-rev' is not a commit of this repository" \
	"and says why"
like "$(cat "$err")" "run finished with exit code 2" "with the run's code"

# A workload that only the reference build has is named in the summary.
git checkout -q -b extra
sed 's/"test.ab_same"/"test.ab_gone"/; s/test_ab_same/test_ab_gone/g' \
	test/workloads/ab.c | sed -n '/^static const struct prof_workload test_ab_gone/,$p' \
	>>test/workloads/ab.c
git -c user.name=t -c user.email=t@t commit -q -am extra
git checkout -q -
cmp_run REF=extra OUTPUT="$T/r3"
is "$rc" 0 "a reference with one more workload compares"
like "$(cat "$T/r3/summary.md")" \
	"Only in the reference build (missing from the current one): test.ab_gone." \
	"the summary names the workload only the reference has"

git checkout -q -b broken
echo "this does not compile" >>test/workloads/ab.c
git -c user.name=t -c user.email=t@t commit -q -am broken
git checkout -q -
cmp_run REF=broken
is "$rc" 2 "a REF that does not build fails make"
like "$(cat "$err")" "does not build; the end of build/compare/" \
	"and shows the end of its build log"
like "$(cat "$err")" "test/workloads/ab.c:" "with the compiler's error"
finish
