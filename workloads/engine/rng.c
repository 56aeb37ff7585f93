/* rng.c: splitmix64 (public domain reference by Sebastiano Vigna). */
#include "rng.h"

void
pk_rng_seed(struct pk_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t
pk_rng_next(struct pk_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
pk_rng_uniform(struct pk_rng *r)
{
	return (double)(pk_rng_next(r) >> 11) * 0x1.0p-53;
}

double
pk_rng_range(struct pk_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * pk_rng_uniform(r);
}

uint64_t
pk_rng_below(struct pk_rng *r, uint64_t n)
{
	uint64_t x, limit;

	if (n == 0)
		return 0;
	/* Reject the top partial block so every residue is equally likely. */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = pk_rng_next(r);
	while (x >= limit);
	return x % n;
}
