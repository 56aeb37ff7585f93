#!/bin/bash
# The allocation interposer in a command's process tree: a forked child's
# line counts from the fork on, so its heap peak is what it allocated, not
# the parent's heap that it inherited (each child counted it again, and
# the tree's sum of peaks with it); threads that allocate at once are
# counted together, every allocation once, their peak the largest live;
# a program's path is its record's whole, however long (it was cut at
# 1,023 bytes, and a path of quotes ran the line past its buffer).
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip_all "no C compiler"
plan 8

# The parent keeps 1 MiB live, then forks 3 children that each allocate
# 10,000 bytes and exit.
cat >"$T/forks.c" <<'EOF2'
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int
main(void)
{
	char *big = malloc(1 << 20), *small;
	int i;

	memset(big, 1, 1 << 20);
	for (i = 0; i < 3; i++) {
		if (fork() == 0) {
			small = malloc(10000);
			memset(small, 2, 10000);
			free(small);
			exit(0);
		}
		wait(NULL);
	}
	free(big);
	return 0;
}
EOF2
cc -O0 -o "$T/forks" "$T/forks.c" || exit 1

run prof-mem --name forks --repeat 1 -- "$T/forks"
is "$rc" 0 "prof-mem -- a program that forks: exit 0"
jq_ok '.memory.processes == 4 and (.processes | map(.pid) | unique |
	length == 4)' "$out" "one line per process: the parent and 3 children"
jq_ok '[.processes[] | select(.host_allocated_bytes < 20000)] | length == 3 and
	all(.[]; .host_peak_bytes >= 10000 and .host_peak_bytes < 20000 and
	.host_live_at_exit_bytes == 0)' "$out" \
	"each child's peak is its own 10,000 bytes, not the parent's 1 MiB"
jq_ok '.memory.host_peak_bytes >= 1048576 and
	.memory.host_peak_sum_bytes < .memory.host_peak_bytes + 3 * 20000' \
	"$out" "the tree's sum of peaks counts the parent's heap once"

# 8 threads at once, each 20,000 rounds of malloc, calloc, realloc and
# free, then one 1 MiB block after they joined.
cat >"$T/threads.c" <<'EOF2'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
static void *
work(void *arg)
{
	int i;

	for (i = 0; i < 20000; i++) {
		char *p = malloc(64), *q = calloc(1, 32);

		q = realloc(q, 200);
		memset(p, 1, 64);
		memset(q, 1, 200);
		free(p);
		free(q);
	}
	return arg;
}
int
main(void)
{
	pthread_t t[8];
	char *big;
	int i;

	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	big = malloc(1 << 20);
	memset(big, 1, 1 << 20);
	free(big);
	return 0;
}
EOF2
cc -O0 -pthread -o "$T/threads" "$T/threads.c" || exit 1
run prof-mem --name threads -- "$T/threads"
is "$rc" 0 "prof-mem -- a program whose threads allocate at once: exit 0"
jq_ok -s 'length == 2 and all(.[]; .memory.host_allocs >= 8 * 3 * 20000 and
	.memory.host_allocs < 8 * 3 * 20000 + 100 and
	.memory.host_peak_bytes >= 1048576 and
	.memory.host_peak_bytes < 1048576 + 65536 and
	.processes[0].host_live_at_exit_bytes < 65536) and
	(map(.memory.host_allocs) | unique | length == 1)' "$out" \
	"every allocation counted once, the same count twice, the peak the 1 MiB block"

# A program at a path of 1,800 bytes, with quotes and backslashes.
d=$T/q
for i in 1 2 3 4 5 6 7 8 9; do
	d=$d/$(printf '"\\%.0s' $(seq 1 40))$(printf 'd%.0s' $(seq 1 100))
done
mkdir -p "$d" && cp "$T/forks" "$d/forks" || exit 1
run prof-mem --name long --repeat 1 -- "$d/forks"
is "$rc" 0 "prof-mem -- a program at a path of ${#d} bytes: exit 0"
export EXE=$d/forks
jq_ok '.metrics.heap_tracked == true and
	.memory.processes == 4 and all(.processes[]; .exe == env.EXE)' "$out" \
	"each record names its whole path"
finish
