#!/bin/bash
# The allocation sites of a workload whose run() starts a thread that
# allocates: the thread's stack starts at glibc's start_thread, not in
# the harness's call of run(), and its allocations are the workload's
# (the harness starts no thread). prof-why --memory counts them: the
# site is the thread's function. (They were left out: "0 -> 0", no site,
# while the heap peak had doubled.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
command -v cc >/dev/null || skip_all "no C compiler"
plan 5

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
# SIZE bytes allocated on a thread that run() starts and joins.
cat >"$T/thr.c" <<'EOF2'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <prof/workload.h>

static size_t size = SIZE;

static void *
fill_on_thread(void *arg)
{
	char *p = malloc(size);

	if (p) {
		memset(p, 1, size);
		free(p);
	}
	return arg;
}

static int
run(struct prof_ctx *ctx, void *state)
{
	pthread_t t;

	(void)state;
	if (pthread_create(&t, NULL, fill_on_thread, NULL))
		return prof_fail(ctx, "no thread");
	pthread_join(t, NULL);
	return 0;
}

static const struct prof_workload thr_fill = {
	.id = "thr.fill", .version = 1, .category = "thr", .fixture = "none",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 5,
	.dtype = "none", .problem_size = "none", .tile = "none",
	.run = run, .threads = 2,
};
PROF_WORKLOAD(thr_fill);
EOF2
for s in 100000 200000; do
	cc -O1 -g -DSIZE=$s $(pkg-config --cflags prof-harness) -o "$T/w$s" \
		"$T/thr.c" $(pkg-config --libs prof-harness) -lpthread || exit 1
	# as make compare MEMORY=1 WHY=1 runs a side (why-lib.sh)
	LD_PRELOAD=$pfx/lib/prof/libprof-alloc.so valgrind -q --tool=dhat \
		--num-callers=100 --fullpath-after= \
		--dhat-out-file="$T/w$s.dhat.json" "$T/w$s" --worker thr.fill \
		--backend cpu --requested cpu --phase memory --warmup 0 \
		--repeat 1 >"$T/w$s.jsonl" 2>"$T/w$s.log"
done
jq_ok '.phase == "memory" and .outcome == "success"' "$T/w200000.jsonl" \
	"the worker's memory phase ran under DHAT"
run prof-why --json "$T/w100000.dhat.json" "$T/w200000.dhat.json"
is "$rc" 0 "prof-why on the two DHAT outputs: exit 0"
jq_ok '.scope_before == "run" and .scope_after == "run" and
	.bytes_before >= 100000 and .bytes_after - .bytes_before == 100000' \
	"$out" "the thread's bytes are counted, inside run()'s scope"
jq_ok '.sites[0].name == "fill_on_thread" and
	.sites[0].bytes_after - .sites[0].bytes_before == 100000 and
	(.sites[0].file | endswith("thr.c"))' "$out" \
	"the site is the thread's function"
jq_ok '[.sites[].name] | index("main") == null' "$out" \
	"nothing of the harness's start-up is counted"
finish
