# run-lib.sh: what the run scripts share (profile.sh, compare.sh,
# merge-shards.sh): messages, exit codes, the run id and its folder, and
# the history and reports at the end. Sourced, after the script has set
# $label (the target's name in messages) and, where code 2 means more than
# "infrastructure or argument failure", $fail_words.

say() {
	# printf, not echo: dash's echo would turn a '\n' in a value into a
	# line break.
	printf '%s\n' "$label: $*" >&2
}

# finish CODE: print why a run failed, and exit with its code.
finish() {
	case $1 in
	0) ;;
	1) say "run finished with exit code 1 (a sample errored)" ;;
	*) say "run finished with exit code $1" \
		"(${fail_words:-infrastructure or argument failure})" ;;
	esac
	exit "$1"
}

# The run id: the UTC start time and four random hex digits.
new_run() {
	now=$(date -u +%s)
	stamp=$(date -u -d "@$now" +%Y%m%dT%H%M%SZ)
	timestamp=$(date -u -d "@$now" +%Y-%m-%dT%H:%M:%SZ)
	run_id=$stamp-$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')
}

# run_folder FILE...: a new run id and $run, its folder: OUTPUT, with the
# named files of an earlier run removed (a reused folder must not pass
# them off as this run's), or a new folder under artifacts/profiling/,
# created here so that two runs in the same second never share one.
run_folder() {
	new_run
	if [ -n "${PROF_OUTPUT:-}" ]; then
		run=$PROF_OUTPUT
		if ! mkdir -p -- "$run"; then
			say "cannot create the run folder '$run'"
			finish 2
		fi
		for f in "$@"; do
			rm -f -- "$run/$f"
		done
		return
	fi
	if ! mkdir -p artifacts/profiling; then
		say "cannot create 'artifacts/profiling'"
		finish 2
	fi
	tries=0
	while ! mkdir "artifacts/profiling/$run_id" 2>/dev/null; do
		tries=$((tries + 1))
		if [ $tries -ge 20 ]; then
			say "cannot create a folder under 'artifacts/profiling'"
			finish 2
		fi
		new_run
	done
	run=artifacts/profiling/$run_id
}

# category_opts: the --category and --exclude-category words of
# PROF_CATEGORY and PROF_EXCLUDE_CATEGORY (checked words, for a list that
# is split on spaces).
category_opts() {
	for c in ${PROF_CATEGORY:-}; do
		printf ' --category %s' "$c"
	done
	for c in ${PROF_EXCLUDE_CATEGORY:-}; do
		printf ' --exclude-category %s' "$c"
	done
	return 0
}

# add_history: the run joins the history (HISTORY; empty for none) before
# the reports read it, with each row's status when it was compared
# ($compared 1). A failure makes $status 2 and leaves $history empty.
add_history() {
	history=${PROF_HISTORY-artifacts/history.sqlite}
	set --
	[ "${compared:-0}" = 1 ] &&
		set -- --comparisons "$run/comparisons.json"
	# A project's first run with OUTPUT= has no artifacts/ yet.
	if [ -n "$history" ] && { ! mkdir -p -- "$(dirname -- "$history")" ||
		! "$BINDIR/prof-history" add --db "$history" "$@" \
		"$run/results.json"; }; then
		say "cannot add the run to the history '$history'"
		status=2
		history=
	fi
}

# write_reports [--note LINE]...: summary.md, and report.html beside it
# (with the history's trends); against $BASELINE when $compared is 1.
write_reports() {
	set -- "$@" --html "$run/report.html"
	[ -n "$history" ] && set -- "$@" --history "$history"
	if [ "$compared" = 1 ]; then
		"$BINDIR/prof-report" --comparisons "$run/comparisons.json" \
			--baseline "$BASELINE" "$@" \
			--output "$run/summary.md" "$run/results.json"
	else
		"$BINDIR/prof-report" "$@" --output "$run/summary.md" \
			"$run/results.json"
	fi || {
		say "cannot write the summary"
		finish 2
	}
}

# worktree_make DIR GOAL...: build in a kept worktree DIR of another commit
# (make compare's REF, make bisect's steps): PROF_BUILD run there, or make
# with the goals, the outer make's flags left out.
worktree_make() {
	local dir=$1
	shift
	if [ -n "${PROF_BUILD:-}" ]; then
		(cd "$dir" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
			sh -c "$PROF_BUILD")
	else
		# shellcheck disable=SC2086 # lists of words
		env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
			$MAKE -C "$dir" ${PROF_REF_MAKEFLAGS:-} "$@"
	fi
}
