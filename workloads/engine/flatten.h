/* flatten.h: curves to polylines with a chord step and a stated tolerance. */
#ifndef PK_FLATTEN_H
#define PK_FLATTEN_H

#include "drawing.h"
#include "xform.h"

/*
 * The contract, for every curve flattened here (already in page mm):
 *
 *   - every vertex lies on the true curve (it is the curve evaluated at a
 *     parameter; the last one is the curve's end point exactly);
 *   - no chord is longer than step;
 *   - no point of a chord is farther than tol from the true curve.
 *
 * Both bounds come from uniform parameter steps sized from derivative
 * bounds (Wang's formula for Beziers: a chord over a parameter step h
 * strays at most h^2 / 8 * max |B''|), so they hold for the whole curve,
 * not just where it was sampled. A curve is cut into at most
 * PK_FLATTEN_MAX pieces; a curve that would need more (kilometres long at
 * a micrometre tolerance) gets that many and the bounds are not promised.
 */
struct pk_flatten {
	double step;	/* the longest chord, mm (> 0) */
	double tol;	/* the largest distance from the curve, mm (> 0) */
};

#define PK_FLATTEN_STEP 0.5
#define PK_FLATTEN_TOL 0.01
#define PK_FLATTEN_MAX 65536

/*
 * The step and tolerance a caller may ask for, mm. The answers write
 * millimetres with 6 decimals, so a smaller one would come back as 0,
 * which no one takes; a larger one is longer than any drawing.
 */
#define PK_FLATTEN_MM_MIN 1e-6
#define PK_FLATTEN_MM_MAX 1e6
#define PK_FLATTEN_MM_RANGE "0.000001 to 1000000"

/*
 * A step or tolerance given as text (plotkit flatten --step, the server's
 * ?step=): 0 with *out set; -1 when s is not a positive number (nothing
 * after it, not NaN); -2 when it is one out of PK_FLATTEN_MM_MIN to
 * PK_FLATTEN_MM_MAX (an underflow, an overflow and infinity included).
 * Every reader of one goes through here.
 */
int pk_flatten_parse_mm(const char *s, double *out);

/* How many chords each kind of curve gets (at least 1). */
int pk_flatten_n_quad(const double p[6], const struct pk_flatten *f);
int pk_flatten_n_cubic(const double p[8], const struct pk_flatten *f);
int pk_flatten_n_ellipse(const struct pk_xform *m, double dt,
			 const struct pk_flatten *f);

/*
 * Append the quadratic (p = x0 y0 x1 y1 x2 y2) or cubic (x0 y0 .. x3 y3)
 * Bezier to the path being built in d, without its first point (the
 * current point, already there).
 */
void pk_flatten_quad(struct pk_drawing *d, const double p[6],
		     const struct pk_flatten *f);
void pk_flatten_cubic(struct pk_drawing *d, const double p[8],
		      const struct pk_flatten *f);

/*
 * Append the affine image of a unit-circle arc: the points m (cos t, sin t)
 * for t from t0 (excluded: the current point) to t0 + dt. A full ellipse
 * (|dt| = 2 pi) gets a multiple of four chords, so an axis-aligned one
 * has its extremes among the vertices, and ends exactly on its first
 * point. end, when not NULL, is the exact last point to write (an arc's
 * end point, free of rounding).
 */
void pk_flatten_ellipse(struct pk_drawing *d, const struct pk_xform *m,
			double t0, double dt, const double end[2],
			const struct pk_flatten *f);

/*
 * An SVG elliptical arc from (x1, y1) to (x2, y2), turned from end-point
 * to centre parameters by the SVG implementation notes (F.6.5, with the
 * out-of-range radii corrected as F.6.6 says).
 */
struct pk_arc {
	double cx, cy;		/* centre */
	double rx, ry;		/* radii, corrected */
	double phi;		/* x-axis rotation, radians */
	double t1, dt;		/* start angle and sweep, radians */
};

enum {
	PK_ARC_CURVE = 0,	/* a: an arc */
	PK_ARC_LINE = 1,	/* a zero radius: a straight line */
	PK_ARC_NONE = 2,	/* the same end points: nothing */
};

int pk_arc_center(double x1, double y1, double rx, double ry, double phi_deg,
		  int large, int sweep, double x2, double y2,
		  struct pk_arc *a);

/* The map of the unit circle onto arc a, then through ctm. */
void pk_arc_xform(const struct pk_arc *a, const struct pk_xform *ctm,
		  struct pk_xform *m);

#endif /* PK_FLATTEN_H */
