# run-lib.sh: what the run scripts share (profile.sh, compare.sh,
# merge-shards.sh, bisect.sh): messages, exit codes, the run id and its
# folder, and the merge -> diff -> report sequence, with the history and
# reports at the end. Sourced, after the script has set
# $label (the target's name in messages) and, where code 2 means more than
# "infrastructure or argument failure", $fail_words.

# Set by run_folder only, never taken from the environment.
run_taken=0
made_run=0

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

# abs_path PATH: PATH made absolute, its links resolved as far as it
# exists (the part not made yet is kept as it is written).
abs_path() {
	local p="$1" rest=''
	case $p in
	/*) ;;
	*) p=$PWD/$p ;;
	esac
	while [ ! -d "$p" ]; do
		rest=/${p##*/}$rest
		p=${p%/*}
		[ -n "$p" ] || p=/
	done
	p=$(cd -P -- "$p" 2>/dev/null && pwd -P) || return 1
	printf '%s%s\n' "${p%/}" "$rest"
}

# The files that mark a run folder: a run's record (results.json, of
# every run but bisect's), its samples (samples.jsonl: a run that was
# stopped before its results) and bisect's record and steps.
# prof-dashboard's dir_check() (src/prof-dashboard.c) reads the same four.
RUN_MARKS="results.json samples.jsonl bisect.json steps.jsonl"

# run_mark DIR: prints the first of $RUN_MARKS that DIR holds (DIR is a
# run folder then); false when it holds none.
run_mark() {
	local m
	for m in $RUN_MARKS; do
		if [ -e "$1/$m" ]; then
			printf '%s\n' "$m"
			return 0
		fi
	done
	return 1
}

# run_parent ABS: whether a folder above the absolute path ABS is a run
# folder (run_mark): $parent, the nearest one, and $parent_mark, its mark.
# The folder the run is made from (the project's root, where make runs)
# and the folders above it are never runs, whatever they hold: a project
# may keep a results.json of its own at its root (prof-merge -o
# results.json), and runs are made below it.
run_parent() {
	local here
	here=$(pwd -P) || here=
	parent=$1
	while [ -n "$parent" ] && [ "$parent" != / ]; do
		parent=${parent%/*}
		[ -n "$parent" ] || parent=/
		case $here/ in
		"$parent"/* | "$parent"/) continue ;;
		esac
		parent_mark=$(run_mark "$parent") && return 0
	done
	return 1
}

# not_in_run VAR PATH WORDS: whether the folder PATH (to write; made or
# not) is outside every run folder; if not, one line says so, naming it
# and the run (WORDS: why, "a baseline is never written into a run"),
# and it is false. baseline-update's DIR; run_folder's OUTPUT (its own
# folder non-empty is refused first).
not_in_run() {
	local m abs
	if [ -d "$2" ] && m=$(run_mark "$2"); then
		say "$1 '$2' is a run folder (it holds '$m'): $3; give" \
			"another folder"
		return 1
	fi
	abs=$(abs_path "$2") || return 0
	if run_parent "$abs"; then
		say "$1 '$2' is inside the run folder '$parent' (it holds" \
			"'$parent_mark'): $3; give a folder outside it"
		return 1
	fi
	return 0
}

# run_folder [VAR=PATH]...: the output guard of every target that writes a
# run folder (profile-quick, profile-full, diagnose, compare, bisect,
# merge-shards): a new run id and $run, its folder. OUTPUT is taken only
# when it is a new or an empty folder: a run never replaces (or mixes its
# files with) a run folder it did not create. Each VAR=PATH is a file the
# run reads (BASELINE=..., HISTORY=..., DIR=... of merge-shards): one
# inside OUTPUT would be read after this run wrote it there, and an OUTPUT
# inside a folder the run reads would be read by the next run (the merged
# run a shard of the next merge), so both are refused. An OUTPUT inside a
# run folder (one of its parents holds a run's files: run_mark) is refused
# too: a run never writes into another. All are exit 2 with the path,
# before anything is written. Without OUTPUT, a new folder under
# artifacts/profiling/, created here so that two runs in the same second
# never share one ($made_run is 1 then: an empty one goes again on
# failure, drop_run_folder; run_failed clears a failed run's folder).
run_folder() {
	local a var path rabs pabs first e
	new_run
	made_run=0
	run_taken=0
	if [ -n "${PROF_OUTPUT:-}" ]; then
		run=$PROF_OUTPUT
		if [ -e "$run" ] && [ ! -d "$run" ]; then
			say "OUTPUT '$run' is not a folder: a run is written" \
				"only into a new or empty folder; give a new" \
				"folder"
			finish 2
		fi
		if [ -d "$run" ]; then
			if ! first=$(ls -A -- "$run"); then
				say "cannot read the run folder '$run'"
				finish 2
			fi
			first=$(printf '%s\n' "$first" | head -n 1)
			if [ -n "$first" ]; then
				say "OUTPUT '$run' is not empty (it holds" \
					"'$first'): a run is written only into a" \
					"new or empty folder, never over another" \
					"run; give a new folder, or remove this" \
					"one first"
				finish 2
			fi
		fi
		rabs=$(abs_path "$run") || rabs=
		not_in_run OUTPUT "$run" \
			"a run is never written into another" || finish 2
		for a in "$@"; do
			var=${a%%=*}
			path=${a#*=}
			if [ -z "$path" ] || [ -z "$rabs" ] ||
				history_is_address "$path"; then
				continue
			fi
			pabs=$(abs_path "$path") || continue
			case $pabs in
			"$rabs" | "$rabs"/*)
				say "$var '$path' is inside the run folder" \
					"'$run' (OUTPUT) that this run writes:" \
					"an input is never an output of the same" \
					"run; give a $var outside it"
				finish 2
				;;
			esac
		done
		[ -z "$rabs" ] || output_outside "OUTPUT '$run'" "$rabs" "$@"
		if ! e=$(mkdir -p -- "$run" 2>&1); then
			say "cannot create the run folder '$run': ${e##*: }"
			finish 2
		fi
		run_taken=1
		return
	fi
	rabs=$(abs_path artifacts/profiling/x) &&
		output_outside "the run folder under 'artifacts/profiling'" \
			"$rabs" "$@"
	if ! e=$(mkdir -p artifacts/profiling 2>&1); then
		say "cannot create 'artifacts/profiling': ${e##*: }"
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
	made_run=1
	run_taken=1
}

# output_outside WHAT ABS [VAR=PATH]...: a run whose folder is ABS
# (absolute; WHAT names it) inside a folder PATH that it reads (DIR of
# merge-shards) is refused, exit 2: the next run would read this one's
# output as its input (the merged run as a shard of the next merge).
output_outside() {
	local what="$1" abs="$2" a var path pabs
	shift 2
	for a in "$@"; do
		var=${a%%=*}
		path=${a#*=}
		if [ -z "$path" ] || history_is_address "$path"; then
			continue
		fi
		pabs=$(abs_path "$path") || continue
		case $abs in
		"$pabs"/*)
			say "$what is inside $var '$path' that this run" \
				"reads: the next run would read this one's" \
				"output as its input; give an OUTPUT outside" \
				"it"
			finish 2
			;;
		esac
	done
}

# drop_run_folder: a run folder made by run_folder under
# artifacts/profiling/ and left empty goes again (OUTPUT stays).
drop_run_folder() {
	[ "${made_run:-0}" = 1 ] && [ -n "${run:-}" ] && rmdir "$run" 2>/dev/null
	return 0
}

# run_failed [WORDS...]: the way out of every failure (exit 2) of a run
# once run_folder took its folder: say WORDS (when given), then leave no
# half-made run behind. Before results.json is written, all that the run
# wrote in its folder goes (the folder was new or empty when run_folder
# took it, so nothing in it is older than the run), and the folder too
# when the run made it under artifacts/profiling/ (drop_run_folder);
# OUTPUT stays, empty, for the next run. Once results.json is written it
# is the run's record (the history may hold it): the folder stays, and a
# line says what it holds and what was not written (run_written). In the
# run folder of an engine (ENGINE=slurm: its shards and job files, made
# by slurm.sh), only what this run wrote goes: the files $run_own names.
run_failed() {
	local f
	[ $# -eq 0 ] || say "$*"
	if [ "$run_taken" = 1 ] && [ -d "$run" ]; then
		if [ -e "$run/results.json" ]; then
			run_written
			[ -z "$missing" ] ||
				say "written in $run: ${written#, }; not" \
					"written: ${missing#, }"
		elif [ -n "${run_own:-}" ]; then
			for f in $run_own; do
				rm -f -- "$run/$f"
			done
		elif ! find -H "$run" -mindepth 1 -maxdepth 1 \
			-exec rm -rf -- {} + 2>/dev/null ||
			[ -n "$(ls -A -- "$run" 2>/dev/null)" ]; then
			say "cannot remove what the failed run wrote in '$run'"
		else
			drop_run_folder
		fi
	fi
	finish 2
}

# run_written: $written and $missing, ", "-separated: the files among
# $run_files (on_interrupt) that the run folder holds, and those it does
# not (the streams of phases that did not run are never missing).
run_written() {
	local f
	written=
	missing=
	for f in ${run_files:-}; do
		if [ -e "$run/$f" ]; then
			written="$written, $f"
		else
			case $f in
			*.jsonl) ;;
			*) missing="$missing, $f" ;;
			esac
		fi
	done
}

# on_interrupt FILE...: from here an interrupt (SIGINT, SIGTERM or SIGHUP:
# make's Ctrl-C reaches the whole group) stops the run, and one line says
# where and what it left: the $phase it was in (with $phase_what, what that
# phase was doing, when set), the files of the run folder among FILE...
# that were written, the results not written, whether the run joined
# $run_history (the history it joins, empty for none; $added is 1 once it
# did), and $kept (what else is kept, when set). The tool in flight has
# removed its temporary files; exit 2. The line goes to the stderr of
# this call (fd 7 keeps it): a trap runs inside the redirection of the
# command it stopped (a build's log).
on_interrupt() {
	exec 7>&2
	run_files=$*
	phase=setup
	added=0
	trap 'interrupted SIGINT' INT
	trap 'interrupted SIGTERM' TERM
	trap 'interrupted SIGHUP' HUP
}

interrupted() {
	local msg where hist="${run_history:-}"
	trap '' INT TERM HUP
	exec 2>&7
	written=
	missing=
	[ -z "${run:-}" ] || run_written
	# Interrupted while adding: the history holds the run or not.
	if [ "$phase" = history ] && [ -n "$hist" ] &&
		"$BINDIR/prof-history" list --db "$hist" 2>/dev/null |
		grep -q "\"run_id\": *\"$run_id\""; then
		added=1
	fi
	where="interrupted by $1 in the $phase phase${phase_what:+, $phase_what}"
	if [ -z "$written" ]; then
		drop_run_folder
		say "$where; no results are written${kept:+; $kept}"
		exit 2
	fi
	if [ ! -e "$run/results.json" ]; then
		msg="no results are written; written in $run: ${written#, }"
	elif [ -z "$missing" ]; then
		msg="written in $run: ${written#, }"
	else
		msg="written in $run: ${written#, }; not written:"
		msg="$msg ${missing#, }"
	fi
	if [ "$added" = 1 ]; then
		msg="$msg; the run was added to the history '$hist'"
	elif [ -e "$run/results.json" ] && [ -n "$hist" ]; then
		msg="$msg; the run was not added to the history"
	fi
	say "$where; $msg${kept:+; $kept}"
	exit 2
}

# need_deps WHAT...: what the phases of the run need, checked before its
# first phase, so that a missing package stops it at once rather than
# after minutes of timing: "count" (the count phase: prof-count, valgrind)
# and "stories" (the browser stories of $PROF_STORIES_SCRIPT: node,
# chromium, or $PROF_CHROMIUM, as stories.mjs looks for it, and the
# playwright-core module beside the script). Whatever is missing is named
# in one line, with the exact line that installs it (exit 2).
need_deps() {
	local w what='' pkgs='' npm='' d top hint='' sudo=''
	for w in "$@"; do
		case $w in
		count)
			if [ ! -x "$BINDIR/prof-count" ]; then
				say "'$BINDIR/prof-count' is missing (the count" \
					"phase); run make first"
				finish 2
			fi
			if ! command -v valgrind >/dev/null 2>&1; then
				what="$what, valgrind (the instruction counts)"
				pkgs="$pkgs valgrind"
			fi
			;;
		stories)
			hint="; or leave the browser stories out:"
			hint="$hint EXCLUDE_CATEGORY=browser"
			if [ -n "${PROF_CHROMIUM:-}" ]; then
				if [ ! -x "$PROF_CHROMIUM" ]; then
					say "CHROMIUM: '$PROF_CHROMIUM' is not" \
						"an executable file"
					finish 2
				fi
			elif [ ! -x /usr/lib/chromium/chromium ] &&
				[ ! -x /usr/bin/chromium ]; then
				what="$what, chromium (the browser stories)"
				pkgs="$pkgs chromium"
			fi
			if ! command -v node >/dev/null 2>&1; then
				what="$what, node (the browser stories)"
				pkgs="$pkgs nodejs npm"
				continue
			fi
			d=$(dirname -- "$PROF_STORIES_SCRIPT")
			if ! (cd "$d" && node --input-type=module \
				-e "await import('playwright-core')") \
				>/dev/null 2>&1; then
				what="$what, the node module playwright-core (the"
				what="$what browser stories)"
				# npm ci where the lock file is, above the script
				d=$(cd "$d" && pwd -P)
				top=$d
				while [ "$top" != / ] &&
					[ ! -f "$top/package-lock.json" ]; do
					top=$(dirname -- "$top")
				done
				if [ "$top" = / ]; then
					npm="cd $d && npm install playwright-core"
				else
					npm="cd $top && npm ci"
				fi
			fi
			;;
		esac
	done
	[ -n "$what" ] || return 0
	[ "$(id -u)" = 0 ] || sudo="sudo "
	pkgs=${pkgs# }
	if [ -n "$pkgs" ] && [ -n "$npm" ]; then
		npm="${sudo}apt-get install -y $pkgs && $npm"
	elif [ -n "$pkgs" ]; then
		npm="${sudo}apt-get install -y $pkgs"
	fi
	say "missing before the first phase: ${what#, }; install with:" \
		"$npm (or: make deps, as root)$hint"
	finish 2
}

# The engines' own variables that say which shard a run is (README,
# prof.mk(7)): a line each, ENGINE INDEX COUNT FIRST, FIRST the index of
# the first shard (0 or 1; "array": a Slurm job array's, from
# SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_STEP). A Kubernetes Indexed
# Job gives no count: PROF_SHARDS is it. Bazel's TEST_SHARD_STATUS_FILE
# is touched to say that the shard was taken.
ENGINE_SHARD_VARS="slurm SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT array
gitlab CI_NODE_INDEX CI_NODE_TOTAL 1
buildkite BUILDKITE_PARALLEL_JOB BUILDKITE_PARALLEL_JOB_COUNT 0
circleci CIRCLE_NODE_INDEX CIRCLE_NODE_TOTAL 0
kubernetes JOB_COMPLETION_INDEX PROF_SHARDS 0
bazel TEST_SHARD_INDEX TEST_TOTAL_SHARDS 0"

# engine_whole VAR VALUE: VALUE, a whole number, without leading zeros
# (printed); else one line naming VAR, exit 2.
engine_whole() {
	local v
	case $2 in
	'' | *[!0-9]* | ?????????????????????*)
		say "$1: '$2': expected a whole number"
		finish 2
		;;
	esac
	v=${2#"${2%%[!0]*}"}
	printf '%s\n' "${v:-0}"
}

# engine_shard: where PROF_SHARD is not given, the shard the engine's own
# variables say (ENGINE_SHARD_VARS), as PROF_SHARD, and $shard_from, the
# variable it came from. A count of 1 is the whole run (no shard: CircleCI
# says 0 of 1 for a job that is not split). Two engines that say two
# shards, an index outside its count, an index without its count: one
# line, exit 2.
engine_shard() {
	local name ivar nvar first i n k min step s
	[ -z "${PROF_SHARD:-}" ] || return 0
	shard_from=
	while read -r name ivar nvar first; do
		eval "i=\${$ivar:-}"
		[ -n "$i" ] || continue
		i=$(engine_whole "$ivar" "$i") || exit 2
		eval "n=\${$nvar:-}"
		if [ -z "$n" ]; then
			if [ "$name" = kubernetes ]; then
				say "JOB_COMPLETION_INDEX is $i: a Kubernetes" \
					"Indexed Job says which shard this is, not" \
					"of how many; set PROF_SHARDS to the Job's" \
					"completions"
			else
				say "$ivar is $i but $nvar is not set: which" \
					"shard this is, not of how many"
			fi
			finish 2
		fi
		n=$(engine_whole "$nvar" "$n") || exit 2
		case $first in
		array)
			min=$(engine_whole SLURM_ARRAY_TASK_MIN \
				"${SLURM_ARRAY_TASK_MIN:-0}") || exit 2
			step=$(engine_whole SLURM_ARRAY_TASK_STEP \
				"${SLURM_ARRAY_TASK_STEP:-1}") || exit 2
			[ "$step" -gt 0 ] || step=1
			k=$((i - min))
			if [ $k -lt 0 ] || [ $((k % step)) -ne 0 ]; then
				k=0
			else
				k=$((k / step + 1))
			fi
			;;
		0) k=$((i + 1)) ;;
		*) k=$i ;;
		esac
		if [ "$n" -lt 1 ] || [ "$n" -gt 1000 ] || [ "$k" -lt 1 ] ||
			[ "$k" -gt "$n" ]; then
			if [ "$first" = array ]; then
				say "SLURM_ARRAY_TASK_ID is $i: not one of the" \
					"$n tasks of an array from $min by $step" \
					"(SLURM_ARRAY_TASK_COUNT, _MIN and _STEP);" \
					"give SHARD=I/N"
			else
				say "$ivar is $i: not one of $nvar's $n shards" \
					"(numbered from $first, at most 1000)"
			fi
			finish 2
		fi
		if [ "$name" = bazel ] && [ -n "${TEST_SHARD_STATUS_FILE:-}" ] &&
			! (: >>"$TEST_SHARD_STATUS_FILE") 2>/dev/null; then
			say "TEST_SHARD_STATUS_FILE: cannot touch" \
				"'$TEST_SHARD_STATUS_FILE'"
			finish 2
		fi
		[ "$n" -gt 1 ] || continue
		s=$k/$n
		if [ -z "$shard_from" ]; then
			PROF_SHARD=$s
			shard_from=$ivar
		elif [ "$s" != "$PROF_SHARD" ]; then
			say "$shard_from says shard $PROF_SHARD, $ivar says $s:" \
				"which shard is this? give SHARD=I/N"
			finish 2
		fi
	done <<EOF
$ENGINE_SHARD_VARS
EOF
	return 0
}

# engine_opts: prof-merge's --engine words for the run's record: the
# variable its shard came from ($shard_from), and in a Slurm job its node,
# its job id (an array task's as JOB_TASK) and its GPUs. A value that is
# not a plain word is left out.
engine_opts() {
	local kv v job=
	if [ -n "${SLURM_JOB_ID:-}" ]; then
		job=$SLURM_JOB_ID
		[ -z "${SLURM_ARRAY_JOB_ID:-}" ] ||
			job=${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID:-}
	fi
	for kv in "shard_from=${shard_from:-}" \
		"node=${SLURM_JOB_ID:+${SLURMD_NODENAME:-}}" "job_id=$job" \
		"gpus=${SLURM_JOB_ID:+${SLURM_JOB_GPUS:-}}"; do
		v=${kv#*=}
		case $v in
		'' | *[!A-Za-z0-9._:,@+-]*) continue ;;
		esac
		printf ' --engine %s' "$kv"
	done
	return 0
}

# category_opts: the --category and --exclude-category words of
# PROF_CATEGORY and PROF_EXCLUDE_CATEGORY, and --only=PATTERN for each
# pattern of PROF_W (checked words, for a list that is split on spaces:
# the callers expand it unquoted, and a word that begins with --only=
# matches no file a project has, so that its pattern reaches prof-time
# as it was written).
category_opts() {
	for c in ${PROF_CATEGORY:-}; do
		printf ' --category %s' "$c"
	done
	for c in ${PROF_EXCLUDE_CATEGORY:-}; do
		printf ' --exclude-category %s' "$c"
	done
	set -f
	for c in ${PROF_W:-}; do
		printf ' --only=%s' "$c"
	done
	set +f
	return 0
}

# selection_vars: the run's selection as the make variables of a make
# compare that a hint prints (" MODE=full CATEGORY=x W=\"a b\""): MODE=full
# after a full run ($mode), CATEGORY, EXCLUDE_CATEGORY and W as given, or
# W=ID after make diagnose ($id), so that the command runs the rows the
# hint is about, not every quick workload.
selection_vars() {
	local v x
	[ "${mode:-}" = full ] && printf ' MODE=full'
	for v in CATEGORY EXCLUDE_CATEGORY W; do
		eval "x=\${PROF_$v:-}"
		[ "$v" = W ] && [ "${mode:-}" = diagnose ] && x=${id:-}
		case $x in
		'') ;;
		*' '*) printf ' %s="%s"' "$v" "$x" ;;
		*) printf ' %s=%s' "$v" "$x" ;;
		esac
	done
	return 0
}

# check_w: PROF_W (make's W= of profile-quick, profile-full and compare)
# is shell patterns on workload ids, split on spaces: letters, digits,
# '.', '_', '-' and the pattern characters * ? [ ] !, each pattern
# something. A bad one is exit 2 naming it.
check_w() {
	local p
	set -f
	for p in ${PROF_W:-}; do
		case $p in
		*[!]A-Za-z0-9._*?![-]*)
			set +f
			say "W: '$p': not a workload id pattern (letters," \
				"digits, '.', '_', '-' and * ? [ ] !)"
			finish 2
			;;
		esac
	done
	set +f
	return 0
}

# history_is_address VALUE: whether HISTORY names a PostgreSQL database (a
# libpq URI or key=value string, prof-history(1)) rather than a file.
history_is_address() {
	case $1 in
	postgresql://* | postgres://* | host=* | hostaddr=* | port=* | \
		dbname=* | user=* | service=* | sslmode=* | connect_timeout=* | \
		application_name=*) return 0 ;;
	esac
	return 1
}

# check_project: PROF_PROJECT (make PROF_PROJECT=), when given, checked
# before the run by the rule of prof_project_valid() (src/lib/base/id.h) that
# prof-history and prof-dashboard refuse it by: at most 255 bytes, never
# cut (prof.mk refused a control character at parse time; prof-history
# refuses a byte that is not UTF-8). Exit 2 with the tool's words.
check_project() {
	local x="${PROF_PROJECT:-}" n
	[ -n "$x" ] || return 0
	n=$(printf '%s' "$x" | wc -c | tr -d ' ')
	[ "$n" -le 255 ] && return 0
	say "PROF_PROJECT: '$(printf '%s' "$x" | cut -c1-40)...' is not a" \
		"project name: longer than 255 bytes ($n)"
	finish 2
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
	if [ -n "$history" ] && { { ! history_is_address "$history" &&
		! mkdir -p -- "$(dirname -- "$history")"; } ||
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
	fi || run_failed "cannot write the summary"
}

# merge_at MERGE-ARG...: prof-merge the MERGE-ARGs, with the time and
# parents of the commit the run measured (the history orders runs by
# them: prof-history(1)): --commit's, else HEAD's (git log -1
# --format=%cI and %P), when it is a commit of this git repository and
# the MERGE-ARGs do not give them (--commit-time). Every prof-merge of a
# run folder goes through here: the run, and a reference side (make
# compare's baseline.json, make bisect's GOOD side) for its own commit.
merge_at() {
	local rev=HEAD a prev= ct given=
	for a in "$@"; do
		[ "$prev" = --commit ] && rev=$a
		[ "$a" = --commit-time ] && given=1
		prev=$a
	done
	if [ -z "$given" ] &&
		ct=$(git log -1 --format=%cI "$rev" -- 2>/dev/null) &&
		[ -n "$ct" ]; then
		set -- "$@" --commit-time "$ct" \
			--parents "$(git log -1 --format=%P "$rev" --)"
	fi
	"$BINDIR/prof-merge" "$@"
}

# check_time_threshold: TIME_THRESHOLD= (PROF_TIME_THRESHOLD), the change
# in % either way beyond which a time row is a warning or improved: empty
# (each row's own, else prof-diff's default), or a number above 0 and at
# most 1000; else one line and exit 2, before anything runs.
check_time_threshold() {
	case ${PROF_TIME_THRESHOLD:-} in
	'') return 0 ;;
	*[!0-9.]* | *.*.* | .) ;;
	*)
		awk -v t="$PROF_TIME_THRESHOLD" \
			'BEGIN { exit !(t + 0 > 0 && t + 0 <= 1000) }' &&
			return 0
		;;
	esac
	say "TIME_THRESHOLD: '$PROF_TIME_THRESHOLD' is not a percentage" \
		"above 0 and at most 1000"
	finish 2
}

# merge_diff_report RESULTS BASELINE COMPARISONS [MERGE-ARG...]: the one
# sequence after the samples, for make profile-*, compare, merge-shards and
# bisect's time steps: prof-merge the MERGE-ARGs (the streams or shards,
# --command, --timestamp, --commit; --commit-time and --parents from git)
# with $run_id into RESULTS (merge_at: with its commit's time and
# parents), prof-diff
# RESULTS against BASELINE into COMPARISONS, then the reports. Where the
# scripts differ they redefine these hooks after sourcing this file:
#   run_merge_reference  merge the other side into BASELINE once RESULTS is
#                        written (compare, bisect); default: none
#   run_merge_failed     default: exit 2 with "cannot merge the samples"
#                        (run_failed)
#   run_diff_failed B    default: say so, $compared 0 and $status 2; the
#                        reports follow without the baseline columns
#   run_before_report    what comes between (why, the history); none
#   run_report           the reports; default: write_reports
# The two failure hooks stop the sequence with their status when it is not
# 0 (bisect's steps return 1); the status is run_report's.
merge_diff_report() {
	local results="$1" baseline="$2" comparisons="$3"
	shift 3
	phase=merge
	if ! merge_at --run-id "$run_id" --output "$results" "$@" ||
		! run_merge_reference; then
		run_merge_failed || return
	fi
	compared=1
	phase=compare
	# TIME_THRESHOLD= judges every time row by it (the browser stories'
	# too, which no prof-time recorded it in).
	if ! "$BINDIR/prof-diff" --baseline "$baseline" \
		${PROF_TIME_THRESHOLD:+--time-threshold "$PROF_TIME_THRESHOLD"} \
		--output "$comparisons" "$results"; then
		run_diff_failed "$baseline" || return
	fi
	run_before_report
	phase=report
	run_report
}
run_merge_reference() { :; }
run_merge_failed() { run_failed "cannot merge the samples"; }
run_diff_failed() {
	say "cannot compare with the baseline '$1'"
	compared=0
	status=2
}
run_before_report() { :; }
run_report() { write_reports; }

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

# The workload sources of a build at another commit (make compare REF=,
# make bisect; make diagnose uses what they built): the files and folders
# of PROF_WORKLOAD_SOURCES, relative to the project's folder ($sub in the
# repository), which hold the workloads' sources and their build rule;
# when it is empty and the project is a subfolder of its repository, that
# folder (a project whose workloads are all it has, as prof/ in a library's
# repository); else none. A build takes them from the current tree when one of
# them does not exist at the commit, or with PROF_CURRENT_WORKLOADS=1, the
# way asv runs today's benchmarks on old commits; else from the commit.
# What is taken is the files git tracks there, as they are in the work
# tree: uncommitted changes included, build outputs and run folders not.
#
# check_workload_sources: PROF_WORKLOAD_SOURCES holds paths inside the
# project, and CURRENT_WORKLOADS is a switch; else a message, return 1.
check_workload_sources() {
	local p
	for p in ${PROF_WORKLOAD_SOURCES:-}; do
		case $p in
		/* | -* | *[![:print:]]*)
			say "PROF_WORKLOAD_SOURCES: '$p' is not a path inside" \
				"the project"
			return 1
			;;
		esac
	done
	case ${PROF_CURRENT_WORKLOADS:-} in
	'' | 0 | 1) ;;
	*)
		say "CURRENT_WORKLOADS: '$PROF_CURRENT_WORKLOADS' is not 1 or 0"
		return 1
		;;
	esac
}

# workload_sources SHA NAME: sets $src_paths (the paths, relative to the
# project's folder), $src_state (what the build stamp records: "commit",
# or "current" and a hash of the files taken) and $src_note (a line that
# says why they come from the current tree, or empty).
workload_sources() {
	local sha="$1" name="$2" p n missing='' top names
	src_paths=${PROF_WORKLOAD_SOURCES:-}
	if [ -z "$src_paths" ] && [ -n "$sub" ]; then
		src_paths=.
	fi
	src_state=commit
	src_note=
	[ -n "$src_paths" ] || return 0
	# in messages, the project's folder by its place in the repository
	names=
	for p in $src_paths; do
		n=$p
		[ "${p%/}" = . ] && n=${sub:-./}
		names="$names, $n"
		if ! git cat-file -e "$sha:./${p%/}" 2>/dev/null; then
			missing="$missing, $n"
		fi
	done
	names=${names#, }
	if [ -n "$missing" ]; then
		src_note="the workload sources ($names) are taken from the current tree: ${missing#, } does not exist at $name"
	elif [ "${PROF_CURRENT_WORKLOADS:-}" = 1 ]; then
		src_note="the workload sources ($names) are taken from the current tree (CURRENT_WORKLOADS=1)"
	else
		return 0
	fi
	top=$(git rev-parse --show-toplevel) || return 1
	# shellcheck disable=SC2086 # a list of checked paths
	src_state="current $(git ls-files --full-name -z \
		-- $src_paths | tar -C "$top" --null -T - --ignore-failed-read \
		--sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
		-cf - 2>/dev/null | sha1sum | cut -c1-40)"
}

# overlay_sources WT: the current tree's workload sources ($src_paths)
# replace the commit's in the worktree WT, when $src_state says so; a
# worktree that took them before gets the commit's back first (what was
# built under them, ignored files included, goes with them).
overlay_sources() {
	local w="$1" top p
	[ -n "$src_paths" ] || return 0
	if [ -d "$w/$sub" ]; then
		# shellcheck disable=SC2086 # a list of checked paths
		(cd "$w/$sub" && git clean -fdxq -- $src_paths) || return 1
	fi
	git -C "$w" reset -q --hard || return 1
	case $src_state in
	current*) ;;
	*) return 0 ;;
	esac
	top=$(git rev-parse --show-toplevel) || return 1
	# New files (tar -m): make sees them newer than what the worktree
	# built from the sources it had.
	# shellcheck disable=SC2086 # a list of checked paths
	git ls-files --full-name -z -- $src_paths |
		tar -C "$top" --null -T - --ignore-failed-read -cf - |
		tar -C "$w" -xmf -
}

# What make compare and make bisect keep under $CACHE, and the one rule
# of every cleanup there (compare-clean.sh, worktree_build): only what
# they made and marked goes. A worktree's mark is the file prof-compare
# in its administrative folder (this repository's .git/worktrees/ID/),
# written by worktree_add before anything is checked out in it; a build
# log's, its first line (log_mark).
COMPARE_MARK="made by make compare or make bisect: commit"

# worktree_add WT SHA: a worktree of commit SHA at WT, detached, marked
# as make compare's and bisect's before its files are checked out (a
# worktree half made is still known as theirs).
worktree_add() {
	local admin
	git worktree add --no-checkout --detach "$1" "$2" || return 1
	admin=$(git -C "$1" rev-parse --absolute-git-dir) &&
		printf '%s %s\n' "$COMPARE_MARK" "$2" >"$admin/prof-compare" &&
		git -C "$1" reset -q --hard
}

# log_mark SHA: the first line of a build log of SHA.
log_mark() {
	printf '%s %s (build log)\n' "$COMPARE_MARK" "$1"
}

# ours_log FILE SHA: whether FILE is a build log that worktree_build wrote
# (a regular file, no link, whose first line is log_mark's).
ours_log() {
	[ -f "$1" ] && [ ! -L "$1" ] &&
		[ "$(head -n 1 -- "$1" 2>/dev/null)" = "$(log_mark "$2")" ]
}

# ours_worktree DIR: whether DIR is a worktree that make compare or make
# bisect made: a folder (no link) named by the commit it was made for, a
# worktree of this repository (its .git file names an administrative
# folder under this repository's worktrees/, whose gitdir names DIR back)
# with worktree_add's mark there, or, for one made before the mark,
# checked out at that commit with worktree_build's stamp
# .prof-compare-built in it. Another repository's worktree, one made by
# hand, a plain folder: none of them is, whatever its name.
ours_worktree() {
	local d="$1" sha="${1##*/}" admin common here back
	[ -d "$d" ] && [ ! -L "$d" ] && [ -f "$d/.git" ] &&
		[ ! -L "$d/.git" ] || return 1
	admin=$(sed -n '1s/^gitdir: //p' "$d/.git" 2>/dev/null)
	[ -n "$admin" ] || return 1
	case $admin in
	/*) ;;
	*) admin=$d/$admin ;;
	esac
	admin=$(cd -P -- "$admin" 2>/dev/null && pwd -P) || return 1
	common=$(git rev-parse --path-format=absolute --git-common-dir \
		2>/dev/null) || return 1
	common=$(cd -P -- "$common" 2>/dev/null && pwd -P) || return 1
	[ "${admin%/*}" = "$common/worktrees" ] || return 1
	here=$(cd -P -- "$d" && pwd -P) || return 1
	back=$(cat -- "$admin/gitdir" 2>/dev/null) || return 1
	back=$(cd -P -- "${back%/.git}" 2>/dev/null && pwd -P) || return 1
	[ "$back" = "$here" ] || return 1
	[ "$(cat -- "$admin/prof-compare" 2>/dev/null)" = \
		"$COMPARE_MARK $sha" ] && return 0
	[ -f "$d/.prof-compare-built" ] &&
		[ "$(git -C "$d" rev-parse -q --verify HEAD 2>/dev/null)" = "$sha" ]
}

# worktree_build NAME SHA TARGET...: the workload binaries TARGET... (paths
# in the project's folder) of commit SHA (NAME in messages), built in its
# kept git worktree $CACHE/SHA (sets $wt, and $log, its build log), with
# the workload sources that workload_sources chooses; the stamp
# .prof-compare-built records them, so that a build is reused only with
# the same sources. Sets $built_now (1 when it built). Returns 1 when it
# does not build.
worktree_build() {
	local name="$1" sha="$2" stamp t state
	shift 2
	wt=$CACHE/$sha
	log=$CACHE/$sha.log
	stamp=$wt/.prof-compare-built
	built_now=0
	mkdir -p "$CACHE" || return 1
	workload_sources "$sha" "$name" || return 1
	if [ -f "$stamp" ]; then
		state=$(cat "$stamp")
		if [ "${state:-commit}" = "$src_state" ]; then
			[ "${quiet_reuse:-0}" = 1 ] ||
				say "reusing the build of $name in $wt"
			# Binaries asked for now may not be there yet.
			for t; do
				[ -x "$wt/$sub$t" ] && continue
				built_now=1
				worktree_make "$wt/$sub" "$t" >>"$log" 2>&1 ||
					return 1
			done
			return 0
		fi
		# The same commit with other workload sources: in place,
		# the binaries made again whatever make thinks of their
		# sources' times.
		rm -f "$stamp"
		for t; do
			rm -f -- "$wt/$sub$t"
		done
		built_now=1
		say "building $name in $wt again, with other workload" \
			"sources (log: $log)"
		[ -z "$src_note" ] || say "$src_note"
		{
			overlay_sources "$wt" &&
				worktree_make "$wt/$sub" "$@"
		} >>"$log" 2>&1 || return 1
	else
		# A half-made worktree of ours goes (ours_worktree); one
		# deleted by hand is forgotten (prune). Anything else there,
		# or a log not ours, is no one's to remove or overwrite.
		if { [ -e "$wt" ] || [ -L "$wt" ]; } && ! ours_worktree "$wt"; then
			run_failed "'$wt' is there and is no worktree that" \
				"make compare or bisect made (no mark of" \
				"theirs): left as it is; move it away, or set" \
				"PROF_COMPARE_DIR to another folder"
		fi
		if { [ -e "$log" ] || [ -L "$log" ]; } && ! ours_log "$log" "$sha"; then
			run_failed "'$log' is there and is no build log of" \
				"make compare or bisect: left as it is; move" \
				"it away, or set PROF_COMPARE_DIR to another" \
				"folder"
		fi
		if [ -e "$wt" ]; then
			git worktree remove --force "$wt" >/dev/null 2>&1 ||
				rm -rf -- "$wt"
		fi
		git worktree prune
		built_now=1
		say "building $name in $wt (log: $log)"
		[ -z "$src_note" ] || say "$src_note"
		{
			log_mark "$sha" &&
				worktree_add "$wt" "$sha" &&
				overlay_sources "$wt" &&
				worktree_make "$wt/$sub" "$@"
		} >"$log" 2>&1 || return 1
	fi
	for t; do
		if [ ! -x "$wt/$sub$t" ]; then
			echo "$label: built, but '$wt/$sub$t' is not there" >>"$log"
			return 1
		fi
	done
	printf '%s\n' "$src_state" >"$stamp"
}

# build_failed_hint: what to try when a commit does not build.
build_failed_hint() {
	say "a commit without the workloads (or their build rule) builds with" \
		"the current ones: list their files and folders in" \
		"PROF_WORKLOAD_SOURCES (taken from the current tree where the" \
		"commit lacks one; CURRENT_WORKLOADS=1: always); or compare" \
		"with binaries at hand: make compare with AGAINST= the" \
		"reference binaries"
}

# grouped N: a whole number as every page writes it, its digits grouped
# by commas ("100,663,326"; prof_fmt_count()).
grouped() {
	awk -v v="$1" 'BEGIN {
		s = v ""; sign = ""
		if (s ~ /^[-+]/) { sign = substr(s, 1, 1); s = substr(s, 2) }
		o = ""
		while (length(s) > 3) {
			o = "," substr(s, length(s) - 2) o
			s = substr(s, 1, length(s) - 3)
		}
		print sign s o }'
}

# time_text MS: a time as every page writes it (prof_page_time()): in
# the unit its size asks for, three decimals ("15.234 ns", "120.000 µs",
# "13.000 ms", "1.235 s"; zero "0.000 ms").
time_text() {
	awk -v v="$1" 'BEGIN {
		split("ns µs ms s", name, " ")
		size[1] = 1e-6; size[2] = 1e-3; size[3] = 1; size[4] = 1e3
		a = v < 0 ? -v : v
		u = 3
		if (a > 0) {
			for (u = 4; u > 1 && a < size[u]; u--)
				;
			if (u < 4 && sprintf("%.3f", a / size[u]) + 0 >= 1000)
				u++
		}
		printf "%.3f %s\n", v / size[u], name[u] }'
}

# human_kb KB: a size in kilobytes, for a person ("159 MB").
human_kb() {
	awk -v kb="${1:-0}" 'BEGIN {
		if (kb >= 1048576) printf "%.1f GB\n", kb / 1048576
		else if (kb >= 1024) printf "%d MB\n", kb / 1024
		else printf "%d kB\n", kb }'
}

# cache_size: the space the worktrees under $CACHE hold, for a person.
cache_size() {
	human_kb "$(du -sk -- "$CACHE" 2>/dev/null | cut -f1)"
}

# cache_note: one line when the worktrees of other commits under $CACHE
# hold more than PROF_COMPARE_NOTE_MB megabytes (default 100; empty: never),
# with the target that removes them.
cache_note() {
	local max="${PROF_COMPARE_NOTE_MB-100}" kb n
	case $max in
	'' | *[!0-9]*) return 0 ;;
	esac
	kb=$(du -sk -- "$CACHE" 2>/dev/null | cut -f1)
	[ -n "$kb" ] && [ "$kb" -gt $((max * 1024)) ] || return 0
	n=$(find "$CACHE" -mindepth 1 -maxdepth 1 -type d | wc -l | tr -d ' ')
	say "'$CACHE' holds $(cache_size) in $n worktree(s) of other" \
		"commits; make compare-clean removes them"
}
