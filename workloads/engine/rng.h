/* rng.h: splitmix64, the engine's one seeded random number generator. */
#ifndef PK_RNG_H
#define PK_RNG_H

#include <stdint.h>

/*
 * Steele, Lea and Flood's splitmix64: a 64-bit state advanced by a fixed
 * odd constant and mixed. Only integer arithmetic, so a seed gives the same
 * sequence on every machine; the generators and fixtures use nothing else.
 */
struct pk_rng {
	uint64_t state;
};

void pk_rng_seed(struct pk_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t pk_rng_next(struct pk_rng *r);

/* A double in [0, 1) with 53 random bits. */
double pk_rng_uniform(struct pk_rng *r);

/* A double in [lo, hi). */
double pk_rng_range(struct pk_rng *r, double lo, double hi);

/* An integer in [0, n), without modulo bias; 0 when n is 0. */
uint64_t pk_rng_below(struct pk_rng *r, uint64_t n);

#endif /* PK_RNG_H */
