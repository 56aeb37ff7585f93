#!/bin/bash
# alloc-stack.sh: how much of a PTHREAD_STACK_MIN thread's stack is left
# for a program that calls exit() from it, without and with the
# allocation interposer (libprof-alloc.so with PROF_ALLOC_LOG set, as
# prof-mem runs a command): the thread first takes K bytes of its stack
# (alloca), then calls exit(); the largest K that still exits 0, found in
# steps of STEP bytes (default 32). The interposer's exit hook needed
# about 20 KB (no K at all exited before); it should leave what glibc's
# own exit path leaves.
#
# usage: test/bench/alloc-stack.sh [STEP]     (after make: bin/)
set -u
cd "$(dirname "$0")/../.." || exit 2
step=${1:-32}
t=$(mktemp -d "${TMPDIR:-/tmp}/alloc-stack.XXXXXX") || exit 2
trap 'rm -rf "$t"' EXIT
cat >"$t/edge.c" <<'EOF2'
#include <alloca.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long k;
static void *
th(void *a)
{
	char *p = alloca(k);

	memset(p, 0, k);
	__asm__ volatile("" : : "r"(p) : "memory");
	exit(0);
	return a;
}
int
main(int argc, char **argv)
{
	pthread_attr_t at;
	pthread_t t;

	k = atol(argv[1]);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
	pthread_create(&t, &at, th, NULL);
	for (;;)
		pause();
}
EOF2
cc -O1 -pthread -o "$t/edge" "$t/edge.c" || exit 2
mkdir "$t/recs"
# largest PRELOAD...: the largest K (a multiple of step) that exits 0.
largest() {
	local k=0 last=-1
	while [ $k -le 65536 ]; do
		if env "$@" "$t/edge" $k 2>/dev/null; then
			last=$k
		else
			break
		fi
		k=$((k + step))
	done
	echo "$last"
}
echo "PTHREAD_STACK_MIN: $(getconf PTHREAD_STACK_MIN 2>/dev/null || echo ?)"
echo "largest K that exits 0, plain:            $(largest X=1)"
echo "largest K that exits 0, with interposer:  $(largest \
	LD_PRELOAD="$PWD/bin/libprof-alloc.so" PROF_ALLOC_LOG="$t/recs")"
echo "(-1: not even K = 0)"
