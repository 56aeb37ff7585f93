#!/bin/sh
# slurm.sh: make profile-quick|profile-full ENGINE=slurm SHARDS=N: the
# run's N shards as one Slurm job array, their merge (make merge-shards)
# as one job after them, and the wait for it.
#
# usage: sh fragment/slurm.sh submit quick|full   (profile.sh, ENGINE=slurm)
#        sh fragment/slurm.sh wait RUN            (make merge-shards DIR=RUN)
#
# Settings: profile.sh's (PROF_*), and
#   PROF_SHARDS      N: the array's tasks 0 to N-1 run shards 1/N to N/N
#   PROF_SLURM_ARGS  sbatch options of every job, split at spaces (the
#                    merge's without its GPU requests: it needs none)
#   PROF_NOWAIT      1: submit, print the job ids and how to wait, exit 0
#   PROF_SLURM_POLL  seconds between two looks at the queue (default 2)
#
# The run folder RUN (OUTPUT, or artifacts/profiling/RUN_ID) must be on
# storage every node sees: the jobs run in the project's folder (where
# make runs), each task writes shard I's run folder RUN/shards/I (its
# history none: the merged run is the one added), and RUN/slurm/ holds
# the job scripts (shard.sh, merge.sh: each can be submitted again), the
# settings they read, their logs (task-T.log; merge.out, the merge's
# stdout, and merge.log, its stderr), each task's
# mark (mark-I: its node and job, written first, so that a node that
# cannot write there is named) and each run's exit code (exit-I,
# merge-exit). The merge writes the run itself into RUN: results.json,
# comparisons.json, summary.md, report.html, with every shard's node and
# job (run.engines).
#
# Waiting, make ends as a local run ends: the summary's path, and the
# merged run's exit code (0, or 1 when a sample errored). A shard that
# failed, was cancelled or timed out, and a node that cannot write the run
# folder: one line each, naming the shard, its job and its log, then what
# reruns them and merges what is kept (make merge-shards DIR=RUN); exit 2.
# An interrupt (SIGINT, SIGTERM, SIGHUP) cancels the jobs (scancel) and
# waits until the queue holds none of them; exit 2. make merge-shards
# DIR=RUN waits for a run's jobs in the same way (without cancelling them
# when interrupted), then merges the shards here when the merge job did
# not.
set -u
set -f

BINDIR=${PROF_BINDIR:-bin}
HERE=$(cd "$(dirname "$0")" && pwd -P)
. "$HERE/run-lib.sh"

verb=${1:-}
case $verb in
submit)
	mode=${2:-}
	label="make profile-$mode"
	[ "$mode" != compare ] || label="make compare"
	;;
wait)
	label="make merge-shards"
	;;
*)
	label=slurm.sh
	say "usage: sh fragment/slurm.sh submit quick|full, or wait RUN"
	finish 2
	;;
esac

# sq VALUE: VALUE quoted for the shell.
sq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# shq VALUE: VALUE as a shell word for a printed command: as it is when
# it needs no quoting, else quoted (sq).
shq() {
	case $1 in
	'' | *[!A-Za-z0-9_./:=,@%+-]*) sq "$1" ;;
	*) printf '%s' "$1" ;;
	esac
}

# dq VALUE: VALUE in double quotes, for an #SBATCH line (sbatch reads a
# quoted argument whole; a '"' or a '\' in it escaped with a '\').
dq() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')"
}

# The sbatch options of SLURM_ARGS that prof sets itself: refused, one line.
check_slurm_args() {
	local a
	for a in ${PROF_SLURM_ARGS:-}; do
		case $a in
		--array | --array=* | -a* | --dependency | --dependency=* | \
			-d* | --output | --output=* | -o* | --error | \
			--error=* | -e* | --wait | -W | --parsable | --chdir | \
			--chdir=* | -D* | --wrap | --wrap=*)
			say "SLURM_ARGS: '$a': prof sets it (the shards are one" \
				"job array, the merge runs after them, in the" \
				"project's folder, their logs in the run folder);" \
				"leave it out"
			finish 2
			;;
		esac
	done
}

# merge_args: SLURM_ARGS without its GPU requests (--gres, --gpus and
# their kin, with their values), for the merge job.
merge_args() {
	local a skip=0 out=
	for a in ${PROF_SLURM_ARGS:-}; do
		if [ $skip = 1 ]; then
			skip=0
			continue
		fi
		case $a in
		--gres | --gpus | -G | --gpus-per-node | --gpus-per-task | \
			--gpus-per-socket | --cpus-per-gpu | --mem-per-gpu | \
			--gpu-bind | --gpu-freq)
			skip=1
			continue
			;;
		--gres=* | --gpus=* | -G?* | --gpus-per-* | --cpus-per-gpu=* | \
			--mem-per-gpu=* | --gpu-bind=* | --gpu-freq=*)
			continue
			;;
		esac
		out="$out $a"
	done
	printf '%s\n' "${out# }"
}

# slurm_error TEXT: the first line of what a Slurm command said, for a
# message.
slurm_error() {
	printf '%s\n' "$1" | sed -n '/./{s/^[[:space:]]*//;p;q;}'
}

# The jobs of the run: $array, $merge, $shards, $mode, $run_id,
# $timestamp and $slurm_args (SLURM_ARGS), from RUN/slurm/jobs.
read_jobs() {
	local k v
	array='' merge='' shards='' mode='' run_id='' timestamp='' slurm_args=''
	while IFS='=' read -r k v; do
		case $k in
		array | merge | shards | mode | run_id | timestamp | slurm_args)
			eval "$k=\$v"
			;;
		esac
	done <"$S/jobs"
}

# job_info ID: $j_state and $j_node of job (or task) ID: the accounting
# database's (sacct), or the controller's while it keeps the job
# (scontrol); empty when neither knows it.
job_info() {
	local line
	j_state=
	j_node=
	if line=$(sacct -n -X -P -j "$1" -o State,NodeList 2>/dev/null) &&
		[ -n "$line" ]; then
		line=$(printf '%s\n' "$line" | head -n 1)
		j_state=${line%%|*}
		j_state=${j_state%% *}
		j_node=${line#*|}
		case $j_node in
		None* | '(null)') j_node= ;;
		esac
		return 0
	fi
	line=$(scontrol -o show job "$1" 2>/dev/null) || return 0
	j_state=$(printf '%s\n' "$line" |
		sed -n 's/.* JobState=\([^ ]*\).*/\1/p' | head -n 1)
	j_node=$(printf '%s\n' "$line" |
		sed -n 's/.* BatchHost=\([^ ]*\).*/\1/p' | head -n 1)
	[ "$j_node" != '(null)' ] || j_node=
	return 0
}

# queued: the run's jobs still in the queue (pending, running, completing),
# one line each; false when the controller cannot be asked ($q_err says
# why). A job the controller has forgotten is not queued.
queued() {
	local o
	if o=$(squeue -h -a -o '%i %T' -j "$array,$merge" 2>&1); then
		printf '%s\n' "$o" | sed '/^$/d'
		return 0
	fi
	case $o in
	*"Invalid job id"*) return 0 ;;
	esac
	q_err=$(slurm_error "$o")
	return 1
}

# watch: until the queue holds none of the run's jobs, a line as each
# shard ends.
watch() {
	local q i fails=0 c node
	said=
	while :; do
		if ! q=$(queued); then
			fails=$((fails + 1))
			if [ $fails -ge 30 ]; then
				say "cannot ask the Slurm controller about jobs" \
					"$array and $merge ($q_err); they are left as" \
					"they are: make merge-shards DIR=$run waits" \
					"for them again"
				finish 2
			fi
			sleep "$poll"
			continue
		fi
		fails=0
		i=1
		while [ $i -le "$shards" ]; do
			case " $said " in
			*" $i "*) ;;
			*)
				if [ -s "$S/exit-$i" ]; then
					c=$(cat "$S/exit-$i")
					node=$(cut -d' ' -f1 "$S/mark-$i" 2>/dev/null)
					say "shard $i/$shards ended on ${node:-?}" \
						"(job ${array}_$((i - 1))): exit code $c"
					said="$said $i"
				fi
				;;
			esac
			i=$((i + 1))
		done
		[ -n "$q" ] || return 0
		sleep "$poll"
	done
}

# cancel SIGNAL: an interrupt while waiting: the run's jobs cancelled, and
# waited for until the queue holds none of them; one line; exit 2.
cancel() {
	local n=0 e
	trap '' INT TERM HUP
	exec 2>&7
	if [ -n "${array:-}" ]; then
		e=$(scancel "$array" ${merge:+"$merge"} 2>&1) ||
			say "scancel: $(slurm_error "$e")"
		while [ -n "$(queued 2>/dev/null)" ] && [ $n -lt 300 ]; do
			sleep 0.2
			n=$((n + 1))
		done
		say "interrupted by $1 while the Slurm jobs ran; jobs $array" \
			"(the shards)${merge:+ and $merge (their merge)} are" \
			"cancelled; what they wrote is in $run"
	else
		say "interrupted by $1 before the jobs were submitted"
	fi
	exit 2
}

# stop_waiting SIGNAL: make merge-shards DIR=RUN interrupted: the jobs
# run on.
stop_waiting() {
	trap '' INT TERM HUP
	exec 2>&7
	say "interrupted by $1: the jobs $array and $merge run on; make" \
		"merge-shards DIR=$run waits for them again"
	exit 2
}

# merge_here: the shards merged into the run folder here (merge-shards.sh,
# as the merge job would have), its code the run's.
merge_here() {
	local f
	for f in results.json comparisons.json summary.md report.html; do
		rm -f -- "$run/$f"
	done
	(
		. "$S/settings"
		PROF_ENGINE_MERGE=1 exec sh "$HERE/merge-shards.sh" "$run"
	)
	finish $?
}

# lose_shard I WHY: shard I's run made here as a lost one: its workloads
# planned as the task would have, each an error sample with WHY, none
# run (PROF_SHARD_LOST: prof-time(1)); what the stopped task left goes.
lose_shard() {
	rm -rf -- "$run/shards/$1"
	(
		. "$S/settings"
		PROF_SHARD=$1/$shards PROF_SHARD_FROM=SLURM_ARRAY_TASK_ID \
			PROF_OUTPUT=$run/shards/$1 PROF_HISTORY= PROF_STORIES=0 \
			PROF_PLAYWRIGHT= PROF_SHARD_LOST=$2 \
			PROF_COMMAND="$PROF_COMMAND (shard $1/$shards)"
		export PROF_SHARD PROF_SHARD_FROM PROF_OUTPUT PROF_HISTORY \
			PROF_STORIES PROF_PLAYWRIGHT PROF_SHARD_LOST PROF_COMMAND
		case $mode in
		compare) exec sh "$HERE/compare.sh" >/dev/null 2>&1 ;;
		*) exec sh "$HERE/profile.sh" "$mode" >/dev/null 2>&1 ;;
		esac
	)
	[ $? -le 1 ]
}

# report: once no job of the run is queued: the merged run, or why there
# is none.
report() {
	local i t c jid log failed=0 rerun='' node m lost='' other=0 why
	# What the merge printed is what a run prints (its table, the
	# summary's path), and its code the run's.
	if [ -s "$S/merge-exit" ] && [ -e "$run/results.json" ]; then
		c=$(cat "$S/merge-exit")
		case $c in
		0 | 1)
			sed '/^make merge-shards: run finished with exit code/d' \
				"$S/merge.log" >&2 2>/dev/null
			cat "$S/merge.out" 2>/dev/null
			finish "$c"
			;;
		esac
	fi
	if [ -s "$S/merge-exit" ]; then
		say "the merge (job $merge) failed with exit code" \
			"$(cat "$S/merge-exit"); its log: $S/merge.log"
		finish 2
	fi
	i=1
	while [ $i -le "$shards" ]; do
		t=$((i - 1))
		c=$(cat "$S/exit-$i" 2>/dev/null)
		case $c in
		0 | 1)
			i=$((i + 1))
			continue
			;;
		esac
		failed=$((failed + 1))
		rerun="$rerun,$t"
		m=$(cat "$S/mark-$i" 2>/dev/null)
		jid=${m#* }
		[ -n "$m" ] || jid=${array}_$t
		log=$S/task-$t.log
		job_info "$jid"
		node=${m%% *}
		[ -n "$m" ] || node=$j_node
		# The scheduler's word first: a task it ended (scancel, its
		# time limit) may have written its run's code as it went.
		case $j_state in
		CANCELLED | TIMEOUT | NODE_FAIL | PREEMPTED | OUT_OF_MEMORY | \
			DEADLINE | BOOT_FAIL) [ -z "$m" ] || c= ;;
		esac
		if [ -n "$c" ]; then
			other=1
			say "shard $i/$shards (job $jid on $node) failed:" \
				"exit code $c; its log: $log"
		elif [ -n "$m" ] && [ "$j_state" = TIMEOUT ]; then
			say "shard $i/$shards (job $jid on $node) exceeded its" \
				"time limit (TIMEOUT) before its run ended; its" \
				"log: $log"
			lost="$lost $i"
			eval "lost_$i=\"job \$jid on \$node\""
		elif [ -n "$m" ]; then
			other=1
			say "shard $i/$shards (job $jid on $node) was stopped" \
				"(${j_state:-its state no longer known}) before" \
				"its run ended; its log: $log"
		elif [ -n "$j_node" ]; then
			other=1
			say "shard $i/$shards (job $jid): node $j_node cannot" \
				"write the run folder '$run' (${j_state:-ended}):" \
				"it must be on storage every node sees"
		else
			other=1
			say "shard $i/$shards (job $jid) did not run:" \
				"${j_state:-it left the queue}"
		fi
		i=$((i + 1))
	done
	if [ $failed = 0 ]; then
		# Every shard is there; the merge job did not merge them.
		if [ "$verb" = wait ]; then
			merge_here
		fi
		job_info "$merge"
		say "the merge (job $merge) did not run (${j_state:-it left" \
			"the queue}); merge the shards with: make merge-shards" \
			"DIR=$run"
		finish 2
	fi
	# Only time limits: the run is merged here, the timed-out shards'
	# workloads error samples, and its code 2 (an infrastructure
	# failure, whatever its samples say).
	if [ $other = 0 ] && [ -n "$lost" ]; then
		for i in $lost; do
			eval "why=\$lost_$i"
			if ! lose_shard "$i" "shard $i/$shards ($why) exceeded its time limit before this workload was measured (TIMEOUT; SLURM_ARGS --time)"; then
				say "cannot make shard $i/$shards's lost run in" \
					"$run/shards/$i"
				finish 2
			fi
		done
		for f in results.json baseline.json comparisons.json \
			summary.md report.html; do
			rm -f -- "$run/$f"
		done
		(
			. "$S/settings"
			PROF_ENGINE_MERGE=1 exec sh "$HERE/merge-shards.sh" "$run" \
				>"$S/merge-here.out" 2>"$S/merge-here.log"
		)
		c=$?
		grep -v '^make merge-shards: run finished with exit code' \
			"$S/merge-here.log" >&2
		cat "$S/merge-here.out"
		if [ $c -le 1 ]; then
			say "the merged run holds the workloads of shard" \
				"$(printf '%s' "$lost" | sed "s| \([0-9]*\)|, \1/$shards|g; s|^, ||")" \
				"as error samples (not measured: its time limit" \
				"ended it); a longer --time in SLURM_ARGS, or more" \
				"SHARDS, measures them"
		fi
		finish 2
	fi
	say "the finished shards are kept in $run/shards; rerun the" \
		"other$([ $failed -gt 1 ] && echo s), then merge them all, with:" \
		"sbatch --wait --array=${rerun#,}${slurm_args:+ $slurm_args}" \
		"$(shq "$S/shard.sh") && make merge-shards $(shq "DIR=$run")"
	finish 2
}

poll=${PROF_SLURM_POLL:-2}
case $poll in
'' | *[!0-9.]* | *.*.* | .)
	say "PROF_SLURM_POLL: '$poll': expected a number of seconds"
	finish 2
	;;
esac
exec 7>&2

if [ "$verb" = wait ]; then
	run=${2:-}
	S=$run/slurm
	read_jobs
	trap 'stop_waiting SIGINT' INT
	trap 'stop_waiting SIGTERM' TERM
	trap 'stop_waiting SIGHUP' HUP
	watch
	report
fi

# submit: the settings checked, the run folder made, the scripts written,
# the jobs submitted.
case $mode in
quick | full) script="profile.sh $mode" ;;
compare) script=compare.sh ;;
*)
	say "usage: sh fragment/slurm.sh submit quick|full|compare"
	finish 2
	;;
esac
shards=${PROF_SHARDS:-}
case $shards in
'' | *[!0-9]* | 0* | ?????*) shards=x ;;
esac
if [ "$shards" = x ] || [ "$shards" -gt 1000 ]; then
	say "SHARDS: '${PROF_SHARDS:-}': expected a whole number of shards," \
		"1 to 1000"
	finish 2
fi
PROF_COMMAND=${PROF_COMMAND:-$label ENGINE=slurm SHARDS=$shards}
check_slurm_args
for c in sbatch squeue scancel scontrol; do
	if ! command -v "$c" >/dev/null 2>&1; then
		say "ENGINE=slurm: '$c' is not installed here (Debian:" \
			"slurm-client; each node runs slurmd)"
		finish 2
	fi
done
for tool in prof-time prof-merge prof-diff prof-report prof-history; do
	if [ ! -x "$BINDIR/$tool" ]; then
		say "'$BINDIR/$tool' is missing; run make first"
		finish 2
	fi
done
if [ "${PROF_BACKEND:-}" = gpu ]; then
	case " ${PROF_SLURM_ARGS:-} " in
	*" --gres"* | *" --gpus"* | *" -G"*) ;;
	*) say "BACKEND=gpu: SLURM_ARGS asks for no GPU (--gres=gpu:1 or" \
		"--gpus=1): a shard that lands on a node without one fails" ;;
	esac
fi

run_history=${PROF_HISTORY-artifacts/history.sqlite}
if [ "$mode" = compare ]; then
	# An A/B run joins no history; its baseline is its reference side.
	run_history=
	run_folder
else
	run_folder BASELINE="${PROF_BASELINE:-baselines/cpu-ci.json}" \
		PLAYWRIGHT="${PROF_PLAYWRIGHT:-}" HISTORY="$run_history"
fi
run=$(abs_path "$run") || run_failed "cannot find the run folder"
S=$run/slurm
root=$(pwd -P)
if ! mkdir "$S" "$run/shards"; then
	run_failed "cannot write the run folder"
fi

# The settings every job reads (sbatch's --export may pass no
# environment): the run's, less what each job sets itself.
{
	echo "# the settings of $PROF_COMMAND (slurm.sh)"
	for v in BINDIR WORKLOADS BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY \
		W TIMEOUT SEED TIME_THRESHOLD BASELINE PLAYWRIGHT STORIES \
		STORIES_SCRIPT CHROMIUM COUNTS MEMORY COMPARE_DIR PROJECT \
		HISTORY COMMAND REF AGAINST MODE BUILD MAKE REF_MAKEFLAGS \
		WORKLOAD_SOURCES CURRENT_WORKLOADS COMPARE_NOTE_MB; do
		eval "x=\${PROF_$v-}"
		[ $v != HISTORY ] || x=$run_history
		printf 'PROF_%s=%s\n' "$v" "$(sq "$x")"
		printf 'export PROF_%s\n' "$v"
	done
	echo 'unset MAKEFLAGS MFLAGS MAKELEVEL PROF_ENGINE PROF_SHARDS PROF_NOWAIT'
} >"$S/settings"
n=$shards
cat >"$S/shard.sh" <<EOF
#!/bin/sh
# Shard I/$n of the run $run: task I-1 of its job array
# (\$SLURM_ARRAY_TASK_ID), written by $PROF_COMMAND.
# Again: sbatch --array=I-1 [SLURM_ARGS] $S/shard.sh
#SBATCH --job-name=prof-$mode-shards
#SBATCH --chdir=$(dq "$root")
#SBATCH --output=$(dq "$S/task-%a.log")
cd $(sq "$root") || exit 3
. $(sq "$S/settings")
t=\${SLURM_ARRAY_TASK_ID:?this is a task of a job array}
i=\$((t + 1))
S=$(sq "$S")
# A mark first: this node sees the run folder and writes there.
{ printf '%s %s\n' "\${SLURMD_NODENAME:-\$(hostname)}" \\
	"\${SLURM_ARRAY_JOB_ID:-\$SLURM_JOB_ID}_\$t" >"\$S/mark-\$i.tmp" &&
	mv -f "\$S/mark-\$i.tmp" "\$S/mark-\$i"; } || exit 3
rm -f "\$S/exit-\$i"
# The shard's own place: what an earlier try left goes.
rm -rf -- $(sq "$run/shards")/"\$i" || exit 3
# Cancelled (scancel, the time limit), this waits for the run, which the
# signal stops too: the job's processes stay this one's children, for the
# scheduler's SIGKILL to find with its process tracking of any kind.
stopped=
trap 'stopped=1' INT TERM HUP
PROF_SHARD=\$i/$n PROF_SHARD_FROM=SLURM_ARRAY_TASK_ID \\
	PROF_OUTPUT=$(sq "$run/shards")/"\$i" PROF_HISTORY= \\
	PROF_COMMAND="\$PROF_COMMAND (shard \$i/$n)" \\
	sh $(sq "$HERE")/$script
rc=\$?
[ -z "\$stopped" ] || exit 143
echo \$rc >"\$S/exit-\$i"
# A sample that errored (1) is a run all the same: the merged run says so.
[ \$rc -le 1 ] || exit \$rc
EOF
cat >"$S/merge.sh" <<EOF
#!/bin/sh
# The merge of the $n shards of the run $run into it (make merge-shards),
# after them; written by $PROF_COMMAND.
#SBATCH --job-name=prof-$mode-merge
#SBATCH --chdir=$(dq "$root")
#SBATCH --output=$(dq "$S/merge.out")
#SBATCH --error=$(dq "$S/merge.log")
cd $(sq "$root") || exit 3
. $(sq "$S/settings")
PROF_ENGINE_MERGE=1 sh $(sq "$HERE/merge-shards.sh") $(sq "$run")
rc=\$?
echo \$rc >$(sq "$S/merge-exit")
exit \$rc
EOF
chmod +x "$S/shard.sh" "$S/merge.sh"

array=
merge=
trap 'cancel SIGINT' INT
trap 'cancel SIGTERM' TERM
trap 'cancel SIGHUP' HUP
# shellcheck disable=SC2086 # SLURM_ARGS: options split at spaces
if ! o=$(sbatch --parsable --array=0-$((n - 1)) \
	--job-name="prof-$mode-shards" --chdir="$root" \
	--output="$S/task-%a.log" ${PROF_SLURM_ARGS:-} "$S/shard.sh" 2>&1); then
	run_failed "cannot submit the shards: $(slurm_error "$o")"
fi
array=$(printf '%s\n' "$o" | tail -n 1)
array=${array%%;*}
# shellcheck disable=SC2046 # options split at spaces
if ! o=$(sbatch --parsable --dependency="afterok:$array" \
	--kill-on-invalid-dep=yes --job-name="prof-$mode-merge" \
	--chdir="$root" --output="$S/merge.out" --error="$S/merge.log" \
	$(merge_args) \
	"$S/merge.sh" 2>&1); then
	scancel "$array" 2>/dev/null
	array=
	run_failed "cannot submit the merge: $(slurm_error "$o")"
fi
merge=$(printf '%s\n' "$o" | tail -n 1)
merge=${merge%%;*}
{
	echo "array=$array"
	echo "merge=$merge"
	echo "shards=$n"
	echo "mode=$mode"
	echo "run_id=$run_id"
	echo "timestamp=$timestamp"
	echo "slurm_args=${PROF_SLURM_ARGS:-}"
} >"$S/jobs"
slurm_args=${PROF_SLURM_ARGS:-}
say "shards 1/$n to $n/$n submitted as Slurm job array $array, their" \
	"merge as job $merge; the run folder '$run' must be on storage" \
	"every node sees"

if [ "${PROF_NOWAIT:-}" = 1 ]; then
	echo "run: $run"
	echo "jobs: $array $merge"
	say "NOWAIT=1: not waiting; wait for them, and see the merged run," \
		"with: make merge-shards $(shq "DIR=$run")"
	exit 0
fi
watch
trap - INT TERM HUP
report
