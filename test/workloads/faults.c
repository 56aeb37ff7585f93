/* faults.c: test-only workloads that fail the way real ones die: killed
 * by SIGKILL in the middle of a call (as the OOM killer does), or out of
 * memory under a limit (as in a container), next to one that is fine. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "prof/workload.h"

/* The address-space limit the memory hog runs under. */
#define HOG_LIMIT ((rlim_t)512 << 20)
#define HOG_CHUNK ((size_t)16 << 20)

static int
fine_run(struct prof_ctx *ctx, void *state)
{
	volatile unsigned long x = 0;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++)
		x += (unsigned long)i;
	prof_metric(ctx, "sum", (double)x);
	return 0;
}

static const struct prof_workload fault_fine = {
	.id = "test.fault_fine", .version = 1, .category = "fault",
	.fixture = "none", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = fine_run,
};
PROF_WORKLOAD(fault_fine)

/* The first call succeeds; the second is killed halfway through. */
static int
sigkill_run(struct prof_ctx *ctx, void *state)
{
	static int calls;

	(void)ctx;
	(void)state;
	if (++calls == 2) {
		fputs("sigkill: killing myself mid-call\n", stderr);
		kill(getpid(), SIGKILL);
		pause();
	}
	return 0;
}

static const struct prof_workload fault_sigkill = {
	.id = "test.sigkill", .version = 1, .category = "fault",
	.fixture = "none", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = sigkill_run,
};
PROF_WORKLOAD(fault_sigkill)

static int
hog_prepare(struct prof_ctx *ctx, void **state)
{
	struct rlimit r = {HOG_LIMIT, HOG_LIMIT};

	(void)state;
	if (setrlimit(RLIMIT_AS, &r) < 0)
		return prof_fail(ctx, "setrlimit: cannot limit memory");
	return 0;
}

/*
 * Allocate and touch memory until malloc says no, then die the way most
 * programs do: a message and abort().
 */
static int
hog_run(struct prof_ctx *ctx, void *state)
{
	size_t mb = 0;
	char *p;

	(void)ctx;
	(void)state;
	for (;;) {
		p = malloc(HOG_CHUNK);
		if (!p)
			break;
		memset(p, 1, HOG_CHUNK);
		mb += HOG_CHUNK >> 20;
	}
	fprintf(stderr, "fatal: out of memory after %zu MB\n", mb);
	abort();
}

static const struct prof_workload fault_hog = {
	.id = "test.oom", .version = 1, .category = "fault",
	.fixture = "none", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 1, .prepare = hog_prepare, .run = hog_run,
};
PROF_WORKLOAD(fault_hog)
