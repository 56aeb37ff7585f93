#!/bin/bash
# slurm-shards.sh: the quick suite of the reference workloads run here
# (make profile-quick) and as 2 and 4 Slurm shards (ENGINE=slurm SHARDS=N)
# on a one-node cluster of its own (test/cli/slurm.sh, as root), with what
# the scheduler costs a shard.
#
#   make all && bash test/bench/slurm-shards.sh [ROUNDS]
#
# Each configuration runs ROUNDS times (default 3), in turn; the wall time
# printed is the median, of make's whole command. For the Slurm runs, from
# the run folder's files (their times to the nanosecond): a shard's start
# (its mark), its end (its exit code's file), the merge's end, against the
# submission (slurm/jobs, written once both jobs are in); so the lines
# say, per shard, the wait from submission to its task's start (queue and
# launch: the scheduler's cost), the shard's own run, and once a run the
# wait from the last shard's end to the merge job's start (its log's
# birth, where the file system keeps it), the merge itself, and from its
# end to make's end (its look at
# the queue, every PROF_SLURM_POLL seconds: 2 by default). The node has as
# many CPUs as this machine, so 4 shards on 2 cores run two at a time.
# Prints uptime before and after, since the machine may be shared.
set -u
cd "$(dirname "$0")/../.." || exit 2
rounds=${1:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/slurm-shards.XXXXXX") || exit 2
skip_all() {
	echo "slurm-shards: $*" >&2
	exit 2
}
. test/cli/slurm.sh
for t in prof-time prof-merge prof-workloads; do
	[ -x "bin/$t" ] || skip_all "bin/$t is not built (make all)"
done
slurm_start
uptime

# now: seconds since the epoch, to the nanosecond.
now() {
	date +%s.%N
}
# mtime FILE: its modification time, to the nanosecond; btime FILE: its
# birth (a job's log is made by slurmstepd as the job starts), where the
# file system keeps it.
mtime() {
	stat -c %.9Y "$1"
}
btime() {
	stat -c %.9W "$1"
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# one NAME ARGS...: one make profile-quick; its wall time in $T/NAME.wall.
one() {
	local name=$1 t0 t1 R
	shift
	R=$T/$name.$round
	t0=$(now)
	make -s --no-print-directory -o all profile-quick OUTPUT="$R" \
		BASELINE="$T/none.json" HISTORY= "$@" >"$R.out" 2>"$R.err" ||
		{ echo "slurm-shards: $name failed:" >&2; tail -n 5 "$R.err" >&2; }
	t1=$(now)
	echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$T/$name.wall"
	[ -f "$R/slurm/jobs" ] || return 0
	# The scheduler's share, from the run folder's own files.
	local sub last=0 i s e m
	sub=$(mtime "$R/slurm/jobs")
	for i in $(seq 1 "${SHARDS}"); do
		s=$(mtime "$R/slurm/mark-$i")
		e=$(mtime "$R/slurm/exit-$i")
		echo "$s $sub" | awk '{ print $1 - $2 }' >>"$T/$name.start"
		echo "$e $s" | awk '{ print $1 - $2 }' >>"$T/$name.run"
		last=$(echo "$e $last" | awk '{ print ($1 > $2) ? $1 : $2 }')
	done
	m=$(mtime "$R/slurm/merge-exit")
	s=$(btime "$R/slurm/merge.out")
	echo "$s $last" | awk '{ print $1 - $2 }' >>"$T/$name.mstart"
	echo "$m $s" | awk '{ print $1 - $2 }' >>"$T/$name.merge"
	echo "$t1 $m" | awk '{ print $1 - $2 }' >>"$T/$name.notice"
}

for round in $(seq 1 "$rounds"); do
	SHARDS=1
	one local
	for SHARDS in 2 4; do
		one "slurm$SHARDS" ENGINE=slurm SHARDS=$SHARDS
	done
done

printf '%-8s %8s  %s\n' run wall 'per shard: start wait, run; per run: merge start wait, merge run, make notices (medians, s)'
for name in local slurm2 slurm4; do
	w=$(median <"$T/$name.wall")
	if [ -f "$T/$name.start" ]; then
		printf '%-8s %8.2f  start %.2f, run %.2f; merge start %.2f, merge %.2f, notice %.2f\n' \
			"$name" "$w" "$(median <"$T/$name.start")" \
			"$(median <"$T/$name.run")" "$(median <"$T/$name.mstart")" \
			"$(median <"$T/$name.merge")" "$(median <"$T/$name.notice")"
	else
		printf '%-8s %8.2f\n' "$name" "$w"
	fi
done
uptime
