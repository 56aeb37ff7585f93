#!/bin/bash
# ENGINE=slurm and a shard's time limit: a shard that exceeds it (its
# workers wait forever on the array's task 1, SLURM_ARGS
# --time=1) is named, with its job, node and log; the run is merged with
# that shard's workloads as error samples, each saying why, and ends with
# exit code 2, an infrastructure failure (prof(7)); nothing is left
# queued. On a one-node cluster of the test's own (slurm.sh); slurmctld
# ends the task a minute after it starts, so this test takes a minute or
# two.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
slurm_start
plan 8
export PROF_SLURM_POLL=0.5

SEL=(CATEGORY="primitive pipeline" REPEAT=1)
mk() {
	make -s --no-print-directory -o all "$@" >"$out" 2>"$err"
	rc=$?
}
mk profile-quick "${SEL[@]}" OUTPUT="$T/local" BASELINE="$T/none.json" \
	HISTORY=
cat >"$T/wl" <<EOS
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ "\$1" = --worker ]; then
	while :; do sleep 0.1; done
fi
exec "$BIN/prof-workloads" "\$@"
EOS
chmod +x "$T/wl"
R=$T/run
mk profile-quick ENGINE=slurm SHARDS=2 SLURM_ARGS=--time=1 WORKLOADS="$T/wl" \
	"${SEL[@]}" OUTPUT="$R" BASELINE="$T/none.json"
A=$(sed -n 's/^array=//p' "$R/slurm/jobs")
P="make profile-quick:"
is "$rc" 2 "a shard past its time limit: exit 2 (an infrastructure failure)"
is "$(grep "^$P shard 2/2 (job" "$err")" \
	"$P shard 2/2 (job ${A}_1 on $SLURM_NODE) exceeded its time limit (TIMEOUT) before its run ended; its log: $R/slurm/task-1.log" \
	"it names the shard, its job, its node and its log"
# What shard 2/2 would have measured: a local run's workloads that shard
# 1/2 did not.
ids() { jq -r '[.samples[].workload] | unique | .[]' <(jq "$JQ_WHOLE whole" "$1"); }
w2=$(comm -23 <(ids "$T/local/results.json") <(ids "$R/shards/1/results.json"))
wl=$(jq -r '.samples[] | select(.shard == "2/2") | .workload' \
	<(jq "$JQ_WHOLE whole" "$R/results.json") | sort -u)
ok "$([ -n "$wl" ] && [ "$wl" = "$w2" ]; echo $?)" \
	"the merged run holds the timed-out shard's workloads"
jq_ok '[.samples[] | select(.shard == "2/2")] | length > 0 and
	all(.outcome == "error" and (.reason | test("^shard 2/2 \\(job [0-9_]+ on [^)]+\\) exceeded its time limit before this workload was measured")))' \
	"$R/results.json" "each as an error sample that says why"
is "$(jq -c '[.samples[] | .workload] | unique' <(jq "$JQ_WHOLE whole" "$R/results.json"))" \
	"$(jq -c '[.samples[] | .workload] | unique' <(jq "$JQ_WHOLE whole" "$T/local/results.json"))" \
	"the merged run's workloads are a local run's"
is "$(grep -c "^summary: $R/summary.md$" "$out")" 1 \
	"the merged run is reported: the summary's path"
is "$(grep "^$P" "$err" | tail -n 2)" \
	"$P the merged run holds the workloads of shard 2/2 as error samples (not measured: its time limit ended it); a longer --time in SLURM_ARGS, or more SHARDS, measures them
$P run finished with exit code 2 (infrastructure or argument failure)" \
	"it says what the merge holds, then the exit code"
is "$(slurm_jobs)" "" "nothing is left queued"
finish
