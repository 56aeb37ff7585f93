#!/bin/bash
# Programs whose heap numbers were lost and blamed on "a static or setuid
# program": one at a path with a byte that is not UTF-8, one that exits
# with no file descriptor left (all used, or a limit of 0) are counted,
# each record's path valid JSON; and when the interposer did not enter a
# program, the message names the true cause (a static program, a setuid
# one, one that a shell ran, at a path of any bytes).
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip_all "no C compiler"
plan 13

cc -O1 -pthread -o "$T/heap" test/data/heap/heap.c || exit 1
in_block='. >= 50331648 and . < 50331648 + 65536'
odd=$T/$(printf 'h\377p')
cp "$T/heap" "$odd"

run prof-mem --name odd --repeat 1 -- "$odd"
is "$rc" 0 "a program at a path with the byte 0xff: exit 0"
jq_ok ".metrics.heap_tracked == true and (.memory.host_peak_bytes |
	$in_block)" "$out" "its heap counted (it was not, and blamed on static)"
export WANT=$T/h$(printf '\357\277\275')p
jq_ok '.processes[0].exe == env.WANT' "$out" \
	"its record names the path, the byte as U+FFFD (valid JSON)"
is "$(grep -c . "$err")" 1 "and nothing is said but the summary"

run prof-mem --name fds --repeat 1 -- "$T/heap" fds
jq_ok ".outcome == \"success\" and .metrics.heap_tracked == true and
	(.memory.host_peak_bytes | $in_block)" "$out" \
	"a program that used up its file descriptors: counted"
run prof-mem --name nofile --repeat 1 -- "$T/heap" nofile
jq_ok ".outcome == \"success\" and .metrics.heap_tracked == true and
	(.memory.host_peak_bytes | $in_block) and .processes[0].ended == \"exit\"" \
	"$out" "one that closed them all under a limit of 0: counted, exited"
run prof-time --name fds --repeat 1 --memory -- "$T/heap" nofile
jq_ok -s "[.[] | select(.phase == \"memory\")] | length == 2 and
	all(.[]; .metrics.heap_tracked == true and
	(.memory.host_peak_bytes | $in_block))" "$out" "prof-time --memory: the same"

# The interposer did not enter: the cause named.
if cc -O1 -static -pthread -o "$T/static" test/data/heap/heap.c 2>/dev/null
then
	run prof-mem --name st --repeat 1 -- "$T/static"
	is "$rc:$(errline)" "0:prof-mem: st: no heap numbers: the allocation interposer did not count '$T/static': a static program (metrics.heap_tracked false)" \
		"a static program: said so"
	SH=$(readlink -f /bin/sh)
	run prof-mem --name sh --repeat 1 -- sh -c "'$T/static'; true"
	is "$rc:$(errline)" "0:prof-mem: sh: no heap numbers: the allocation interposer did not count '$T/static', run by '$SH': a static program (metrics.heap_tracked false)" \
		"one a shell runs: said so, naming the shell (it was counted as the shell's 2 kB)"
	jq_ok '.metrics.heap_tracked == false and (.memory | keys) ==
		["rss_peak_bytes"]' "$out" "no heap numbers"
	cp "$T/static" "$odd.st"
	run prof-mem --name odd --repeat 1 -- "$odd.st"
	is "$(errline)" "prof-mem: odd: no heap numbers: the allocation interposer did not count '$WANT.st': a static program (metrics.heap_tracked false)" \
		"a path of any bytes: the message valid UTF-8"
else
	skip "no static libc"
	skip "no static libc"
	skip "no static libc"
	skip "no static libc"
fi
cp "$T/heap" "$T/suid"
if [ "$(id -u)" = 0 ] && chown 65534 "$T/suid" 2>/dev/null &&
	chmod 4755 "$T/suid" && chmod 755 "$T"; then
	run prof-mem --name su --repeat 1 -- "$T/suid"
	is "$rc:$(errline)" "0:prof-mem: su: no heap numbers: the allocation interposer did not count '$T/suid': a setuid program (metrics.heap_tracked false)" \
		"a setuid program of another user: said so"
else
	skip "cannot make a setuid program of another user here"
fi
chmod 755 "$T/heap"
cp "$T/heap" "$T/mine"
chmod 4755 "$T/mine"
run prof-mem --name mine --repeat 1 -- "$T/mine"
jq_ok ".metrics.heap_tracked == true and (.memory.host_peak_bytes |
	$in_block)" "$out" "a setuid program of this user (no secure execution): counted"
finish
