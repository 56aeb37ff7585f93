/* primitive.c: the engine's kernels alone: nearest site, greedy order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/nearest.h"
#include "engine/order.h"
#include "engine/fixture.h"
#include "engine/rng.h"
#include "suite.h"

/*
 * With the CUDA backend, the nearest-site assignment and the greedy order
 * run on the GPU too. prepare() computes the CPU path's answer once, and
 * validate() requires the GPU's to be the same, index for index.
 */
#ifdef PROF_HAVE_CUDA
#include "cuda/pkcuda.h"
#define GPU_TOO PROF_GPU
#else
#define GPU_TOO 0
#endif

#define NS_POINTS 4000
#define NS_SITES 1000
#define PAGE_W 420.0
#define PAGE_H 297.0

struct nearest {
	float pts[2 * NS_POINTS];
	float sites[2 * NS_SITES];
	int32_t out[NS_POINTS];
	int32_t want[NS_POINTS];	/* the CPU's answer, on the GPU */
#ifdef PROF_HAVE_CUDA
	struct pkcuda_nearest gpu;
#endif
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
#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU) {
		char why[512];

		pk_nearest_site(s->pts, NS_POINTS, s->sites, NS_SITES, s->want);
		if (pkcuda_nearest_upload(&s->gpu, s->pts, NS_POINTS, s->sites,
					  NS_SITES, why, sizeof(why)) < 0)
			return prof_fail(ctx, "%s", why);
	}
#endif
	return 0;
}

static int
nearest_run(struct prof_ctx *ctx, void *state)
{
	struct nearest *s = state;

	memset(s->out, 0xff, sizeof(s->out));
#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU) {
		char why[512];

		if (pkcuda_nearest_run(&s->gpu, s->out, why, sizeof(why)) < 0)
			return prof_fail(ctx, "%s", why);
		return 0;
	}
#endif
	(void)ctx;
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
		if (prof_backend(ctx) == PROF_GPU && k != s->want[i])
			return prof_fail(ctx, "point %zu: the GPU chose site %d, "
					      "the CPU path %d",
					 i, (int)k, (int)s->want[i]);
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
#ifdef PROF_HAVE_CUDA
	struct nearest *s = state;

	if (prof_backend(ctx) == PROF_GPU)
		pkcuda_nearest_free(&s->gpu);
#endif
	(void)ctx;
	free(state);
}

static const struct prof_workload nearest_site_assignment = {
	.id = "primitive.nearest_site_assignment",
	.version = 1,
	.category = "primitive",
	.fixture = "uniform-4000-points-1000-sites-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU | GPU_TOO,
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
	int32_t want[ORDER_PATHS];	/* the CPU's order, on the GPU */
	unsigned char want_rev[ORDER_PATHS];
	double before;		/* pen-up travel in the given order */
#ifdef PROF_HAVE_CUDA
	struct pkcuda_order gpu;
#endif
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
#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU) {
		char why[512];

		if (pk_order_greedy(s->ends, ORDER_PATHS, 0, 0, 1, s->want,
				    s->want_rev) < 0)
			return prof_fail(ctx, "out of memory");
		if (pkcuda_order_upload(&s->gpu, s->ends, ORDER_PATHS, why,
					sizeof(why)) < 0)
			return prof_fail(ctx, "%s", why);
	}
#endif
	return 0;
}

static int
order_run(struct prof_ctx *ctx, void *state)
{
	struct order *s = state;

#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU) {
		char why[512];

		if (pkcuda_order_run(&s->gpu, 0, 0, 1, s->order, s->rev, why,
				     sizeof(why)) < 0)
			return prof_fail(ctx, "%s", why);
		return 0;
	}
#endif
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
		if (prof_backend(ctx) == PROF_GPU &&
		    (p != s->want[k] || s->rev[k] != s->want_rev[k])) {
			prof_fail(ctx, "step %zu: the GPU drew path %d%s, the "
				       "CPU path %d%s", k, (int)p,
				  s->rev[k] ? " reversed" : "", (int)s->want[k],
				  s->want_rev[k] ? " reversed" : "");
			goto out;
		}
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
#ifdef PROF_HAVE_CUDA
	struct order *s = state;

	if (prof_backend(ctx) == PROF_GPU)
		pkcuda_order_free(&s->gpu);
#endif
	(void)ctx;
	free(state);
}

static const struct prof_workload greedy_path_order = {
	.id = "primitive.greedy_path_order",
	.version = 1,
	.category = "primitive",
	.fixture = "strokes-10000-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU | GPU_TOO,
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
