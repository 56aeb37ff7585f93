/* badid.c: a binary that registers a workload whose id could inject a CI
 * workflow command into a log: refused at start-up. */
#include "prof/workload.h"

static int
run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static const struct prof_workload bad = {
	.id = "test.bad\n::error ::injected", .version = 1, .category = "test",
	.backends = PROF_CPU, .run = run,
};
PROF_WORKLOAD(bad)
