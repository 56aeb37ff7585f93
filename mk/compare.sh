#!/bin/sh
# compare.sh: interleaved A/B against a git revision (make compare REF=rev).
#
# usage: sh mk/compare.sh
#
# mk/compare.mk runs it for make compare; settings come from the
# environment (each from the make variable without the PROF_):
#   PROF_REF               the git revision to compare with (required)
#   PROF_MODE              quick (default) or full
#   PROF_BINDIR            the current build's tools (default bin)
#   PROF_BUILD             the build folder; REF is built in a git worktree
#                          at $PROF_BUILD/compare/<commit> and kept there
#   PROF_WORKLOADS         workload binaries (default: prof-workloads);
#                          a path inside the checkout has its twin at the
#                          same path in REF's worktree, made there with make
#   PROF_BACKEND, PROF_REPEAT, PROF_TIMEOUT, PROF_SEED
#   PROF_CATEGORY, PROF_EXCLUDE_CATEGORY   space-separated lists
#   PROF_OUTPUT            the run folder (default artifacts/profiling/RUN_ID)
#   PROF_COMMAND           the command that results.json records
#
# REF is built once per commit; a second compare against it reuses the
# build. The current and the reference binaries then run alternately in one
# prof-time run (prof-time --against), so a slow minute of the machine lands
# on both sides. The run folder gets samples.jsonl and baseline.jsonl (the
# two sides), results.json (current), baseline.json (the reference side),
# comparisons.json and summary.md, judged by the same rule as a baseline
# comparison. The work tree is compared as it is, uncommitted changes
# included; the summary says so.
#
# The exit status is the run's: 0 clean, 1 a sample errored, 2 an argument
# or infrastructure failure (REF is no commit, or does not build: the tail
# of its build log is printed).
set -u
set -f	# lists below are split on spaces, never globbed

BINDIR=${PROF_BINDIR:-bin}
BUILD=${PROF_BUILD:-build}
MODE=${PROF_MODE:-quick}
REF=${PROF_REF:-}
label="make compare"

. "$(dirname "$0")/run-lib.sh"

if [ -z "$REF" ]; then
	say "give the revision to compare with: make compare REF=<git revision>"
	finish 2
fi
case $MODE in
quick | full) ;;
*)
	say "MODE: '$MODE' is not quick or full"
	finish 2
	;;
esac
command=${PROF_COMMAND:-make compare REF=$REF}
for tool in prof-time prof-merge prof-diff prof-report; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done
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

# The reference's workload binaries, as paths in its worktree.
wt=$BUILD/compare/$sha
log=$BUILD/compare/$sha.log
cur_bins=
ref_bins=
ref_targets=
if [ -z "${PROF_WORKLOADS:-}" ]; then
	cur_bins=$BINDIR/prof-workloads
	ref_bins=$wt/bin/prof-workloads
	ref_targets=bin/prof-workloads
fi
for b in ${PROF_WORKLOADS:-}; do
	case $b in
	/*)
		say "WORKLOADS: '$b' is outside the checkout, so REF has no" \
			"twin of it; give a path inside the checkout"
		finish 2
		;;
	esac
	cur_bins="$cur_bins $b"
	ref_bins="$ref_bins $wt/$b"
	ref_targets="$ref_targets $b"
done

# Build REF once per commit: a worktree under build/compare, kept; the
# stamp says its build finished.
build_ref() {
	mkdir -p "$BUILD/compare" || return 1
	if [ ! -f "$wt/.prof-compare-built" ]; then
		# A half-made worktree goes; one deleted by make clean is
		# forgotten (prune).
		if [ -e "$wt" ]; then
			git worktree remove --force "$wt" >/dev/null 2>&1 ||
				rm -rf "$wt"
		fi
		git worktree prune
		say "building $REF ($short) in $wt (log: $log)"
		# Only the workload binaries: the tools are the current ones.
		{
			git worktree add --detach "$wt" "$sha" &&
				env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
					make -C "$wt" BINDIR=bin BUILD=build \
					$ref_targets
		} >"$log" 2>&1 || return 1
		: >"$wt/.prof-compare-built"
	else
		say "reusing the build of $REF ($short) in $wt"
		# Binaries asked for now may not be there yet.
		for t in $ref_targets; do
			[ -x "$wt/$t" ] && continue
			env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
				make -C "$wt" BINDIR=bin BUILD=build $t \
				>>"$log" 2>&1 || return 1
		done
	fi
	for b in $ref_bins; do
		if [ ! -x "$b" ]; then
			echo "compare.sh: REF built, but '$b' is not there" >>"$log"
			return 1
		fi
	done
	return 0
}
if ! build_ref; then
	say "REF '$REF' ($short) does not build; the end of $log:"
	tail -n 20 "$log" | sed 's/^/  /' >&2
	finish 2
fi

# The run folder, as profile.sh makes it.
run_folder samples.jsonl baseline.jsonl results.json baseline.json \
	comparisons.json summary.md

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
opts="$opts$(category_opts)"
# shellcheck disable=SC2086 # opts is a list of words
"$BINDIR/prof-time" $MODE $opts --output "$run/samples.jsonl" \
	--against-output "$run/baseline.jsonl"
status=$?
if [ $status -ge 2 ]; then
	say "the interleaved run failed; no results are written"
	[ -z "${PROF_OUTPUT:-}" ] && rmdir "$run" 2>/dev/null
	finish 2
fi

# Both sides share the run id: prof-diff then knows they saw the same
# machine at the same moments (no drift note).
if ! "$BINDIR/prof-merge" --command "$command" --run-id "$run_id" \
	--timestamp "$timestamp" --output "$run/results.json" \
	"$run/samples.jsonl" ||
	! "$BINDIR/prof-merge" --command "$command (reference side: $REF)" \
		--run-id "$run_id" --timestamp "$timestamp" --commit "$sha" \
		--output "$run/baseline.json" "$run/baseline.jsonl"; then
	say "cannot merge the samples"
	finish 2
fi
if ! "$BINDIR/prof-diff" --baseline "$run/baseline.json" \
	--output "$run/comparisons.json" "$run/results.json"; then
	say "cannot compare the two sides"
	finish 2
fi

# What the summary says first: what was compared, a dirty tree, and the
# workloads that only the reference has (prof-diff's rows are the current
# build's, so those would go unmentioned).
set -- --note "Interleaved A/B against $REF ($short): baseline.json is the reference build, measured in the same run, alternating with the current build ($MODE)."
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	set -- "$@" --note "The work tree has uncommitted changes: it was compared as it is."
fi
missing=$(jq -r -n --slurpfile c "$run/results.json" \
	--slurpfile r "$run/baseline.json" '
	# the workloads of results: in the groups, or in whole samples
	def workloads: [(.groups // {})[].workload] +
		[.samples[].workload // empty] | unique;
	($c[0] | workloads) as $cur | $r[0] | workloads |
	map(select(. as $w | $cur | index($w) | not)) | join(", ")' 2>/dev/null)
if [ -n "$missing" ]; then
	set -- "$@" --note "Only in the reference build (missing from the current one): $missing."
fi
if ! "$BINDIR/prof-report" "$@" --comparisons "$run/comparisons.json" \
	--output "$run/summary.md" "$run/results.json"; then
	say "cannot write the summary"
	finish 2
fi
echo "summary: $run/summary.md"
finish "$status"
