#!/bin/bash
# Data first: a make profile-quick or merge-shards that fails (exit 2)
# leaves no half-made run folder (run_failed in fragment/run-lib.sh, the
# one way out of every failure once the folder is taken). A phase that
# failed after it had begun to write, or a merge that failed, left the
# folder under artifacts/profiling/ with samples.jsonl, half a memory.jsonl
# or counts.jsonl and functions/ in it, and no results.json: now all that
# the run wrote goes, and the folder with it (an OUTPUT folder stays,
# empty). Once results.json is written it is the run's record and stays,
# with a line that says what was not written. An earlier run is never
# touched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fail-tool.sh"
plan 21

mk() {
	make -s --no-print-directory -o all BINDIR="$T/bin" \
		WORKLOADS="$TW" CATEGORY=test REPEAT=1 "$@" >"$out" 2>"$err"
	rc=$?
}
FAIL="run finished with exit code 2 (infrastructure or argument failure)"
PHASE="make profile-quick: a phase failed; no results are written"
# lines: what the target says (not its tools, not make).
lines() {
	grep '^make [a-z-]*: ' "$err"
}

# An earlier run, the baseline of the failed ones: never touched.
fail_tool none
mk profile-quick OUTPUT="$T/a" BASELINE="$T/none.json"
ok "$([ -s "$T/a/results.json" ]; echo $?)" "a first run writes its folder"
sums() { (cd "$T/a" && md5sum -- * | md5sum); }
kept=$(sums)

# The timing phase fails, OUTPUT new: it stays, empty.
fail_tool prof-time
mk profile-quick OUTPUT="$T/o1" BASELINE="$T/a/results.json"
is "$rc:$(lines)" "2:$PHASE
make profile-quick: $FAIL" "the timing phase fails: exit 2, said"
is "$(ls -A "$T/o1" 2>&1)" "" "OUTPUT is left empty (no half samples.jsonl)"
mkdir "$T/e"
ln -s "$T/e" "$T/link"
fail_tool prof-time
mk profile-quick OUTPUT="$T/link" BASELINE="$T/a/results.json"
is "$rc:$(ls -A "$T/e" 2>&1):$(readlink "$T/link")" "2::$T/e" \
	"OUTPUT a link: the folder it names is left empty, the link kept"

# The memory phase fails (MEMORY=1), the folder made under artifacts/.
fail_tool prof-mem
mk profile-quick MEMORY=1 BASELINE="$T/a/results.json"
R=$(failed_folder)
is "$rc:$(lines)" "2:$PHASE
make profile-quick: $FAIL" "the memory phase fails: exit 2, said"
like "$R" "artifacts/profiling/" "(the run folder was made under artifacts/profiling/)"
ok "$([ ! -e "$R" ]; echo $?)" \
	"the run folder is gone, with the timing phase's samples.jsonl"

# The count phase fails (COUNTS=1), OUTPUT an empty folder.
if command -v valgrind >/dev/null; then
	fail_tool prof-count
	mkdir "$T/o3"
	mk profile-quick COUNTS=1 OUTPUT="$T/o3" BASELINE="$T/a/results.json"
	is "$rc:$(lines)" "2:$PHASE
make profile-quick: $FAIL" "the count phase fails: exit 2, said"
	is "$(ls -A "$T/o3")" "" \
		"OUTPUT is empty again: samples.jsonl, counts.jsonl, functions/ gone"
else
	skip "no valgrind: no count phase"
	skip "no valgrind: no count phase"
fi

# The merge fails: the samples go too.
fail_tool prof-merge
mk profile-quick BASELINE="$T/a/results.json"
R=$(failed_folder)
is "$rc:$(lines)" "2:make profile-quick: cannot merge the samples
make profile-quick: $FAIL" "the merge fails: exit 2, said"
ok "$([ -n "$R" ] && [ ! -e "$R" ]; echo $?)" "the run folder is gone"

# The report fails after results.json: the run's record stays.
fail_tool prof-report
mk profile-quick OUTPUT="$T/o5" BASELINE="$T/a/results.json"
is "$rc:$(lines)" "2:make profile-quick: cannot write the summary
make profile-quick: written in $T/o5: samples.jsonl, results.json, comparisons.json; not written: summary.md, report.html
make profile-quick: $FAIL" \
	"the report fails: exit 2, and what is written and what is not"
jq_ok '.schema == "prof.results"' "$T/o5/results.json" \
	"results.json, the run's record, is kept whole"
run prof-history list --db "$HISTORY"
jq_ok "any(.[]; .run_id == \"$(jq -r .run_id "$T/o5/results.json")\")" \
	"$out" "and the history holds it"

# make merge-shards: the merge fails, or the report after it.
fail_tool none
mk profile-quick SHARD=1/1 OUTPUT="$T/shards/1" BASELINE="$T/none.json"
fail_tool prof-merge
mk merge-shards DIR="$T/shards" BASELINE="$T/none.json"
R=$(failed_folder)
is "$rc:$(lines)" "2:make merge-shards: run finished with exit code 2 (bad or missing shards, or an infrastructure failure)" \
	"merge-shards: the merge fails, exit 2"
like "$R" "artifacts/profiling/" "(its folder was made under artifacts/profiling/)"
ok "$([ ! -e "$R" ]; echo $?)" "and it is gone, not left empty"
fail_tool prof-merge
mk merge-shards DIR="$T/shards" OUTPUT="$T/o6" BASELINE="$T/none.json"
is "$rc:$(ls -A "$T/o6")" "2:" "with OUTPUT, the folder is left empty"
fail_tool prof-report
mk merge-shards DIR="$T/shards" OUTPUT="$T/o7" BASELINE="$T/none.json"
is "$rc:$(lines)" "2:make merge-shards: cannot write the summary
make merge-shards: written in $T/o7: results.json, comparisons.json; not written: summary.md, report.html
make merge-shards: run finished with exit code 2 (bad or missing shards, or an infrastructure failure)" \
	"merge-shards: the report fails, and what is written is said"
ok "$([ -s "$T/o7/results.json" ]; echo $?)" "its results.json is kept"

is "$(sums)" "$kept" "the earlier run is as it was"
finish
