#!/bin/sh
# merge-shards.sh: make merge-shards: the shards of one run (each machine's
# make profile-quick|profile-full SHARD=I/N) into one run folder, merged,
# compared and reported like a single run.
#
# usage: sh fragment/merge-shards.sh DIR
#
# DIR holds the shards' results files (*.json) or run folders (*/results.json,
# as the CI's artifacts unpack). Settings come from the environment:
#   PROF_BINDIR    the tools (default bin)
#   PROF_OUTPUT    the merged run folder, new or empty, outside DIR
#                  (default artifacts/profiling/RUN_ID; run_folder)
#   PROF_BASELINE  the baseline (default baselines/cpu-ci.json)
#   PROF_SHARDS    N, the number of shards (default: as the shards say)
#   PROF_HISTORY   the run history the merged run is added to (default
#                  artifacts/history.sqlite; empty: none)
#   PROF_COMMAND   the command that results.json records
#
# prof-merge --shards checks that the shards are one run (the same commit,
# mode and options), that each of 1/N to N/N is there once, and that each
# holds its own workloads only (the split is deterministic: a shard's
# results relabelled as another's are refused); if not, it names the shard
# ("shard 2/4 missing") and the exit code is 2, with nothing written. Otherwise the exit code is the run's: 1 when a sample errored.
set -u
set -f

BINDIR=${PROF_BINDIR:-bin}
BASELINE=${PROF_BASELINE:-baselines/cpu-ci.json}
label="make merge-shards"

fail_words="bad or missing shards, or an infrastructure failure"
. "$(dirname "$0")/run-lib.sh"

dir=${1:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	say "give the folder of the shards' results: DIR=... ('$dir' is" \
		"not a folder)"
	finish 2
fi
for tool in prof-merge prof-diff prof-report prof-history; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done

# The shards, in name order: results files, then run folders.
set --
set +f
for f in "$dir"/*.json "$dir"/*/results.json; do
	[ -f "$f" ] && set -- "$@" "$f"
done
set -f
if [ $# -eq 0 ]; then
	say "no shard results in '$dir' (*.json or */results.json)"
	finish 2
fi

# The merged run's folder (run-lib.sh: a new or empty OUTPUT; the
# baseline and the history outside it, and it outside DIR: a merged run
# inside DIR would be read as one more shard by the next merge of DIR,
# and a scan that skipped it would have to tell a merged run from a
# shard's, which a shard's results file may not say).
run_history=${PROF_HISTORY-artifacts/history.sqlite}
run_folder BASELINE="$BASELINE" HISTORY="$run_history" DIR="$dir"
# An interrupt says where the run stopped and what it wrote (run-lib.sh).
on_interrupt results.json comparisons.json summary.md report.html

# prof-merge says why it cannot merge (and the run's folder goes:
# run_failed); the merged run joins the history before the reports read
# it.
run_merge_failed() { run_failed; }
run_before_report() {
	phase=history
	add_history
	[ -n "$history" ] && added=1
}
status=0
# The merged run is of the shards' commit (prof-merge checks that they
# are one), not of HEAD here: its time and parents are the ones the
# shards carry, or, of shards without them, the commit's in this
# repository where it is one of it (merge_at).
c_commit=$(jq -r '.commit // empty' "$1" 2>/dev/null)
c_time=$(jq -r '.commit_time // empty' "$1" 2>/dev/null)
c_parents=$(jq -r 'if has("parents") then .parents | join(" ") else
	"none" end' "$1" 2>/dev/null)
[ "$c_parents" = none ] && c_has_parents= || c_has_parents=1
merge_diff_report "$run/results.json" "$BASELINE" "$run/comparisons.json" \
	--shards "${PROF_SHARDS:-0}" --timestamp "$timestamp" \
	--command "${PROF_COMMAND:-$label DIR=$dir}" \
	${c_commit:+--commit "$c_commit"} \
	${c_time:+--commit-time "$c_time"} \
	${c_time:+${c_has_parents:+--parents "$c_parents"}} "$@"
# A sample that errored in any shard makes the run's code 1.
if [ $status = 0 ] && grep -q '"outcome":"error"' "$run/results.json"; then
	status=1
fi
echo "summary: $run/summary.md"
echo "report: $run/report.html"
finish "$status"
