/* dup.c: a binary that registers the same workload id twice. */
#include "prof/workload.h"

static int
run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static const struct prof_workload first = {
	.id = "test.twice", .version = 1, .category = "test",
	.backends = PROF_CPU, .run = run,
};
PROF_WORKLOAD(first)

static const struct prof_workload second = {
	.id = "test.twice", .version = 1, .category = "test",
	.backends = PROF_CPU, .run = run,
};
PROF_WORKLOAD(second)
