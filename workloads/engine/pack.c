/* pack.c: grow-to-fit random circle packing over a grid. */
#include <math.h>
#include <stdlib.h>

#include "pack.h"
#include "rng.h"

int
pk_pack(const struct pk_pack *p, struct pk_circle *out, size_t *placed)
{
	double cell = 2 * p->rmax + p->gap;
	double x0 = p->margin, y0 = p->margin;
	double x1 = p->width - p->margin, y1 = p->height - p->margin;
	struct pk_rng rng;
	int32_t *head = NULL, *next = NULL;
	size_t nx, ny, a, n = 0, i;
	int rc = -1;

	*placed = 0;
	if (!(p->rmin > 0) || !(p->rmax >= p->rmin) || !(p->gap >= 0) ||
	    !(x1 > x0) || !(y1 > y0) || p->count > INT32_MAX)
		return -1;
	nx = (size_t)((x1 - x0) / cell) + 1;
	ny = (size_t)((y1 - y0) / cell) + 1;
	head = malloc(nx * ny * sizeof(*head));
	next = malloc((p->count ? p->count : 1) * sizeof(*next));
	if (!head || !next)
		goto out;
	for (i = 0; i < nx * ny; i++)
		head[i] = -1;
	pk_rng_seed(&rng, p->seed);
	for (a = 0; a < p->attempts && n < p->count; a++) {
		double x = pk_rng_range(&rng, x0, x1);
		double y = pk_rng_range(&rng, y0, y1);
		double r = p->rmax;
		size_t cx = (size_t)((x - x0) / cell),
		       cy = (size_t)((y - y0) / cell);
		size_t gx, gy;

		r = x - x0 < r ? x - x0 : r;
		r = x1 - x < r ? x1 - x : r;
		r = y - y0 < r ? y - y0 : r;
		r = y1 - y < r ? y1 - y : r;
		for (gy = cy ? cy - 1 : 0; gy <= cy + 1 && gy < ny; gy++)
			for (gx = cx ? cx - 1 : 0; gx <= cx + 1 && gx < nx;
			     gx++) {
				int32_t j;

				for (j = head[gy * nx + gx]; j >= 0;
				     j = next[j]) {
					double dx = x - out[j].x;
					double dy = y - out[j].y;
					double room = sqrt(dx * dx + dy * dy) -
						      out[j].r - p->gap;

					r = room < r ? room : r;
				}
			}
		if (r < p->rmin)
			continue;
		out[n].x = x;
		out[n].y = y;
		out[n].r = r;
		next[n] = head[cy * nx + cx];
		head[cy * nx + cx] = (int32_t)n;
		n++;
	}
	*placed = n;
	rc = 0;
out:
	free(head);
	free(next);
	return rc;
}
