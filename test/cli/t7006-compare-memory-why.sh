#!/bin/bash
# make compare MEMORY=1 WHY=1 on the A/B copy pair: the heap peak is a
# warning, the time stable, and the changed memory rows name the function
# that allocates the copy (copy_run) from one call of each side under
# valgrind's DHAT, in comparisons.json (memory_sites), summary.md and
# report.html. When DHAT fails, one line of the summary says so and the
# run is as it was; a run against a baseline file (no build to run under
# DHAT) says what would name the sites.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 14

A=$TBIN/prof-ab-a
B=$TBIN/prof-ab-b
mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" HISTORY= "$@" \
		>"$out" 2>"$err"
	rc=$?
}
row() {
	jq -r --arg p "$1" --arg m "$2" --arg k "$3" '.[] | select(.workload ==
		"test.ab_copy" and .phase == $p and (.metric // "") == $m) |
		.[$k] | if type == "string" then . else tojson end' \
		"$T/c/comparisons.json"
}

# REPEAT=2, as below: the time row is asserted to be no change (stable,
# or unsettled in so few rounds on a busy machine); DHAT and the memory
# phase take one call a side whatever REPEAT is.
mk compare WORKLOADS="$B" AGAINST="$A" MODE=full CATEGORY=copy REPEAT=2 \
	MEMORY=1 WHY=1 OUTPUT="$T/c"
is "$rc" 0 "make compare MEMORY=1 WHY=1 exits 0"
is "$(row memory host_peak_bytes status):$(row timing "" status |
	sed 's/^unsettled$/stable/')" \
	"warning:stable" "the heap peak a warning, the time no change (stable or unsettled)"
is "$(row memory host_peak_bytes memory_sites | jq -r '.[0].name')" \
	copy_run "the heap peak row names the function that allocates the copy"
jq_ok '.[] | select(.metric == "host_peak_bytes") |
	.memory_sites[0] | .state == "changed" and
	.max_live_before == 1048576 and .max_live_after == 2097152 and
	.allocs_before == 1 and .allocs_after == 2 and
	(.file | endswith("test/workloads/ab.c"))' "$T/c/comparisons.json" \
	"its numbers: one 1 MiB block before, two after, in ab.c"
jq_ok '.[] | select(.metric == "host_peak_bytes") |
	.memory_sites_artifacts | .by == "max-live" and
	.scope_before == "run" and .scope_after == "run" and
	.before == "memory/reference/test.ab_copy.cpu.dhat.json" and
	.after == "memory/current/test.ab_copy.cpu.dhat.json"' \
	"$T/c/comparisons.json" "ranked by the most bytes live, inside run()"
ok "$([ -s "$T/c/memory/current/test.ab_copy.cpu.dhat.json" ] &&
	[ -s "$T/c/memory/reference/test.ab_copy.cpu.dhat.json" ]
	echo $?)" "both DHAT outputs are kept in the run folder"
is "$(row memory host_allocated_bytes memory_sites | jq -r '.[0].name')" \
	copy_run "the bytes allocated row names it too"
jq_ok '[.[] | select(.phase == "memory" and .status == "stable") |
	has("memory_sites")] | all(. == false)' "$T/c/comparisons.json" \
	"a stable memory row gets no sites"
like "$(cat "$T/c/summary.md")" \
	"  | \`copy_run\` | workloads/ab.c | 1,048,576 | 2,097,152 | +1,048,576 | 1 → 2 | 1,048,576 | 2,097,152 | 100.0% |" \
	"summary.md: the site under the row's reason"
like "$(cat "$T/c/report.html")" "<code>copy_run</code>" \
	"report.html: the site in its memory block"

# DHAT fails (a valgrind that refuses --tool=dhat): one line, exit 0.
mkdir -p "$T/fake"
cat >"$T/fake/valgrind" <<SH
#!/bin/sh
for a in "\$@"; do
	[ "\$a" = --tool=dhat ] && { echo "dhat: no" >&2; exit 1; }
done
exec $(command -v valgrind) "\$@"
SH
chmod +x "$T/fake/valgrind"
PATH=$T/fake:$PATH mk compare WORKLOADS="$B" AGAINST="$A" MODE=full \
	CATEGORY=copy REPEAT=2 MEMORY=1 WHY=1 OUTPUT="$T/f"
is "$rc" 0 "a failed DHAT run does not fail make compare"
like "$(cat "$T/f/summary.md")" \
	"No allocation sites for the changed memory rows: test.ab_copy (cpu): valgrind's DHAT failed on the current side (memory/current/test.ab_copy.cpu.log)" \
	"one line of the summary says so, and where its log is"

# Against a baseline file: no build of the baseline's side to run, so the
# summary names the command that would give the sites.
mk profile-full WORKLOADS="$A" CATEGORY=copy REPEAT=2 MEMORY=1 \
	OUTPUT="$T/pa" BASELINE="$T/none.json"
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/pa/results.json" NAME=copy DIR="$T/bl" FORCE=1
mk profile-full WORKLOADS="$B" CATEGORY=copy REPEAT=2 MEMORY=1 \
	OUTPUT="$T/pb" BASELINE="$T/bl/copy.json"
is "$rc:$(jq -r '.[] | select(.metric == "host_peak_bytes") | .status' \
	"$T/pb/comparisons.json")" 0:warning \
	"profile-full MEMORY=1 against A's baseline: the heap peak a warning"
like "$(cat "$T/pb/summary.md")" \
	"No allocation sites for the 2 changed memory row(s): they come from one call of each build under valgrind's DHAT, and '$T/bl/copy.json' keeps no build; to see which functions changed, run: make compare REF=$(git rev-parse --short HEAD) MODE=full CATEGORY=copy MEMORY=1 WHY=1" \
	"the summary says how to get the allocation sites"
finish
