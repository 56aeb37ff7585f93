#!/bin/bash
# The installed make fragment in a project outside the tree (issue 21):
# make install PREFIX=..., a git repository whose Makefile sets WORKLOADS
# and includes `pkg-config --variable=makefile prof-harness`, then
# profile-quick, baseline-update, compare AGAINST= (an A/A) and compare
# REF=HEAD~1, with their outputs where this tree's are.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 38

project_install
is "$rc" 0 "make install PREFIX=..."
is "$(pkg-config --variable=makefile prof-harness)" \
	"$pfx/share/prof/prof.mk" "pkg-config names the installed fragment"
missing=
for f in share/prof/prof.mk libexec/prof/profile.sh libexec/prof/compare.sh \
	libexec/prof/merge-shards.sh libexec/prof/run-lib.sh \
	libexec/prof/profile-check.sh; do
	[ -e "$pfx/$f" ] || missing="$missing $f"
done
is "$missing" "" "the fragment and the scripts it runs are installed"

project_init || exit 1

mk
is "$rc:$([ -x bin/tiny ]; echo $?)" "0:0" \
	"make builds the project's own default goal, not a prof target"
mk help
like "$(cat "$out")" "profile-quick" "make help lists prof's targets"
like "$(cat "$out")" "tiny.sum" "and the project's workloads"
# Each target's line whole, as its ## comment says it (bisect's holds '|').
missing=
while IFS= read -r desc; do
	grep -q -F -- " $desc" "$out" || missing="$missing [$desc]"
done < <(sed -n 's/^[a-z-]*:.*## //p' "$pfx/share/prof/prof.mk")
is "$missing" "" "make help prints each target's line whole"

# profile-quick: the run folder under artifacts/profiling/, the history.
mk profile-quick REPEAT=3
is "$rc" 0 "make profile-quick in the project"
run_dir=$(sed -n 's|^summary: \(.*\)/summary.md$|\1|p' "$out")
like "$run_dir" "artifacts/profiling/" "its run folder is under artifacts/profiling/"
missing=
for f in samples.jsonl results.json comparisons.json summary.md report.html; do
	[ -s "$run_dir/$f" ] || missing="$missing $f"
done
is "$missing" "" "with samples, results, comparisons, summary and report.html"
jq_ok '.command == "make profile-quick REPEAT=3" and
	([.samples[].workload] | unique == ["tiny.sum"])' \
	"$run_dir/results.json" "results.json: the command and the workload"
ok "$([ -s artifacts/history.sqlite ]; echo $?)" \
	"the run joins artifacts/history.sqlite"

# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$run_dir/results.json" NAME=cpu-ci FORCE=1
is "$rc:$([ -s baselines/cpu-ci.json ]; echo $?)" "0:0" \
	"make baseline-update writes baselines/cpu-ci.json"
mk profile-quick REPEAT=3 OUTPUT="$T/q2"
is "$rc" 0 "a second run is compared with it"
jq_ok 'length == 1 and .[0].workload == "tiny.sum" and
	.[0].status == "stable"' "$T/q2/comparisons.json" \
	"the row under the warning floor is stable"

# diagnose: the memory, CPU-profile and count phases, their preload
# libraries found under the prefix's lib/prof/.
mk diagnose W=tiny.sum REPEAT=2 OUTPUT="$T/d"
is "$rc" 0 "make diagnose W=tiny.sum"
missing=
for f in samples.jsonl memory.jsonl profile.jsonl results.json summary.md \
	report.html; do
	[ -s "$T/d/$f" ] || missing="$missing $f"
done
if command -v valgrind >/dev/null; then
	[ -s "$T/d/counts.jsonl" ] || missing="$missing counts.jsonl"
fi
is "$missing" "" "with each phase's samples, results and reports"

# merge-shards: a run's shard folders merged like one run (one shard: the
# project has one workload, and a shard without a workload has no run
# record to merge).
mk profile-quick REPEAT=2 SHARD=1/1 OUTPUT="$T/shards/s1"
mk merge-shards DIR="$T/shards" OUTPUT="$T/merged"
is "$rc" 0 "make merge-shards DIR=... of the run's shard"
jq_ok '[.samples[].workload] | unique == ["tiny.sum"]' \
	"$T/merged/results.json" "the merged run holds the workload"

mk profile-full STORIES=1
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-full: STORIES=1: this project has no browser stories" \
	"a project without browser stories says so"

# The fragment checks its variables at parse time, as prof's tree does.
mk compare REF="$(printf 'HEAD\ntouch %s #' "$T/X")"
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err"):$([ -e "$T/X" ]; echo $?)" \
	"2:*** REF: holds a control character (a newline, a tab or another byte below 0x20, or 0x7f); nothing was run.  Stop.:1" \
	"a newline in REF is refused before any recipe runs"
mk profile-quick COUNTS=yes
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err")" \
	"2:*** COUNTS: 'yes': expected 0 or 1.  Stop." "COUNTS=yes is refused"

# An A/A against a copy of the binary: no git, every row stable.
cp bin/tiny "$T/tiny-copy"
mk compare AGAINST="$T/tiny-copy" REPEAT=4
is "$rc" 0 "make compare AGAINST=BIN"
run_dir=$(sed -n 's|^summary: \(.*\)/summary.md$|\1|p' "$out")
like "$run_dir" "artifacts/profiling/" "under artifacts/profiling/"
missing=
for f in results.json baseline.json comparisons.json summary.md report.html; do
	[ -s "$run_dir/$f" ] || missing="$missing $f"
done
is "$missing" "" "results, baseline, comparisons, summary and report.html"
jq -s '{c: .[0], b: .[1]}' "$run_dir/results.json" "$run_dir/baseline.json" \
	>"$T/both.json"
# REPEAT=4 a side, and up to 4 x 4 where adaptive sampling asks for more.
jq_ok '.c.run_id == .b.run_id and
	(.c.samples | length >= 4 and length <= 16) and
	(.b.samples | length) == (.c.samples | length)' \
	"$T/both.json" "both sides share one run id, 4 to 16 samples each"
jq_ok 'length == 1 and all(.[]; .status == "stable" and .drift == null)' \
	"$run_dir/comparisons.json" "the A/A: every row stable, no drift note"
is "$(head -n 1 "$run_dir/summary.md")" \
	"Interleaved A/B against $T/tiny-copy: baseline.json is the reference build, measured in the same run, alternating with the current build (quick)." \
	"the summary says what was compared"
mk compare AGAINST="$T/none"
is "$rc:$(head -n 1 "$err")" \
	"2:make compare: AGAINST: '$T/none' is not an executable file" \
	"a reference binary that is not there"
mk compare
is "$rc:$(head -n 1 "$err")" \
	"2:make compare: give what to compare with: REF=<git revision> or AGAINST=\"reference binaries\"" \
	"nothing to compare with"

# REF=HEAD~1 after a commit that changes the workload.
sed -i 's/#define TINY_N 100000/#define TINY_N 120000/' tiny.c
git -c user.name=t -c user.email=t@t commit -q -am two
old=$(git rev-parse HEAD~1)
mk compare REF=HEAD~1 REPEAT=4 OUTPUT="$T/r"
is "$rc" 0 "make compare REF=HEAD~1"
like "$(cat "$err")" \
	"make compare: building HEAD~1 ($(git rev-parse --short HEAD~1)) in build/compare/$old" \
	"REF is built with the project's make in a worktree under build/compare"
ok "$([ -x "build/compare/$old/bin/tiny" ] &&
	grep -q 'TINY_N 100000' "build/compare/$old/tiny.c"; echo $?)" \
	"the reference binary is REF's code"
jq_ok '.commit == "'"$old"'"' "$T/r/baseline.json" \
	"baseline.json is the reference side, at REF's commit"
jq_ok 'length == 1 and .[0].workload == "tiny.sum" and
	(.[0].status == "stable" or .[0].status == "warning")' \
	"$T/r/comparisons.json" "the row is judged"
mk compare REF=HEAD~1 REPEAT=2 OUTPUT="$T/r2"
like "$rc:$(cat "$err")" "0:make compare: reusing the build of HEAD~1" \
	"a second compare reuses REF's build"

# PROF_BUILD: the project's own command builds REF.
mk compare REF=HEAD REPEAT=2 OUTPUT="$T/r3" \
	PROF_BUILD='echo built-by-PROF_BUILD && $(MAKE) bin/tiny'
is "$rc" 0 "make compare REF=HEAD PROF_BUILD=command"
ok "$(grep -q built-by-PROF_BUILD build/compare/"$(git rev-parse HEAD)".log;
	echo $?)" "REF was built by that command"
finish
