/* pack.h: random circle packing on a page. */
#ifndef PK_PACK_H
#define PK_PACK_H

#include <stddef.h>
#include <stdint.h>

/*
 * Seeded candidates, uniform on the page inside the margin, each grown
 * to the largest radius (at most rmax) that keeps gap from every placed
 * circle and from the margin, and kept when that is at least rmin. Stops
 * after count circles or attempts candidates. A grid of cells 2 rmax + gap
 * wide means a candidate only looks at the 3 x 3 cells around it.
 * Arithmetic and sqrt only: a seed packs the same on every machine.
 */
struct pk_pack {
	double width, height, margin;	/* mm */
	double rmin, rmax, gap;		/* mm */
	size_t count;			/* circles wanted */
	size_t attempts;		/* candidates at most */
	uint64_t seed;
};

struct pk_circle {
	double x, y, r;
};

/*
 * Fill out[0 .. *placed) (out holds p->count). Returns 0 (also when the
 * attempts ran out first: *placed < count then), or -1 when out of memory
 * or the parameters make no sense.
 */
int pk_pack(const struct pk_pack *p, struct pk_circle *out, size_t *placed);

#endif /* PK_PACK_H */
