#!/bin/bash
# ENGINE=slurm on GPUs and on storage a node cannot see, on one-node
# clusters of the test's own (slurm.sh). BACKEND=gpu SLURM_ARGS=--gres=gpu:1
# asks the scheduler for a device per shard (a node with one fake GPU in
# its gres.conf; the shards run on the fake CUDA backend, as t12xx do), the
# merge job for none; a request the cluster cannot meet is sbatch's one
# line, exit 2. A node that cannot write the run folder (slurmd in a mount
# namespace of its own, the folder hidden there) is named, one line each.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
slurm_start --gpus 1
plan 12
export PROF_SLURM_POLL=0.2
P="make profile-quick:"
mk() {
	make -s --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
}
GPU=(BACKEND=gpu WORKLOADS="$TBIN/prof-fake-gpu-workloads" CATEGORY=fake
	REPEAT=1 BASELINE="$T/none.json")

R=$T/gpu
mk profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS=--gres=gpu:1 "${GPU[@]}" \
	OUTPUT="$R"
is "$rc:$(grep "^$P run finished" "$err")" \
	"2:$P run finished with exit code 1 (a sample errored)" \
	"GPU shards on the fake backend: the merged run's code (fake.fallback errs)"
jq_ok '.run.engines["1/2"].gpus == "0" and .run.engines["2/2"].gpus == "0"
	and (.run.engine | has("gpus") | not)' "$R/results.json" \
	"each shard was given a GPU by the scheduler, the merge none"
jq_ok "$JQ_WHOLE"' whole | [.samples[] | .workload] | sort ==
	["fake.fallback", "fake.kernel"]' "$R/results.json" \
	"both shards' workloads are in the merged run"
jq_ok "$JQ_WHOLE"' whole | all(.samples[]; .backend == "gpu") and
	all(.envs[]; .device == "Fake GPU")' "$R/results.json" \
	"all on the (fake) GPU"

# BACKEND=gpu without a GPU request: said, and submitted all the same.
R=$T/nogres
mk profile-quick ENGINE=slurm SHARDS=2 NOWAIT=1 SLURM_ARGS=--hold \
	"${GPU[@]}" OUTPUT="$R"
is "$rc:$(grep -c "^$P BACKEND=gpu: SLURM_ARGS asks for no GPU (--gres=gpu:1 or --gpus=1): a shard that lands on a node without one fails$" "$err")" \
	"0:1" "BACKEND=gpu without --gres or --gpus: one line says so"
scancel "$(sed -n 's/^array=//p' "$R/slurm/jobs")" \
	"$(sed -n 's/^merge=//p' "$R/slurm/jobs")"
slurm_idle

# Two GPUs a shard, on a node of one: sbatch's refusal, exit 2, no run.
R=$T/two
mk profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS=--gres=gpu:2 "${GPU[@]}" \
	OUTPUT="$R"
like "$rc:$(grep "^$P" "$err" | head -n 1)" \
	"2:$P cannot submit the shards: sbatch: error: Batch job submission failed: " \
	"a request the cluster cannot meet: sbatch's reason, exit 2"
ok "$([ -z "$(ls -A "$R")" ]; echo $?)" "nothing is left in the run folder"
is "$(slurm_jobs)" "" "nor in the queue"

# A node that does not see the run folder: slurmd in a mount namespace of
# its own (where this machine allows one).
if ! unshare --mount --propagation private true 2>/dev/null; then
	for _ in 1 2 3 4; do
		skip "no mount namespace here (unshare --mount) for a node that cannot see the run folder"
	done
	finish
	exit
fi
slurm_stop
slurm_start --private "$T/hidden"
R=$T/hidden/run
mk profile-quick ENGINE=slurm SHARDS=2 CATEGORY=primitive REPEAT=1 \
	BASELINE="$T/none.json" OUTPUT="$R"
is "$rc" 2 "shards on a node that cannot write the run folder: exit 2"
is "$(grep "^$P shard [0-9]" "$err")" \
	"$P shard 1/2 (job 1_0): node $SLURM_NODE cannot write the run folder '$R' (FAILED): it must be on storage every node sees
$P shard 2/2 (job 1_1): node $SLURM_NODE cannot write the run folder '$R' (FAILED): it must be on storage every node sees" \
	"one line a shard names the node"
like "$(grep "^$P the finished" "$err")" \
	"rerun the others, then merge them all, with: sbatch --wait --array=0,1 $R/slurm/shard.sh && make merge-shards DIR=$R" \
	"and what reruns them"
is "$(slurm_jobs)" "" "nothing is left queued"
finish
