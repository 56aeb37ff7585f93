#!/bin/bash
# The allocation interposer's records of a command's tree: a process that a
# signal ends is counted up to its end (its 48 MiB were dropped, and the
# tree's peak was the shell's 2 kB, success, no word); a program run with
# an environment stripped of the interposer (env -i, env -u LD_PRELOAD, a
# posix_spawn with an empty environment) cannot be counted and is said so:
# no heap numbers, the program under "untracked", one line on stderr,
# never a 0 as success.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip_all "no C compiler"
plan 20

cc -O1 -pthread -o "$T/heap" test/data/heap/heap.c || exit 1
# A program that starts its first argument by posix_spawn() with an empty
# environment (a second argument: with its own).
cat >"$T/spawn.c" <<'EOF2'
#include <spawn.h>
#include <sys/wait.h>
extern char **environ;
int
main(int argc, char **argv)
{
	char *none[] = {0}, *args[] = {argv[1], 0};
	pid_t pid;

	if (posix_spawn(&pid, argv[1], 0, 0, args, argc > 2 ? environ : none))
		return 9;
	waitpid(pid, 0, 0);
	return 0;
}
EOF2
cc -O1 -o "$T/spawn" "$T/spawn.c" || exit 1
cd "$T" || exit 1
BLOCK=50331648			# the 48 MiB block; its usable size a little more
in_block='. >= 50331648 and . < 50331648 + 65536'
SH=$(readlink -f /bin/sh)
ENV=$(readlink -f "$(command -v env)")
export SH ENV
# The RSS peak of the last sample of $out in MiB, as the summary prints it.
rss_mib() {
	tail -n 1 "$out" | jq -r '.memory.rss_peak_bytes' |
		awk '{ printf "%.2f", $1 / 1048576 }'
}

# A child killed by SIGKILL, and one by SIGSEGV: counted to their end.
run prof-mem --name k --repeat 1 -- sh -c './heap kill; ./heap segv; true'
is "$rc:$(grep -c . "$err")" "0:1" "a tree whose children a signal ends: exit 0, one line"
jq_ok ".outcome == \"success\" and .metrics.heap_tracked == true and
	(.memory.host_peak_bytes | $in_block) and .memory.processes == 3 and
	(.memory.host_peak_sum_bytes | . >= 2 * $BLOCK)" "$out" \
	"the killed children's 48 MiB counted: the peak and the sum of peaks"
jq_ok "[.processes[] | select(.exe == \"$T/heap\")] | length == 2 and
	all(.[]; .ended == \"signal\" and (.host_peak_bytes | $in_block) and
	.host_live_at_exit_bytes >= $BLOCK and (has(\"rss_peak_bytes\") | not))" \
	"$out" "each one's record: ended by a signal, its block live at its end, no RSS peak"
jq_ok '[.processes[] | select(.ended == "exit")] | length == 1 and
	.[0].exe == env.SH' "$out" "the shell's: exited"
is "$(cat "$err")" "prof-mem: k: host heap peak 48.00 MiB, RSS peak $(rss_mib) MiB, 0 error(s)" \
	"its summary line says the 48 MiB"

# The command's own process killed: an error sample, its heap counted.
run prof-mem --name own --repeat 1 -- ./heap kill
is "$rc" 1 "the command killed by SIGKILL: exit 1"
jq_ok ".outcome == \"error\" and
	.reason == \"killed by signal 9 (SIGKILL: Killed)\" and
	.metrics.heap_tracked == true and (.memory.host_peak_bytes | $in_block)" \
	"$out" "an error sample that keeps what it allocated"

# env -i: the program has no interposer, and is said so.
why="its environment lacked LD_PRELOAD or PROF_ALLOC_LOG, as env -i leaves it"
run prof-mem --name e --repeat 1 -- sh -c 'env -i ./heap; true'
is "$rc" 0 "a child run by env -i: exit 0, no error"
jq_ok '.outcome == "success" and .metrics.heap_tracked == false and
	(.memory | keys) == ["rss_peak_bytes"]' "$out" \
	"no heap numbers (the shell's 2 kB were its peak), the RSS peak still"
jq_ok "(.untracked | length) == 1 and .untracked[0].program == \"$T/heap\"
	and .untracked[0].run_by == env.ENV and
	.untracked[0].why == \"$why\" and (.untracked[0].pid | . > 0)" "$out" \
	"the sample names the program not counted, what ran it and why"
jq_ok "[.processes[] | select(.ended == \"exec\")] | length == 1 and
	.[0].exe == env.ENV and .[0].exec == \"$T/heap\"" "$out" \
	"env's record: it ran exec of a program the interposer did not enter"
is "$(cat "$err")" "prof-mem: e: no heap numbers: the allocation interposer did not count '$T/heap', run by '$ENV': $why (metrics.heap_tracked false)
prof-mem: e: no heap numbers, RSS peak $(rss_mib) MiB, 0 error(s)" \
	"said on stderr, once, and the summary says no heap numbers (no 0)"

# env -i as the command itself, env -u LD_PRELOAD, and through prof-time
# --memory and prof-count --memory.
run prof-mem --name e2 --repeat 2 -- env -i ./heap
jq_ok -s "length == 2 and all(.[]; .outcome == \"success\" and
	.metrics.heap_tracked == false and .untracked[0].program ==
	\"$T/heap\" and .untracked[0].why == \"$why\")" "$out" \
	"env -i ./heap as the command: not counted, and said"
is "$rc:$(grep -c 'no heap numbers: the allocation' "$err")" "0:1" \
	"said once for the two runs"
run prof-mem --name e3 --repeat 1 -- env -u LD_PRELOAD ./heap
jq_ok ".metrics.heap_tracked == false and .untracked[0].why == \"$why\"" \
	"$out" "env -u LD_PRELOAD: the same"
run prof-time --name e4 --repeat 1 --memory -- env -i ./heap
is "$rc:$(errline)" "0:prof-time: e4: no heap numbers: the allocation interposer did not count '$T/heap', run by '$ENV': $why (metrics.heap_tracked false)" \
	"prof-time --memory says it"
if command -v valgrind >/dev/null; then
	run prof-count --name e5 --repeat 1 --memory -- sh -c \
		'./heap kill; env -i ./heap'
	jq_ok -s "[.[] | select(.phase == \"memory\")] | length == 2 and
		all(.[]; .metrics.heap_tracked == false and
		.untracked[0].why == \"$why\" and
		([.processes[] | select(.ended == \"signal\")] | length == 1))" \
		"$out" "prof-count --memory: the killed child's record, the stripped one said"
else
	skip "valgrind is not installed"
fi

# posix_spawn() with an empty environment, and with the caller's.
run prof-mem --name s --repeat 1 -- ./spawn ./heap
jq_ok ".metrics.heap_tracked == false and .untracked[0].program == \"$T/heap\"
	and .untracked[0].run_by == \"$T/spawn\" and .untracked[0].why ==
	\"$why\"" "$out" "a program posix_spawn starts with an empty environment: said"
run prof-mem --name s2 --repeat 1 -- ./spawn ./heap own
jq_ok ".metrics.heap_tracked == true and (.memory.host_peak_bytes |
	$in_block) and .memory.processes == 2 and (has(\"untracked\") | not)" \
	"$out" "with the caller's environment: counted, nothing untracked"
run prof-mem --name s3 --repeat 1 -- sh -c './no-such-program; true'
jq_ok '.metrics.heap_tracked == true and (has("untracked") | not)' "$out" \
	"a program that is not there (the shell's exec failed): nothing said"
finish
