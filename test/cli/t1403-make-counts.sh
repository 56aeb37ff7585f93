#!/bin/bash
# make profile-quick COUNTS=1 and make diagnose: instruction rows in
# results.json, comparisons.json and summary.md; a baseline keeps them;
# the CI workflow runs the quick profile with COUNTS=1.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 16

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
W=primitive.nearest_site_assignment

mk profile-quick COUNTS=1 CATEGORY=primitive OUTPUT="$T/q" \
	BASELINE="$T/none.json"
is "$rc" 0 "make profile-quick COUNTS=1 exits 0"
ok "$([ -s "$T/q/counts.jsonl" ]; echo $?)" "the run folder has counts.jsonl"
jq_ok "[.samples[] | select(.phase == \"instructions\" and .workload == \"$W\")
	| .instructions | type] == [\"number\", \"number\"]" "$T/q/results.json" \
	"results.json has the instruction samples"
jq_ok "[.[] | select(.phase == \"instructions\")] | length == 1 and
	.[0].workload == \"$W\" and .[0].current.n == 2" "$T/q/comparisons.json" \
	"comparisons.json has the instruction row"
like "$(cat "$T/q/summary.md")" "| instructions | Δ instructions % | instructions status |" \
	"summary.md shows instructions beside time"
like "$(cat "$T/q/summary.md")" "- \`$W\` (cpu, instructions): **incomparable**" \
	"with the instruction row's status"
like "$(cat "$out")" "instructions" "and so does the compact table"

# A baseline keeps instruction samples: the next run is judged by count.
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/q/results.json" NAME=counts DIR="$T/bl" FORCE=1
is "$rc" 0 "the run is promoted"
jq_ok '[.samples[] | select(.phase == "instructions")] | length == 2' \
	"$T/bl/counts.json" "with its instruction samples"
mk profile-quick COUNTS=1 CATEGORY=primitive OUTPUT="$T/q2" \
	BASELINE="$T/bl/counts.json"
jq_ok '[.[] | select(.phase == "instructions")] | .[0].status == "stable"
	and .[0].delta_pct == 0' "$T/q2/comparisons.json" \
	"the same build against it: stable, +0.00%"
like "$(cat "$T/q2/summary.md")" "| 49" "the count is in the table"

# Without COUNTS no count phase; diagnose always has one.
mk profile-quick CATEGORY=primitive OUTPUT="$T/q3" BASELINE="$T/none.json"
ok "$([ ! -e "$T/q3/counts.jsonl" ]; echo $?)" "no counts without COUNTS=1"
mk diagnose W=test.ok WORKLOADS="$TW" OUTPUT="$T/d" BASELINE="$T/none.json"
is "$rc" 0 "make diagnose exits 0"
jq_ok '[.samples[] | select(.phase == "instructions")] | length == 3' \
	"$T/d/results.json" "and has 3 instruction samples"

# The CI workflow (t2104 checks that it is valid): each shard's quick
# profile has COUNTS=1; its packages come from mk/deps.sh, which has
# valgrind.
like "$(grep -A1 'make profile-quick' .github/workflows/profile.yml)" \
	"COUNTS=1" "the CI's quick profile has COUNTS=1"
like "$(sh mk/deps.sh packages build)" "valgrind" \
	"and make deps installs valgrind"
finish
