/* flatten.c: Beziers and elliptical arcs to chords within step and tol. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "flatten.h"

int
pk_flatten_parse_mm(const char *s, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	/* An underflow is a positive number too small (0 with ERANGE). */
	if (end == s || *end || isnan(x) || signbit(x) ||
	    (x == 0 && errno != ERANGE))
		return -1;
	if (errno == ERANGE || !(x >= PK_FLATTEN_MM_MIN) ||
	    !(x <= PK_FLATTEN_MM_MAX))
		return -2;
	*out = x;
	return 0;
}

static int
pieces(double n)
{
	if (!(n >= 1))		/* also NaN */
		return 1;
	if (n >= PK_FLATTEN_MAX)
		return PK_FLATTEN_MAX;
	return (int)ceil(n);
}

static double
len2(double x, double y)
{
	return sqrt(x * x + y * y);
}

int
pk_flatten_n_quad(const double p[6], const struct pk_flatten *f)
{
	/* B'' = 2 D, constant; |B'| <= 2 max leg. */
	double dd = len2(p[0] - 2 * p[2] + p[4], p[1] - 2 * p[3] + p[5]);
	double leg = len2(p[2] - p[0], p[3] - p[1]);
	double leg2 = len2(p[4] - p[2], p[5] - p[3]);
	double n_tol = sqrt(dd / (4 * f->tol));
	double n_step = 2 * (leg > leg2 ? leg : leg2) / f->step;

	return pieces(n_tol > n_step ? n_tol : n_step);
}

/*
 * The largest speed |B'(t)| of a cubic, from above: B' is the quadratic
 * Bezier with control points h0, h1, h2, so on each quarter of [0, 1] its
 * values lie in the hull of that quarter's control points, whose largest
 * norm bounds it (within a few percent, where the plain hull of h0, h1,
 * h2 can be off by half).
 */
static double
max_speed(const double p[8])
{
	double h[6], best = 0;
	int i, k;

	for (i = 0; i < 3; i++) {
		h[2 * i] = 3 * (p[2 * i + 2] - p[2 * i]);
		h[2 * i + 1] = 3 * (p[2 * i + 3] - p[2 * i + 1]);
	}
	for (k = 0; k < 4; k++) {
		double t = k / 4.0, u = 1 - t, v[2], dv[2], m;

		for (i = 0; i < 2; i++) {
			v[i] = u * u * h[i] + 2 * u * t * h[2 + i] +
			       t * t * h[4 + i];
			dv[i] = 2 * (u * (h[2 + i] - h[i]) +
				     t * (h[4 + i] - h[2 + i]));
		}
		/* The quarter's start and middle control point. */
		m = len2(v[0], v[1]);
		best = m > best ? m : best;
		m = len2(v[0] + dv[0] / 8, v[1] + dv[1] / 8);
		best = m > best ? m : best;
	}
	return best > len2(h[4], h[5]) ? best : len2(h[4], h[5]);
}

int
pk_flatten_n_cubic(const double p[8], const struct pk_flatten *f)
{
	/*
	 * |B''| <= 6 max(|p0 - 2 p1 + p2|, |p1 - 2 p2 + p3|) = 6 L, so n
	 * uniform steps stray at most 6 L / (8 n^2); a chord is at most the
	 * arc under it, max |B'| / n.
	 */
	double d0 = len2(p[0] - 2 * p[2] + p[4], p[1] - 2 * p[3] + p[5]);
	double d1 = len2(p[2] - 2 * p[4] + p[6], p[3] - 2 * p[5] + p[7]);
	double n_tol = sqrt(3 * (d0 > d1 ? d0 : d1) / (4 * f->tol));
	double n_step = max_speed(p) / f->step;

	return pieces(n_tol > n_step ? n_tol : n_step);
}

int
pk_flatten_n_ellipse(const struct pk_xform *m, double dt,
		     const struct pk_flatten *f)
{
	/* |P'| and |P''| are both at most R, the largest stretch of m. */
	double r = pk_xform_max_scale(m), a = fabs(dt);
	double n_tol = a * sqrt(r / (8 * f->tol));
	double n_step = a * r / f->step;
	int n = pieces(n_tol > n_step ? n_tol : n_step);

	if (a >= 2 * M_PI - 1e-12 && n < PK_FLATTEN_MAX)
		n = (n + 3) / 4 * 4;
	return n;
}

void
pk_flatten_quad(struct pk_drawing *d, const double p[6],
		const struct pk_flatten *f)
{
	int n = pk_flatten_n_quad(p, f), i;

	for (i = 1; i < n; i++) {
		double t = (double)i / n, u = 1 - t;
		double b0 = u * u, b1 = 2 * u * t, b2 = t * t;

		pk_drawing_point(d, b0 * p[0] + b1 * p[2] + b2 * p[4],
				 b0 * p[1] + b1 * p[3] + b2 * p[5]);
	}
	pk_drawing_point(d, p[4], p[5]);
}

void
pk_flatten_cubic(struct pk_drawing *d, const double p[8],
		 const struct pk_flatten *f)
{
	int n = pk_flatten_n_cubic(p, f), i;

	for (i = 1; i < n; i++) {
		double t = (double)i / n, u = 1 - t;
		double b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t;
		double b3 = t * t * t;

		pk_drawing_point(d,
				 b0 * p[0] + b1 * p[2] + b2 * p[4] + b3 * p[6],
				 b0 * p[1] + b1 * p[3] + b2 * p[5] + b3 * p[7]);
	}
	pk_drawing_point(d, p[6], p[7]);
}

void
pk_flatten_ellipse(struct pk_drawing *d, const struct pk_xform *m,
		   double t0, double dt, const double end[2],
		   const struct pk_flatten *f)
{
	int n = pk_flatten_n_ellipse(m, dt, f), i;
	double h = dt / n, ch = cos(h), sh = sin(h);
	double c = cos(t0), s = sin(t0), x0, y0;
	int full = fabs(dt) >= 2 * M_PI - 1e-12;

	pk_xform_apply(m, c, s, &x0, &y0);
	/*
	 * Step the angle by rotating (c, s): exact cos and sin every 64
	 * steps keep the drift under 1e-14 of the radius.
	 */
	for (i = 1; i < n; i++) {
		double x, y;

		if (i % 64 == 0) {
			c = cos(t0 + i * h);
			s = sin(t0 + i * h);
		} else {
			double c1 = c * ch - s * sh;

			s = s * ch + c * sh;
			c = c1;
		}
		pk_xform_apply(m, c, s, &x, &y);
		pk_drawing_point(d, x, y);
	}
	if (end) {
		pk_drawing_point(d, end[0], end[1]);
	} else if (full) {
		pk_drawing_point(d, x0, y0);
	} else {
		double x, y;

		pk_xform_apply(m, cos(t0 + dt), sin(t0 + dt), &x, &y);
		pk_drawing_point(d, x, y);
	}
}

/* The signed angle from u to v. */
static double
angle(double ux, double uy, double vx, double vy)
{
	return atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

int
pk_arc_center(double x1, double y1, double rx, double ry, double phi_deg,
	      int large, int sweep, double x2, double y2, struct pk_arc *a)
{
	double phi = fmod(phi_deg, 360.0) * (M_PI / 180.0);
	double cp = cos(phi), sp = sin(phi);
	double hx = (x1 - x2) / 2, hy = (y1 - y2) / 2;
	double x1p, y1p, lambda, rx2, ry2, num, den, coef, cxp, cyp;
	double ux, uy, vx, vy;

	if (x1 == x2 && y1 == y2)
		return PK_ARC_NONE;
	rx = fabs(rx);
	ry = fabs(ry);
	if (rx == 0 || ry == 0)
		return PK_ARC_LINE;
	/* F.6.5.1 */
	x1p = cp * hx + sp * hy;
	y1p = -sp * hx + cp * hy;
	/* F.6.6.2: radii too small to reach are scaled up just enough. */
	lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
	if (lambda > 1) {
		double s = sqrt(lambda);

		rx *= s;
		ry *= s;
	}
	/* F.6.5.2 */
	rx2 = rx * rx;
	ry2 = ry * ry;
	num = rx2 * ry2 - rx2 * y1p * y1p - ry2 * x1p * x1p;
	den = rx2 * y1p * y1p + ry2 * x1p * x1p;
	coef = num > 0 && den > 0 ? sqrt(num / den) : 0;
	if (!large == !sweep)
		coef = -coef;
	cxp = coef * rx * y1p / ry;
	cyp = -coef * ry * x1p / rx;
	/* F.6.5.3 */
	a->cx = cp * cxp - sp * cyp + (x1 + x2) / 2;
	a->cy = sp * cxp + cp * cyp + (y1 + y2) / 2;
	/* F.6.5.5 and F.6.5.6 */
	ux = (x1p - cxp) / rx;
	uy = (y1p - cyp) / ry;
	vx = (-x1p - cxp) / rx;
	vy = (-y1p - cyp) / ry;
	a->t1 = angle(1, 0, ux, uy);
	a->dt = angle(ux, uy, vx, vy);
	if (!sweep && a->dt > 0)
		a->dt -= 2 * M_PI;
	else if (sweep && a->dt < 0)
		a->dt += 2 * M_PI;
	a->rx = rx;
	a->ry = ry;
	a->phi = phi;
	return PK_ARC_CURVE;
}

void
pk_arc_xform(const struct pk_arc *a, const struct pk_xform *ctm,
	     struct pk_xform *m)
{
	double cp = cos(a->phi), sp = sin(a->phi);
	struct pk_xform e = {
		cp * a->rx, sp * a->rx, -sp * a->ry, cp * a->ry, a->cx, a->cy,
	};

	pk_xform_mul(m, ctm, &e);
}
