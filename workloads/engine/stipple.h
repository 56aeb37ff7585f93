/* stipple.h: weighted Voronoi stippling by Lloyd iterations. */
#ifndef PK_STIPPLE_H
#define PK_STIPPLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Dots whose density follows pk_stipple_density(): sites start where a
 * seeded rejection sampler puts them, then each Lloyd iteration assigns
 * every density sample to its nearest site (pk_nearest_site) and moves
 * each site to the weighted centroid of its samples (a site with none
 * stays). Only +, -, *, / and the seeded PRNG are used, and sums run in
 * sample order, so a seed gives the same dots on every machine.
 */
struct pk_stipple {
	double width, height;	/* the page, mm */
	size_t sites;		/* dots */
	size_t samples;		/* density samples, uniform on the page */
	int iterations;		/* Lloyd steps */
	uint64_t seed;
};

/* The target density at (x, y): two soft blobs on a light ground, in
 * (0.05, 1]. */
double pk_stipple_density(const struct pk_stipple *p, double x, double y);

/*
 * Place p->sites dots into sites (x, y pairs: 2 * p->sites floats).
 * Returns 0, or -1 when out of memory or a size is 0.
 */
int pk_stipple(const struct pk_stipple *p, float *sites);

/*
 * The nearest-site step, pk_nearest_site's contract in a function a GPU
 * can provide: 0, or -1 when it failed.
 */
typedef int (*pk_nearest_fn)(void *arg, const float *pts, size_t n,
			     const float *sites, size_t m, int32_t *out);

/* pk_stipple() with its nearest-site step done by nearest(arg, ...), which
 * must give pk_nearest_site's answers for the dots to be the same. */
int pk_stipple_with(const struct pk_stipple *p, float *sites,
		    pk_nearest_fn nearest, void *arg);

#endif /* PK_STIPPLE_H */
