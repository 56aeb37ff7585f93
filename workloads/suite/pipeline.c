/* pipeline.c: the plotting pipeline: parse, reorder, estimate, compose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compose.h"
#include "engine/estimate.h"
#include "engine/fixture.h"
#include "engine/flatten.h"
#include "engine/order.h"
#include "engine/svg.h"
#include "suite.h"

struct pipe {
	struct pk_buf svg;		/* the fixture */
	struct pk_drawing in;		/* parsed in prepare() */
	struct pk_drawing out;		/* what run() made */
	size_t want_points;		/* points of the dense fixture */
	/* reorder */
	double *ends;
	int32_t *order;
	unsigned char *rev;
	double before;
	/* estimate */
	struct pk_estimate est;
	/* compose and split */
	struct pk_buf composed;
	size_t shapes;
	struct pk_pen_svg *pens;
	size_t npens;
};

static void
pipe_teardown(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;

	(void)ctx;
	if (!s)
		return;
	pk_buf_free(&s->svg);
	pk_drawing_free(&s->in);
	pk_drawing_free(&s->out);
	free(s->ends);
	free(s->order);
	free(s->rev);
	pk_buf_free(&s->composed);
	pk_pen_svgs_free(s->pens, s->npens);
	free(s);
}

static struct pipe *
pipe_new(struct prof_ctx *ctx)
{
	struct pipe *s = calloc(1, sizeof(*s));

	if (!s) {
		prof_fail(ctx, "out of memory");
		return NULL;
	}
	pk_buf_init(&s->svg);
	pk_buf_init(&s->composed);
	pk_drawing_init(&s->in);
	pk_drawing_init(&s->out);
	return s;
}

static void
checksum_drawing(struct prof_ctx *ctx, const struct pk_drawing *d)
{
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	if (prof_sum_init(&sum) < 0)
		return;
	suite_sum_drawing(&sum, d);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
}

/*
 * pipeline.svg_dense_circles: parse and flatten the dense fixture.
 *
 * Its counted calls do not count the same. Under prof-count here
 * (valgrind 3.19, glibc 2.36 with its AVX2 string functions) the calls
 * count 58,021,135, 58,012,207 and 58,021,177 instructions: the second's
 * 8,928 fewer are memcmp() called from libxml2's xmlDictLookup() (11,808
 * fewer over 31,998 calls) less a little more malloc(). With glibc's
 * SSE4.2 functions (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-AVX512F,...)
 * they count 60,003,305, 58,741,852 and 58,739,975: the first call's
 * 1,264,062 more (2.1%) are all strcmp() called from on_start() (svg.c,
 * 56,015 calls), on the same names in every call. libxml2 interns the
 * names in a dictionary that each parse allocates anew, so they lie at
 * other addresses each call, and a vectorised string function takes a
 * number of instructions that depends on where its strings lie; the heap
 * the previous call left decides where. Warm-up calls do not make the
 * calls agree (after four: 60,002,864, 58,741,822, 58,739,992,
 * 60,004,018), and which call counts more depends on the machine (the
 * run of issue 30 counted 58,054,805 then 59,077,854). Each index
 * repeats in every run, so a count compares with the count of the same
 * call index in another run, never with another call's: two runs with
 * the same repeat count compare the same calls (prof-diff(1)), and a
 * row's one count is the lower median of its calls (stats.h).
 */

static int
dense_prepare(struct prof_ctx *ctx, void **state)
{
	struct pipe *s = pipe_new(ctx);
	struct pk_flatten f = {SUITE_STEP, SUITE_TOL};
	size_t k;

	if (!s)
		return -1;
	*state = s;
	if (suite_fixture(ctx, pk_fixture_dense_circles, &s->svg) < 0)
		return -1;
	if (s->svg.len <= 400000)
		return prof_fail(ctx, "the fixture has %zu bytes, not more "
				      "than 400000", s->svg.len);
	/*
	 * The exact points to expect: circle i (radius 1 + (i mod 7) / 4,
	 * mm = user units) gets pk_flatten_n_ellipse() chords, closed.
	 */
	for (k = 0; k < PK_DENSE_CIRCLES; k++) {
		double r = 1.0 + (double)(k % 7) * 0.25;
		struct pk_xform m = {r, 0, 0, r, 0, 0};

		s->want_points +=
			(size_t)pk_flatten_n_ellipse(&m, 2 * M_PI, &f) + 1;
	}
	return 0;
}

static int
dense_run(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;

	return suite_parse(ctx, &s->svg, 0, &s->out);
}

static int
dense_validate(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;
	struct pk_stats st;

	pk_drawing_stats(&s->out, &st);
	if (suite_expect(ctx, "paths", (double)st.paths, PK_DENSE_CIRCLES) ||
	    suite_expect(ctx, "circles", (double)st.circles,
			 PK_DENSE_CIRCLES) ||
	    suite_expect(ctx, "points", (double)st.points,
			 (double)s->want_points) ||
	    suite_expect(ctx, "pens", (double)s->out.npens, 1))
		return -1;
	if (s->out.width_mm != 420 || s->out.height_mm != 297)
		return prof_fail(ctx, "page %g x %g mm, expected 420 x 297",
				 s->out.width_mm, s->out.height_mm);
	checksum_drawing(ctx, &s->out);
	prof_metric(ctx, "paths", (double)st.paths);
	prof_metric(ctx, "points", (double)st.points);
	prof_metric(ctx, "svg_bytes", (double)s->svg.len);
	prof_metric(ctx, "length_mm", st.length_mm);
	return 0;
}

static const struct prof_workload svg_dense_circles = {
	.id = "pipeline.svg_dense_circles",
	.version = 1,
	.category = "pipeline",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "8000",
	.tile = "none",
	.cold_group = "plotkit-svg",
	.prepare = dense_prepare,
	.run = dense_run,
	.validate = dense_validate,
	.teardown = pipe_teardown,
};
PROF_WORKLOAD(svg_dense_circles)

/* pipeline.reorder_nearest: greedy order of the parsed dense fixture. */

static int
reorder_prepare(struct prof_ctx *ctx, void **state)
{
	struct pipe *s = pipe_new(ctx);
	size_t n;

	if (!s)
		return -1;
	*state = s;
	if (suite_fixture(ctx, pk_fixture_dense_circles, &s->svg) < 0 ||
	    suite_parse(ctx, &s->svg, 0, &s->in) < 0)
		return -1;
	n = s->in.npaths;
	s->ends = malloc(4 * n * sizeof(*s->ends));
	s->order = malloc(n * sizeof(*s->order));
	s->rev = malloc(n);
	if (!s->ends || !s->order || !s->rev)
		return prof_fail(ctx, "out of memory");
	pk_drawing_ends(&s->in, s->ends);
	s->before = pk_order_travel(s->ends, n, 0, 0, NULL, NULL);
	return 0;
}

static int
reorder_run(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;
	size_t n = s->in.npaths;

	pk_drawing_ends(&s->in, s->ends);
	if (pk_order_greedy(s->ends, n, 0, 0, 1, s->order, s->rev) < 0 ||
	    pk_drawing_permute(&s->in, s->order, s->rev, &s->out) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static int
reorder_validate(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	size_t n = s->in.npaths;
	double after;

	if (suite_expect(ctx, "paths", (double)s->out.npaths,
			 PK_DENSE_CIRCLES) ||
	    suite_expect(ctx, "points", (double)s->out.npts,
			 (double)s->in.npts))
		return -1;
	after = pk_order_travel(s->ends, n, 0, 0, s->order, s->rev);
	if (!(after < s->before))
		return prof_fail(ctx, "pen-up travel %.3f mm is not under "
				      "%.3f mm", after, s->before);
	if (prof_sum_init(&sum) < 0)
		return prof_fail(ctx, "out of memory");
	prof_sum_i32s(&sum, s->order, n);
	prof_sum_bytes(&sum, s->rev, n);
	suite_sum_drawing(&sum, &s->out);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "paths", (double)n);
	prof_metric(ctx, "points", (double)s->out.npts);
	prof_metric(ctx, "pen_up_before_mm", s->before);
	prof_metric(ctx, "pen_up_after_mm", after);
	return 0;
}

static const struct prof_workload reorder_nearest = {
	.id = "pipeline.reorder_nearest",
	.version = 1,
	.category = "pipeline",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "8000",
	.tile = "none",
	.prepare = reorder_prepare,
	.run = reorder_run,
	.validate = reorder_validate,
	.teardown = pipe_teardown,
};
PROF_WORKLOAD(reorder_nearest)

/* pipeline.estimate_plot: plot time of the dense fixture, as drawn. */

static int
estimate_prepare(struct prof_ctx *ctx, void **state)
{
	struct pipe *s = pipe_new(ctx);

	if (!s)
		return -1;
	*state = s;
	if (suite_fixture(ctx, pk_fixture_dense_circles, &s->svg) < 0 ||
	    suite_parse(ctx, &s->svg, 0, &s->in) < 0)
		return -1;
	return 0;
}

static int
estimate_run(struct prof_ctx *ctx, void *state)
{
	static const struct pk_plotter plotter = PK_PLOTTER_DEFAULTS;
	struct pipe *s = state;

	if (pk_estimate_plot(&s->in, &plotter, &s->est) < 0)
		return prof_fail(ctx, "bad plotter parameters");
	return 0;
}

static int
estimate_validate(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;
	const struct pk_estimate *e = &s->est;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	struct pk_stats st;

	pk_drawing_stats(&s->in, &st);
	/* Circles: one stroke each, no stop on the way round. */
	if (suite_expect(ctx, "strokes", (double)e->strokes,
			 PK_DENSE_CIRCLES) ||
	    suite_expect(ctx, "moves", (double)e->moves, PK_DENSE_CIRCLES))
		return -1;
	if (e->down_mm < st.length_mm * (1 - 1e-12) ||
	    e->down_mm > st.length_mm * (1 + 1e-12))
		return prof_fail(ctx, "pen-down %.6f mm, the paths are %.6f mm",
				 e->down_mm, st.length_mm);
	if (!(e->total_s > e->down_s + e->up_s))
		return prof_fail(ctx, "total %.6f s is not the sum of its "
				      "parts", e->total_s);
	if (prof_sum_init(&sum) < 0)
		return prof_fail(ctx, "out of memory");
	prof_sum_f64(&sum, e->down_mm);
	prof_sum_f64(&sum, e->up_mm);
	prof_sum_f64(&sum, e->down_s);
	prof_sum_f64(&sum, e->up_s);
	prof_sum_f64(&sum, e->lift_s);
	prof_sum_f64(&sum, e->total_s);
	prof_sum_i64(&sum, (int64_t)e->strokes);
	prof_sum_i64(&sum, (int64_t)e->moves);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "paths", (double)st.paths);
	prof_metric(ctx, "points", (double)st.points);
	prof_metric(ctx, "pen_down_mm", e->down_mm);
	prof_metric(ctx, "pen_up_mm", e->up_mm);
	prof_metric(ctx, "plot_s", e->total_s);
	return 0;
}

static const struct prof_workload estimate_plot = {
	.id = "pipeline.estimate_plot",
	.version = 1,
	.category = "pipeline",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 2,
	.dtype = "float64",
	.problem_size = "8000",
	.tile = "none",
	.prepare = estimate_prepare,
	.run = estimate_run,
	.validate = estimate_validate,
	.teardown = pipe_teardown,
};
PROF_WORKLOAD(estimate_plot)

/* pipeline.compose_visible and split_by_pen: the layered fixture. */

#define LAYERS_VISIBLE (PK_LAYERS_CIRCLES + PK_LAYERS_WALKS + \
			2 * PK_LAYERS_FRAMES)

static int
layers_prepare(struct prof_ctx *ctx, void **state)
{
	struct pipe *s = pipe_new(ctx);

	if (!s)
		return -1;
	*state = s;
	if (suite_fixture(ctx, pk_fixture_layers, &s->svg) < 0 ||
	    suite_parse(ctx, &s->svg, PK_SVG_KEEP_HIDDEN, &s->in) < 0)
		return -1;
	if (s->in.nlayers != 5 || s->in.npaths != LAYERS_VISIBLE +
							 PK_LAYERS_HIDDEN)
		return prof_fail(ctx, "the fixture has %zu layers and %zu "
				      "paths", s->in.nlayers, s->in.npaths);
	return 0;
}

static int
compose_run(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;

	if (pk_compose_visible(&s->in, &s->composed, &s->shapes) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static int
compose_validate(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;
	char hex[PROF_SUM_HEX];

	if (suite_expect(ctx, "shapes", (double)s->shapes, LAYERS_VISIBLE))
		return -1;
	if (strstr(s->composed.data, "#d62728") ||
	    strstr(s->composed.data, "id=\"hidden\""))
		return prof_fail(ctx, "the hidden layer was composed");
	if (prof_sum_buffer(s->composed.data, s->composed.len, hex) < 0)
		return prof_fail(ctx, "out of memory");
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "shapes", (double)s->shapes);
	prof_metric(ctx, "svg_bytes", (double)s->composed.len);
	prof_metric(ctx, "layers", 3);
	return 0;
}

static const struct prof_workload compose_visible = {
	.id = "pipeline.compose_visible",
	.version = 1,
	.category = "pipeline",
	.fixture = "layers-4-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "5000",
	.tile = "none",
	.prepare = layers_prepare,
	.run = compose_run,
	.validate = compose_validate,
	.teardown = pipe_teardown,
};
PROF_WORKLOAD(compose_visible)

static int
split_run(struct prof_ctx *ctx, void *state)
{
	struct pipe *s = state;

	pk_pen_svgs_free(s->pens, s->npens);
	s->pens = NULL;
	s->npens = 0;
	if (pk_split_by_pen(&s->in, &s->pens, &s->npens) < 0)
		return prof_fail(ctx, "out of memory");
	return 0;
}

static int
split_validate(struct prof_ctx *ctx, void *state)
{
	static const struct {
		uint32_t pen;
		size_t shapes;
	} want[] = {
		{0x000000, PK_LAYERS_CIRCLES},
		{0x1f77b4, PK_LAYERS_WALKS},
		{0x2ca02c, 2 * PK_LAYERS_FRAMES},
	};
	struct pipe *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];
	size_t i, bytes = 0, shapes = 0;

	if (suite_expect(ctx, "pens", (double)s->npens, 3))
		return -1;
	if (prof_sum_init(&sum) < 0)
		return prof_fail(ctx, "out of memory");
	for (i = 0; i < s->npens; i++) {
		if (s->pens[i].pen != want[i].pen ||
		    s->pens[i].shapes != want[i].shapes) {
			prof_sum_final(&sum, hex);
			return prof_fail(ctx,
					 "pen %zu is #%06x with %zu "
					 "shapes, expected #%06x with "
					 "%zu",
					 i, (unsigned)s->pens[i].pen,
					 s->pens[i].shapes,
					 (unsigned)want[i].pen, want[i].shapes);
		}
		prof_sum_i64(&sum, s->pens[i].pen);
		prof_sum_bytes(&sum, s->pens[i].svg.data, s->pens[i].svg.len);
		bytes += s->pens[i].svg.len;
		shapes += s->pens[i].shapes;
	}
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "pens", (double)s->npens);
	prof_metric(ctx, "shapes", (double)shapes);
	prof_metric(ctx, "svg_bytes", (double)bytes);
	return 0;
}

static const struct prof_workload split_by_pen = {
	.id = "pipeline.split_by_pen",
	.version = 1,
	.category = "pipeline",
	.fixture = "layers-4-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "float64",
	.problem_size = "5000",
	.tile = "none",
	.prepare = layers_prepare,
	.run = split_run,
	.validate = split_validate,
	.teardown = pipe_teardown,
};
PROF_WORKLOAD(split_by_pen)
