/* engine-gen.c: the PRNG, the seeded generators and the fixtures. */
#include <stdint.h>

#include "tap.h"

#include "engine/fixture.h"
#include "engine/flow.h"
#include "engine/nearest.h"
#include "engine/pack.h"
#include "engine/rng.h"
#include "engine/stipple.h"
#include "engine/svg.h"

static void
rng(void)
{
	/* Vigna's splitmix64.c, seeded with 1234567. */
	static const uint64_t want[] = {
		6457827717110365317ULL, 3203168211198807973ULL,
		9817491932198370423ULL, 4593380528125082431ULL,
		16408922859458223821ULL,
	};
	struct pk_rng r;
	int i, bad = 0, counts[3] = {0, 0, 0};
	double lo = 1, hi = 0;

	pk_rng_seed(&r, 1234567);
	for (i = 0; i < 5; i++)
		bad += pk_rng_next(&r) != want[i];
	is_int(bad, 0, "splitmix64: the reference sequence");
	for (i = 0; i < 30000; i++) {
		double u = pk_rng_uniform(&r);

		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		counts[pk_rng_below(&r, 3)]++;
	}
	ok(lo >= 0 && hi < 1 && lo < 1e-3 && hi > 1 - 1e-3,
	   "uniform: in [0, 1), and all of it");
	ok(abs(counts[0] - 10000) < 400 && abs(counts[1] - 10000) < 400 &&
		   abs(counts[2] - 10000) < 400,
	   "below(3): each about a third");
	is_int((long long)pk_rng_below(&r, 0), 0, "below(0) is 0");
}

/* The density-weighted quantisation energy of sites over samples. */
static double
energy(const struct pk_stipple *p, const float *sites)
{
	struct pk_rng r;
	double e = 0;
	size_t i;

	pk_rng_seed(&r, 1);
	for (i = 0; i < 20000; i++) {
		float q[2];
		int32_t k;
		double dx, dy;

		q[0] = (float)pk_rng_range(&r, 0, p->width);
		q[1] = (float)pk_rng_range(&r, 0, p->height);
		pk_nearest_site(q, 1, sites, p->sites, &k);
		dx = q[0] - sites[2 * k];
		dy = q[1] - sites[2 * k + 1];
		e += pk_stipple_density(p, q[0], q[1]) * (dx * dx + dy * dy);
	}
	return e;
}

static void
stipple(void)
{
	struct pk_stipple p = {200, 100, 300, 6000, 0, 42};
	float a[600], b[600], c[600];
	double dens_sites = 0, e0, e1;
	size_t i;
	int inside = 1;

	ok(pk_stipple(&p, a) == 0, "stipple: the starting dots");
	e0 = energy(&p, a);
	p.iterations = 8;
	pk_stipple(&p, b);
	pk_stipple(&p, c);
	ok(!memcmp(b, c, sizeof(b)), "stipple: the same seed, the same dots");
	e1 = energy(&p, b);
	ok(e1 < e0 * 0.9, "stipple: Lloyd steps lower the weighted energy");
	for (i = 0; i < p.sites; i++) {
		inside &= b[2 * i] >= 0 && b[2 * i] <= p.width &&
			  b[2 * i + 1] >= 0 && b[2 * i + 1] <= p.height;
		dens_sites += pk_stipple_density(&p, b[2 * i], b[2 * i + 1]);
	}
	ok(inside, "stipple: every dot on the page");
	/* The density averages about 0.3 over the page. */
	ok(dens_sites / (double)p.sites > 0.45,
	   "stipple: dots gather where the density is high");
	p.seed = 43;
	pk_stipple(&p, c);
	ok(memcmp(b, c, sizeof(b)) != 0, "stipple: another seed, other dots");
	p.sites = 0;
	is_int(pk_stipple(&p, c), -1, "stipple: no sites is an error");
}

static void
pack(void)
{
	struct pk_pack p = {200, 150, 5, 0.5, 6, 0.3, 800, 200000, 7};
	struct pk_circle a[800], b[800];
	size_t na, nb, i, j;
	int bad = 0, out = 0;

	ok(pk_pack(&p, a, &na) == 0 && na == 800, "pack: 800 circles placed");
	pk_pack(&p, b, &nb);
	ok(nb == na && !memcmp(a, b, na * sizeof(*a)),
	   "pack: the same seed, the same circles");
	for (i = 0; i < na; i++) {
		out += a[i].r < p.rmin || a[i].r > p.rmax ||
		       a[i].x - a[i].r < p.margin - 1e-9 ||
		       a[i].y - a[i].r < p.margin - 1e-9 ||
		       a[i].x + a[i].r > p.width - p.margin + 1e-9 ||
		       a[i].y + a[i].r > p.height - p.margin + 1e-9;
		for (j = 0; j < i; j++) {
			double d = hypot(a[i].x - a[j].x, a[i].y - a[j].y);

			bad += d < a[i].r + a[j].r + p.gap - 1e-9;
		}
	}
	is_int(out, 0, "pack: radii in [rmin, rmax], inside the margin");
	is_int(bad, 0, "pack: no two circles closer than the gap");
	p.attempts = 100;
	ok(pk_pack(&p, a, &na) == 0 && na < 100,
	   "pack: it stops when the attempts run out");
	p.rmin = 0;
	is_int(pk_pack(&p, a, &na), -1, "pack: rmin 0 is an error");
}

static void
flow(void)
{
	const struct pk_flow p = {120, 90, 5, 30, 3, 1.5, 0.5, 400, 8, 9};
	const struct pk_style st = {0, 0, 0, 0.3};
	struct pk_drawing a, b;
	long la, lb;
	size_t i, j, k, l;
	int inside = 1, steps = 1, close = 0, shortp = 0;

	pk_drawing_init(&a);
	pk_drawing_init(&b);
	pk_drawing_pen(&a, 0);
	pk_drawing_pen(&b, 0);
	la = pk_flow_field(&p, &st, &a);
	lb = pk_flow_field(&p, &st, &b);
	ok(la > 20 && (size_t)la == a.npaths, "flow: streamlines, one path "
					       "each");
	ok(la == lb && a.npts == b.npts &&
		   !memcmp(a.pts, b.pts, a.npts * sizeof(*a.pts)),
	   "flow: the same seed, the same lines");
	for (i = 0; i < a.npaths; i++) {
		const struct pk_pt *q = a.pts + a.paths[i].first;

		shortp += a.paths[i].n < p.min_points ||
			  a.paths[i].n > p.max_points;
		for (j = 0; j < a.paths[i].n; j++) {
			inside &= q[j].x >= p.margin &&
				  q[j].x <= p.width - p.margin &&
				  q[j].y >= p.margin &&
				  q[j].y <= p.height - p.margin;
			if (j && fabs(hypot(q[j].x - q[j - 1].x,
					    q[j].y - q[j - 1].y) -
				      p.step) > 1e-9)
				steps = 0;
		}
		/* Separation: any earlier line stays dtest away. */
		for (k = 0; k < i; k++) {
			const struct pk_pt *r = a.pts + a.paths[k].first;

			for (j = 0; j < a.paths[i].n; j++)
				for (l = 0; l < a.paths[k].n; l++)
					close += hypot(q[j].x - r[l].x,
						       q[j].y - r[l].y) <
						 p.dtest - 1e-9;
		}
	}
	is_int(shortp, 0, "flow: min_points to max_points points a line");
	ok(inside, "flow: inside the margin");
	ok(steps, "flow: points a step apart");
	is_int(close, 0, "flow: no line comes within dtest of an earlier one");
	pk_drawing_free(&a);
	pk_drawing_free(&b);
}

static void
fixtures(void)
{
	struct pk_buf a, b;
	struct pk_drawing d;
	struct pk_svg_opts o = {{0.5, 0.01}, 0};
	struct pk_err err;
	size_t i, lines = 0;
	int radii = 1, grid = 1;
	const char *p;

	pk_buf_init(&a);
	pk_buf_init(&b);
	pk_drawing_init(&d);
	pk_fixture_dense_circles(&a);
	pk_fixture_dense_circles(&b);
	ok(a.len > 400000, "dense: more than 400,000 bytes");
	ok(a.len == b.len && !memcmp(a.data, b.data, a.len),
	   "dense: the same bytes every time");
	for (p = a.data; (p = strstr(p, "<circle ")); p++) {
		double cx, cy, r;
		int n = 0;

		lines +=
		    sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\" r=\"%lf\"/>%n",
			   &cx, &cy, &r, &n) == 3 &&
		    n > 0 && p[13] != '\0' && strchr(p, '.')[7] == '"';
	}
	is_int((long long)lines, PK_DENSE_CIRCLES,
	       "dense: 8000 <circle>s, numbers with six decimals");
	ok(pk_svg_parse(a.data, a.len, &o, &d, &err) == 0 &&
		   d.npaths == PK_DENSE_CIRCLES && d.npens == 1 &&
		   d.width_mm == 420 && d.height_mm == 297,
	   "dense: 8000 paths, one pen, a 420 x 297 mm page");
	for (i = 0; i < d.npaths; i++) {
		const struct pk_path *q = &d.paths[i];
		double gx = 10 + (double)(i % 100) * 4.0;
		double gy = 10 + (double)(i / 100) * 3.5;

		radii &= (q->flags & PK_PATH_CIRCLE) &&
			 fabs(q->r - (1.0 + (double)(i % 7) * 0.25)) < 1e-9;
		grid &= fabs(q->cx - gx) <= 0.2 + 1e-9 &&
			fabs(q->cy - gy) <= 0.2 + 1e-9;
	}
	ok(radii, "dense: r = 1.0 + (i mod 7) x 0.25 mm");
	ok(grid, "dense: 100 columns 4 mm apart, rows 3.5 mm, jitter "
		 "within 0.2 mm");
	pk_fixture_layers(&a);
	o.flags = PK_SVG_KEEP_HIDDEN;
	ok(pk_svg_parse(a.data, a.len, &o, &d, &err) == 0 &&
		   d.npaths == PK_LAYERS_CIRCLES + PK_LAYERS_WALKS +
				       PK_LAYERS_HIDDEN +
				       2 * PK_LAYERS_FRAMES &&
		   d.nlayers == 5 && d.npens == 4,
	   "layers: every shape, four layers, four pens");
	o.flags = 0;
	ok(pk_svg_parse(a.data, a.len, &o, &d, &err) == 0 &&
		   d.npaths == PK_LAYERS_CIRCLES + PK_LAYERS_WALKS +
				       2 * PK_LAYERS_FRAMES &&
		   d.npens == 3 && d.layers[3].hidden,
	   "layers: without the hidden layer, three pens");
	pk_buf_free(&a);
	pk_buf_free(&b);
	pk_drawing_free(&d);
}

int
main(void)
{
	plan(4 + 7 + 6 + 6 + 8);
	rng();
	stipple();
	pack();
	flow();
	fixtures();
	return done();
}
