/* ab.c: the A/B test pair. Built twice: prof-ab-a as it is, prof-ab-b
 * with AB_WORK_PCT=130, so that test.ab does 30% more work in run() on the
 * B side; test.ab_same is the same on both sides. */
#include <stdint.h>
#include <stdlib.h>

#include "prof/workload.h"

#ifndef AB_WORK_PCT
#define AB_WORK_PCT 100
#endif

/* About 30 ms of dependent integer work per call at 100%: long enough
 * that a scheduler time slice is small beside it. */
#define AB_STEPS 20000000L

struct abstate {
	long steps;
	uint64_t seed;
	uint64_t out;
};

/* The work: a dependent multiply-xor chain the compiler cannot shorten. */
static uint64_t
chain(uint64_t x, long steps)
{
	long i;

	for (i = 0; i < steps; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + (uint64_t)i;
	return x;
}

static int
ab_prepare_steps(struct prof_ctx *ctx, void **state, long steps)
{
	struct abstate *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->steps = steps;
	s->seed = 20260710;
	prof_fixture_bytes(ctx, &s->seed, sizeof(s->seed));
	*state = s;
	return 0;
}

static int
ab_prepare(struct prof_ctx *ctx, void **state)
{
	return ab_prepare_steps(ctx, state, AB_STEPS * AB_WORK_PCT / 100);
}

static int
same_prepare(struct prof_ctx *ctx, void **state)
{
	return ab_prepare_steps(ctx, state, AB_STEPS);
}

static int
ab_run(struct prof_ctx *ctx, void *state)
{
	struct abstate *s = state;

	s->out = chain(s->seed, s->steps);
	prof_metric(ctx, "steps", (double)s->steps);
	return 0;
}

static int
ab_validate(struct prof_ctx *ctx, void *state)
{
	struct abstate *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	if (!s->out)
		return prof_fail(ctx, "no result");
	prof_sum_init(&sum);
	prof_sum_bytes(&sum, &s->out, sizeof(s->out));
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	return 0;
}

static void
ab_teardown(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static const struct prof_workload test_ab = {
	.id = "test.ab", .version = 1, .category = "test",
	.fixture = "ab-chain", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "20000000",
	.tile = "none", .cold_group = "test-ab",
	.prepare = ab_prepare, .run = ab_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab)

static const struct prof_workload test_ab_same = {
	.id = "test.ab_same", .version = 1, .category = "test",
	.fixture = "ab-chain", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "20000000",
	.tile = "none",
	.prepare = same_prepare, .run = ab_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab_same)
