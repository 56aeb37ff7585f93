#!/bin/bash
# prof-mem: the memory phase for workloads and for commands.
. "$(dirname "$0")/lib.sh"
plan 16

run prof-mem diagnose test.alloc --workloads "$TW" -o "$T/m.jsonl"
is "$rc" 0 "the memory phase of a workload exits 0"
jq_ok -s 'length == 2 and map([.index, .call]) == [[0, 0], [1, 0]]' \
	"$T/m.jsonl" "two memory samples, each the first call of a fresh worker"
# 64 x 1 MiB, half freed, then 8 MiB: the live peak is 64 MiB (usable
# sizes add glibc's few bytes per block).
jq_ok '.phase == "memory" and .outcome == "success" and
	(.memory.host_peak_bytes >= 0.99 * 67108864) and
	(.memory.host_peak_bytes <= 1.01 * 67108864)' "$T/m.jsonl" \
	"a known pattern peaks within 1% of 64 MiB"
jq_ok '.memory.rss_peak_bytes > 0 and .memory.host_allocs == 65 and
	(.memory.host_live_before_bytes | type == "number")' "$T/m.jsonl" \
	"with RSS peak, allocation count and the live bytes before"
jq_ok '.memory | has("device_peak_allocated_bytes") | not' "$T/m.jsonl" \
	"no device numbers on the CPU"

run prof-mem quick --workloads "$TW" -o "$T/q.jsonl"
is "$rc" 1 "a crash in the memory phase is an error sample, exit 1"
jq_ok -s 'length == 6 and ([.[] | select(.outcome == "success")] | length == 2)
	and all(.[]; .phase == "memory")' "$T/q.jsonl" \
	"two memory samples per workload, the good one measured"

run "$TW" --worker test.alloc --phase memory
jq_ok '.outcome == "error" and .reason ==
	"the memory phase needs the allocation interposer (run it through prof-mem)"' \
	"$out" "without the interposer, the worker says what is missing"

# A command that is not ours, with a child: every process is a record.
printf '%s\n' $(seq 1 20000) >"$T/data.txt"
run prof-mem --name tree -- sh -c "jq -s length '$T/data.txt' >/dev/null; gzip -c '$T/data.txt' >/dev/null; true"
is "$rc" 0 "prof-mem -- CMD exits 0"
jq_ok '.phase == "memory" and .memory.processes >= 2 and
	([.processes[].exe | select(endswith("/jq"))] | length == 1) and
	([.processes[].exe | select(endswith("/gzip"))] | length == 1)' "$out" \
	"one record per process of the tree"
jq_ok '([.processes[] | select(.exe | endswith("/jq"))][0].host_peak_bytes > 0)
	and .memory.host_peak_bytes >= .processes[0].host_peak_bytes and
	.memory.host_peak_sum_bytes >= .memory.host_peak_bytes and
	.memory.rss_peak_bytes > 0' "$out" "with the peaks summed up"

run prof-mem --name gz -- gzip -c "$T/data.txt"
jq_ok '.outcome == "success" and .memory.processes == 1' "$out" \
	"a single program is one record"

run prof-mem --name bad -- sh -c 'exit 3'
is "$rc" 1 "a failing command is an error sample"
jq_ok '.reason == "exited with status 3, expected 0"' "$out" "with its status"

run prof-mem diagnose test.alloc --workloads "$TW" --artifacts x
is "$rc:$(errline)" "2:prof-mem: --artifacts: only prof-trace writes artifacts" \
	"options of other tools are refused"

# prof-time itself may be built with ASan (make check): a benign preload
# and ASan's consent to it.
ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$BIN/libprof-cpuprofile.so \
	CPUPROFILE=$T/x.prof PROF_ALLOC_LOG=$T/log run prof-time diagnose \
	test.clean_process --workloads "$TW"
is "$rc" 0 "a timing worker never has the interposer or profiler loaded"
finish
