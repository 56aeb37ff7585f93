/* primitive.c: the engine's kernels alone: nearest site, greedy order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/nearest.h"
#include "engine/order.h"
#include "engine/fixture.h"
#include "engine/rng.h"
#include "suite.h"

#define NS_POINTS 4000
#define NS_SITES 1000
#define PAGE_W 420.0
#define PAGE_H 297.0

struct nearest {
	float pts[2 * NS_POINTS];
	float sites[2 * NS_SITES];
	int32_t out[NS_POINTS];
};

static int
nearest_prepare(struct prof_ctx *ctx, void **state)
{
	struct nearest *s = calloc(1, sizeof(*s));
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	struct pk_rng rng;
	size_t i;

	if (!s)
		return prof_fail(ctx, "out of memory");
	pk_rng_seed(&rng, PK_FIXTURE_SEED);
	for (i = 0; i < NS_POINTS; i++) {
		s->pts[2 * i] = (float)pk_rng_range(&rng, 0, PAGE_W);
		s->pts[2 * i + 1] = (float)pk_rng_range(&rng, 0, PAGE_H);
	}
	for (i = 0; i < NS_SITES; i++) {
		s->sites[2 * i] = (float)pk_rng_range(&rng, 0, PAGE_W);
		s->sites[2 * i + 1] = (float)pk_rng_range(&rng, 0, PAGE_H);
	}
	if (prof_sum_init(&sum) < 0) {
		free(s);
		return prof_fail(ctx, "out of memory");
	}
	prof_sum_f32s(&sum, s->pts, 2 * NS_POINTS);
	prof_sum_f32s(&sum, s->sites, 2 * NS_SITES);
	prof_sum_final(&sum, hex);
	prof_fixture_checksum(ctx, hex);
	*state = s;
	return 0;
}

static int
nearest_run(struct prof_ctx *ctx, void *state)
{
	struct nearest *s = state;

	(void)ctx;
	memset(s->out, 0xff, sizeof(s->out));
	pk_nearest_site(s->pts, NS_POINTS, s->sites, NS_SITES, s->out);
	return 0;
}

static int
nearest_validate(struct prof_ctx *ctx, void *state)
{
	struct nearest *s = state;
	unsigned char used[NS_SITES] = {0};
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	size_t i, j, nused = 0;

	for (i = 0; i < NS_POINTS; i++) {
		int32_t k = s->out[i];

		if (k < 0 || k >= NS_SITES)
			return prof_fail(ctx, "point %zu: site %d out of range",
					 i, (int)k);
		nused += !used[k];
		used[k] = 1;
	}
	/* Spot-check against float64: the pick is nearest to float error. */
	for (i = 0; i < NS_POINTS; i += 37) {
		double px = s->pts[2 * i], py = s->pts[2 * i + 1], best = 1e300;
		double dx = px - s->sites[2 * s->out[i]];
		double dy = py - s->sites[2 * s->out[i] + 1];

		for (j = 0; j < NS_SITES; j++) {
			double ex = px - s->sites[2 * j];
			double ey = py - s->sites[2 * j + 1];

			if (ex * ex + ey * ey < best)
				best = ex * ex + ey * ey;
		}
		if (dx * dx + dy * dy > best * (1 + 1e-5) + 1e-9)
			return prof_fail(ctx, "point %zu: site %d is not the "
					      "nearest", i, (int)s->out[i]);
	}
	if (prof_sum_init(&sum) < 0)
		return prof_fail(ctx, "out of memory");
	prof_sum_i32s(&sum, s->out, NS_POINTS);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "points", NS_POINTS);
	prof_metric(ctx, "sites", NS_SITES);
	prof_metric(ctx, "sites_used", (double)nused);
	return 0;
}

static void
nearest_teardown(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static const struct prof_workload nearest_site_assignment = {
	.id = "primitive.nearest_site_assignment",
	.version = 1,
	.category = "primitive",
	.fixture = "uniform-4000-points-1000-sites-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 1,
	.dtype = "float32",
	.problem_size = "4000x1000",
	.tile = "none",
	.prepare = nearest_prepare,
	.run = nearest_run,
	.validate = nearest_validate,
	.teardown = nearest_teardown,
};
PROF_WORKLOAD(nearest_site_assignment)

#define ORDER_PATHS 10000

struct order {
	double ends[4 * ORDER_PATHS];
	int32_t order[ORDER_PATHS];
	unsigned char rev[ORDER_PATHS];
	double before;		/* pen-up travel in the given order */
};

static int
order_prepare(struct prof_ctx *ctx, void **state)
{
	struct order *s = calloc(1, sizeof(*s));
	struct pk_rng rng;
	size_t i;

	if (!s)
		return prof_fail(ctx, "out of memory");
	/* Short strokes anywhere on the page, up to 15 mm each way. */
	pk_rng_seed(&rng, PK_FIXTURE_SEED);
	for (i = 0; i < ORDER_PATHS; i++) {
		double x = pk_rng_range(&rng, 0, PAGE_W);
		double y = pk_rng_range(&rng, 0, PAGE_H);

		s->ends[4 * i] = x;
		s->ends[4 * i + 1] = y;
		s->ends[4 * i + 2] = x + pk_rng_range(&rng, -15, 15);
		s->ends[4 * i + 3] = y + pk_rng_range(&rng, -15, 15);
	}
	s->before = pk_order_travel(s->ends, ORDER_PATHS, 0, 0, NULL, NULL);
	prof_fixture_bytes(ctx, s->ends, sizeof(s->ends));
	*state = s;
	return 0;
}

static int
order_run(struct prof_ctx *ctx, void *state)
{
	struct order *s = state;

	if (pk_order_greedy(s->ends, ORDER_PATHS, 0, 0, 1, s->order,
			    s->rev) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static int
order_validate(struct prof_ctx *ctx, void *state)
{
	struct order *s = state;
	unsigned char *seen = calloc(ORDER_PATHS, 1);
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	double after;
	size_t k;
	int rc = -1;

	if (!seen)
		return prof_fail(ctx, "out of memory");
	for (k = 0; k < ORDER_PATHS; k++) {
		int32_t p = s->order[k];

		if (p < 0 || p >= ORDER_PATHS || seen[p]) {
			prof_fail(ctx, "order[%zu] = %d: not a permutation", k,
				  (int)p);
			goto out;
		}
		seen[p] = 1;
	}
	after = pk_order_travel(s->ends, ORDER_PATHS, 0, 0, s->order, s->rev);
	if (!(after < s->before / 4)) {
		prof_fail(ctx, "pen-up travel %.3f mm is not under a quarter "
			       "of %.3f mm", after, s->before);
		goto out;
	}
	if (prof_sum_init(&sum) < 0) {
		prof_fail(ctx, "out of memory");
		goto out;
	}
	prof_sum_i32s(&sum, s->order, ORDER_PATHS);
	prof_sum_bytes(&sum, s->rev, ORDER_PATHS);
	prof_sum_f64(&sum, after);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "paths", ORDER_PATHS);
	prof_metric(ctx, "pen_up_before_mm", s->before);
	prof_metric(ctx, "pen_up_after_mm", after);
	rc = 0;
out:
	free(seen);
	return rc;
}

static void
order_teardown(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static const struct prof_workload greedy_path_order = {
	.id = "primitive.greedy_path_order",
	.version = 1,
	.category = "primitive",
	.fixture = "strokes-10000-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU,
	.warning_floor_ms = 2,
	.dtype = "float64",
	.problem_size = "10000",
	.tile = "none",
	.prepare = order_prepare,
	.run = order_run,
	.validate = order_validate,
	.teardown = order_teardown,
};
PROF_WORKLOAD(greedy_path_order)
