#!/bin/sh
# profile.sh: one profiling run: the phases, then merge, compare and report.
#
# usage: sh fragment/profile.sh quick|full
#        sh fragment/profile.sh diagnose ID
#
# prof.mk runs it for make profile-quick, profile-full and diagnose; it
# can be run by hand too. Settings come from the environment (prof.mk sets
# each from the make variable without the PROF_):
#   PROF_BINDIR            the tools (default bin)
#   PROF_WORKLOADS         workload binaries, space-separated (default: the
#                          prof-workloads beside the tools)
#   PROF_BACKEND, PROF_REPEAT, PROF_TIMEOUT, PROF_SEED
#   PROF_TIME_THRESHOLD    the time threshold in % every time row is
#                          judged by (recorded in the samples; prof-diff
#                          --time-threshold)
#   PROF_CATEGORY, PROF_EXCLUDE_CATEGORY   space-separated lists
#   PROF_W                 workload id patterns (make W=; diagnose: its id)
#   PROF_OUTPUT            the run folder, new or empty (default
#                          artifacts/profiling/RUN_ID; run_folder)
#   PROF_BASELINE          the baseline (default baselines/cpu-ci.json)
#   PROF_PLAYWRIGHT        browser rows made before, to merge instead of
#                          playing the stories
#   PROF_STORIES           1: play the browser stories in a quick run too;
#                          0: not in a full run either (default: full only)
#   PROF_STORIES_SCRIPT    the stories (prof's workloads/browser/
#                          stories.mjs; empty: the project has none)
#   PROF_CHROMIUM          the browser the stories drive (default: Debian's)
#   PROF_COUNTS            1: the instruction-count phase (prof-count) in a
#                          quick or full run too; diagnose always has it
#   PROF_MEMORY            1: the memory phase (prof-mem) in a quick or
#                          full run too; diagnose always has it
#   PROF_COMMAND           the command that results.json records
#   PROF_SHARD             I/N: time only this shard of the selection
#                          (prof-time --shard); the browser stories (or
#                          PLAYWRIGHT's rows) go with shard 1; make
#                          merge-shards joins the shards. Not given, the
#                          engine's own variables say it (run-lib.sh:
#                          engine_shard; PROF_SHARDS is the count of a
#                          Kubernetes Indexed Job), and the run records
#                          which (run.engine.shard_from)
#   PROF_ENGINE            slurm: the shards as a Slurm job array, and
#                          their merge after them (slurm.sh: PROF_SHARDS,
#                          PROF_SLURM_ARGS, PROF_NOWAIT); local (or
#                          empty): this machine
#   PROF_HISTORY           the run history the run is added to (default
#                          artifacts/history.sqlite; empty: none)
#   PROF_COMPARE_DIR       where make compare keeps its builds (default
#                          build/compare): diagnose profiles the baseline's
#                          commit from there when a time row changed
#
# The run folder gets each phase's samples (samples.jsonl from prof-time;
# in diagnose and with MEMORY=1 memory.jsonl from prof-mem; in diagnose
# profile.jsonl with its .prof
# and trace files from prof-trace; counts.jsonl from prof-count, with its
# callgrind files under functions/, in diagnose and with COUNTS=1; in full
# browser.jsonl from the browser stories unless
# PLAYWRIGHT gives rows), then results.json, comparisons.json (changed
# rows with their functions when the baseline kept its callgrind files:
# prof-why; in diagnose, changed time rows with CPU profiles of both sides
# under time/ when the baseline's commit is built in PROF_COMPARE_DIR),
# summary.md and report.html; the run is added to the history first.
#
# The exit status is the run's: 0 clean, 1 a sample errored, 2 an argument
# or infrastructure failure. Results, comparisons and the summary are
# written when samples errored too; after a failure (2) of a phase or of
# the merge, what the run wrote goes (run-lib.sh's run_failed: its folder
# too, unless it is OUTPUT), and nothing more is written. make turns any
# failing status into its own 2, so the status is printed first.
set -u
set -f	# lists below are split on spaces, never globbed

BINDIR=${PROF_BINDIR:-bin}
BASELINE=${PROF_BASELINE:-baselines/cpu-ci.json}
CACHE=${PROF_COMPARE_DIR:-build/compare}

. "$(dirname "$0")/run-lib.sh"
. "$(dirname "$0")/why-lib.sh"

mode=${1:-}
id=
case $mode in
quick | full)
	label="make profile-$mode"
	if [ $# -ne 1 ]; then
		say "unexpected argument '$2'"
		finish 2
	fi
	;;
diagnose)
	label="make diagnose"
	# W is diagnose's one workload, not a selection of patterns.
	PROF_W=
	id=${2:-}
	if [ -z "$id" ]; then
		say "give the workload: make diagnose W=ID"
		finish 2
	fi
	if [ $# -ne 2 ]; then
		say "unexpected argument '$3'"
		finish 2
	fi
	;;
*)
	label=profile.sh
	say "usage: sh fragment/profile.sh quick|full|diagnose ID"
	finish 2
	;;
esac
command=${PROF_COMMAND:-$label${id:+ W=$id}}

# Every variable is checked before any phase runs.
. "$(dirname "$0")/profile-check.sh"
check_vars
check_time_threshold

# ENGINE=slurm: the shards run as a job array, their merge after them,
# and this waits for it (slurm.sh). Otherwise the shard is SHARD, or the
# one the engine's own variables say (engine_shard); an ENGINE=slurm
# task says where its shard came from itself (PROF_SHARD_FROM).
if [ "${PROF_ENGINE:-}" = slurm ]; then
	if [ "$mode" = diagnose ]; then
		say "ENGINE=slurm: diagnose runs one workload here"
		finish 2
	fi
	exec sh "$(dirname "$0")/slurm.sh" submit "$mode"
fi
shard_from=
if [ -n "${PROF_SHARD:-}" ]; then
	shard_from=${PROF_SHARD_FROM:-}
elif [ "$mode" != diagnose ]; then
	engine_shard
fi

# An interrupt says where the run stopped and what it wrote (run-lib.sh).
run_history=${PROF_HISTORY-artifacts/history.sqlite}
on_interrupt samples.jsonl memory.jsonl profile.jsonl browser.jsonl \
	counts.jsonl results.json comparisons.json summary.md report.html

for tool in prof-time prof-merge prof-diff prof-report; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done
if [ "${PROF_STORIES:-}" = 1 ] && [ -z "${PROF_STORIES_SCRIPT:-}" ]; then
	say "STORIES=1: this project has no browser stories"
	finish 2
fi
if [ -n "${PROF_PLAYWRIGHT:-}" ] && [ ! -r "$PROF_PLAYWRIGHT" ]; then
	say "PLAYWRIGHT: cannot read '$PROF_PLAYWRIGHT'"
	finish 2
fi

# A run of the browser category alone has nothing for prof-time.
only_browser=0
if [ "$mode" = full ] && [ -n "${PROF_CATEGORY:-}" ]; then
	only_browser=1
	for c in $PROF_CATEGORY; do
		[ "$c" = browser ] || only_browser=0
	done
fi

# Whether word $1 is one of the words after it.
in_list() {
	w=$1
	shift
	for x in "$@"; do
		[ "$x" = "$w" ] && return 0
	done
	return 1
}

# will_count: whether this run has the count phase (0) or not (1; a GPU
# run says so when $1 is "say").
will_count() {
	case "$mode:${PROF_COUNTS:-}" in
	diagnose:* | quick:1 | full:1) ;;
	*) return 1 ;;
	esac
	if [ -n "${PROF_BACKEND:-}" ] && [ "$PROF_BACKEND" = gpu ]; then
		[ "${1:-}" = say ] &&
			say "no instruction counts in a GPU run (BACKEND=gpu)"
		return 1
	fi
	[ $only_browser = 0 ]
}

# will_play: whether this run plays the browser stories itself (0) or not
# (1; a GPU run says so when $1 is "say"). A sharded run plays them (or
# merges PLAYWRIGHT's rows) once, in its first shard: make merge-shards
# refuses them in another.
will_play() {
	case "${PROF_SHARD:-1/}" in
	1/*) ;;
	*) return 1 ;;
	esac
	[ -z "${PROF_PLAYWRIGHT:-}" ] || return 1
	case "$mode:${PROF_STORIES:-}" in
	full: | full:1 | quick:1) ;;
	*) return 1 ;;
	esac
	[ -n "${PROF_STORIES_SCRIPT:-}" ] || return 1
	# shellcheck disable=SC2086 # lists of words
	if [ -n "${PROF_CATEGORY:-}" ] && ! in_list browser $PROF_CATEGORY; then
		return 1
	fi
	# shellcheck disable=SC2086
	in_list browser ${PROF_EXCLUDE_CATEGORY:-} && return 1
	if [ "${PROF_BACKEND:-}" = gpu ]; then
		[ "${1:-}" = say ] &&
			say "no browser stories in a GPU run (BACKEND=gpu)"
		return 1
	fi
	return 0
}

# Everything the phases this run takes need, before the first one: a
# missing package stops it now, not after the timing phase (run-lib.sh).
deps=
will_count && deps=count
will_play && deps="$deps stories"
# shellcheck disable=SC2086 # a list of words
need_deps $deps

run_folder BASELINE="$BASELINE" PLAYWRIGHT="${PROF_PLAYWRIGHT:-}" \
	HISTORY="$run_history"

# What each phase returned: the worst code so far; the streams to merge.
status=0
streams=

# note CODE: keep the worst code; a failure (2) ends the run here, and
# what the phases wrote goes with it (run_failed).
note() {
	[ "$1" -lt 2 ] || run_failed "a phase failed; no results are written"
	[ "$1" -gt "$status" ] && status=$1
	return 0
}

# The options every phase takes: workload binaries, backend, timeout, seed.
common_opts() {
	for w in ${PROF_WORKLOADS:-}; do
		printf ' --workloads %s' "$w"
	done
	[ -n "${PROF_BACKEND:-}" ] && printf ' --backend %s' "$PROF_BACKEND"
	[ -n "${PROF_TIMEOUT:-}" ] && printf ' --timeout %s' "$PROF_TIMEOUT"
	[ -n "${PROF_SEED:-}" ] && printf ' --seed %s' "$PROF_SEED"
	return 0
}

# The timing phase: prof-time, every mode.
phase_timing() {
	opts=$(common_opts)
	[ -n "${PROF_REPEAT:-}" ] && opts="$opts --repeat $PROF_REPEAT"
	[ -n "${PROF_TIME_THRESHOLD:-}" ] &&
		opts="$opts --time-threshold $PROF_TIME_THRESHOLD"
	opts="$opts$(category_opts)"
	[ -n "${PROF_SHARD:-}" ] && opts="$opts --shard $PROF_SHARD"
	phase=timing
	# shellcheck disable=SC2086 # opts is a list of checked words
	"$BINDIR/prof-time" $mode ${id:+"$id"} $opts \
		--output "$run/samples.jsonl"
	rc=$?
	note $rc
	streams="$streams samples.jsonl"
}

# The memory phase of diagnose and MEMORY=1: prof-mem, one run apart from
# timing, the same selection (and shard) as the timing phase.
phase_memory() {
	if [ ! -x "$BINDIR/prof-mem" ]; then
		say "no memory phase: '$BINDIR/prof-mem' is not built"
		return 0
	fi
	phase=memory
	opts=$(common_opts)
	if [ "$mode" != diagnose ]; then
		opts="$opts$(category_opts)"
		[ -n "${PROF_SHARD:-}" ] && opts="$opts --shard $PROF_SHARD"
	fi
	# shellcheck disable=SC2086 # opts is a list of checked words
	"$BINDIR/prof-mem" $mode ${id:+"$id"} $opts \
		--output "$run/memory.jsonl"
	note $?
	streams="$streams memory.jsonl"
}

# The diagnostic phase of diagnose: prof-trace's CPU profile and trace,
# written into the run folder beside their samples.
phase_trace() {
	if [ ! -x "$BINDIR/prof-trace" ]; then
		say "no diagnostic phase: '$BINDIR/prof-trace' is not built"
		return 0
	fi
	phase=diagnostic
	# shellcheck disable=SC2046 # the options are a list of words
	"$BINDIR/prof-trace" diagnose "$id" $(common_opts) \
		--output "$run/profile.jsonl" --artifacts "$run"
	note $?
	streams="$streams profile.jsonl"
}

# The instruction-count phase: prof-count under callgrind, the CPU path
# only, its own repeat (2 quick, 3 full and diagnose); REPEAT is timing's.
phase_count() {
	will_count say || return 0
	if [ ! -x "$BINDIR/prof-count" ]; then
		say "no count phase: '$BINDIR/prof-count' is not built"
		note 2
	fi
	opts=
	for w in ${PROF_WORKLOADS:-}; do
		opts="$opts --workloads $w"
	done
	[ -n "${PROF_TIMEOUT:-}" ] && opts="$opts --timeout $PROF_TIMEOUT"
	[ -n "${PROF_SEED:-}" ] && opts="$opts --seed $PROF_SEED"
	opts="$opts$(category_opts)"
	# A sharded run counts the same shard of the selection as it times.
	[ -n "${PROF_SHARD:-}" ] && opts="$opts --shard $PROF_SHARD"
	phase=count
	# shellcheck disable=SC2086 # opts is a list of checked words
	"$BINDIR/prof-count" $mode ${id:+"$id"} $opts \
		--functions "$run/functions" --output "$run/counts.jsonl"
	note $?
	streams="$streams counts.jsonl"
}

# Browser rows: PLAYWRIGHT=FILE holds rows made before (any mode); they are
# merged from where they are, so that a bad row is named by that file's
# name and line. Otherwise a full run plays the stories itself
# (workloads/browser/stories.mjs: playwright-core and Debian's chromium)
# into $run/browser.jsonl, unless the category browser is left out.
browser_rows=
phase_browser() {
	case "${PROF_SHARD:-1/}" in
	1/*) [ -n "${PROF_PLAYWRIGHT:-}" ] && browser_rows=$PROF_PLAYWRIGHT ;;
	esac
	will_play say || return 0
	if [ "$mode" = full ]; then
		warm=2 reps=${PROF_REPEAT:-10}
	else
		warm=1 reps=${PROF_REPEAT:-3}
	fi
	phase=browser
	node "$PROF_STORIES_SCRIPT" --out "$run/browser.jsonl" \
		--warmup "$warm" --repeat "$reps" --plotkit "$BINDIR/plotkit" \
		${PROF_CHROMIUM:+--chromium "$PROF_CHROMIUM"}
	note $?
	browser_rows=$run/browser.jsonl
}

[ $only_browser = 1 ] || phase_timing
if [ "$mode" = diagnose ]; then
	phase_memory
	phase_trace
elif [ "${PROF_MEMORY:-}" = 1 ] && [ $only_browser = 0 ]; then
	phase_memory
fi
[ $only_browser = 1 ] || phase_count
phase_browser

# Merge the run folder's streams, then the browser rows.
set --
for s in $streams; do
	set -- "$@" "$run/$s"
done
[ -n "$browser_rows" ] && set -- "$@" --playwright "$browser_rows"
# What the engine said of the run (its shard's variable, its node, job).
# shellcheck disable=SC2046 # checked words
set -- "$@" $(engine_opts)

# Then compare (merge_diff_report); a malformed baseline is a failure, but
# the summary is still written, without the baseline columns.
#
# Changed rows against a baseline that kept its callgrind files (an
# earlier run folder's results.json; a promoted baseline keeps none) get
# their functions (prof-why), and otherwise one line of the summary says
# why not and what to run, never an exit code (why_explain); in
# diagnose, a changed time row gets CPU profiles of both sides when the
# baseline's commit is built in the compare cache, or the summary says
# what would explain it. The run joins the history (prof-history) before
# the reports read it.
run_before_report() {
	time_dir=
	why_note=
	if [ "$compared" = 1 ] && [ "$mode" = diagnose ]; then
		phase=why
		why_baseline_time "${PROF_WORKLOADS:-$BINDIR/prof-workloads}" \
			"$BASELINE"
		[ -n "$why_note" ] && say "$why_note"
	fi
	why_fail_note=
	why_mem_note=
	if [ "$compared" = 1 ]; then
		phase=why
		why_howto_baseline "$BASELINE"
		why_explain "$run/comparisons.json" --baseline "$BASELINE" \
			${time_dir:+--time "$time_dir"}
	fi
	phase=history
	add_history
	[ -n "$history" ] && added=1
}
run_report() {
	write_reports ${why_note:+--note "$why_note"} \
		${why_fail_note:+--note "$why_fail_note"} \
		${why_mem_note:+--note "$why_mem_note"}
}
merge_diff_report "$run/results.json" "$BASELINE" "$run/comparisons.json" \
	--command "$command" --timestamp "$timestamp" "$@"
echo "summary: $run/summary.md"
echo "report: $run/report.html"
finish "$status"
