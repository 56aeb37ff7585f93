#!/bin/bash
# A project's local baseline on the installed fragment: diagnose's hint,
# with a larger baselines/local.json there and BASELINE at its default,
# names a command that adds to it (ADD=1), never one that would shrink it,
# and that command keeps every workload; BASELINE in the project's
# config.mak then holds for diagnose as for every target (the fragment
# reads config.mak), so the next diagnose is judged against it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 9

project_install
is "$rc" 0 "make install PREFIX=..."
project_init || exit 1
mk
n_big=$(jq '[.samples[].workload] | unique | length' \
	"$ROOT/test/data/results/baseline.json")
mk baseline-update FROM="$ROOT/test/data/results/baseline.json" NAME=local
is "$rc" 0 "a local baseline of $n_big other workloads"

mk diagnose W=tiny.sum REPEAT=2 OUTPUT="$T/d1"
is "$rc" 0 "make diagnose W=tiny.sum, against the default baseline"
hint=$(grep "^No baseline yet" "$T/d1/summary.md")
like "$hint" "\`make baseline-update FROM=$T/d1/results.json NAME=local ADD=1" \
	"its hint adds to baselines/local.json"
cmd=$(printf '%s\n' "$hint" | sed -n 's/.*`\(make baseline-update [^`]*\)`.*/\1/p')
# As printed: with FORCE=1 where a busy machine's calibration spread
# called the run unsteady.
mk ${cmd#make }
is "$rc" 0 "the hinted command runs as printed"
is "$(as_v1 baselines/local.json | jq '[.samples[].workload] | unique | length')" \
	"$((n_big + 1))" "and the baseline keeps every workload, tiny.sum added"

printf 'BASELINE = baselines/local.json\n' >config.mak
mk diagnose W=tiny.sum REPEAT=2 OUTPUT="$T/d2"
is "$rc" 0 "make diagnose with BASELINE in config.mak"
jq_ok '[.[] | select(.workload == "tiny.sum" and .metric == null)] |
	length >= 1 and all(.[]; .status != "incomparable" and
	.status != "new")' "$T/d2/comparisons.json" \
	"its rows are judged against config.mak's baseline"
is "$(grep -c 'No baseline yet' "$T/d2/summary.md")" 0 \
	"and the summary has no hint"
finish
