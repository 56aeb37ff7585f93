#!/bin/bash
# make profile-quick ENGINE=slurm SHARDS=2 on a one-node Slurm cluster of
# the test's own (slurm.sh): the shards as one job array, their merge as a
# job after them, make waiting for it: one merged run whose workloads are
# a local run's, two shard calibrations, each shard's node and job, the
# jobs completed in the cluster's records and none left queued. A shard
# whose task fails: exit 2 naming it, its job and its log, the other kept,
# and the printed rerun and merge give the merged run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
slurm_start
plan 23
export PROF_SLURM_POLL=0.2

SEL=(CATEGORY="primitive pipeline" REPEAT=1)
# mk ARGS...: make in the checkout, its tools as built.
mk() {
	make -s --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
}
# samples FILE: what a run measured, one line a sample.
samples() {
	jq -c "$JQ_WHOLE whole | [.samples[] | [.workload, .backend, .phase,
		.kind, .index, .outcome]] | sort" "$1"
}

mk profile-quick "${SEL[@]}" OUTPUT="$T/local" BASELINE="$T/none.json" \
	HISTORY=
R=$T/run
mk profile-quick ENGINE=slurm SHARDS=2 "${SEL[@]}" OUTPUT="$R" \
	BASELINE="$T/none.json"
is "$rc" 0 "make profile-quick ENGINE=slurm SHARDS=2: exit 0"
is "$(tail -n 2 "$out")" "summary: $R/summary.md
report: $R/report.html" "it ends as a local run ends: the summary's path"
like "$(cat "$err")" "make profile-quick: shards 1/2 to 2/2 submitted as Slurm job array 1, their merge as job 2; the run folder '$R' must be on storage every node sees" \
	"it names the jobs and says the run folder must be shared"
is "$(samples "$R/results.json")" "$(samples "$T/local/results.json")" \
	"one merged run: the workloads and samples of a local run"
jq_ok '(.shard_calibrations | keys) == ["1/2", "2/2"] and
	(.run.shards | keys) == ["1/2", "2/2"] and
	.command == "make profile-quick REPEAT=1 CATEGORY=\"primitive pipeline\" OUTPUT='"$R"' BASELINE='"$T"'/none.json ENGINE=slurm SHARDS=2"' \
	"$R/results.json" "with two shard calibrations, and the command given"
n=\"$SLURM_NODE\"
jq_ok '.run.engines == {
	"1/2": {"shard_from": "SLURM_ARRAY_TASK_ID", "node": '"$n"', "job_id": "1_0"},
	"2/2": {"shard_from": "SLURM_ARRAY_TASK_ID", "node": '"$n"', "job_id": "1_1"}}
	and .run.engine == {"node": '"$n"', "job_id": "2"}' "$R/results.json" \
	"each shard's node and job id recorded, and the merge's"
is "$(sed -n 's/^JobId=\([0-9]*\) .* Name=\([^ ]*\) JobState=\([A-Z]*\) .*/\1 \2 \3/p' \
	"$SLURM_DIR/jobcomp.txt" | sort)" "1 prof-quick-shards COMPLETED
2 prof-quick-merge COMPLETED
3 prof-quick-shards COMPLETED" \
	"the cluster's records: both tasks and the merge completed"
is "$(slurm_jobs)" "" "and nothing is left queued"
is "$("$BIN/prof-history" list --db "$HISTORY" | jq -r '[.[].run_id] | join(" ")')" \
	"$(jq -r .run_id "$R/results.json")" \
	"the history holds the merged run, not its shards"
ok "$([ -s "$R/summary.md" ] && [ -s "$R/report.html" ] &&
	[ -s "$R/comparisons.json" ]; echo $?)" \
	"the merged run is reported like any run"

# A shard whose task fails (its workload binary does on the array's task
# 1): exit 2 naming it, its job and its log; the other shard kept.
cat >"$T/wl" <<EOF
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ ! -e "$T/fixed" ]; then
	echo "shard 2 breaks here" >&2
	exit 3
fi
exec "$BIN/prof-workloads" "\$@"
EOF
chmod +x "$T/wl"
R=$T/run2
mk profile-quick ENGINE=slurm SHARDS=2 WORKLOADS="$T/wl" "${SEL[@]}" \
	OUTPUT="$R" BASELINE="$T/none.json"
P="make profile-quick:"
A=$(sed -n 's/^array=//p' "$R/slurm/jobs")
M=$(sed -n 's/^merge=//p' "$R/slurm/jobs")
is "$rc" 2 "a shard that fails: exit 2"
is "$(grep "^$P shard 2/2 (job" "$err")" \
	"$P shard 2/2 (job ${A}_1 on $SLURM_NODE) failed: exit code 2; its log: $R/slurm/task-1.log" \
	"one line names the shard, its job, its node and its log"
like "$(cat "$R/slurm/task-1.log")" "shard 2 breaks here" \
	"the log holds why"
is "$(grep "^$P the finished" "$err")" \
	"$P the finished shards are kept in $R/shards; rerun the other, then merge them all, with: sbatch --wait --array=1 $R/slurm/shard.sh && make merge-shards DIR=$R" \
	"the kept shards and the exact commands that finish the run"
is "$(grep "^$P" "$err" | tail -n 1)" \
	"$P run finished with exit code 2 (infrastructure or argument failure)" \
	"the run's exit code last"
jq_ok '.run.shard == "1/2"' "$R/shards/1/results.json" \
	"shard 1/2's run is kept"
ok "$([ ! -e "$R/results.json" ] && [ ! -e "$R/shards/2/results.json" ]
	echo $?)" "no merged run, no results of the failed shard"
is "$(sed -n "s/^JobId=$M .* JobState=\([A-Z]*\) .* NodeList=\([^ ]*\) .*/\1 \2/p" \
	"$SLURM_DIR/jobcomp.txt")" "CANCELLED (null)" \
	"the merge job never ran: cancelled on no node, its dependency failed"
is "$(slurm_jobs)" "" "and nothing is left queued"

# The commands it printed, once the node is mended, give the merged run.
: >"$T/fixed"
cmd=$(sed -n "s/^$P .* with: //p" "$err")
eval "${cmd/make merge-shards/make -s --no-print-directory -o all merge-shards}" \
	>"$out" 2>"$err"
rc=$?
is "$rc" 0 "the printed rerun and merge: exit 0"
is "$(tail -n 2 "$out")" "summary: $R/summary.md
report: $R/report.html" "make merge-shards DIR= prints the summary's path"
is "$(samples "$R/results.json")" "$(samples "$T/local/results.json")" \
	"and the merged run is the whole run"
ok "$([ -e "$R/slurm/task-1.log" ] && [ -z "$(ls slurm-*.out 2>/dev/null)" ]
	echo $?)" "the rerun's log is in the run folder (its script says where)"
finish
