#!/bin/bash
# The allocation interposer's exit hook needed about 20 KB of stack: a
# program that calls exit() from a thread with the smallest stack
# (PTHREAD_STACK_MIN) was killed by SIGSEGV under prof-mem and --memory.
# What runs at exit, _exit(), a fork and an exec is now a few hundred
# bytes and no stdio: the program exits 0 and its heap is counted.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip_all "no C compiler"
plan 10

cc -O1 -pthread -o "$T/heap" test/data/heap/heap.c || exit 1
in_block='. >= 50331648 and . < 50331648 + 65536'

run prof-mem --name th --repeat 1 -- "$T/heap" thread
is "$rc" 0 "exit() from a thread of PTHREAD_STACK_MIN bytes: exit 0"
jq_ok ".outcome == \"success\" and .metrics.exit_status == 0 and
	.metrics.heap_tracked == true and (.memory.host_peak_bytes |
	$in_block) and .processes[0].ended == \"exit\" and
	(.processes[0].rss_peak_bytes | . > 50331648)" "$out" \
	"a success, its heap and RSS peak counted (it was killed by SIGSEGV)"
run prof-mem --name th_ --repeat 1 -- "$T/heap" thread_
jq_ok ".outcome == \"success\" and (.memory.host_peak_bytes | $in_block)
	and .processes[0].ended == \"exit\"" "$out" "_exit() from it: the same"
run prof-mem --name thf --repeat 1 -- "$T/heap" threadfork
jq_ok ".outcome == \"success\" and .memory.processes == 2 and
	all(.processes[]; .ended == \"exit\")" "$out" \
	"a fork from it, the child's exit() too: two records"
run prof-mem --name thx --repeat 1 -- "$T/heap" threadexec /bin/true
jq_ok '.outcome == "success" and .memory.processes == 1 and
	.processes[0].exe == "'"$(readlink -f /bin/true)"'" and
	.processes[0].ended == "exit"' "$out" \
	"an exec from it: the new program's record replaces the old one's"
run prof-time --name th --repeat 1 --memory -- "$T/heap" thread
is "$rc" 0 "prof-time --memory: exit 0"
jq_ok -s "[.[] | select(.phase == \"memory\")] | length == 2 and
	all(.[]; .outcome == \"success\" and (.memory.host_peak_bytes |
	$in_block))" "$out" "its two memory samples counted"
if command -v valgrind >/dev/null; then
	run prof-count --name th --repeat 1 --memory -- "$T/heap" thread
	is "$rc" 0 "prof-count --memory: exit 0"
	jq_ok -s "[.[] | select(.phase == \"memory\")] | length == 2 and
		all(.[]; .outcome == \"success\" and
		(.memory.host_peak_bytes | $in_block))" "$out" \
		"its two memory samples counted"
else
	skip "valgrind is not installed"
	skip "valgrind is not installed"
fi
# Without the interposer the thread exits alike (the test itself holds).
"$T/heap" thread
is "$?" 0 "the program alone exits 0"
finish
