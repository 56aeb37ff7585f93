/* suite.h: fixtures and checksums the reference workloads share. */
#ifndef SUITE_H
#define SUITE_H

#include <stddef.h>

#include "engine/buf.h"
#include "engine/drawing.h"
#include "prof/workload.h"

/*
 * Build a fixture SVG (pk_fixture_dense_circles or pk_fixture_layers) into
 * svg and record its bytes as the fixture checksum. Returns 0 or -1 after
 * prof_fail().
 */
int suite_fixture(struct prof_ctx *ctx, int (*make)(struct pk_buf *),
		  struct pk_buf *svg);

/* Parse svg into d with the fixtures' step (0.5 mm) and tolerance. */
int suite_parse(struct prof_ctx *ctx, const struct pk_buf *svg,
		unsigned flags, struct pk_drawing *d);

/* Feed a drawing's paths (counts, pens, flags, points) to a checksum. */
void suite_sum_drawing(struct prof_sum *s, const struct pk_drawing *d);

/* The fixture checksum of a generator: its parameters, in order. */
void suite_fixture_params(struct prof_ctx *ctx, const double *v, size_t n);

/* Check that got == want; prof_fail() naming what otherwise. */
int suite_expect(struct prof_ctx *ctx, const char *what, double got,
		 double want);

/* The step and tolerance of every fixture, mm. */
#define SUITE_STEP 0.5
#define SUITE_TOL 0.01

#endif /* SUITE_H */
