#!/bin/sh
# bisect.sh: the first commit where a workload changed (make bisect).
#
# usage: sh fragment/bisect.sh
#
# The make fragment (prof.mk) runs it for make bisect GOOD=rev BAD=rev W=id;
# settings come from the environment (each from the make variable without
# the PROF_):
#   PROF_GOOD, PROF_BAD    the last commit known unchanged, and one where
#                          the workload has changed (required)
#   PROF_W                 the workload id (required)
#   PROF_CHANNEL           instructions (default): one count run per commit
#                          (prof-count), exact, so one run says it; time:
#                          each commit timed interleaved with GOOD
#                          (prof-time --against, adaptive: REPEAT samples
#                          a side, up to four times as many while the
#                          verdict is not settled) and judged by the time
#                          rule; memory: one memory run per commit
#                          (prof-mem, two fresh workers of one call each),
#                          judged against GOOD's by the memory rule on
#                          the exact metrics (heap peak, allocations,
#                          bytes allocated: prof-diff's memory rows)
#   PROF_THRESHOLD         a count that moved by more than this many % from
#                          GOOD's has changed (default 1)
#   PROF_TIME_THRESHOLD    CHANNEL=time: the time threshold in % (prof-time
#                          --time-threshold; default: the workload's own,
#                          else the interleaved default)
#   PROF_BINDIR            the tools (default bin)
#   PROF_COMPARE_DIR       each commit is built in a git worktree at
#                          $PROF_COMPARE_DIR/<commit> and kept there, as
#                          make compare does (one cache for both; default
#                          build/compare)
#   PROF_BUILD, PROF_MAKE, PROF_REF_MAKEFLAGS   how a commit is built there,
#                          as for make compare
#   PROF_WORKLOAD_SOURCES, PROF_CURRENT_WORKLOADS  which workload sources
#                          a commit is built with, as for make compare:
#                          the current ones where the commit lacks them
#   PROF_WORKLOADS         the workload binary, a path inside the repository
#                          (default bin/prof-workloads)
#   PROF_REPEAT, PROF_TIMEOUT  as for make compare (time: repeat default 5,
#                          --max-repeat four times it)
#   PROF_OUTPUT            the run folder, new or empty (default
#                          artifacts/profiling/RUN_ID; run_folder)
#   PROF_COMMAND           the make command line (make bisect VAR=...):
#                          the command that bisects a merge keeps its
#                          variables but the range and OUTPUT, so that it
#                          runs as printed
#
# The commits are GOOD..BAD along first parents (a first changed commit
# that is a merge is said to be one, with the command that bisects its
# second parent's commits). A binary search measures
# the middle commit and keeps the half where the change is; a commit that
# does not build is skipped and named, as git bisect skip does, and the
# nearest one that builds is measured instead. At the end the first changed
# commit is printed (hash and subject), with the change against GOOD and
# the functions that changed against its parent: for instructions, prof-why
# on the two commits' callgrind files; for time, a CPU profile of each of
# the two (prof-trace, gperftools, as make compare WHY=1 profiles a changed
# time row) ranked by prof-why --time in ns of CPU per call (without
# prof-trace or google-pprof one line says so). The run folder gets
# bisect.json: every step (commit, subject, built, value, changed, and the
# verdict: status, ratio, p_value, samples a side, settled), the result and
# the functions (by time: unit, totals, the entries of compare's
# time_functions and the two profiles' artifacts); steps/COMMIT/ with each
# measurement (and its callgrind files under functions/); and, by time,
# time/ with the two CPU profiles (current: the first changed commit,
# reference: the one before it) and pprof's --base listing. By memory, the
# functions are the allocation sites that changed against the commit
# before it, from one call of each under valgrind's DHAT (memory/, as
# make compare MEMORY=1 WHY=1 takes them); each step's verdict holds its
# heap peak, allocations and bytes allocated ("memory") and the metric
# that changed.
#
# The search follows the way BAD went: BAD's status against GOOD (warning:
# more instructions, slower, more memory; improved: the other way; by
# memory, on the metric that changed at BAD). A step is changed when its
# status is BAD's; a step that changed the other way (an improvement on
# the way to a regression) is passed as unchanged, and said at the end
# ("note: commit X is -2.78% (the other way from BAD's +11.50%)"), so the
# commit found changed as BAD did. bisect.json has the direction (status,
# metric), each step's other_way and the list other_way. The function
# tables name source files relative to the project, as summary.md does.
#
# By time, a step's status is warning, improved, stable or unsettled: the
# interleaved A/B rule, as make compare judges, at PROF_TIME_THRESHOLD
# (TIME_THRESHOLD=) where it is given. A step whose evidence did not
# settle (unsettled) counts as unchanged; it is marked (settled false),
# printed at the end and listed in bisect.json (unsettled), since the
# search rests on it: run the bisect again (the builds are kept) or with a
# larger REPEAT.
#
# The exit status: 0 found (or no change between GOOD and BAD, said so), 2
# an argument or infrastructure failure (GOOD or BAD is no commit, GOOD or
# BAD does not build, no commit of the range could be measured).
set -u
set -f	# lists below are split on spaces, never globbed

BINDIR=${PROF_BINDIR:-bin}
CACHE=${PROF_COMPARE_DIR:-build/compare}
MAKE=${PROF_MAKE:-make}
GOOD=${PROF_GOOD:-}
BAD=${PROF_BAD:-}
W=${PROF_W:-}
CHANNEL=${PROF_CHANNEL:-instructions}
THRESHOLD=${PROF_THRESHOLD:-1}
BINREL=${PROF_WORKLOADS:-bin/prof-workloads}
label="make bisect"

. "$(dirname "$0")/run-lib.sh"
. "$(dirname "$0")/why-lib.sh"

if [ -z "$GOOD" ] || [ -z "$BAD" ] || [ -z "$W" ]; then
	say "give the range and the workload: make bisect GOOD=rev BAD=rev W=id"
	finish 2
fi
case $CHANNEL in
instructions | time | memory) ;;
*)
	say "CHANNEL: '$CHANNEL' is not instructions, time or memory"
	finish 2
	;;
esac
repeat=${PROF_REPEAT:-5}
case $CHANNEL:$repeat in
time:*[!0-9]* | time: | time:0)
	say "REPEAT: '$repeat' is not a number of samples"
	finish 2
	;;
esac
case $THRESHOLD in
'' | *[!0-9.]* | *.*.*)
	say "THRESHOLD: '$THRESHOLD' is not a number of percent"
	finish 2
	;;
esac
check_time_threshold
case $BINREL in
/* | *' '*)
	say "WORKLOADS: '$BINREL' is not one path inside the repository"
	finish 2
	;;
esac
check_workload_sources || finish 2
for tool in prof-count prof-time prof-mem prof-merge prof-diff prof-why; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done
# By instructions, every step is a count run: valgrind is checked before
# any commit is built (run-lib.sh).
[ "$CHANNEL" = instructions ] && need_deps count
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	say "not in a git work tree: nothing to bisect"
	finish 2
fi
good=$(git rev-parse --verify --quiet "$GOOD^{commit}")
bad=$(git rev-parse --verify --quiet "$BAD^{commit}")
if [ -z "$good" ]; then
	say "GOOD '$GOOD' is not a commit of this repository"
	finish 2
fi
if [ -z "$bad" ]; then
	say "BAD '$BAD' is not a commit of this repository"
	finish 2
fi
if ! git merge-base --is-ancestor "$good" "$bad"; then
	say "GOOD '$GOOD' is not an ancestor of BAD '$BAD'"
	finish 2
fi
# commits: GOOD, then GOOD..BAD oldest first, BAD last.
commits="$good $(git rev-list --first-parent --reverse "$good..$bad" | tr '\n' ' ')"
n=0
for c in $commits; do
	n=$((n + 1))
done
if [ "$n" -lt 2 ]; then
	say "GOOD and BAD are the same commit: nothing to bisect"
	finish 2
fi

run_folder
mkdir -p "$run/steps" || finish 2
# This folder's place in the repository: the project may be a subfolder.
sub=$(git rev-parse --show-prefix)
bin_of() { echo "$CACHE/$1/$sub$BINREL"; }
builds=0

# build SHA: the workload binary of a commit, built once in a kept
# worktree (the layout of make compare: run-lib.sh's worktree_build).
# Returns 1 when it does not build.
quiet_reuse=1
build() {
	worktree_build "$(git rev-parse --short "$1")" "$1" "$BINREL"
	rc=$?
	[ "$built_now" = 1 ] && builds=$((builds + 1))
	return $rc
}

# A time step's two sides, merged and compared (run-lib.sh's
# merge_diff_report): the good side is the baseline, a failure is the
# step's, and the step writes no report.
run_merge_reference() {
	merge_at --run-id "$run_id" --commit "$good" \
		--output "$s.good.json" "${good_jsonl:-$s.good.jsonl}"
}
run_merge_failed() { return 1; }
run_diff_failed() { return 1; }
run_report() { :; }

# measure SHA: $value (the median count, or the median ms), $changed (1 or
# 0 against GOOD) and $verdict (a JSON object: status, ratio, p_value,
# samples a side, settled); returns 1 when the measurement failed.
measure() {
	s=$run/steps/$1/$CHANNEL
	verdict=null
	mkdir -p "$run/steps/$1" || return 1
	case $CHANNEL in
	instructions)
		"$BINDIR/prof-count" diagnose "$W" --workloads "$(bin_of "$1")" \
			--repeat 1 -q ${PROF_TIMEOUT:+--timeout "$PROF_TIMEOUT"} \
			--functions "$run/steps/$1/functions" \
			--output "$s.jsonl" ||
			return 1
		value=$(jq -s '[.[] | select(.phase == "instructions" and
			.outcome == "success") | .instructions] | first // empty' \
			"$s.jsonl")
		[ -n "$value" ] || return 1
		if [ -z "${good_value:-}" ]; then
			changed=0
		else
			changed=$(awk -v a="$good_value" -v b="$value" \
				-v t="$THRESHOLD" 'BEGIN { d = (b - a) / a * 100;
				print (d > t || d < -t) ? 1 : 0 }')
			verdict=$(jq -n -c --argjson a "$good_value" \
				--argjson b "$value" --argjson ch "$changed" \
				'{status: (if $ch == 0 then "stable"
					elif $b > $a then "warning"
					else "improved" end),
				  ratio: ($b / $a), p_value: null,
				  samples: {current: 1, good: 1},
				  settled: true, reason: null}') || return 1
		fi
		;;
	time)
		if [ "$1" = "$good" ]; then
			value=
			changed=0
			return 0
		fi
		"$BINDIR/prof-time" diagnose "$W" --workloads "$(bin_of "$1")" \
			--against "$(bin_of "$good")" \
			--repeat "$repeat" --max-repeat $((repeat * 4)) -q \
			${PROF_TIMEOUT:+--timeout "$PROF_TIMEOUT"} \
			${PROF_TIME_THRESHOLD:+--time-threshold "$PROF_TIME_THRESHOLD"} \
			--output "$s.jsonl" --against-output "$s.good.jsonl" ||
			return 1
		# one run id on both sides, as make compare: no drift note;
		# each side the commit it measured. Not runs of the history
		# (prof-history(1)): old commits, measured now.
		merge_diff_report "$s.json" "$s.good.json" "$s.cmp.json" \
			--commit "$1" "$s.jsonl" || return 1
		value=$(jq '[.[] | select(.phase == "timing")][0].current.median
			// empty' "$s.cmp.json")
		changed=$(jq '[.[] | select(.phase == "timing")][0].status |
			if . == "warning" or . == "improved" then 1 else 0 end' \
			"$s.cmp.json")
		[ -n "$value" ] || return 1
		# the verdict: status, ratio, p, samples a side, whether the
		# evidence settled it (not unsettled) and the threshold
		verdict=$(jq -c '[.[] | select(.phase == "timing")][0] |
			{status, ratio, p_value,
			 samples: {current: .current.n, good: .baseline.n},
			 settled: (.status != "unsettled"),
			 threshold_pct, reason}' "$s.cmp.json") || return 1
		;;
	memory)
		"$BINDIR/prof-mem" diagnose "$W" --workloads "$(bin_of "$1")" \
			-q ${PROF_TIMEOUT:+--timeout "$PROF_TIMEOUT"} \
			--output "$s.jsonl" ||
			return 1
		# the value: the heap peak of the first call that succeeded
		value=$(jq -s '[.[] | select(.phase == "memory" and
			.outcome == "success") | .memory.host_peak_bytes] |
			first // empty' "$s.jsonl")
		[ -n "$value" ] || return 1
		if [ "$1" = "$good" ]; then
			good_jsonl=$s.jsonl
			changed=0
			return 0
		fi
		# judged against GOOD's samples by prof-diff's memory rule
		merge_diff_report "$s.json" "$s.good.json" "$s.cmp.json" \
			--commit "$1" "$s.jsonl" || return 1
		# the metric that changed (BAD's once BAD is measured: the
		# search follows it)
		verdict=$(jq -c --arg m "${chase_metric:-}" '[.[] |
			select(.phase == "memory" and
			(.metric == "host_peak_bytes" or .metric == "host_allocs"
			 or .metric == "host_allocated_bytes"))] |
			(map(select(.metric == $m)) | first) as $bm |
			(if $m != "" then [$bm // empty] else . end |
			 map(select(.status == "warning" or
				.status == "improved")) | first) as $ch |
			($ch // $bm // .[0]) as $r |
			if $r == null then null else
			{status: ($ch.status // "stable"), ratio: $r.ratio,
			 p_value: null,
			 samples: {current: $r.current.n, good: $r.baseline.n},
			 settled: true, reason: $r.reason, metric: $r.metric,
			 memory: (map({(.metric): {good: .baseline.median,
				current: .current.median}}) | add)} end' \
			"$s.cmp.json") || return 1
		[ -n "$verdict" ] && [ "$verdict" != null ] || return 1
		changed=$(echo "$verdict" | jq '.status == "warning" or
			.status == "improved" | if . then 1 else 0 end')
		;;
	esac
	return 0
}

# follow: $changed for a step measured after BAD: changed when its
# verdict went the way BAD's did (the status BAD has: warning, more
# instructions, time or memory; improved, less), and $other 1 when it
# went the other way (the search passes it as unchanged and says so).
chase=
chase_metric=
other=0
follow() {
	st=$(echo "$verdict" | jq -r '.status // empty' 2>/dev/null)
	other=0
	changed=0
	[ -n "$chase" ] || return 0
	if [ "$st" = "$chase" ]; then
		changed=1
	elif [ "$st" = warning ] || [ "$st" = improved ]; then
		other=1
	fi
}

# change_words COMMIT: how a measured step differs from GOOD, in words:
# by instructions its change in % ("+11.50%"), by time its status and
# ratio ("warning, ratio 3.012"), by memory its metric's too.
change_words() {
	if [ "$CHANNEL" = instructions ]; then
		cw=$(jq -r --arg c "$1" 'select(.commit == $c) | .value' \
			"$steps_file" | head -n 1)
		awk -v a="$good_value" -v b="$cw" \
			'BEGIN { printf "%+.2f%%\n", (b - a) / a * 100 }'
		return 0
	fi
	jq -r --arg c "$1" 'select(.commit == $c) |
		"\(.status), ratio \(.ratio * 1000 | round / 1000)" +
		(if .metric then " (\(.metric))" else "" end)' "$steps_file" |
		head -n 1
}

# measure_failed SHA [END]: SHA (GOOD or BAD: END) could not be measured:
# say why (the first error sample's reason in its step's samples, where
# it wrote one) and where its samples are, and exit 2.
measure_failed() {
	f=$run/steps/$1/$CHANNEL.jsonl
	at=$(git rev-parse --short "$1")
	[ -n "${2:-}" ] && at="$2 ($at)"
	why=
	[ -s "$f" ] && why=$(jq -r 'select(.outcome == "error") |
		.reason // empty' "$f" 2>/dev/null | sed -n 1p)
	say "cannot measure $W at $at${why:+: $why ($f)}"
	finish 2
}

# The steps, as JSON lines for bisect.json.
steps_file=$run/steps.jsonl
: >"$steps_file"
# step SHA BUILT VALUE CHANGED NOTE [VERDICT [OTHER]]
step() {
	jq -n -c --arg c "$1" --arg s "$(git log -1 --format=%s "$1")" \
		--argjson built "$2" --arg v "$3" --arg ch "$4" --arg note "$5" \
		--argjson verdict "${6:-null}" --arg other "${7:-}" \
		'{commit: $c, subject: $s, built: $built,
		  value: (if $v == "" then null else ($v | tonumber) end),
		  changed: (if $ch == "" then null else ($ch == "1") end),
		  other_way: (if $other == "" then null else ($other == "1")
			end),
		  note: (if $note == "" then null else $note end)} +
		 ($verdict // {status: null, ratio: null, p_value: null,
			samples: null, settled: null})' \
		>>"$steps_file"
}

# The commit at position i (0 is GOOD).
nth() {
	i=$1
	# shellcheck disable=SC2086 # a list of hashes
	set -- $commits
	shift "$i"
	echo "$1"
}

# GOOD and BAD first: both must build and be measured.
good_value=
for end in good bad; do
	eval "c=\$$end"
	if ! build "$c"; then
		step "$c" false "" "" "does not build"
		say "$(echo "$end" | tr a-z A-Z) ($(git rev-parse --short "$c"))" \
			"does not build; the end of $CACHE/$c.log:"
		tail -n 20 "$CACHE/$c.log" 2>/dev/null | sed 's/^/  /' >&2
		build_failed_hint
		finish 2
	fi
	measure "$c" || measure_failed "$c" "$end"
	step "$c" true "$value" "$changed" "$end" "$verdict"
	[ "$end" = good ] && good_value=$value
	bad_value=$value
	bad_changed=$changed
done
# The way BAD went: the search follows it, so that the commit it ends on
# changed as BAD did (a step that went the other way is passed, and said).
if [ "$bad_changed" = 1 ]; then
	chase=$(echo "$verdict" | jq -r .status)
	chase_metric=$(echo "$verdict" | jq -r '.metric // empty')
	bad_words=$(change_words "$bad")
fi

skipped=
others=
lo=0
hi=$((n - 1))
result=none
if [ "$bad_changed" != 1 ]; then
	say "$W did not change between GOOD and BAD (by $CHANNEL)"
else
	# The binary search: lo is unchanged, hi changed; a commit that does
	# not build is skipped and the nearest one that builds is measured.
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		probe=
		d=0
		while [ -z "$probe" ] && [ $d -lt $((hi - lo)) ]; do
			for k in $((mid + d)) $((mid - d)); do
				[ $k -gt $lo ] && [ $k -lt $hi ] || continue
				c=$(nth $k)
				case " $skipped " in
				*" $c "*) continue ;;
				esac
				if build "$c"; then
					probe=$k
					break
				fi
				skipped="$skipped $c"
				step "$c" false "" "" "does not build: skipped"
				say "skipping $(git rev-parse --short "$c"): it" \
					"does not build"
			done
			d=$((d + 1))
		done
		[ -n "$probe" ] || break	# every commit between is skipped
		c=$(nth "$probe")
		measure "$c" || measure_failed "$c"
		follow
		step "$c" true "$value" "$changed" "" "$verdict" "$other"
		if [ "$other" = 1 ]; then
			others="$others $c"
		fi
		if [ "$changed" = 1 ]; then
			hi=$probe
		else
			lo=$probe
		fi
	done
	result=found
fi

first=$(nth "$hi")
last_good=$(nth "$lo")
# What lies between the last unchanged commit and the first changed one
# could not be built: the change is in one of them or in the first.
between=
k=$((lo + 1))
while [ "$result" = found ] && [ $k -lt $hi ]; do
	between="$between $(nth $k)"
	k=$((k + 1))
done

# project_paths: the lines of a function table (stdin) with each source
# file inside a commit's worktree ($CACHE/COMMIT/...) named relative to
# the project, ".." folded, as summary.md names files: "lib/lz4.c", not
# ".../build/compare/COMMIT/prof/../lib/lz4.c".
project_paths() {
	awk -v c1="$(cd "$CACHE" 2>/dev/null && pwd)/" \
		-v c2="$(cd "$CACHE" 2>/dev/null && pwd -P)/" -v proj="$sub" '
	function fold(p,   n, i, k, a, o, out) {
		n = split(p, a, "/")
		k = 0
		for (i = 1; i <= n; i++) {
			if (a[i] == "" || a[i] == ".")
				continue
			if (a[i] == ".." && k > 0 && o[k] != "..") {
				k--
				continue
			}
			o[++k] = a[i]
		}
		out = ""
		for (i = 1; i <= k; i++)
			out = out (i > 1 ? "/" : "") o[i]
		return out
	}
	# p (from the top of the repository) from the project folder proj
	function from_project(p,   s, up) {
		s = proj
		up = ""
		while (s != "" && index(p, s) != 1) {
			sub(/[^\/]*\/$/, "", s)
			up = up "../"
		}
		return up substr(p, length(s) + 1)
	}
	function strip(line, c,   i, rest, j, path) {
		while (c != "/" && (i = index(line, c)) > 0) {
			rest = substr(line, i + length(c))
			if (!match(rest, /^[0-9a-f]+\//))
				break
			rest = substr(rest, RLENGTH + 1)
			j = index(rest, ")")
			if (!j)
				j = length(rest) + 1
			path = from_project(fold(substr(rest, 1, j - 1)))
			line = substr(line, 1, i - 1) path substr(rest, j)
		}
		return line
	}
	{ print strip(strip($0, c1), c2) }'
}

# time_functions: by time, a CPU profile of the first changed commit and
# of the one before it that was measured (prof-trace, gperftools, as make
# compare WHY=1 profiles a changed time row: why_time), ranked by prof-why
# --time in nanoseconds of CPU per call; prints the top 5 and sets
# $why_json. Without prof-trace or google-pprof, or when a profile fails,
# one line says so.
time_functions() {
	if [ ! -x "$BINDIR/prof-trace" ] ||
		! command -v google-pprof >/dev/null 2>&1; then
		echo "functions: no CPU profiles: prof-trace or google-pprof is missing (make deps)"
		return 0
	fi
	# the changed time row of the first commit, for why_time and prof-why
	s=$run/steps/$first/time
	jq -c '[.[] | select(.phase == "timing")][:1] |
		map({workload, backend, phase, status})' "$s.cmp.json" \
		>"$run/comparisons.json" || {
		rm -f "$run/comparisons.json"
		echo "functions: no CPU profiles: cannot read $s.cmp.json"
		return 0
	}
	if ! why_time "$(bin_of "$first")" "$(bin_of "$last_good")" ||
		! "$BINDIR/prof-why" --comparisons "$run/comparisons.json" \
			--results "$s.json" --baseline "$s.good.json" \
			--time "$run/time" --top 10 \
			-o "$run/comparisons.json"; then
		rm -f "$run/comparisons.json"
		echo "functions: no CPU profiles: prof-trace, google-pprof or prof-why failed"
		return 0
	fi
	why_json=$(jq -c '.[0] | select(.time_functions) |
		{unit: .time_artifacts.unit, by: "self",
		 total_before: .time_artifacts.total_before,
		 total_after: .time_artifacts.total_after,
		 functions: .time_functions,
		 artifacts: (.time_artifacts |
			{before, after, listing})}' "$run/comparisons.json")
	rm -f "$run/comparisons.json"
	if [ -z "$why_json" ]; then
		why_json=null
		echo "functions: no CPU profiles: a side was not profiled"
		return 0
	fi
	echo "functions against $(git rev-parse --short "$last_good")$( [ "$last_good" = "$(git rev-parse "$first^" 2>/dev/null)" ] && echo " (its parent)"), by CPU time (gperftools):"
	# the table of prof-why's text: the total, then the top 5
	echo "$why_json" | jq -r '
		def g1: if length > 3 then (.[:-3] | g1) + "," + .[-3:]
			else . end;
		def g: if . == 0 then "0" elif . < 0 then "-" + (-. | tostring |
			g1) else "+" + (tostring | g1) end;
		"\(.total_before)\t\(.total_after)\t" +
		(.total_after - .total_before | g),
		(.functions[:5][] |
		 "\(.self_after - .self_before | g)\t\(.share)\t" +
		 "\(.inclusive_after - .inclusive_before | g)\t" +
		 (if .state == "changed" then "" else .state end) + "\t" +
		 "\(.name) (\(.file // "?"))")' |
		awk -F '\t' 'function g(s, o, f) {
			o = ""
			f = index(s, ".")
			if (f) {
				o = substr(s, f)
				s = substr(s, 1, f - 1)
			}
			while (length(s) > 3) {
				o = "," substr(s, length(s) - 2) o
				s = substr(s, 1, length(s) - 3)
			}
			return s o
		}
		NR == 1 {
			pct = $1 > 0 ? ($2 - $1) / $1 * 100 : 0
			printf "  ns per call %s -> %s (%s, %+.2f%%)\n", g($1),
				g($2), $3, pct
			printf "  %14s %7s %14s  %-8s  %s\n", "self", "share",
				"inclusive", "", "function (file)"
			next
		}
		{ printf "  %14s %6.1f%% %14s  %-8s  %s\n", $1, $2 * 100, $3,
			$4, $5 }' | project_paths
}

# memory_functions: by memory, the allocation sites that changed against
# the commit before it that was measured: one call of each under
# valgrind's DHAT (why_memory, as make compare MEMORY=1 WHY=1 takes them),
# ranked by prof-why --memory by what the changed metric counts; prints
# the top 5 and sets $why_json. Without valgrind, or when DHAT fails, one
# line says so.
memory_functions() {
	s=$run/steps/$first/memory
	jq -c '[.[] | select(.phase == "memory" and
		(.status == "warning" or .status == "improved") and
		(.metric == "host_peak_bytes" or .metric == "host_allocs" or
		 .metric == "host_allocated_bytes"))][:1] |
		map({workload, backend, phase, metric, status})' \
		"$s.cmp.json" >"$run/comparisons.json" 2>/dev/null || {
		rm -f "$run/comparisons.json"
		echo "functions: no allocation sites: cannot read $s.cmp.json"
		return 0
	}
	why_memory "$(bin_of "$first")" "$(bin_of "$last_good")"
	if [ -n "$why_mem_note" ]; then
		rm -f "$run/comparisons.json"
		echo "functions: $why_mem_note"
		return 0
	fi
	if ! "$BINDIR/prof-why" --comparisons "$run/comparisons.json" \
		--results "$s.json" --baseline "$s.good.json" \
		--memory "$run/memory" --top 10 -o "$run/comparisons.json" \
		2>/dev/null; then
		rm -f "$run/comparisons.json"
		echo "functions: no allocation sites: prof-why failed"
		return 0
	fi
	why_json=$(jq -c '.[0] | select(.memory_sites) |
		{unit: "allocation sites", metric,
		 by: .memory_sites_artifacts.by,
		 totals: (.memory_sites_artifacts | del(.before, .after, .by)),
		 sites: .memory_sites,
		 artifacts: (.memory_sites_artifacts | {before, after})}' \
		"$run/comparisons.json")
	note=$(jq -r '.[0].memory_sites_note // empty' "$run/comparisons.json")
	rm -f "$run/comparisons.json"
	if [ -z "$why_json" ]; then
		why_json=null
		echo "functions: no allocation sites${note:+: $note}"
		return 0
	fi
	by=$(echo "$why_json" | jq -r .by)
	case $by in
	max-live) what="the most bytes live at once" ;;
	allocations) what=allocations ;;
	*) what="bytes allocated" ;;
	esac
	echo "allocation sites against $(git rev-parse --short "$last_good")$( [ "$last_good" = "$(git rev-parse "$first^" 2>/dev/null)" ] && echo " (its parent)"), by $what (valgrind's DHAT):"
	"$BINDIR/prof-why" --top 5 --by "$by" \
		"$run/memory/reference/$W.cpu.dhat.json" \
		"$run/memory/current/$W.cpu.dhat.json" | sed 's/^/  /' |
		project_paths
}

# A first changed commit that is a merge: the change came in with the
# commits of its second parent (or with the merge itself), which the
# first-parent search does not see. The command that bisects them: from
# the merge base of its two parents to its second parent.
merge_json=null
if [ "$result" = found ] && second=$(git rev-parse --verify --quiet \
	"$first^2") && mb=$(git merge-base "$first^1" "$second"); then
	merge_cmd="make bisect GOOD=$(git rev-parse --short "$mb") BAD=$(git rev-parse --short "$first")^2"
	case ${PROF_COMMAND:-} in
	"make bisect "*)
		# the variables this bisect was given, but the range and the
		# run folder (a new run gets a new one): it runs as printed
		rest=$(next_command "$PROF_COMMAND" GOOD BAD OUTPUT)
		merge_cmd="$merge_cmd${rest#make bisect}"
		;;
	*)
		merge_cmd="$merge_cmd W=$W"
		[ "$CHANNEL" != instructions ] &&
			merge_cmd="$merge_cmd CHANNEL=$CHANNEL"
		[ -n "${PROF_THRESHOLD:-}" ] &&
			merge_cmd="$merge_cmd THRESHOLD=$PROF_THRESHOLD"
		[ -n "${PROF_REPEAT:-}" ] &&
			merge_cmd="$merge_cmd REPEAT=$PROF_REPEAT"
		;;
	esac
	merge_json=$(jq -n -c --arg mb "$mb" --arg second "$second" \
		--arg cmd "$merge_cmd" \
		'{merge_base: $mb, second_parent: $second, command: $cmd}')
fi

why_json=null
if [ "$result" = found ]; then
	first_value=$(jq -r --arg c "$first" 'select(.commit == $c) | .value' \
		"$steps_file" | head -n 1)
	echo "first changed commit: $(git log -1 --format='%H %s' "$first")"
	if [ "$merge_json" != null ]; then
		echo "it is a merge: the change came in with the commits of its second parent (or with the merge itself); to find the commit among them, run: $merge_cmd"
	fi
	if [ "$CHANNEL" = instructions ]; then
		pct=$(awk -v a="$good_value" -v b="$first_value" \
			'BEGIN { printf "%+.2f", (b - a) / a * 100 }')
		echo "change: instructions $(grouped "$good_value") -> $(grouped "$first_value") ($pct%) against GOOD $(git rev-parse --short "$good"), the way BAD went ($bad_words)"
	elif [ "$CHANNEL" = memory ]; then
		jq -r --arg c "$first" --arg g "$(git rev-parse --short "$good")" \
			--arg bw "$bad_words" \
			'select(.commit == $c) | "change: \(.status) against " +
			"GOOD \($g): \(.reason); the way BAD went (\($bw))"' \
			"$steps_file" | head -n 1
	else
		jq -r --arg c "$first" --arg g "$(git rev-parse --short "$good")" \
			--arg t "$(time_text "$first_value")" \
			'select(.commit == $c) | "change: median \($t), " +
			"\(.status) against GOOD \($g) timed interleaved (ratio " +
			"\(.ratio * 1000 | round / 1000), p " +
			(if .p_value == null then "-"
			 elif .p_value < 0.001 then "< 0.001"
			 else .p_value * 1000 | round / 1000 | tostring end) +
			", " + (if .samples.current == .samples.good then
				"\(.samples.current) samples a side" else
				"\(.samples.current) and \(.samples.good) samples"
				+ " (current, GOOD)" end) + "), the way BAD went"' \
			"$steps_file" | head -n 1
	fi
	if [ -n "$between" ]; then
		echo "or one of the commits before it that do not build:$(for c in $between; do printf ' %s' "$(git rev-parse --short "$c")"; done)"
	fi
	if [ -n "$skipped" ]; then
		echo "skipped (do not build):$(for c in $skipped; do printf ' %s' "$(git rev-parse --short "$c")"; done)"
	fi
	# The steps it passed that went the other way from BAD: a change of
	# their own, not the one this bisect chased.
	for c in $others; do
		echo "note: commit $(git rev-parse --short "$c") is $(change_words "$c") (the other way from BAD's $bad_words)"
	done
	# The functions, against the commit before it that was measured by
	# count (its parent unless the parent was skipped).
	if [ "$CHANNEL" = instructions ]; then
		b=$run/steps/$last_good/functions/$W.cpu.callgrind
		a=$run/steps/$first/functions/$W.cpu.callgrind
		if [ -r "$b" ] && [ -r "$a" ]; then
			echo "functions against $(git rev-parse --short "$last_good")$( [ "$last_good" = "$(git rev-parse "$first^" 2>/dev/null)" ] && echo " (its parent)"):"
			"$BINDIR/prof-why" --top 5 "$b" "$a" | sed 's/^/  /' |
				project_paths
			why_json=$("$BINDIR/prof-why" --json --top 10 "$b" "$a") ||
				why_json=null
		fi
	elif [ "$CHANNEL" = memory ]; then
		memory_functions
	else
		time_functions
	fi
fi

# Steps whose verdict did not settle: the search went by their status.
unsettled=$(jq -r 'select(.settled == false) | .commit' "$steps_file")
if [ -n "$unsettled" ]; then
	echo "unsettled (each counted as unchanged; run again, or with a larger REPEAT):$(for c in $unsettled; do printf ' %s' "$(git rev-parse --short "$c")"; done)"
fi

jq -s --arg w "$W" --arg ch "$CHANNEL" --arg good "$good" --arg bad "$bad" \
	--argjson th "$THRESHOLD" --arg result "$result" --arg first "$first" \
	--arg lg "$last_good" --arg between "$between" --arg skipped "$skipped" \
	--argjson builds "$builds" --argjson why "$why_json" \
	--argjson merge "$merge_json" --arg chase "$chase" \
	--arg cm "$chase_metric" --arg others "$others" '
	def words: split(" ") | map(select(length > 0));
	{workload: $w, channel: $ch, good: $good, bad: $bad,
	 threshold_pct: (if $ch == "instructions" then $th
		elif $ch == "time" then
			(map(.threshold_pct // empty) | first // null)
		else null end),
	 direction: (if $chase == "" then null else
		{status: $chase, metric: (if $cm == "" then null else $cm end)}
		end),
	 other_way: ($others | words),
	 builds: $builds, steps: .,
	 first_changed: (if $result == "found" then
		(. as $s | $s | map(select(.commit == $first))[0] +
		 {against: $lg, or_one_of: ($between | words),
		  merge: $merge}) else null end),
	 skipped: ($skipped | words),
	 unsettled: [.[] | select(.settled == false) | .commit],
	 functions: (if $why == null then null else $why end)}' \
	"$steps_file" >"$run/bisect.json.tmp" &&
	mv "$run/bisect.json.tmp" "$run/bisect.json" || {
	say "cannot write $run/bisect.json"
	finish 2
}
rm -f "$steps_file"
echo "bisect: $run/bisect.json ($builds build(s))"
cache_note
finish 0
