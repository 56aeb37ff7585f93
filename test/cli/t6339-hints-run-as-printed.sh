#!/bin/bash
# Every command a run's output gives as the next thing to run runs as
# printed, after the run that printed it, on the installed fragment (the
# tiny project of lib-project.sh): the first run's "make baseline-update
# FROM=... NAME=local" (FORCE=1 after a run on an unsteady machine, which
# prof-baseline refused); make compare's "to see which functions made them
# change, run: ..." (it repeated the run's own OUTPUT=, which the next
# run refused: "OUTPUT '...' is not empty"); make diagnose's "make compare
# REF=<the baseline's commit> WHY=1" against a promoted baseline; and "make
# compare-clean". Counts (COUNTS=1) make the changed rows exact. The
# bisect of a merge's second parent runs as printed in t6333.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 16

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
# hint: a command as a reader copies it from the text, run here
hint() {
	eval "$1" >"$out" 2>"$err"
	rc=$?
	[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
}

# A first run: no baseline; the line says how to make one. Its machine
# steady (a calibration spread of 1%) and unsteady (50%, which
# prof-baseline refuses without FORCE=1): the run's report again.
mk profile-quick COUNTS=1 OUTPUT="$T/p1"
is "$rc" 0 "make profile-quick COUNTS=1, no baseline yet"
# first SPREAD BASELINE: the run, its spread SPREAD, reported against the
# missing BASELINE in $T/sSPREAD; $cmd is the command its last line gives
first() {
	rm -rf "$T/s$1"
	cp -R "$T/p1" "$T/s$1"
	jq --argjson s "$1" '.calibration.spread_pct = $s' "$T/p1/results.json" \
		>"$T/s$1/results.json"
	prof-report --comparisons "$T/s$1/comparisons.json" --baseline "$2" \
		-o "$T/s$1/summary.md" "$T/s$1/results.json" >"$out" 2>"$err"
	cmd=$(tail -n 1 "$out" | sed -n 's/.*make a baseline of it: \(make baseline-update [^(,]*[^(, ]\).*/\1/p')
}
first 50 baselines/mine.json
is "$cmd" "make baseline-update FROM=$T/s50/results.json NAME=mine FORCE=1" \
	"after an unsteady run: the command says FORCE=1"
like "$(tail -n 1 "$out")" "NAME=mine FORCE=1 (FORCE=1: the machine was unsteady during this run (calibration spread 50%, above 10%), so its times may be noise; a run on a calm machine makes a better baseline)" \
	"and why"
hint "$cmd"
is "$rc:$(jq -r .run_id baselines/mine.json)" \
	"0:$(jq -r .run_id "$T/p1/results.json")" "which runs as printed"
first 1 baselines/cpu-ci.json
is "$cmd" "make baseline-update FROM=$T/s1/results.json NAME=local" \
	"after a steady run: no FORCE=1"
hint "$cmd"
is "$rc:$(jq -r .command baselines/local.json)" \
	"0:make profile-quick OUTPUT=$T/p1 COUNTS=1" "which runs as printed"

# run() adds the integers twice: more instructions.
sed -i 's/^\t\tsum += s->v\[i\];$/\t\tsum += s->v[i];\n\tfor (i = 0; i < TINY_N; i++)\n\t\tsum ^= s->v[i];/' \
	tiny.c
grep -q 'sum ^= s->v\[i\];' tiny.c || exit 1
commit "run adds twice"

# make compare with OUTPUT=: the hint leaves OUTPUT out.
mk compare REF=HEAD~1 COUNTS=1 OUTPUT="$T/c1"
is "$rc:$(jq -r '.[] | select(.phase == "instructions") | .status' \
	"$T/c1/comparisons.json")" 0:warning \
	"make compare REF=HEAD~1 COUNTS=1 OUTPUT=...: the count row a warning"
# summary.md's note, its Markdown escapes undone, as a reader sees it
cmd=$(sed -n 's/.*to see which functions made them change, run: //p' \
	"$T/c1/summary.md" | sed 's/\\\(.\)/\1/g; s/\.$//')
is "$cmd" "make compare REF=HEAD~1 COUNTS=1 WHY=1" \
	"the summary's command: the run's own, WHY=1, no OUTPUT"
PROF_COMPARE_NOTE_MB=0 hint "$cmd"
is "$rc" 0 "it runs as printed"
jq_ok '[.[] | select(.phase == "instructions")][0] |
	.status == "warning" and .functions[0].name == "run"' \
	artifacts/profiling/*/comparisons.json \
	"and names the function that changed"

# make compare-clean, which that compare's last line named.
like "$(cat "$err")" \
	"worktree(s) of other commits; make compare-clean removes them" \
	"a compare says that make compare-clean removes its worktrees"
hint "make compare-clean"
is "$rc:$(ls build/compare 2>/dev/null | wc -l)" 0:0 \
	"make compare-clean runs as printed, and removes them"

# make diagnose against the promoted baseline, which keeps no callgrind
# files: the summary names the compare that explains the count row.
mk diagnose W=tiny.sum BASELINE=baselines/local.json OUTPUT="$T/d1"
is "$rc:$(jq -r '.[] | select(.phase == "instructions") | .status' \
	"$T/d1/comparisons.json")" 0:warning \
	"make diagnose against the local baseline: the count row a warning"
cmd=$(sed -n 's/.*to see which functions changed, run: //p' \
	"$T/d1/summary.md" | sed 's/\\\(.\)/\1/g; s/\.$//')
is "$cmd" "make compare REF=$(git rev-parse --short HEAD~1) W=tiny.sum WHY=1" \
	"the summary names the compare against the baseline's commit, of the diagnosed workload"
rm -rf artifacts/profiling
hint "$cmd"
is "$rc" 0 "which runs as printed"
jq_ok '[.[] | select(.phase == "instructions")][0].functions[0].name ==
	"run"' artifacts/profiling/*/comparisons.json \
	"and names the function that changed"
finish
