/* generator.c: the seeded generators: stippling, circle packing, flow. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fixture.h"
#include "engine/flow.h"
#include "engine/pack.h"
#include "engine/stipple.h"
#include "suite.h"

/* With the CUDA backend, the stippler's nearest-site step runs on the GPU;
 * the dots must be the CPU path's, bit for bit. */
#ifdef PROF_HAVE_CUDA
#include "cuda/pkcuda.h"
#define GPU_TOO PROF_GPU
#else
#define GPU_TOO 0
#endif

/*
 * Each generator runs once in prepare() to record its output checksum;
 * every timed call must then give exactly the same output (and counts).
 */
struct gen {
	char want[PROF_SUM_HEX];
	char got[PROF_SUM_HEX];
	float *sites;
	struct pk_circle *circles;
	size_t placed;
	struct pk_drawing d;
	long lines;
#ifdef PROF_HAVE_CUDA
	struct pkcuda_nearest gpu;
#endif
};

static void
gen_teardown(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;

#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU)
		pkcuda_nearest_free(&s->gpu);
#endif
	(void)ctx;
	free(s->sites);
	free(s->circles);
	pk_drawing_free(&s->d);
	free(s);
}

static struct gen *
gen_new(struct prof_ctx *ctx)
{
	struct gen *s = calloc(1, sizeof(*s));

	if (!s)
		prof_fail(ctx, "out of memory");
	else
		pk_drawing_init(&s->d);
	return s;
}

/* Checked in validate(): the same output as in prepare(). */
static int
gen_same(struct prof_ctx *ctx, struct gen *s)
{
	if (strcmp(s->got, s->want))
		return prof_fail(ctx, "output %.12s... differs from the "
				      "first run's %.12s...", s->got, s->want);
	prof_output_checksum(ctx, s->got);
	return 0;
}

/* generator.stipple */

static const struct pk_stipple stipple = {
	.width = 420,
	.height = 297,
	.sites = 1000,
	.samples = 16000,
	.iterations = 6,
	.seed = PK_FIXTURE_SEED,
};

static int
stipple_run(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;

#ifdef PROF_HAVE_CUDA
	if (prof_backend(ctx) == PROF_GPU) {
		if (pk_stipple_with(&stipple, s->sites, pkcuda_nearest_fn,
				    &s->gpu) < 0)
			return prof_fail(ctx, "%s", pkcuda_last_error()[0] ?
						      pkcuda_last_error() :
						      "out of memory");
		return 0;
	}
#endif
	if (pk_stipple(&stipple, s->sites) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static void
stipple_sum(struct gen *s, char hex[PROF_SUM_HEX])
{
	struct prof_sum sum;

	hex[0] = '\0';
	if (prof_sum_init(&sum) < 0)
		return;
	prof_sum_f32s(&sum, s->sites, 2 * stipple.sites);
	prof_sum_final(&sum, hex);
}

static int
stipple_prepare(struct prof_ctx *ctx, void **state)
{
	const double params[] = {stipple.width, stipple.height,
				 (double)stipple.sites, (double)stipple.samples,
				 stipple.iterations, (double)stipple.seed};
	struct gen *s = gen_new(ctx);

	if (!s)
		return -1;
	*state = s;
	suite_fixture_params(ctx, params, sizeof(params) / sizeof(params[0]));
	s->sites = malloc(2 * stipple.sites * sizeof(*s->sites));
	if (!s->sites)
		return prof_fail(ctx, "out of memory");
	/* The CPU path's dots, whatever the backend: a GPU run must give
	 * these. */
	if (pk_stipple(&stipple, s->sites) < 0)
		return prof_fail(ctx, "out of memory");
	stipple_sum(s, s->want);
	return 0;
}

static int
stipple_validate(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;
	size_t i;

	for (i = 0; i < stipple.sites; i++) {
		float x = s->sites[2 * i], y = s->sites[2 * i + 1];

		if (!(x >= 0 && x <= stipple.width && y >= 0 &&
		      y <= stipple.height))
			return prof_fail(ctx, "dot %zu (%g, %g) is off the "
					      "page", i, x, y);
	}
	stipple_sum(s, s->got);
	if (gen_same(ctx, s) < 0)
		return -1;
	prof_metric(ctx, "shapes", (double)stipple.sites);
	prof_metric(ctx, "points", (double)stipple.samples);
	return 0;
}

static const struct prof_workload gen_stipple = {
	.id = "generator.stipple",
	.version = 1,
	.category = "generator",
	.fixture = "stipple-1000-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU | GPU_TOO,
	.warning_floor_ms = 5,
	.dtype = "float32",
	.problem_size = "1000x16000x6",
	.tile = "none",
	.prepare = stipple_prepare,
	.run = stipple_run,
	.validate = stipple_validate,
	.teardown = gen_teardown,
};
PROF_WORKLOAD(gen_stipple)

/* generator.circle_packing */

static const struct pk_pack pack = {
	.width = 420,
	.height = 297,
	.margin = 10,
	.rmin = 0.6,
	.rmax = 6,
	.gap = 0.4,
	.count = 5000,
	.attempts = 400000,
	.seed = PK_FIXTURE_SEED,
};

static int
pack_run(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;

	if (pk_pack(&pack, s->circles, &s->placed) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static void
pack_sum(struct gen *s, char hex[PROF_SUM_HEX])
{
	struct prof_sum sum;

	hex[0] = '\0';
	if (prof_sum_init(&sum) < 0)
		return;
	prof_sum_f64s(&sum, &s->circles[0].x, 3 * s->placed);
	prof_sum_final(&sum, hex);
}

static int
pack_prepare(struct prof_ctx *ctx, void **state)
{
	const double params[] = {pack.width, pack.height, pack.margin,
				 pack.rmin,  pack.rmax,	  pack.gap,
				 (double)pack.count, (double)pack.attempts,
				 (double)pack.seed};
	struct gen *s = gen_new(ctx);

	if (!s)
		return -1;
	*state = s;
	suite_fixture_params(ctx, params, sizeof(params) / sizeof(params[0]));
	s->circles = malloc(pack.count * sizeof(*s->circles));
	if (!s->circles)
		return prof_fail(ctx, "out of memory");
	if (pack_run(ctx, s) < 0)
		return -1;
	pack_sum(s, s->want);
	return 0;
}

static int
pack_validate(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;
	size_t i, j;

	if (suite_expect(ctx, "circles", (double)s->placed,
			 (double)pack.count))
		return -1;
	/* No two circles closer than the gap; all inside the margin. */
	for (i = 0; i < s->placed; i++) {
		const struct pk_circle *a = &s->circles[i];

		if (a->r < pack.rmin || a->r > pack.rmax ||
		    a->x - a->r < pack.margin - 1e-9 ||
		    a->y - a->r < pack.margin - 1e-9 ||
		    a->x + a->r > pack.width - pack.margin + 1e-9 ||
		    a->y + a->r > pack.height - pack.margin + 1e-9)
			return prof_fail(ctx, "circle %zu is out of bounds", i);
		for (j = 0; j < i; j++) {
			const struct pk_circle *b = &s->circles[j];
			double dx = a->x - b->x, dy = a->y - b->y;
			double reach = a->r + b->r + pack.gap - 1e-9;

			if (dx * dx + dy * dy < reach * reach)
				return prof_fail(ctx, "circles %zu and %zu "
						      "overlap", j, i);
		}
	}
	pack_sum(s, s->got);
	if (gen_same(ctx, s) < 0)
		return -1;
	prof_metric(ctx, "shapes", (double)s->placed);
	return 0;
}

static const struct prof_workload gen_circle_packing = {
	.id = "generator.circle_packing",
	.version = 1,
	.category = "generator",
	.fixture = "pack-5000-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "5000",
	.tile = "none",
	.prepare = pack_prepare,
	.run = pack_run,
	.validate = pack_validate,
	.teardown = gen_teardown,
};
PROF_WORKLOAD(gen_circle_packing)

/* generator.flow_field */

static const struct pk_flow flow = {
	.width = 420,
	.height = 297,
	.margin = 10,
	.scale = 60,
	.dsep = 2.0,
	.dtest = 1.0,
	.step = 0.5,
	.max_points = 2000,
	.min_points = 10,
	.seed = PK_FIXTURE_SEED,
};

static int
flow_run(struct prof_ctx *ctx, void *state)
{
	static const struct pk_style st = {0, 0, 0, 0.3};
	struct gen *s = state;

	pk_drawing_clear(&s->d);
	if (pk_drawing_pen(&s->d, 0x000000) < 0 ||
	    pk_drawing_layer(&s->d, NULL, 0) < 0)
		return prof_fail(ctx, "out of memory");
	s->d.width_mm = flow.width;
	s->d.height_mm = flow.height;
	s->lines = pk_flow_field(&flow, &st, &s->d);
	if (s->lines < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static void
flow_sum(struct gen *s, char hex[PROF_SUM_HEX])
{
	struct prof_sum sum;

	hex[0] = '\0';
	if (prof_sum_init(&sum) < 0)
		return;
	suite_sum_drawing(&sum, &s->d);
	prof_sum_final(&sum, hex);
}

static int
flow_prepare(struct prof_ctx *ctx, void **state)
{
	const double params[] = {flow.width, flow.height, flow.margin,
				 flow.scale, flow.dsep,	  flow.dtest,
				 flow.step,  (double)flow.max_points,
				 (double)flow.min_points, (double)flow.seed};
	struct gen *s = gen_new(ctx);

	if (!s)
		return -1;
	*state = s;
	suite_fixture_params(ctx, params, sizeof(params) / sizeof(params[0]));
	if (flow_run(ctx, s) < 0)
		return -1;
	flow_sum(s, s->want);
	return 0;
}

static int
flow_validate(struct prof_ctx *ctx, void *state)
{
	struct gen *s = state;
	struct pk_stats st;
	size_t i;

	pk_drawing_stats(&s->d, &st);
	if (suite_expect(ctx, "paths", (double)st.paths, (double)s->lines))
		return -1;
	for (i = 0; i < s->d.npaths; i++)
		if (s->d.paths[i].n < flow.min_points)
			return prof_fail(ctx, "line %zu has %zu points", i,
					 s->d.paths[i].n);
	if (st.bounds[0] < flow.margin || st.bounds[1] < flow.margin ||
	    st.bounds[2] > flow.width - flow.margin ||
	    st.bounds[3] > flow.height - flow.margin)
		return prof_fail(ctx, "a line leaves the margin");
	flow_sum(s, s->got);
	if (gen_same(ctx, s) < 0)
		return -1;
	prof_metric(ctx, "paths", (double)st.paths);
	prof_metric(ctx, "points", (double)st.points);
	prof_metric(ctx, "length_mm", st.length_mm);
	return 0;
}

static const struct prof_workload gen_flow_field = {
	.id = "generator.flow_field",
	.version = 1,
	.category = "generator",
	.fixture = "flow-dsep-2-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "420x297-dsep-2",
	.tile = "none",
	.prepare = flow_prepare,
	.run = flow_run,
	.validate = flow_validate,
	.teardown = gen_teardown,
};
PROF_WORKLOAD(gen_flow_field)
