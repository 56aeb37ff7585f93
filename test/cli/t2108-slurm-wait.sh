#!/bin/bash
# ENGINE=slurm and the queue: NOWAIT=1 submits and returns at once, and
# make merge-shards DIR= waits for the jobs and shows the merged run; an
# interrupted make (SIGINT to its group, SIGTERM to make alone) cancels its
# jobs and leaves none queued; a shard cancelled while it runs is named,
# with its job and state. On a one-node cluster of the test's own
# (slurm.sh); jobs are held (sbatch --hold) so that nothing depends on
# how fast they start.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
slurm_start
plan 16
export PROF_SLURM_POLL=0.2
P="make profile-quick:"

SEL=(CATEGORY=primitive REPEAT=1 BASELINE="$T/none.json")
# Run a command with the signals' default actions (a background job of a
# shell ignores SIGINT) in a process group of its own: its pid is $!.
DFL='use POSIX; $SIG{INT} = $SIG{TERM} = $SIG{HUP} = "DEFAULT"; POSIX::setsid(); exec @ARGV or die'
# bg ARGS...: make in the background, its own group; $pid. The files
# are emptied here first: the child's redirections may run after
# submitted has read the last case's "submitted" line.
bg() {
	: >"$out"
	: >"$err"
	perl -e "$DFL" make -s --no-print-directory -o all "$@" >"$out" 2>"$err" &
	pid=$!
}
# submitted: wait until make says it submitted the jobs (or has ended);
# $A and $M are their ids.
submitted() {
	while ! grep -q "submitted as Slurm job array" "$err" &&
		kill -0 "$pid" 2>/dev/null; do
		sleep 0.05
	done
	A=$(sed -n 's/^array=//p' "$R/slurm/jobs")
	M=$(sed -n 's/^merge=//p' "$R/slurm/jobs")
}

# NOWAIT=1: the job ids and how to wait, exit 0, the jobs still queued.
R=$T/nowait
make -s --no-print-directory -o all profile-quick ENGINE=slurm SHARDS=2 \
	NOWAIT=1 SLURM_ARGS=--hold "${SEL[@]}" OUTPUT="$R" >"$out" 2>"$err"
is "$?" 0 "NOWAIT=1: exit 0 once submitted"
A=$(sed -n 's/^array=//p' "$R/slurm/jobs")
M=$(sed -n 's/^merge=//p' "$R/slurm/jobs")
is "$(cat "$out")" "run: $R
jobs: $A $M" "it prints the run folder and the job ids"
is "$(grep -c "^$P NOWAIT=1: not waiting; wait for them, and see the merged run, with: make merge-shards DIR=$R$" "$err")" 1 \
	"and how to wait for them"
is "$(slurm_jobs | sort)" "${A}_[0-1] PENDING
$M PENDING" "the jobs are queued (held)"
# make merge-shards DIR= waits for them, then shows the run.
perl -e "$DFL" make -s --no-print-directory -o all merge-shards DIR="$R" \
	>"$T/wait.out" 2>"$T/wait.err" &
pid=$!
scontrol release "$A" "$M"
wait "$pid"
is "$?" 0 "make merge-shards DIR= waits for the jobs: exit 0"
is "$(tail -n 2 "$T/wait.out")" "summary: $R/summary.md
report: $R/report.html" "and ends as the run would have"
jq_ok '(.run.shards | keys) == ["1/2", "2/2"]' "$R/results.json" \
	"the merged run is there"

# Interrupted while the jobs wait: SIGINT to make's group (a Ctrl-C).
R=$T/int
bg profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS=--hold "${SEL[@]}" \
	OUTPUT="$R"
submitted
kill -INT -- -"$pid"
wait "$pid"
is "$(grep "^$P interrupted" "$err")" \
	"$P interrupted by SIGINT while the Slurm jobs ran; jobs $A (the shards) and $M (their merge) are cancelled; what they wrote is in $R" \
	"an interrupted make says it cancelled its jobs"
is "$(slurm_jobs)" "" "none is left queued when make returns"
is "$(sed -n "s/^JobId=$M .* JobState=\([A-Z]*\) .*/\1/p" "$SLURM_DIR/jobcomp.txt")" \
	CANCELLED "the cluster's records: the merge cancelled"

# SIGTERM to make alone (make passes it on).
R=$T/term
bg profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS=--hold "${SEL[@]}" \
	OUTPUT="$R"
submitted
kill -TERM "$pid"
wait "$pid"
like "$(grep "^$P interrupted" "$err")" \
	"$P interrupted by SIGTERM while the Slurm jobs ran; jobs $A (the shards) and $M (their merge) are cancelled" \
	"SIGTERM to make: its jobs cancelled too"
is "$(slurm_jobs)" "" "none is left queued"

# A shard cancelled while it runs (its workload binary waits forever on
# the array's task 1): named, with its job, node, state and log.
cat >"$T/wl" <<EOF
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ]; then
	: >"$T/started"
	while :; do sleep 0.1; done
fi
exec "$BIN/prof-workloads" "\$@"
EOF
chmod +x "$T/wl"
R=$T/cancel
bg profile-quick ENGINE=slurm SHARDS=2 WORKLOADS="$T/wl" "${SEL[@]}" \
	OUTPUT="$R"
submitted
while [ ! -e "$T/started" ] && kill -0 "$pid" 2>/dev/null; do
	sleep 0.05
done
scancel "${A}_1"
wait "$pid"
is "$?" 2 "a shard cancelled while it ran: exit 2"
is "$(grep "^$P shard 2/2" "$err")" \
	"$P shard 2/2 (job ${A}_1 on $SLURM_NODE) was stopped (CANCELLED) before its run ended; its log: $R/slurm/task-1.log" \
	"named, with its job, its node, its state and its log"
jq_ok '.run.shard == "1/2"' "$R/shards/1/results.json" \
	"the other shard's run is kept"
is "$(slurm_jobs)" "" "and nothing is left queued"
finish
