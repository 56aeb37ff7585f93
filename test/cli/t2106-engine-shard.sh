#!/bin/bash
# The shard from the engine: where SHARD is not given, a run takes it from
# the variables by which Slurm, GitLab, Buildkite, CircleCI, a Kubernetes
# Indexed Job or Bazel say which task a job is (their bases normalised),
# and records which (run.engine.shard_from); two that disagree, an index
# out of its count, a count missing: one line, exit 2. And the make
# variables of ENGINE=slurm refused where they would be ignored.
. "$(dirname "$0")/lib.sh"
plan 47

n=0
# prun VAR=VALUE...: make profile-quick of one small workload in the
# environment VAR=VALUE...; $R is its run folder.
prun() {
	n=$((n + 1))
	R=$T/runs/$n
	env "$@" make -s --no-print-directory -o all profile-quick \
		CATEGORY=primitive REPEAT=1 OUTPUT="$R" BASELINE="$T/none.json" \
		>"$out" 2>"$err"
	rc=$?
}
# shard_of: the run's shard and the variable it came from.
shard_of() {
	jq -r '"\(.run.shard) \(.run.engine.shard_from)"' "$R/results.json"
}
msg() {
	grep -m 1 '^make profile-quick: ' "$err" |
		sed 's/^make profile-quick: //'
}

# Each engine of the table, alone.
prun CI_NODE_INDEX=2 CI_NODE_TOTAL=3
is "$rc:$(shard_of)" "0:2/3 CI_NODE_INDEX" \
	"GitLab: CI_NODE_INDEX 2 of CI_NODE_TOTAL 3 (1-based) is shard 2/3"
prun BUILDKITE_PARALLEL_JOB=0 BUILDKITE_PARALLEL_JOB_COUNT=2
is "$rc:$(shard_of)" "0:1/2 BUILDKITE_PARALLEL_JOB" \
	"Buildkite: BUILDKITE_PARALLEL_JOB 0 of 2 (0-based) is shard 1/2"
mkdir -p "$T/shards"
cp -R "$R" "$T/shards/a"
prun CIRCLE_NODE_INDEX=1 CIRCLE_NODE_TOTAL=2
is "$rc:$(shard_of)" "0:2/2 CIRCLE_NODE_INDEX" \
	"CircleCI: CIRCLE_NODE_INDEX 1 of 2 (0-based) is shard 2/2"
cp -R "$R" "$T/shards/b"
prun JOB_COMPLETION_INDEX=2 PROF_SHARDS=3
is "$rc:$(shard_of)" "0:3/3 JOB_COMPLETION_INDEX" \
	"Kubernetes: JOB_COMPLETION_INDEX 2 (0-based), PROF_SHARDS 3: shard 3/3"
prun TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=2 \
	TEST_SHARD_STATUS_FILE="$T/bazel-status"
is "$rc:$(shard_of)" "0:2/2 TEST_SHARD_INDEX" \
	"Bazel: TEST_SHARD_INDEX 1 of TEST_TOTAL_SHARDS 2 (0-based) is 2/2"
ok "$([ -e "$T/bazel-status" ]; echo $?)" \
	"and TEST_SHARD_STATUS_FILE is touched: the shard was taken"
prun SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=4
is "$rc:$(shard_of)" "0:2/3 SLURM_ARRAY_TASK_ID" \
	"Slurm: task 5 of an array of 3 from 4 is shard 2/3"
prun SLURM_ARRAY_TASK_ID=8 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=4 \
	SLURM_ARRAY_TASK_STEP=2
is "$rc:$(shard_of)" "0:3/3 SLURM_ARRAY_TASK_ID" \
	"an array by steps of 2 (4, 6, 8): task 8 is shard 3/3"
jq_ok '.samples | length <= 1' "$R/results.json" \
	"the run holds its shard's workloads only (here none, or the one)"

# In a Slurm job: its node, job id and GPUs in the record.
prun SLURM_JOB_ID=78 SLURM_ARRAY_JOB_ID=77 SLURM_ARRAY_TASK_ID=1 \
	SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=0 SLURMD_NODENAME=n7 \
	SLURM_JOB_GPUS=0,1
jq_ok '.run.shard == "2/2" and .run.engine == {"shard_from":
	"SLURM_ARRAY_TASK_ID", "node": "n7", "job_id": "77_1", "gpus": "0,1"}' \
	"$R/results.json" "a task of a Slurm array records its node, job and GPUs"
prun SLURM_JOB_ID=79 SLURMD_NODENAME=n8
jq_ok '.run.shard == null and .run.engine == {"node": "n8", "job_id": "79"}' \
	"$R/results.json" "a plain Slurm job: the whole run, its node and job"

# A count of one is the whole run; agreeing engines are one shard.
prun CIRCLE_NODE_INDEX=0 CIRCLE_NODE_TOTAL=1
jq_ok '.run.shard == null and (.run | has("engine") | not)' "$R/results.json" \
	"CircleCI's 0 of 1 (a job not split) is the whole run"
prun CI_NODE_INDEX=2 CI_NODE_TOTAL=2 CIRCLE_NODE_INDEX=1 CIRCLE_NODE_TOTAL=2
is "$rc:$(shard_of)" "0:2/2 CI_NODE_INDEX" \
	"two engines that agree: the shard, from the first of the table"
prun SHARD=1/2 CI_NODE_INDEX=2 CI_NODE_TOTAL=2
jq_ok '.run.shard == "1/2" and (.run | has("engine") | not)' \
	"$R/results.json" "SHARD given is the shard; the engine's are not read"

# Disagreement and bad values: one line, exit 2, nothing run.
prun CI_NODE_INDEX=1 CI_NODE_TOTAL=2 BUILDKITE_PARALLEL_JOB=1 \
	BUILDKITE_PARALLEL_JOB_COUNT=2
is "$rc:$(msg)" "2:CI_NODE_INDEX says shard 1/2, BUILDKITE_PARALLEL_JOB says 2/2: which shard is this? give SHARD=I/N" \
	"two engines that disagree: exit 2, both named"
ok "$([ ! -e "$R" ] || [ -z "$(ls -A "$R")" ]; echo $?)" "nothing was run"
prun CI_NODE_INDEX=1 CI_NODE_TOTAL=2 TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=3
is "$rc:$(msg)" "2:CI_NODE_INDEX says shard 1/2, TEST_SHARD_INDEX says 1/3: which shard is this? give SHARD=I/N" \
	"or that count apart"
prun JOB_COMPLETION_INDEX=1
is "$rc:$(msg)" "2:JOB_COMPLETION_INDEX is 1: a Kubernetes Indexed Job says which shard this is, not of how many; set PROF_SHARDS to the Job's completions" \
	"a Kubernetes index without PROF_SHARDS"
prun CI_NODE_INDEX=3
is "$rc:$(msg)" "2:CI_NODE_INDEX is 3 but CI_NODE_TOTAL is not set: which shard this is, not of how many" \
	"an index without its count"
prun CI_NODE_INDEX=4 CI_NODE_TOTAL=3
is "$rc:$(msg)" "2:CI_NODE_INDEX is 4: not one of CI_NODE_TOTAL's 3 shards (numbered from 1, at most 1000)" \
	"an index beyond its count"
prun CI_NODE_INDEX=0 CI_NODE_TOTAL=3
is "$rc:$(msg)" "2:CI_NODE_INDEX is 0: not one of CI_NODE_TOTAL's 3 shards (numbered from 1, at most 1000)" \
	"GitLab's index is 1-based"
prun BUILDKITE_PARALLEL_JOB=2 BUILDKITE_PARALLEL_JOB_COUNT=2
is "$rc:$(msg)" "2:BUILDKITE_PARALLEL_JOB is 2: not one of BUILDKITE_PARALLEL_JOB_COUNT's 2 shards (numbered from 0, at most 1000)" \
	"Buildkite's is 0-based"
prun CIRCLE_NODE_INDEX=x CIRCLE_NODE_TOTAL=2
is "$rc:$(msg)" "2:CIRCLE_NODE_INDEX: 'x': expected a whole number" \
	"an index that is no number"
prun SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=4
is "$rc:$(msg)" "2:SLURM_ARRAY_TASK_ID is 3: not one of the 2 tasks of an array from 4 by 1 (SLURM_ARRAY_TASK_COUNT, _MIN and _STEP); give SHARD=I/N" \
	"a Slurm task below its array's first"
prun TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=2 \
	TEST_SHARD_STATUS_FILE="$T/no/such/status"
is "$rc:$(msg)" "2:TEST_SHARD_STATUS_FILE: cannot touch '$T/no/such/status'" \
	"Bazel's status file that cannot be touched"
prun CI_NODE_INDEX=2 CI_NODE_TOTAL=2000
is "$rc:$(msg)" "2:CI_NODE_INDEX is 2: not one of CI_NODE_TOTAL's 2000 shards (numbered from 1, at most 1000)" \
	"more than 1000 shards"

# The shards of two engines merge, each one's record kept.
make -s --no-print-directory -o all merge-shards DIR="$T/shards" \
	OUTPUT="$T/merged" BASELINE="$T/none.json" >"$out" 2>"$err"
is "$?" 0 "make merge-shards of the Buildkite and the CircleCI shard"
jq_ok '.run.engines == {"1/2": {"shard_from": "BUILDKITE_PARALLEL_JOB"},
	"2/2": {"shard_from": "CIRCLE_NODE_INDEX"}}' "$T/merged/results.json" \
	"the merged run keeps each shard's record (run.engines)"

# prof-merge --engine itself.
run prof-merge --engine 'a b=1' /dev/null
is "$rc:$(errline)" "2:prof-merge: --engine: 'a b=1' is not KEY=VALUE (KEY letters, digits and '_')" \
	"prof-merge --engine: a key that is not a name"
run prof-merge --engine "$(printf 'node=a\tb')" /dev/null
is "$rc:$(errline)" "2:prof-merge: --engine: 'node=a\\x09b': the value is not printable text of at most 200 bytes" \
	"a value with a control character"

# The make variables: each refused, at parse time, where it is ignored.
# mk ARGS...: make in the checkout; $e is stderr without make's place.
mk() {
	make --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
	e=$(sed 's/^[^ ]*:[0-9]*: \*\*\*/***/' "$err")
}
mk profile-quick ENGINE=pbs
is "$rc:$e" "2:*** ENGINE: 'pbs': expected local or slurm; nothing was run.  Stop." \
	"ENGINE other than local or slurm"
ENGINE=pbs mk profile-full
is "$rc:$e" "2:*** ENGINE: 'pbs': expected local or slurm; nothing was run.  Stop." \
	"from the environment too"
ENGINE=pbs mk help
is "$rc" 0 "but an ENGINE of the environment does not stop make help"
for v in SHARDS=2 SLURM_ARGS=--partition=gpu NOWAIT=1; do
	mk profile-quick "$v" OUTPUT="$T/never"
	is "$rc:$e" "2:*** ${v%%=*}: only with ENGINE=slurm (SHARDS=N shards as a Slurm job array; SHARD=I/N runs one shard here); nothing was run.  Stop." \
		"${v%%=*} without ENGINE=slurm"
done
mk profile-quick ENGINE=slurm OUTPUT="$T/never"
is "$rc:$e" "2:*** ENGINE=slurm: give SHARDS=N, the number of shards (the tasks of its job array); nothing was run.  Stop." \
	"ENGINE=slurm without SHARDS"
mk profile-quick ENGINE=slurm SHARDS=2 SHARD=1/2 OUTPUT="$T/never"
is "$rc:$e" "2:*** SHARD: ENGINE=slurm runs every shard of SHARDS=N, SHARD=I/N one shard here: give one or the other; nothing was run.  Stop." \
	"ENGINE=slurm with SHARD"
for g in diagnose help; do
	mk "$g" ENGINE=slurm
	is "$rc:$e" "2:*** ENGINE: make $g does not use it (man prof.mk); nothing was run.  Stop." \
		"ENGINE=slurm on make $g"
done
mk compare AGAINST=bin/prof-workloads ENGINE=slurm
is "$rc:$e" "2:*** ENGINE=slurm: give SHARDS=N, the number of shards (the tasks of its job array); nothing was run.  Stop." \
	"ENGINE=slurm on make compare, as on a profile target: SHARDS wanted"
mk merge-shards DIR="$T/shards" NOWAIT=1
is "$rc:$e" "2:*** NOWAIT: make merge-shards does not use it (man prof.mk); nothing was run.  Stop." \
	"NOWAIT on make merge-shards (which takes SHARDS)"
ok "$([ ! -e "$T/never" ]; echo $?)" "no run folder was made"

# What the run script checks before it submits anything.
mk profile-quick ENGINE=slurm SHARDS=0 OUTPUT="$T/never"
is "$rc:$(msg)" "2:SHARDS: '0': expected a whole number of shards, 1 to 1000" \
	"SHARDS=0"
mk profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS="-p x --array=0-3" \
	OUTPUT="$T/never"
is "$rc:$(msg)" "2:SLURM_ARGS: '--array=0-3': prof sets it (the shards are one job array, the merge runs after them, in the project's folder, their logs in the run folder); leave it out" \
	"an sbatch option that prof sets itself"
# A PATH without Slurm's commands.
mkdir -p "$T/path"
for f in /usr/bin/* /bin/*; do
	b=${f##*/}
	case $b in sbatch | squeue | scancel | scontrol | sacct) continue ;; esac
	[ -e "$T/path/$b" ] || ln -s "$f" "$T/path/$b"
done
PATH=$T/path mk profile-quick ENGINE=slurm SHARDS=2 OUTPUT="$T/never"
is "$rc:$(msg)" "2:ENGINE=slurm: 'sbatch' is not installed here (Debian: slurm-client; each node runs slurmd)" \
	"no sbatch: exit 2, named"
ok "$([ ! -e "$T/never" ]; echo $?)" "and still no run folder"
finish
