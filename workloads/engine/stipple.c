/* stipple.c: rejection-sampled sites relaxed by Lloyd iterations. */
#include <stdlib.h>
#include <string.h>

#include "nearest.h"
#include "rng.h"
#include "stipple.h"

/* A soft bump: 1 at (u0, v0), 1/2 at distance sqrt(s). */
static double
bump(double u, double v, double u0, double v0, double s)
{
	double du = u - u0, dv = v - v0;

	return 1 / (1 + (du * du + dv * dv) / s);
}

double
pk_stipple_density(const struct pk_stipple *p, double x, double y)
{
	double u = x / p->width, v = y / p->height;
	double a = bump(u, v, 0.3, 0.4, 0.02), b = bump(u, v, 0.7, 0.6, 0.05);

	return 0.05 + 0.95 * (a > b ? a : b);
}

static int
cpu_nearest(void *arg, const float *pts, size_t n, const float *sites,
	    size_t m, int32_t *out)
{
	(void)arg;
	pk_nearest_site(pts, n, sites, m, out);
	return 0;
}

int
pk_stipple(const struct pk_stipple *p, float *sites)
{
	return pk_stipple_with(p, sites, cpu_nearest, NULL);
}

int
pk_stipple_with(const struct pk_stipple *p, float *sites,
		pk_nearest_fn nearest, void *arg)
{
	struct pk_rng rng;
	float *samples = NULL;
	double *weight = NULL, *acc = NULL;
	int32_t *owner = NULL;
	size_t i;
	int it, rc = -1;

	if (!p->sites || !p->samples)
		return -1;
	samples = malloc(2 * p->samples * sizeof(*samples));
	weight = malloc(p->samples * sizeof(*weight));
	owner = malloc(p->samples * sizeof(*owner));
	acc = malloc(3 * p->sites * sizeof(*acc));
	if (!samples || !weight || !owner || !acc)
		goto out;
	pk_rng_seed(&rng, p->seed);
	for (i = 0; i < p->samples; i++) {
		samples[2 * i] = (float)pk_rng_range(&rng, 0, p->width);
		samples[2 * i + 1] = (float)pk_rng_range(&rng, 0, p->height);
		weight[i] = pk_stipple_density(p, samples[2 * i],
					       samples[2 * i + 1]);
	}
	for (i = 0; i < p->sites;) {
		double x = pk_rng_range(&rng, 0, p->width);
		double y = pk_rng_range(&rng, 0, p->height);

		if (pk_rng_uniform(&rng) < pk_stipple_density(p, x, y)) {
			sites[2 * i] = (float)x;
			sites[2 * i + 1] = (float)y;
			i++;
		}
	}
	for (it = 0; it < p->iterations; it++) {
		if (nearest(arg, samples, p->samples, sites, p->sites,
			    owner) < 0)
			goto out;
		memset(acc, 0, 3 * p->sites * sizeof(*acc));
		for (i = 0; i < p->samples; i++) {
			double *a = acc + 3 * (size_t)owner[i];

			a[0] += weight[i] * samples[2 * i];
			a[1] += weight[i] * samples[2 * i + 1];
			a[2] += weight[i];
		}
		for (i = 0; i < p->sites; i++) {
			const double *a = acc + 3 * i;

			if (a[2] > 0) {
				sites[2 * i] = (float)(a[0] / a[2]);
				sites[2 * i + 1] = (float)(a[1] / a[2]);
			}
		}
	}
	rc = 0;
out:
	free(samples);
	free(weight);
	free(owner);
	free(acc);
	return rc;
}
