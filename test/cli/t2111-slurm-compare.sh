#!/bin/bash
# make compare ENGINE=slurm SHARDS=2 on a one-node cluster of the test's
# own (slurm.sh): the shards of the interleaved A/B as one job array, each
# task interleaving its workloads' two sides, their merge a job after
# them: the rows of a local compare, both sides merged under one run id.
# A run folder whose path holds a space: the jobs' #SBATCH lines and the
# printed rerun quote it, and the rerun of a failed shard, as printed,
# writes its log there and gives the merged run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
slurm_start
plan 13
export PROF_SLURM_POLL=0.2

SEL=(AGAINST=bin/prof-workloads CATEGORY="primitive pipeline" REPEAT=1)
mk() {
	make -s --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
}
rows='[.[] | "\(.workload) \(.backend) \(.kind)"] | sort'

mk compare "${SEL[@]}" OUTPUT="$T/local"
R="$T/a b/run"
mk compare ENGINE=slurm SHARDS=2 "${SEL[@]}" OUTPUT="$R"
is "$rc" 0 "make compare ENGINE=slurm SHARDS=2: exit 0"
is "$(tail -n 2 "$out")" "summary: $R/summary.md
report: $R/report.html" "it ends as a local compare ends: the summary's path"
like "$(cat "$err")" "make compare: shards 1/2 to 2/2 submitted as Slurm job array 1, their merge as job 2" \
	"it names the jobs"
is "$(jq -c "$rows" "$R/comparisons.json")" \
	"$(jq -c "$rows" "$T/local/comparisons.json")" \
	"the merged A/B has the rows of a local compare"
is "$(for i in 1 2; do jq -r '.[].workload' "$R/shards/$i/comparisons.json"; done |
	sort | uniq -d)" "" "each workload interleaved in one shard only"
jq -s '{c: .[0], b: .[1]}' "$R/results.json" "$R/baseline.json" >"$T/both.json"
n=\"$SLURM_NODE\"
jq_raw '.c.run_id == .b.run_id and
	.c.run.engines == {
	"1/2": {"shard_from": "SLURM_ARRAY_TASK_ID", "node": '"$n"', "job_id": "1_0"},
	"2/2": {"shard_from": "SLURM_ARRAY_TASK_ID", "node": '"$n"', "job_id": "1_1"}}
	and .b.run.engines == .c.run.engines and
	(.c.command | endswith("ENGINE=slurm SHARDS=2"))' "$T/both.json" \
	"both sides under one run id, each shard's node and job recorded"
is "$(sed -n 's/^JobId=\([0-9]*\) .* Name=\([^ ]*\) JobState=\([A-Z]*\) .*/\1 \2 \3/p' \
	"$SLURM_DIR/jobcomp.txt" | sort)" "1 prof-compare-shards COMPLETED
2 prof-compare-merge COMPLETED
3 prof-compare-shards COMPLETED" "the cluster's records: both tasks and the merge completed"
is "$(slurm_jobs)" "" "and nothing is left queued"
is "$(grep -c '^#SBATCH --output="'"$R"'/slurm/task-%a.log"$' "$R/slurm/shard.sh")" 1 \
	"the job script's #SBATCH paths are quoted"

# A shard that fails, in a run folder with a space in its path: the
# printed rerun, run as printed, finishes the run.
cat >"$T/wl" <<EOF
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ ! -e "$T/fixed" ]; then
	echo "shard 2 breaks here" >&2
	exit 3
fi
exec "$BIN/prof-workloads" "\$@"
EOF
chmod +x "$T/wl"
R="$T/c d/run"
mk profile-quick ENGINE=slurm SHARDS=2 WORKLOADS="$T/wl" CATEGORY=primitive \
	REPEAT=1 OUTPUT="$R" BASELINE="$T/none.json"
P="make profile-quick:"
is "$rc:$(grep "^$P the finished" "$err")" \
	"2:$P the finished shards are kept in $R/shards; rerun the other, then merge them all, with: sbatch --wait --array=1 '$R/slurm/shard.sh' && make merge-shards 'DIR=$R'" \
	"a failed shard: exit 2, the rerun printed with its paths quoted"
: >"$T/fixed"
rm -f "$R/slurm/task-1.log"
cmd=$(sed -n "s/^$P .* with: //p" "$err")
eval "${cmd/make merge-shards/make -s --no-print-directory -o all merge-shards}" \
	>"$out" 2>"$err"
is "$?" 0 "the printed rerun and merge: exit 0"
ok "$([ -s "$R/slurm/task-1.log" ] && [ -z "$(ls slurm-*.out 2>/dev/null)" ]
	echo $?)" "the rerun's log is in the run folder (its #SBATCH --output)"
jq_ok '(.run.shards | keys) == ["1/2", "2/2"]' "$R/results.json" \
	"and the merged run is there"
finish
