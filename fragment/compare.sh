#!/bin/sh
# compare.sh: interleaved A/B against a git revision or against reference
# binaries (make compare REF=rev, make compare AGAINST="BIN...").
#
# usage: sh compare.sh
#
# The make fragment (prof.mk) runs it for make compare; settings come from
# the environment (each from the make variable without the PROF_):
#   PROF_REF               the git revision to compare with, or
#   PROF_AGAINST           reference workload binaries, space-separated (no
#                          git: a workload is matched by its id)
#   PROF_MODE              quick (default) or full
#   PROF_BINDIR            the tools (default bin)
#   PROF_WORKLOADS         workload binaries (default: the prof-workloads
#                          beside the tools); with REF, a path inside the
#                          repository has its twin at the same path in
#                          REF's worktree
#   PROF_COMPARE_DIR       REF is built in a git worktree at
#                          $PROF_COMPARE_DIR/<commit> and kept there
#                          (default build/compare)
#   PROF_BUILD             a shell command that builds the workloads in
#                          REF's worktree; default: $PROF_MAKE
#                          $PROF_REF_MAKEFLAGS and the workload paths there
#   PROF_MAKE              the make to run there (default make)
#   PROF_WORKLOAD_SOURCES  the files and folders of the workloads' sources
#                          and their build rule, in the project's folder
#                          (default: that folder when it is a subfolder of
#                          the repository): REF's worktree gets the
#                          current ones when REF lacks one of them
#   PROF_CURRENT_WORKLOADS 1: it gets the current ones in any case
#   PROF_COUNTS            1: also count instructions on both sides
#                          (prof-count, as profile-quick COUNTS=1): the
#                          count rows are judged beside the time rows
#   PROF_MEMORY            1: also the memory phase on both sides, in
#                          turn (prof-mem, as profile-quick MEMORY=1): the
#                          memory rows are judged beside the time rows
#   PROF_BACKEND, PROF_REPEAT, PROF_TIMEOUT, PROF_SEED
#   PROF_TIME_THRESHOLD    the time threshold in % the looks settle by and
#                          every time row is judged by (prof-time and
#                          prof-diff --time-threshold; default: each
#                          workload's own, else the interleaved default)
#   PROF_CATEGORY, PROF_EXCLUDE_CATEGORY   space-separated lists
#   PROF_W                 workload id patterns (make W=), space-separated
#   PROF_OUTPUT            the run folder, new or empty (default
#                          artifacts/profiling/RUN_ID; run_folder)
#   PROF_SHARD             I/N: interleave only this shard's workloads
#                          (prof-time --shard: split by workload, both
#                          sides of a row in the same shard); not given,
#                          the engine's own variables say it (run-lib.sh:
#                          engine_shard); make merge-shards joins the
#                          shards' run folders into one A/B run
#   PROF_ENGINE            slurm: the shards (PROF_SHARDS of them) as a
#                          Slurm job array, their merge after them
#                          (slurm.sh: PROF_SLURM_ARGS, PROF_NOWAIT); REF is
#                          built here first, once; local (or empty): here
#   PROF_COMMAND           the command that results.json records
#   PROF_WHY               1: also count instructions on both sides
#                          (prof-count --functions, as COUNTS=1) and say
#                          for each changed row which functions changed
#                          (prof-why: comparisons.json, summary.md and
#                          report.html); a changed time row also gets a
#                          CPU profile of each side (prof-trace) and
#                          pprof's --base listing under time/; with
#                          MEMORY=1, a changed memory row gets its
#                          allocation sites from one call of each side
#                          under valgrind's DHAT (memory/, prof-why
#                          --memory)
#
# REF is built once per commit; a second compare against it reuses the
# build. The current and the reference binaries then run alternately in one
# prof-time run (prof-time --against), so a slow minute of the machine lands
# on both sides. The run folder gets samples.jsonl and baseline.jsonl (the
# two sides), results.json (current), baseline.json (the reference side),
# comparisons.json, summary.md and report.html, judged by the same rule as
# a baseline comparison; both sides share one run id. With REF the work
# tree is compared as it is, uncommitted changes included; the summary says
# so.
#
# The exit status is the run's: 0 clean, 1 a sample errored, 2 an argument
# or infrastructure failure (REF is no commit, or does not build: the tail
# of its build log is printed; what the run wrote before results.json
# goes: run-lib.sh's run_failed), or an interrupt (one line says in which
# phase, and what was written or kept: run-lib.sh's interrupted()).
set -u
set -f	# lists below are split on spaces, never globbed

BINDIR=${PROF_BINDIR:-bin}
CACHE=${PROF_COMPARE_DIR:-build/compare}
MODE=${PROF_MODE:-quick}
REF=${PROF_REF:-}
AGAINST=${PROF_AGAINST:-}
MAKE=${PROF_MAKE:-make}
label="make compare"

. "$(dirname "$0")/run-lib.sh"
. "$(dirname "$0")/why-lib.sh"

if [ -z "$REF" ] && [ -z "$AGAINST" ]; then
	say "give what to compare with: REF=<git revision> or" \
		"AGAINST=\"reference binaries\""
	finish 2
fi
if [ -n "$REF" ] && [ -n "$AGAINST" ]; then
	say "REF and AGAINST: one or the other"
	finish 2
fi
case $MODE in
quick | full) ;;
*)
	say "MODE: '$MODE' is not quick or full"
	finish 2
	;;
esac
check_w
case ${PROF_WHY:-} in
'' | 0 | 1) ;;
*)
	say "WHY: '$PROF_WHY' is not 1 or 0"
	finish 2
	;;
esac
case ${PROF_COUNTS:-} in
'' | 0 | 1) ;;
*)
	say "COUNTS: '$PROF_COUNTS' is not 1 or 0"
	finish 2
	;;
esac
case ${PROF_MEMORY:-} in
'' | 0 | 1) ;;
*)
	say "MEMORY: '$PROF_MEMORY' is not 1 or 0"
	finish 2
	;;
esac
if [ "${PROF_MEMORY:-}" = 1 ] && [ ! -x "$BINDIR/prof-mem" ]; then
	say "'$BINDIR/prof-mem' is missing; run make first"
	finish 2
fi
check_workload_sources || finish 2
check_time_threshold
case ${PROF_SHARD:-} in
'' | [1-9]*/[1-9]*)
	case ${PROF_SHARD:-} in
	*/*/* | *[!0-9/]*)
		say "SHARD: '$PROF_SHARD': expected I/N, as 2/4"
		finish 2
		;;
	esac
	;;
*)
	say "SHARD: '$PROF_SHARD': expected I/N, as 2/4"
	finish 2
	;;
esac
case ${PROF_ENGINE:-} in
'' | local) ;;
slurm)
	if [ -n "${PROF_SHARD:-}" ]; then
		say "SHARD: ENGINE=slurm runs every shard of SHARDS=N, SHARD=I/N" \
			"one shard here: give one or the other"
		finish 2
	fi
	;;
*)
	say "ENGINE: '$PROF_ENGINE': expected local or slurm"
	finish 2
	;;
esac
# The shard: SHARD, else the engine's own variables (engine_shard); an
# ENGINE=slurm task says where its shard came from (PROF_SHARD_FROM).
shard_from=
if [ "${PROF_ENGINE:-}" != slurm ]; then
	if [ -n "${PROF_SHARD:-}" ]; then
		shard_from=${PROF_SHARD_FROM:-}
	else
		engine_shard
	fi
fi
# A sharded compare is merged by make merge-shards, which judges the rows
# again: WHY=1's explanations would be a shard's, not the merged run's.
if [ "${PROF_WHY:-}" = 1 ] &&
	{ [ -n "${PROF_SHARD:-}" ] || [ "${PROF_ENGINE:-}" = slurm ]; }; then
	say "WHY=1: a sharded compare is not explained (make merge-shards" \
		"judges its rows again); run make compare WHY=1" \
		"W=\"the changed rows' workloads\" unsharded"
	finish 2
fi
for tool in prof-time prof-merge prof-diff prof-report; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done
cur_bins=${PROF_WORKLOADS:-}
if [ -z "$cur_bins" ]; then
	if [ ! -x "$BINDIR/prof-workloads" ]; then
		say "no workloads: set WORKLOADS to the project's workload" \
			"binaries"
		finish 2
	fi
	cur_bins=$BINDIR/prof-workloads
fi
for b in $cur_bins $AGAINST; do
	case $b in
	-* | *[![:print:]]*)
		say "'$b' is no file name for a workload binary"
		finish 2
		;;
	esac
done

# AGAINST: the reference binaries are at hand.
if [ -n "$AGAINST" ]; then
	for b in $AGAINST; do
		if [ ! -x "$b" ]; then
			say "AGAINST: '$b' is not an executable file"
			finish 2
		fi
	done
	ref_bins=$AGAINST
	ref_name=$AGAINST
	command=${PROF_COMMAND:-make compare AGAINST=$AGAINST}
	sha=
fi

# REF: the reference's workload binaries, as paths in its worktree.
if [ -n "$REF" ]; then
	command=${PROF_COMMAND:-make compare REF=$REF}
	if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		say "not in a git work tree: nothing to build REF from"
		finish 2
	fi
	sha=$(git rev-parse --verify --quiet "$REF^{commit}")
	if [ -z "$sha" ]; then
		say "REF '$REF' is not a commit of this repository"
		finish 2
	fi
	short=$(git rev-parse --short "$sha")
	ref_name="$REF ($short)"
	# This folder's place in the repository: the project may be a
	# subfolder of it.
	sub=$(git rev-parse --show-prefix)
	wt=$CACHE/$sha
	log=$CACHE/$sha.log
	ref_bins=
	ref_targets=
	if [ -z "${PROF_WORKLOADS:-}" ]; then
		ref_bins=$wt/${sub}bin/prof-workloads
		ref_targets=bin/prof-workloads
	fi
	for b in ${PROF_WORKLOADS:-}; do
		case $b in
		/*)
			say "WORKLOADS: '$b' is an absolute path, so REF has" \
				"no twin of it; give a path inside the" \
				"repository, or AGAINST=\"reference binaries\""
			finish 2
			;;
		esac
		ref_bins="$ref_bins $wt/$sub$b"
		ref_targets="$ref_targets $b"
	done
fi

# ENGINE=slurm: REF built here, once (each task finds it built), then
# the shards as a job array and their merge after them (slurm.sh).
if [ "${PROF_ENGINE:-}" = slurm ]; then
	[ "${PROF_COUNTS:-}" = 1 ] && need_deps count
	if [ -n "$REF" ]; then
		run_taken=0
		phase=build
		# shellcheck disable=SC2086 # a list of words
		if ! worktree_build "$REF ($short)" "$sha" $ref_targets; then
			say "REF '$REF' ($short) does not build; the end of $log:"
			tail -n 20 "$log" 2>/dev/null | sed 's/^/  /' >&2
			build_failed_hint
			finish 2
		fi
		cache_note
	fi
	exec sh "$(dirname "$0")/slurm.sh" submit compare
fi

# What the count phase (WHY=1, COUNTS=1) needs, and the run folder, as
# profile.sh makes them (run-lib.sh), before REF is built: a missing
# package or an OUTPUT that cannot be taken costs no build.
{ [ "${PROF_WHY:-}" = 1 ] || [ "${PROF_COUNTS:-}" = 1 ]; } && need_deps count
run_folder
on_interrupt samples.jsonl baseline.jsonl counts.jsonl \
	baseline-counts.jsonl memory.jsonl baseline-memory.jsonl results.json baseline.json comparisons.json \
	summary.md report.html

if [ -n "$REF" ]; then
	phase=build
	phase_what="building REF '$REF' ($short) in $wt"
	kept="kept: its build log $log (the next make compare builds REF again)"
	# shellcheck disable=SC2086 # a list of words
	if ! worktree_build "$REF ($short)" "$sha" $ref_targets; then
		say "REF '$REF' ($short) does not build; the end of $log:"
		tail -n 20 "$log" 2>/dev/null | sed 's/^/  /' >&2
		build_failed_hint
		run_failed
	fi
	ref_src_note=$src_note
	cache_note
	phase_what=
	kept=
fi

opts=
for b in $cur_bins; do
	opts="$opts --workloads $b"
done
for b in $ref_bins; do
	opts="$opts --against $b"
done
[ -n "${PROF_BACKEND:-}" ] && opts="$opts --backend $PROF_BACKEND"
[ -n "${PROF_TIMEOUT:-}" ] && opts="$opts --timeout $PROF_TIMEOUT"
[ -n "${PROF_SEED:-}" ] && opts="$opts --seed $PROF_SEED"
[ -n "${PROF_REPEAT:-}" ] && opts="$opts --repeat $PROF_REPEAT"
[ -n "${PROF_TIME_THRESHOLD:-}" ] &&
	opts="$opts --time-threshold $PROF_TIME_THRESHOLD"
opts="$opts$(category_opts)"
[ -n "${PROF_SHARD:-}" ] && opts="$opts --shard $PROF_SHARD"
phase=timing
# shellcheck disable=SC2086 # opts is a list of words
"$BINDIR/prof-time" $MODE $opts --output "$run/samples.jsonl" \
	--against-output "$run/baseline.jsonl"
status=$?
[ $status -lt 2 ] ||
	run_failed "the interleaved run failed; no results are written"

# COUNTS=1 or WHY=1: the count phase on both sides, each keeping its
# callgrind files (functions only) for prof-why; a count row's rule (1%)
# sees changes of a few percent that time's 20% does not.
cur_counts=
ref_counts=
if [ "${PROF_WHY:-}" = 1 ] || [ "${PROF_COUNTS:-}" = 1 ]; then
	phase=count
	copts=$(category_opts)
	[ -n "${PROF_SHARD:-}" ] && copts="$copts --shard $PROF_SHARD"
	[ -n "${PROF_TIMEOUT:-}" ] && copts="$copts --timeout $PROF_TIMEOUT"
	[ -n "${PROF_SEED:-}" ] && copts="$copts --seed $PROF_SEED"
	set -- "$run/counts.jsonl" "$run/functions" "$cur_bins" \
		"$run/baseline-counts.jsonl" "$run/functions/reference" \
		"$ref_bins"
	while [ $# -gt 0 ]; do
		wopts=
		for b in $3; do
			wopts="$wopts --workloads $b"
		done
		# shellcheck disable=SC2086 # lists of checked words
		"$BINDIR/prof-count" $MODE $wopts $copts -q --functions "$2" \
			--output "$1"
		rc=$?
		[ $rc -lt 2 ] ||
			run_failed "the count phase failed; no results are" \
				"written"
		[ $rc -gt "$status" ] && status=$rc
		shift 3
	done
	cur_counts=$run/counts.jsonl
	ref_counts=$run/baseline-counts.jsonl
fi

# MEMORY=1: the memory phase of each side in turn (one call a workload,
# under the allocation interposer); exact metrics need no interleaving.
cur_mem=
ref_mem=
if [ "${PROF_MEMORY:-}" = 1 ]; then
	phase=memory
	mopts=$(category_opts)
	[ -n "${PROF_SHARD:-}" ] && mopts="$mopts --shard $PROF_SHARD"
	[ -n "${PROF_BACKEND:-}" ] && mopts="$mopts --backend $PROF_BACKEND"
	[ -n "${PROF_TIMEOUT:-}" ] && mopts="$mopts --timeout $PROF_TIMEOUT"
	[ -n "${PROF_SEED:-}" ] && mopts="$mopts --seed $PROF_SEED"
	set -- "$run/memory.jsonl" "$cur_bins" "$run/baseline-memory.jsonl" \
		"$ref_bins"
	while [ $# -gt 0 ]; do
		wopts=
		for b in $2; do
			wopts="$wopts --workloads $b"
		done
		# shellcheck disable=SC2086 # lists of checked words
		"$BINDIR/prof-mem" $MODE $wopts $mopts -q --output "$1"
		rc=$?
		[ $rc -lt 2 ] ||
			run_failed "the memory phase failed; no results are" \
				"written"
		[ $rc -gt "$status" ] && status=$rc
		shift 2
	done
	cur_mem=$run/memory.jsonl
	ref_mem=$run/baseline-memory.jsonl
fi

# Both sides share the run id: prof-diff then knows they saw the same
# machine at the same moments (no drift note). The reference side is the
# baseline (merge_diff_report).
# shellcheck disable=SC2046 # checked words: the engine's shard, node, job
run_merge_reference() {
	merge_at --command "$command (reference side: $ref_name)" \
		--run-id "$run_id" --timestamp "$timestamp" ${sha:+--commit "$sha"} \
		$(engine_opts) \
		--output "$run/baseline.json" "$run/baseline.jsonl" \
		${ref_counts:+"$ref_counts"} ${ref_mem:+"$ref_mem"}
}
run_diff_failed() { run_failed "cannot compare the two sides"; }

# Which functions made the changed rows change (WHY=1), or how to ask.
run_before_report() {
	[ "${PROF_WHY:-}" = 1 ] || return 0
	phase=why
	time_dir=
	if why_time "$cur_bins" "$ref_bins"; then
		[ -d "$run/time" ] && time_dir=$run/time
	else
		say "cannot profile the changed time rows; they are" \
			"explained by counts only"
	fi
	mem_dir=
	why_mem_note=
	if [ "${PROF_MEMORY:-}" = 1 ]; then
		why_memory "$cur_bins" "$ref_bins"
		[ -d "$run/memory" ] && mem_dir=$run/memory
	fi
	why_howto="to see more, run: prof-why on the two sides' callgrind files (functions/reference/ and functions/)"
	why_explain "$run/comparisons.json" ${time_dir:+--time "$time_dir"} \
		${mem_dir:+--memory "$mem_dir"}
}

# What the summary says first: what was compared, a dirty tree, and the
# workloads that only the reference has (prof-diff's rows are the current
# build's, so those would go unmentioned).
run_report() {
	set -- --note "Interleaved A/B against $ref_name: baseline.json is the reference build, measured in the same run, alternating with the current build ($MODE)."
	if [ -n "${ref_src_note:-}" ]; then
		set -- "$@" --note "The reference build: $ref_src_note."
	fi
	if [ -n "$REF" ] &&
		[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		set -- "$@" --note "The work tree has uncommitted changes: it was compared as it is."
	fi
	missing=$(jq -r -n --slurpfile c "$run/results.json" \
		--slurpfile r "$run/baseline.json" '
		# the workloads of results: in the groups, or in whole samples
		def workloads: [(.groups // {})[].workload] +
			[.samples[].workload // empty] | unique;
		($c[0] | workloads) as $cur | $r[0] | workloads |
		map(select(. as $w | $cur | index($w) | not)) | join(", ")' 2>/dev/null)
	n_changed=$(changed_rows "$run/comparisons.json")
	if [ "${PROF_WHY:-}" != 1 ] && [ "$n_changed" -gt 0 ]; then
		set -- "$@" --note "$n_changed row(s) changed; to see which functions made them change, run: $(next_command "$command" OUTPUT WHY) WHY=1"
	fi
	if [ -n "${why_fail_note:-}" ]; then
		set -- "$@" --note "$why_fail_note"
	fi
	if [ -n "${why_mem_note:-}" ]; then
		set -- "$@" --note "$why_mem_note"
	fi
	if [ -n "$missing" ]; then
		set -- "$@" --note "Only in the reference build (missing from the current one): $missing."
	fi
	if ! "$BINDIR/prof-report" "$@" --comparisons "$run/comparisons.json" \
		--html "$run/report.html" --output "$run/summary.md" \
		"$run/results.json"; then
		run_failed "cannot write the summary"
	fi
}
# shellcheck disable=SC2046 # checked words: the engine's shard, node, job
merge_diff_report "$run/results.json" "$run/baseline.json" \
	"$run/comparisons.json" --command "$command" --timestamp "$timestamp" \
	$(engine_opts) "$run/samples.jsonl" ${cur_counts:+"$cur_counts"} ${cur_mem:+"$cur_mem"}
echo "summary: $run/summary.md"
echo "report: $run/report.html"
finish "$status"
