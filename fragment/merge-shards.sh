#!/bin/sh
# merge-shards.sh: make merge-shards: the shards of one run (each machine's
# make profile-quick|profile-full SHARD=I/N) into one run folder, merged,
# compared and reported like a single run.
#
# usage: sh fragment/merge-shards.sh DIR
#
# DIR holds the shards' results files (*.json) or run folders (*/results.json,
# as the CI's artifacts unpack), or is the run folder of make profile-*
# ENGINE=slurm (slurm.sh): its jobs are waited for, and its shards
# (DIR/shards/I) merged into it, by the merge job or else here. Settings
# come from the environment:
#   PROF_BINDIR    the tools (default bin)
#   PROF_OUTPUT    the merged run folder, new or empty, outside DIR
#                  (default artifacts/profiling/RUN_ID; run_folder)
#   PROF_BASELINE  the baseline (default baselines/cpu-ci.json)
#   PROF_SHARDS    N, the number of shards (default: as the shards say)
#   PROF_HISTORY   the run history the merged run is added to (default
#                  artifacts/history.sqlite; empty: none)
#   PROF_COMMAND   the command that results.json records
#   PROF_ENGINE_MERGE  1: DIR is an ENGINE=slurm run folder whose jobs
#                  have ended (the merge job, slurm.sh): merge it now
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

check_project
dir=${1:-}
# An ENGINE=slurm run folder: wait for its jobs first (slurm.sh wait),
# unless they have ended; the merged run goes into the folder itself.
engine_run=
if [ -n "$dir" ] && [ -f "$dir/slurm/jobs" ]; then
	if [ "${PROF_ENGINE_MERGE:-}" != 1 ]; then
		if [ -n "${PROF_OUTPUT:-}" ]; then
			say "OUTPUT: '$dir' is the run folder of ENGINE=slurm" \
				"shards, merged into it; leave OUTPUT out"
			finish 2
		fi
		exec sh "$(dirname "$0")/slurm.sh" wait "$dir"
	fi
	engine_run=$dir
	dir=$dir/shards
fi
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
# The shards of one make compare (SHARD=I/N, ENGINE=slurm): run folders
# that each hold their reference side (baseline.json) beside results.json.
# Both sides are merged as shards, under one run id, and judged as one
# interleaved run is: the reference side the baseline.
ab=0
for f; do
	case $f in
	*/results.json) [ -f "${f%/results.json}/baseline.json" ] && ab=1 ;;
	esac
done
if [ $ab = 1 ]; then
	for f; do
		case $f in
		*/results.json) [ -f "${f%/results.json}/baseline.json" ] &&
			continue ;;
		esac
		say "'$f' is no make compare shard (no baseline.json beside" \
			"it), unlike the others: give the shards of one run"
		finish 2
	done
fi

# The merged run's folder (run-lib.sh: a new or empty OUTPUT; the
# baseline and the history outside it, and it outside DIR: a merged run
# inside DIR would be read as one more shard by the next merge of DIR,
# and a scan that skipped it would have to tell a merged run from a
# shard's, which a shard's results file may not say).
run_history=${PROF_HISTORY-artifacts/history.sqlite}
if [ -n "$engine_run" ]; then
	# The folder slurm.sh made, the run's id and start its own; a failed
	# merge removes what it wrote only (run_own), never the shards.
	run=$engine_run
	run_id=$(sed -n 's/^run_id=//p' "$run/slurm/jobs")
	timestamp=$(sed -n 's/^timestamp=//p' "$run/slurm/jobs")
	PROF_SHARDS=$(sed -n 's/^shards=//p' "$run/slurm/jobs")
	run_taken=1
	run_own="results.json comparisons.json summary.md report.html"
else
	run_folder BASELINE="$BASELINE" HISTORY="$run_history" DIR="$dir"
fi
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
if [ $ab = 1 ]; then
	# The reference side, as make compare names it: "... (reference
	# side: NAME)"; an A/B run joins no history, as make compare's.
	BASELINE=$run/baseline.json
	ref_cmd=$(jq -r '.command // empty' \
		"${1%/results.json}/baseline.json" 2>/dev/null)
	ref_name=${ref_cmd##*(reference side: }
	ref_name=${ref_name%)}
	[ "$ref_name" != "$ref_cmd" ] || ref_name="the reference build"
	r_commit=$(jq -r '.commit // empty' \
		"${1%/results.json}/baseline.json" 2>/dev/null)
	ab_mode=$(jq -r '.run.mode // empty' "$1" 2>/dev/null)
	[ -z "$engine_run" ] || run_own="$run_own baseline.json"
	# shellcheck disable=SC2046 # checked words: the merge job's node, id
	run_merge_reference() {
		local IFS='
'
		set --
		for f in $ab_shards; do
			set -- "$@" "$f/baseline.json"
		done
		IFS=' 	
'
		merge_at --shards "${PROF_SHARDS:-0}" --run-id "$run_id" \
			--timestamp "$timestamp" $(engine_opts) \
			--command "${PROF_COMMAND:-$label DIR=$dir} (reference side: $ref_name)" \
			${r_commit:+--commit "$r_commit"} \
			--output "$run/baseline.json" "$@"
	}
	run_before_report() { :; }
	run_report() {
		set -- --note "Interleaved A/B against $ref_name: baseline.json is the reference build, measured in the same run, alternating with the current build (${ab_mode:-quick}), in shards merged by make merge-shards."
		missing=$(jq -r -n --slurpfile c "$run/results.json" \
			--slurpfile r "$run/baseline.json" '
			def workloads: [(.groups // {})[].workload] +
				[.samples[].workload // empty] | unique;
			($c[0] | workloads) as $cur | $r[0] | workloads |
			map(select(. as $w | $cur | index($w) | not)) |
			join(", ")' 2>/dev/null)
		if [ -n "$missing" ]; then
			set -- "$@" --note "Only in the reference build (missing from the current one): $missing."
		fi
		"$BINDIR/prof-report" "$@" \
			--comparisons "$run/comparisons.json" \
			--html "$run/report.html" --output "$run/summary.md" \
			"$run/results.json" || run_failed "cannot write the summary"
	}
	# The shards' folders, a line each (a path may hold a space).
	ab_shards=
	for f; do
		ab_shards="$ab_shards
${f%/results.json}"
	done
fi
# The merged run is of the shards' commit (prof-merge checks that they
# are one), not of HEAD here: its time and parents are the ones the
# shards carry, or, of shards without them, the commit's in this
# repository where it is one of it (merge_at).
c_commit=$(jq -r '.commit // empty' "$1" 2>/dev/null)
c_time=$(jq -r '.commit_time // empty' "$1" 2>/dev/null)
c_parents=$(jq -r 'if has("parents") then .parents | join(" ") else
	"none" end' "$1" 2>/dev/null)
[ "$c_parents" = none ] && c_has_parents= || c_has_parents=1
# shellcheck disable=SC2046 # checked words: the merge job's node and id
merge_diff_report "$run/results.json" "$BASELINE" "$run/comparisons.json" \
	--shards "${PROF_SHARDS:-0}" --timestamp "$timestamp" $(engine_opts) \
	--command "${PROF_COMMAND:-$label DIR=$dir}" \
	${c_commit:+--commit "$c_commit"} \
	${c_time:+--commit-time "$c_time"} \
	${c_time:+${c_has_parents:+--parents "$c_parents"}} "$@"
# A sample that errored in any shard (on either side of an A/B) makes
# the run's code 1.
if [ $status = 0 ] && { grep -q '"outcome":"error"' "$run/results.json" ||
	{ [ $ab = 1 ] &&
		grep -q '"outcome":"error"' "$run/baseline.json"; }; }; then
	status=1
fi
echo "summary: $run/summary.md"
echo "report: $run/report.html"
finish "$status"
