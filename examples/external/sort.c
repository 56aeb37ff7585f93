/* sort.c: a workload of another project, built against an installed prof
 * (pkg-config prof-harness): sorting 200,000 seeded integers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <prof/workload.h>

#define N 200000

struct state {
	uint32_t *input;
	uint32_t *work;
};

static int
by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
prepare(struct prof_ctx *ctx, void **out)
{
	struct state *s = calloc(1, sizeof(*s));
	uint32_t x = 20260710;
	size_t i;

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->input = malloc(N * sizeof(*s->input));
	s->work = malloc(N * sizeof(*s->work));
	if (!s->input || !s->work) {
		free(s->input);
		free(s->work);
		free(s);
		return prof_fail(ctx, "out of memory");
	}
	for (i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;	/* a fixed LCG: same data */
		s->input[i] = x;
	}
	prof_fixture_bytes(ctx, s->input, N * sizeof(*s->input));
	*out = s;
	return 0;
}

static int
run(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	memcpy(s->work, s->input, N * sizeof(*s->work));
	qsort(s->work, N, sizeof(*s->work), by_value);
	prof_metric(ctx, "items", N);
	return 0;
}

static int
validate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;
	char hex[PROF_SUM_HEX];
	size_t i;

	for (i = 1; i < N; i++)
		if (s->work[i - 1] > s->work[i])
			return prof_fail(ctx, "not sorted at %zu", i);
	if (prof_sum_buffer(s->work, N * sizeof(*s->work), hex) < 0)
		return prof_fail(ctx, "out of memory");
	prof_output_checksum(ctx, hex);
	return 0;
}

static void
teardown(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	(void)ctx;
	free(s->input);
	free(s->work);
	free(s);
}

static const struct prof_workload sort_u32 = {
	.id = "external.sort_u32", .version = 1,
	.category = "external", .fixture = "lcg-20260710-200000",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 1,
	.dtype = "uint32", .problem_size = "200000", .tile = "none",
	.prepare = prepare, .run = run, .validate = validate,
	.teardown = teardown,
};
PROF_WORKLOAD(sort_u32);
