/* engine-flatten.c: flattened curves against the true ones; SVG arcs. */

/*
 * Vertices on the curve, chords within the step, every point of the curve
 * within tol of its chord; arcs to centre form as the SVG implementation
 * notes say (F.6).
 */
#include "tap.h"

#include "engine/drawing.h"
#include "engine/flatten.h"
#include "engine/rng.h"

static const struct pk_flatten F = {0.5, 0.01};

static double
seg_dist(double px, double py, const struct pk_pt *a, const struct pk_pt *b)
{
	double vx = b->x - a->x, vy = b->y - a->y, wx = px - a->x,
	       wy = py - a->y, l2 = vx * vx + vy * vy, t = 0;

	if (l2 > 0)
		t = (wx * vx + wy * vy) / l2;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return hypot(px - (a->x + t * vx), py - (a->y + t * vy));
}

/* A curve to check: its points at t in [0, 1]. */
typedef void (*curve_fn)(const double *p, double t, double *x, double *y);

static void
cubic_at(const double *p, double t, double *x, double *y)
{
	double u = 1 - t;

	*x = u * u * u * p[0] + 3 * u * u * t * p[2] + 3 * u * t * t * p[4] +
	     t * t * t * p[6];
	*y = u * u * u * p[1] + 3 * u * u * t * p[3] + 3 * u * t * t * p[5] +
	     t * t * t * p[7];
}

static void
quad_at(const double *p, double t, double *x, double *y)
{
	double u = 1 - t;

	*x = u * u * p[0] + 2 * u * t * p[2] + t * t * p[4];
	*y = u * u * p[1] + 2 * u * t * p[3] + t * t * p[5];
}

/* p[0..5] is an affine map of the unit circle, p[6] t0, p[7] dt. */
static void
ellipse_at(const double *p, double t, double *x, double *y)
{
	double a = p[6] + t * p[7];

	*x = p[0] * cos(a) + p[2] * sin(a) + p[4];
	*y = p[1] * cos(a) + p[3] * sin(a) + p[5];
}

struct verdict {
	size_t chords;
	double longest;		/* chord */
	double off_curve;	/* vertex from its curve point */
	double stray;		/* curve from its chord */
};

/*
 * Check the n chords of path 0 of d, made at uniform parameters, against
 * the curve: 40 curve points inside each chord's span.
 */
static struct verdict
judge(const struct pk_drawing *d, curve_fn at, const double *p)
{
	const struct pk_pt *q = d->pts;
	struct verdict v = {d->npts - 1, 0, 0, 0};
	size_t k;
	int j;

	for (k = 0; k + 1 < d->npts; k++) {
		double len = hypot(q[k + 1].x - q[k].x, q[k + 1].y - q[k].y);
		double x, y;

		v.longest = len > v.longest ? len : v.longest;
		at(p, (double)k / (double)v.chords, &x, &y);
		if (hypot(x - q[k].x, y - q[k].y) > v.off_curve)
			v.off_curve = hypot(x - q[k].x, y - q[k].y);
		for (j = 1; j < 40; j++) {
			double t = ((double)k + j / 40.0) / (double)v.chords;
			double dist;

			at(p, t, &x, &y);
			dist = seg_dist(x, y, &q[k], &q[k + 1]);
			v.stray = dist > v.stray ? dist : v.stray;
		}
	}
	return v;
}

static void
start(struct pk_drawing *d, double x, double y)
{
	static const struct pk_style st = {0, 0, 0, 0.3};

	pk_drawing_clear(d);
	pk_drawing_begin(d, &st);
	pk_drawing_point(d, x, y);
}

static void
cubics(void)
{
	static const double fixed[][8] = {
		{10, 80, 40, 10, 65, 10, 95, 80},	/* an arch */
		{0, 0, 100, 0, 0, 100, 100, 100},	/* an S */
		{0, 0, 50, 50, -50, 50, 0, 0},		/* a loop */
		{0, 0, 1, 0, 2, 0, 3, 0},		/* a line */
	};
	struct pk_drawing d;
	struct pk_rng rng;
	double worst_stray = 0, worst_len = 0, worst_off = 0;
	int i, bad_end = 0, bad_n = 0;

	pk_drawing_init(&d);
	pk_rng_seed(&rng, 11);
	for (i = 0; i < 204; i++) {
		double p[8];
		struct verdict v;
		int j;

		for (j = 0; j < 8; j++)
			p[j] = i < 4 ? fixed[i][j] :
				       pk_rng_range(&rng, -60, 60);
		start(&d, p[0], p[1]);
		pk_flatten_cubic(&d, p, &F);
		v = judge(&d, cubic_at, p);
		bad_n += (int)v.chords != pk_flatten_n_cubic(p, &F);
		bad_end += d.pts[d.npts - 1].x != p[6] ||
			   d.pts[d.npts - 1].y != p[7];
		worst_stray = v.stray > worst_stray ? v.stray : worst_stray;
		worst_len = v.longest > worst_len ? v.longest : worst_len;
		worst_off = v.off_curve > worst_off ? v.off_curve : worst_off;
	}
	is_int(bad_n, 0, "cubics: as many chords as pk_flatten_n_cubic says");
	is_int(bad_end, 0, "cubics: the last vertex is the end point exactly");
	ok(worst_off < 1e-12, "cubics: every vertex is on the curve");
	ok(worst_len <= F.step + 1e-12,
	   "cubics: no chord longer than the step");
	ok(worst_stray <= F.tol, "cubics: the curve stays within tol of "
				 "its chords");
	if (worst_stray > F.tol || worst_len > F.step + 1e-12)
		fprintf(stderr, "#   stray %g, longest %g\n", worst_stray,
			worst_len);
	/*
	 * Not needlessly fine: the S curve (its speed varies from 150 to
	 * 300) gets fewer than twice the chords its length needs.
	 */
	{
		const double *p = fixed[1];
		double len = 0;
		size_t k;

		start(&d, p[0], p[1]);
		pk_flatten_cubic(&d, p, &F);
		for (k = 1; k < d.npts; k++)
			len += hypot(d.pts[k].x - d.pts[k - 1].x,
				     d.pts[k].y - d.pts[k - 1].y);
		ok(pk_flatten_n_cubic(p, &F) < 2 * len / F.step,
		   "cubics: the bounds do not waste points");
		if (pk_flatten_n_cubic(p, &F) >= 2 * len / F.step)
			fprintf(stderr, "#   %d chords for %g mm\n",
				pk_flatten_n_cubic(p, &F), len);
	}
	pk_drawing_free(&d);
}

static void
quads(void)
{
	struct pk_drawing d;
	struct pk_rng rng;
	double worst_stray = 0, worst_len = 0, worst_off = 0;
	int i, bad_end = 0, bad_n = 0;

	pk_drawing_init(&d);
	pk_rng_seed(&rng, 12);
	for (i = 0; i < 200; i++) {
		double p[6];
		struct verdict v;
		int j;

		for (j = 0; j < 6; j++)
			p[j] = pk_rng_range(&rng, -60, 60);
		start(&d, p[0], p[1]);
		pk_flatten_quad(&d, p, &F);
		v = judge(&d, quad_at, p);
		bad_n += (int)v.chords != pk_flatten_n_quad(p, &F);
		bad_end += d.pts[d.npts - 1].x != p[4] ||
			   d.pts[d.npts - 1].y != p[5];
		worst_stray = v.stray > worst_stray ? v.stray : worst_stray;
		worst_len = v.longest > worst_len ? v.longest : worst_len;
		worst_off = v.off_curve > worst_off ? v.off_curve : worst_off;
	}
	is_int(bad_n, 0, "quadratics: as many chords as pk_flatten_n_quad");
	is_int(bad_end, 0, "quadratics: ending on the end point exactly");
	ok(worst_off < 1e-12, "quadratics: every vertex on the curve");
	ok(worst_len <= F.step + 1e-12,
	   "quadratics: no chord longer than the step");
	ok(worst_stray <= F.tol, "quadratics: within tol of the curve");
	pk_drawing_free(&d);
}

static void
ellipses(void)
{
	struct pk_drawing d;
	struct pk_rng rng;
	double worst_stray = 0, worst_len = 0, worst_off = 0;
	int i, bad_close = 0, bad_four = 0;

	pk_drawing_init(&d);
	/* Circles: vertices on the circle, the extremes among them. */
	for (i = 0; i < 6; i++) {
		static const double radii[] = {0.1, 1, 2.5, 10, 100, 1000};
		double r = radii[i], x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
		struct pk_xform m = {r, 0, 0, r, 5, 7};
		double p[8] = {r, 0, 0, r, 5, 7, 0, 2 * M_PI};
		struct verdict v;
		size_t k;

		start(&d, r + 5, 7);
		pk_flatten_ellipse(&d, &m, 0, 2 * M_PI, NULL, &F);
		v = judge(&d, ellipse_at, p);
		for (k = 0; k < d.npts; k++) {
			double dist = hypot(d.pts[k].x - 5, d.pts[k].y - 7);

			if (fabs(dist - r) > worst_off)
				worst_off = fabs(dist - r);
			x0 = d.pts[k].x < x0 ? d.pts[k].x : x0;
			x1 = d.pts[k].x > x1 ? d.pts[k].x : x1;
			y0 = d.pts[k].y < y0 ? d.pts[k].y : y0;
			y1 = d.pts[k].y > y1 ? d.pts[k].y : y1;
		}
		bad_four += v.chords % 4 != 0 ||
			    fabs(x0 - (5 - r)) > 1e-9 * r ||
			    fabs(x1 - (5 + r)) > 1e-9 * r ||
			    fabs(y0 - (7 - r)) > 1e-9 * r ||
			    fabs(y1 - (7 + r)) > 1e-9 * r;
		bad_close += d.pts[0].x != d.pts[d.npts - 1].x ||
			     d.pts[0].y != d.pts[d.npts - 1].y;
		worst_stray = v.stray > worst_stray ? v.stray : worst_stray;
		worst_len = v.longest > worst_len ? v.longest : worst_len;
	}
	ok(worst_off < 1e-9, "circles: every vertex on the circle");
	is_int(bad_four, 0, "circles: chords by fours, the extremes exact");
	is_int(bad_close, 0, "circles: closed on the first point exactly");
	ok(worst_len <= F.step + 1e-12 && worst_stray <= F.tol,
	   "circles: chords within step and tol");
	{
		/* r = 1 at 0.5 / 0.01: tol decides, 2 pi / sqrt(0.08): 24. */
		struct pk_xform m = {1, 0, 0, 1, 0, 0};

		is_int(pk_flatten_n_ellipse(&m, 2 * M_PI, &F), 24,
		       "a 1 mm circle: 24 chords (tol binds)");
		m.a = m.d = 10;
		is_int(pk_flatten_n_ellipse(&m, 2 * M_PI, &F), 128,
		       "a 10 mm circle: 128 chords (the step binds)");
	}
	/* Affine images of arcs: skewed, turned, mirrored. */
	worst_stray = worst_len = worst_off = 0;
	pk_rng_seed(&rng, 13);
	for (i = 0; i < 200; i++) {
		struct pk_xform m;
		double p[8], end[2], det, ux, uy;
		struct verdict v;
		size_t k;

		m.a = pk_rng_range(&rng, -30, 30);
		m.b = pk_rng_range(&rng, -30, 30);
		m.c = pk_rng_range(&rng, -30, 30);
		m.d = pk_rng_range(&rng, -30, 30);
		m.e = pk_rng_range(&rng, -50, 50);
		m.f = pk_rng_range(&rng, -50, 50);
		p[0] = m.a;
		p[1] = m.b;
		p[2] = m.c;
		p[3] = m.d;
		p[4] = m.e;
		p[5] = m.f;
		p[6] = pk_rng_range(&rng, -4, 4);
		p[7] = pk_rng_range(&rng, -2 * M_PI, 2 * M_PI);
		ellipse_at(p, 0, &ux, &uy);
		start(&d, ux, uy);
		ellipse_at(p, 1, &end[0], &end[1]);
		pk_flatten_ellipse(&d, &m, p[6], p[7], i % 2 ? end : NULL,
				   &F);
		v = judge(&d, ellipse_at, p);
		/* Back through the inverse map: on the unit circle. */
		det = m.a * m.d - m.b * m.c;
		for (k = 0; k < d.npts; k++) {
			double x = d.pts[k].x - m.e, y = d.pts[k].y - m.f;
			double cx = (m.d * x - m.c * y) / det;
			double cy = (-m.b * x + m.a * y) / det;

			if (fabs(hypot(cx, cy) - 1) > worst_off)
				worst_off = fabs(hypot(cx, cy) - 1);
		}
		worst_stray = v.stray > worst_stray ? v.stray : worst_stray;
		worst_len = v.longest > worst_len ? v.longest : worst_len;
	}
	ok(worst_off < 1e-9, "affine arcs: every vertex on the ellipse");
	ok(worst_len <= F.step + 1e-12, "affine arcs: chords within the step");
	ok(worst_stray <= F.tol, "affine arcs: within tol of the curve");
	{
		struct pk_xform huge = {1e6, 0, 0, 1e6, 0, 0};

		is_int(pk_flatten_n_ellipse(&huge, 2 * M_PI, &F),
		       PK_FLATTEN_MAX, "a 1 km circle is capped");
	}
	pk_drawing_free(&d);
}

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void
arcs(void)
{
	struct pk_arc a;
	double x, y;

	/* A half circle over the top (y down: sweep 1 is clockwise). */
	ok(pk_arc_center(10, 50, 40, 40, 0, 0, 1, 90, 50, &a) == PK_ARC_CURVE &&
		   near(a.cx, 50) && near(a.cy, 50) && near(a.rx, 40) &&
		   near(fabs(a.t1), M_PI) && near(a.dt, M_PI),
	   "sweep 1: centre (50,50), from pi, +pi");
	ok(pk_arc_center(10, 50, 40, 40, 0, 0, 0, 90, 50, &a) == PK_ARC_CURVE &&
		   near(a.cx, 50) && near(a.cy, 50) && near(a.dt, -M_PI),
	   "sweep 0: -pi, under");
	/* Quarter or three quarters of the circle round (50,50), r 20. */
	ok(pk_arc_center(50, 30, 20, 20, 0, 0, 1, 70, 50, &a) == 0 &&
		   near(a.cx, 50) && near(a.cy, 50) && near(a.t1, -M_PI / 2) &&
		   near(a.dt, M_PI / 2),
	   "small arc, sweep 1: a quarter round (50,50)");
	ok(pk_arc_center(50, 30, 20, 20, 0, 1, 0, 70, 50, &a) == 0 &&
		   near(a.cx, 50) && near(a.cy, 50) &&
		   near(a.dt, -3 * M_PI / 2),
	   "large arc, sweep 0: three quarters round (50,50)");
	ok(pk_arc_center(50, 30, 20, 20, 0, 1, 1, 70, 50, &a) == 0 &&
		   near(a.cx, 70) && near(a.cy, 30) && near(a.dt, 3 * M_PI / 2),
	   "large arc, sweep 1: three quarters round (70,30)");
	ok(pk_arc_center(50, 30, 20, 20, 0, 0, 0, 70, 50, &a) == 0 &&
		   near(a.cx, 70) && near(a.cy, 30) && near(a.dt, -M_PI / 2),
	   "small arc, sweep 0: a quarter round (70,30)");
	/* F.6.6: radii too small to span the chord grow just enough. */
	ok(pk_arc_center(0, 0, 1, 2, 0, 0, 1, 20, 0, &a) == 0 &&
		   near(a.cx, 10) && near(a.cy, 0) && near(a.rx, 10) &&
		   near(a.ry, 20) && near(fabs(a.dt), M_PI),
	   "radii 1 x 2 over a 20 chord: scaled by 10, centre mid-chord");
	ok(pk_arc_center(0, 0, -40, -40, 0, 0, 1, 80, 0, &a) == 0 &&
		   near(a.rx, 40) && near(a.cx, 40),
	   "negative radii count as their size");
	is_int(pk_arc_center(0, 0, 0, 10, 0, 0, 1, 10, 0, &a), PK_ARC_LINE,
	       "a zero radius is a line");
	is_int(pk_arc_center(3, 4, 10, 10, 0, 0, 1, 3, 4, &a), PK_ARC_NONE,
	       "the same end points are nothing");
	/* Turned: from a known ellipse, the same ellipse back. */
	{
		double phi = 30 * M_PI / 180, rx = 30, ry = 15, t1 = 0.3,
		       t2 = 0.3 + 200 * M_PI / 180;
		double x1 =
		    50 + rx * cos(phi) * cos(t1) - ry * sin(phi) * sin(t1);
		double y1 =
		    50 + rx * sin(phi) * cos(t1) + ry * cos(phi) * sin(t1);
		double x2 =
		    50 + rx * cos(phi) * cos(t2) - ry * sin(phi) * sin(t2);
		double y2 =
		    50 + rx * sin(phi) * cos(t2) + ry * cos(phi) * sin(t2);
		struct pk_xform id = {1, 0, 0, 1, 0, 0}, m;

		ok(pk_arc_center(x1, y1, rx, ry, 30, 1, 1, x2, y2, &a) == 0 &&
			   near(a.cx, 50) && near(a.cy, 50) && near(a.rx, 30) &&
			   near(a.ry, 15) && near(a.t1, 0.3) &&
			   near(a.dt, 200 * M_PI / 180),
		   "a turned ellipse: centre, radii and angles back");
		pk_arc_xform(&a, &id, &m);
		pk_xform_apply(&m, cos(a.t1 + a.dt), sin(a.t1 + a.dt), &x, &y);
		ok(near(x, x2) && near(y, y2), "its map ends on the end point");
	}
}

/* A step or tolerance as text: in range, or why not (issue 28, item 5). */
static void
parse_mm(void)
{
	static const struct {
		const char *s;
		int rc;
	} cases[] = {
		{"0.5", 0},	 {"0.000001", 0}, {"1000000", 0},
		{"1e-300", -2},	 {"1e-320", -2},  {"1e400", -2},
		{"inf", -2},	 {"1000001", -2}, {"0", -1},
		{"-1", -1},	 {"-1e-400", -1}, {"nan", -1},
		{"1x", -1},	 {"", -1},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -7;
		char name[64];
		int rc = pk_flatten_parse_mm(cases[i].s, &v);

		snprintf(name, sizeof(name), "'%s': %d%s", cases[i].s,
			 cases[i].rc, cases[i].rc ? ", nothing set" : "");
		ok(rc == cases[i].rc && (rc == 0 ? v > 0 : v == -7), name);
	}
}

int
main(void)
{
	plan(6 + 5 + 10 + 12 + 14);
	cubics();
	quads();
	ellipses();
	arcs();
	parse_mm();
	return done();
}
