/* tiny.c: the workload of the tiny library project (its tests): the
 * library's sum of TINY_N seeded integers. */
#include <stdint.h>
#include <stdlib.h>

#include <prof/workload.h>

#include "sum.h"

#define TINY_N 100000

struct state {
	uint32_t *v;
	uint64_t sum;
};

static int
prepare(struct prof_ctx *ctx, void **out)
{
	struct state *s = calloc(1, sizeof(*s));
	uint32_t x = 7;
	size_t i;

	if (!s || !(s->v = malloc(TINY_N * sizeof(*s->v)))) {
		free(s);
		return prof_fail(ctx, "out of memory");
	}
	for (i = 0; i < TINY_N; i++) {
		x = x * 1664525u + 1013904223u;
		s->v[i] = x >> 8;
	}
	*out = s;
	return 0;
}

static int
run(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	s->sum = tiny_sum(s->v, TINY_N);
	(void)ctx;
	return 0;
}

static int
validate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	return s->sum ? 0 : prof_fail(ctx, "the sum is 0");
}

static void
teardown(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	(void)ctx;
	free(s->v);
	free(s);
}

static const struct prof_workload tiny_sum_w = {
	.id = "tiny.sum", .version = 1,
	.category = "tiny", .fixture = "lcg-7",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 5,
	.dtype = "uint32", .problem_size = "100000", .tile = "none",
	.prepare = prepare, .run = run, .validate = validate,
	.teardown = teardown,
};
PROF_WORKLOAD(tiny_sum_w);
