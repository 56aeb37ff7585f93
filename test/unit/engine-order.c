/* engine-order.c: the grid's greedy path order is the O(n^2) scan's. */
#include <stdint.h>

#include "tap.h"

#include "engine/drawing.h"
#include "engine/order.h"
#include "engine/rng.h"

/* The definition, by brute force: same tie rules (distance, path, end). */
static void
brute(const double *ends, size_t n, double x, double y, int reverse,
      int32_t *order, unsigned char *rev)
{
	unsigned char *done = calloc(n, 1);
	size_t k, i;

	for (k = 0; k < n; k++) {
		double best = INFINITY;
		size_t bi = 0;
		int be = 0, e;

		for (i = 0; i < n; i++) {
			const double *p = ends + 4 * i;

			if (done[i])
				continue;
			for (e = 0; e < 1 + (reverse != 0); e++) {
				double dx, dy, d2;

				if (e && p[0] == p[2] && p[1] == p[3])
					continue;
				dx = p[2 * e] - x;
				dy = p[2 * e + 1] - y;
				d2 = dx * dx + dy * dy;
				if (d2 < best) {
					best = d2;
					bi = i;
					be = e;
				}
			}
		}
		done[bi] = 1;
		order[k] = (int32_t)bi;
		rev[k] = (unsigned char)be;
		x = ends[4 * bi + (be ? 0 : 2)];
		y = ends[4 * bi + (be ? 1 : 3)];
	}
	free(done);
}

/* n random strokes; spread in {0: uniform, 1: clustered, 2: a line}. */
static void
strokes(struct pk_rng *rng, double *ends, size_t n, int spread)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double x, y;

		if (spread == 0) {
			x = pk_rng_range(rng, 0, 400);
			y = pk_rng_range(rng, 0, 300);
		} else if (spread == 1) {
			double cx = (double)(pk_rng_below(rng, 5) * 80);

			x = cx + pk_rng_range(rng, 0, 3);
			y = cx / 2 + pk_rng_range(rng, 0, 3);
		} else {
			x = (double)pk_rng_below(rng, 50);
			y = 7;
		}
		ends[4 * i] = x;
		ends[4 * i + 1] = y;
		if (i % 5 == 0) {	/* a closed path */
			ends[4 * i + 2] = x;
			ends[4 * i + 3] = y;
		} else {
			ends[4 * i + 2] = x + (double)pk_rng_below(rng, 9) - 4;
			ends[4 * i + 3] = y + (double)pk_rng_below(rng, 9) - 4;
		}
	}
}

static void
against_brute(void)
{
	static const size_t sizes[] = {1, 2, 3, 10, 257, 1000, 3000};
	struct pk_rng rng;
	size_t s;
	int spread, reverse;

	pk_rng_seed(&rng, 5);
	for (spread = 0; spread < 3; spread++)
		for (reverse = 0; reverse < 2; reverse++) {
			int mism = 0;

			for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				size_t n = sizes[s];
				double *ends = malloc(4 * n * sizeof(*ends));
				int32_t *o1 = malloc(n * sizeof(*o1));
				int32_t *o2 = malloc(n * sizeof(*o2));
				unsigned char *r1 = malloc(n), *r2 = malloc(n);

				strokes(&rng, ends, n, spread);
				if (pk_order_greedy(ends, n, 0, 0, reverse, o1,
						    r1) < 0)
					mism++;
				brute(ends, n, 0, 0, reverse, o2, r2);
				mism += memcmp(o1, o2, n * sizeof(*o1)) != 0;
				mism += reverse && memcmp(r1, r2, n) != 0;
				free(ends);
				free(o1);
				free(o2);
				free(r1);
				free(r2);
			}
			{
				char name[128];

				snprintf(name, sizeof(name),
					 "%s strokes, %s: the grid's order is "
					 "the brute force's, 1 to 3000 paths",
					 spread == 0   ? "uniform"
					 : spread == 1 ? "clustered"
						       : "collinear, tied",
					 reverse ? "reversible"
						 : "forward only");
				is_int(mism, 0, name);
			}
		}
}

static void
small_cases(void)
{
	/* Three strokes on a line, given backwards. */
	const double ends[] = {20, 0, 30, 0, 10, 0, 19, 0, 0, 0, 9, 0};
	int32_t order[3];
	unsigned char rev[3];
	double travel;

	ok(pk_order_greedy(ends, 3, 0, 0, 0, order, rev) == 0 &&
		   order[0] == 2 && order[1] == 1 && order[2] == 0 && !rev[0] &&
		   !rev[1] && !rev[2],
	   "three strokes in a row, forward: nearest first");
	travel = pk_order_travel(ends, 3, 0, 0, order, rev);
	is_num(travel, 2, 1e-12, "their pen-up travel: 1 + 1");
	is_num(pk_order_travel(ends, 3, 0, 0, NULL, NULL), 20 + 20 + 19, 1e-12,
	       "the given order's travel: 20 + 20 + 19");
	ok(pk_order_greedy(ends, 3, 31, 0, 1, order, rev) == 0 &&
		   order[0] == 0 && rev[0] && order[1] == 1 && rev[1] &&
		   order[2] == 2 && rev[2],
	   "from the far end, reversible: each drawn backwards");
	{
		/* Equidistant: the lowest index wins, then its start. */
		const double tie[] = {5, 0, 9, 9, -5, 0, 9, 9, 0, 5, 0, -5};

		ok(pk_order_greedy(tie, 3, 0, 0, 1, order, rev) == 0 &&
			   order[0] == 0 && !rev[0],
		   "a tie goes to the lowest index, then to its start");
	}
	is_int(pk_order_greedy(ends, 0, 0, 0, 1, order, rev), 0,
	       "no paths is fine");
	{
		const double nan[] = {0, 0, 1, NAN};

		is_int(pk_order_greedy(nan, 1, 0, 0, 1, order, rev), -1,
		       "a coordinate that is not finite is an error");
	}
}

static void
permute(void)
{
	static const struct pk_style st = {0, 0, 0, 0.3};
	struct pk_drawing d, e;
	const int32_t order[] = {1, 0};
	const unsigned char rev[] = {1, 0};
	const int32_t twice[] = {0, 0};

	pk_drawing_init(&d);
	pk_drawing_init(&e);
	pk_drawing_pen(&d, 0);
	pk_drawing_layer(&d, "x", 0);
	pk_drawing_begin(&d, &st);
	pk_drawing_point(&d, 0, 0);
	pk_drawing_point(&d, 1, 0);
	pk_drawing_end(&d, 0, 0, 0, 0);
	pk_drawing_begin(&d, &st);
	pk_drawing_point(&d, 5, 5);
	pk_drawing_point(&d, 6, 5);
	pk_drawing_point(&d, 7, 5);
	pk_drawing_end(&d, 0, 0, 0, 0);
	ok(pk_drawing_permute(&d, order, rev, &e) == 0 && e.npaths == 2 &&
		   e.paths[0].n == 3 && e.pts[0].x == 7 && e.pts[2].x == 5 &&
		   e.pts[3].x == 0 && e.nlayers == 1 &&
		   !strcmp(e.layers[0].id, "x"),
	   "permute: reordered, reversed where asked, layers kept");
	ok(pk_drawing_permute(&d, twice, NULL, &e) < 0 && e.npaths == 0,
	   "permute refuses an order that is not a permutation");
	pk_drawing_free(&d);
	pk_drawing_free(&e);
}

int
main(void)
{
	plan(6 + 7 + 2);
	against_brute();
	small_cases();
	permute();
	return done();
}
