/* suite.c: the helpers the reference workloads share. */
#include <stdint.h>

#include "engine/svg.h"
#include "suite.h"

/* Points are hashed as one array of doubles. */
_Static_assert(sizeof(struct pk_pt) == 2 * sizeof(double),
	       "struct pk_pt must be two packed doubles");

int
suite_fixture(struct prof_ctx *ctx, int (*make)(struct pk_buf *),
	      struct pk_buf *svg)
{
	if (make(svg) < 0)
		return prof_fail(ctx, "out of memory building the fixture");
	prof_fixture_bytes(ctx, svg->data, svg->len);
	return 0;
}

int
suite_parse(struct prof_ctx *ctx, const struct pk_buf *svg, unsigned flags,
	    struct pk_drawing *d)
{
	struct pk_svg_opts o = {{SUITE_STEP, SUITE_TOL}, flags};
	struct pk_err err;

	if (pk_svg_parse(svg->data, svg->len, &o, d, &err) < 0)
		return prof_fail(ctx, "fixture:%d: %s", err.line, err.reason);
	return 0;
}

void
suite_sum_drawing(struct prof_sum *s, const struct pk_drawing *d)
{
	size_t i;

	prof_sum_i64(s, (int64_t)d->npaths);
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];

		prof_sum_i64(s, (int64_t)p->n);
		prof_sum_i64(s, (int64_t)d->pens[p->pen]);
		prof_sum_i64(s, (int64_t)p->flags);
		prof_sum_f64(s, p->width_mm);
		prof_sum_f64s(s, &d->pts[p->first].x, 2 * p->n);
	}
}

void
suite_fixture_params(struct prof_ctx *ctx, const double *v, size_t n)
{
	struct prof_sum s;
	char hex[PROF_SUM_HEX];

	if (prof_sum_init(&s) < 0)
		return;
	prof_sum_f64s(&s, v, n);
	prof_sum_final(&s, hex);
	prof_fixture_checksum(ctx, hex);
}

int
suite_expect(struct prof_ctx *ctx, const char *what, double got,
	     double want)
{
	if (got != want)
		return prof_fail(ctx, "expected %.17g %s, got %.17g", want,
				 what, got);
	return 0;
}
