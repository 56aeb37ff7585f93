/* engine-nearest.c: nearest site in float32, against its definition. */
#include <stdint.h>

#include "tap.h"

#include "engine/nearest.h"
#include "engine/rng.h"

/* The contract, written as plainly as it reads. */
static int32_t
nearest(float px, float py, const float *s, size_t m)
{
	float best = INFINITY;
	int32_t bi = -1;
	size_t j;

	for (j = 0; j < m; j++) {
		float dx = px - s[2 * j];
		float dy = py - s[2 * j + 1];
		float dx2 = dx * dx;
		float dy2 = dy * dy;
		float d = dx2 + dy2;

		if (d < best) {
			best = d;
			bi = (int32_t)j;
		}
	}
	return bi;
}

int
main(void)
{
	enum { N = 1003, M = 257 };
	static float pts[2 * N], sites[2 * M];
	static int32_t out[N];
	struct pk_rng rng;
	size_t i;
	int bad = 0, far = 0;

	plan(7);
	pk_rng_seed(&rng, 3);
	for (i = 0; i < 2 * N; i++)
		pts[i] = (float)pk_rng_range(&rng, 0, 420);
	for (i = 0; i < 2 * M; i++)
		sites[i] = (float)pk_rng_range(&rng, 0, 420);
	pk_nearest_site(pts, N, sites, M, out);
	for (i = 0; i < N; i++) {
		double best = INFINITY, dx, dy;
		size_t j;

		bad += out[i] != nearest(pts[2 * i], pts[2 * i + 1], sites, M);
		for (j = 0; j < M; j++) {
			dx = (double)pts[2 * i] - sites[2 * j];
			dy = (double)pts[2 * i + 1] - sites[2 * j + 1];
			best =
			    dx * dx + dy * dy < best ? dx * dx + dy * dy : best;
		}
		dx = (double)pts[2 * i] - sites[2 * out[i]];
		dy = (double)pts[2 * i + 1] - sites[2 * out[i] + 1];
		far += dx * dx + dy * dy > best * (1 + 1e-5);
	}
	is_int(bad, 0, "1003 points x 257 sites: the contract's answers "
		       "(odd sizes: the blocked loop and its tail)");
	is_int(far, 0, "and each is the nearest in float64 too, to float "
		       "rounding");
	{
		/* (0,0) is 5 from sites 1, 2 and 3: the lowest index wins. */
		const float p[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
		const float s[] = {9, 9, 3, 4, -4, 3, 0, -5};
		int32_t o[5];

		pk_nearest_site(p, 5, s, 4, o);
		ok(o[0] == 1 && o[4] == 1, "a tie goes to the lowest index");
	}
	{
		const float p[] = {1, 1, NAN, 0};
		const float s[] = {INFINITY, 0, 2, 2};
		int32_t o[2] = {7, 7};

		pk_nearest_site(p, 2, s, 2, o);
		ok(o[0] == 1, "an infinitely far site loses");
		is_int(o[1], -1, "a NaN point gets -1");
		pk_nearest_site(p, 2, s, 0, o);
		ok(o[0] == -1 && o[1] == -1, "no sites: every point gets -1");
		o[0] = o[1] = 7;
		pk_nearest_site(p, 0, s, 2, o);
		ok(o[0] == 7 && o[1] == 7, "no points: nothing written");
	}
	return done();
}
