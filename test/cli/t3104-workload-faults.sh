#!/bin/bash
# Workloads that die the way real ones do become error samples, and the run
# goes on: a worker killed by SIGKILL in the middle of a call (the OOM
# killer's way), and one that runs out of memory under an address-space
# limit (a container's way) and aborts (test/workloads/faults.c).
. "$(dirname "$0")/lib.sh"
plan 7

FW=$TBIN/prof-fault-workloads

run prof-time full --workloads "$FW" --category fault --warmup 0 \
	--repeat 3 --timeout 60 --seed 5 -o "$T/f.jsonl"
is "$rc" 1 "errored workloads make the run exit 1"
jq_ok -s '[.[] | select(.workload == "test.sigkill" and .kind == "warm")] |
	length == 2 and .[0].outcome == "success" and .[0].index == 0 and
	.[1].outcome == "error" and .[1].index == 1 and .[1].duration_ms == null' \
	"$T/f.jsonl" \
	"SIGKILL mid-call: the call before it counts, the killed one is an error"
jq_ok -s '[.[] | select(.workload == "test.sigkill" and .outcome == "error")][0].reason |
	startswith("worker killed by signal 9 (SIGKILL: Killed)")' \
	"$T/f.jsonl" "and the reason names SIGKILL"
jq_ok -s '[.[] | select(.workload == "test.oom" and .kind == "warm")] |
	length == 1 and .[0].outcome == "error"' "$T/f.jsonl" \
	"out of memory under a limit: one error sample"
jq_ok -s '[.[] | select(.workload == "test.oom")][0].reason |
	test("killed by signal 6 \\(SIGABRT.*fatal: out of memory after [0-9]+ MB")' \
	"$T/f.jsonl" "the reason: the abort and the workload's last words"
jq_ok -s '[.[] | select(.workload == "test.fault_fine" and .kind == "warm")] |
	length == 3 and all(.[]; .outcome == "success")' "$T/f.jsonl" \
	"the healthy workload is measured in full beside them"
jq_ok -s 'all(.[]; .outcome == "success" or (.reason | type == "string"))' \
	"$T/f.jsonl" "every error sample says why"
finish
