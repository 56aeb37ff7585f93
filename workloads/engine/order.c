/* order.c: greedy nearest-neighbour path order over a shrinking grid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"

/*
 * Entry e is an end of path e / 2: its start when e is even, its end when
 * odd. The grid keeps the live entries of each cell at the front of the
 * cell's slice of items[], so removing one is a swap.
 */
struct grid {
	const double *ends;
	double x0, y0, cell, inv;
	int nx, ny;
	size_t *start;		/* nx * ny + 1 offsets into items */
	size_t *live;		/* live entries of each cell */
	int32_t *items;
	size_t *pos;		/* where each entry is in items */
	unsigned char *in;	/* whether each entry is live */
	size_t built;		/* entries when last built */
	size_t nlive;
};

static double
ex(const struct grid *g, int32_t e)
{
	return g->ends[2 * (size_t)e];
}

static double
ey(const struct grid *g, int32_t e)
{
	return g->ends[2 * (size_t)e + 1];
}

static int
clampi(double v, int n)
{
	if (!(v >= 0))		/* also NaN */
		return 0;
	if (v >= n - 1)
		return n - 1;
	return (int)v;
}

static size_t
cell_of(const struct grid *g, double x, double y)
{
	int cx = clampi((x - g->x0) * g->inv, g->nx);
	int cy = clampi((y - g->y0) * g->inv, g->ny);

	return (size_t)cy * (size_t)g->nx + (size_t)cx;
}

static void
grid_free(struct grid *g)
{
	free(g->start);
	free(g->live);
	free(g->items);
	g->start = g->live = NULL;
	g->items = NULL;
}

/*
 * Cells of size cell along a side of length len, at most 4096: a strip
 * 1e14 cells long (the svg fuzz target made one) must not overflow an int.
 */
static int
cells_along(double len, double cell)
{
	return len / cell >= 4096 ? 4096 : (int)(len / cell) + 1;
}

/*
 * (Re)build the grid over the m entries in list, sized so that a cell
 * holds about one; (x, y), the pen, is inside its bounds.
 */
static int
grid_build(struct grid *g, const int32_t *list, size_t m, double x, double y)
{
	double x1 = x, y1 = y, w, h, cell;
	size_t i, cells;
	int nx, ny;

	g->x0 = x;
	g->y0 = y;
	for (i = 0; i < m; i++) {
		double px = ex(g, list[i]), py = ey(g, list[i]);

		g->x0 = px < g->x0 ? px : g->x0;
		g->y0 = py < g->y0 ? py : g->y0;
		x1 = px > x1 ? px : x1;
		y1 = py > y1 ? py : y1;
	}
	w = x1 - g->x0;
	h = y1 - g->y0;
	cell = sqrt(w * h / (double)(m ? m : 1));
	if (!(cell > 0) || !isfinite(cell))
		cell = (w > h ? w : h) / (double)(m ? m : 1);
	if (!(cell > 0) || !isfinite(cell))
		cell = 1;
	nx = cells_along(w, cell);
	ny = cells_along(h, cell);
	/* A thin strip of points: keep the cell count near m. */
	while ((size_t)nx * (size_t)ny > 4 * m + 16) {
		cell *= 2;
		nx = cells_along(w, cell);
		ny = cells_along(h, cell);
	}
	g->cell = cell;
	g->inv = 1 / cell;
	g->nx = nx;
	g->ny = ny;
	cells = (size_t)nx * (size_t)ny;
	grid_free(g);
	g->start = calloc(cells + 1, sizeof(*g->start));
	g->live = calloc(cells, sizeof(*g->live));
	g->items = malloc((m ? m : 1) * sizeof(*g->items));
	if (!g->start || !g->live || !g->items)
		return -1;
	/* Counting sort of the entries by cell. */
	for (i = 0; i < m; i++)
		g->live[cell_of(g, ex(g, list[i]), ey(g, list[i]))]++;
	for (i = 0; i < cells; i++)
		g->start[i + 1] = g->start[i] + g->live[i];
	memset(g->live, 0, cells * sizeof(*g->live));
	for (i = 0; i < m; i++) {
		size_t c = cell_of(g, ex(g, list[i]), ey(g, list[i]));
		size_t at = g->start[c] + g->live[c]++;

		g->items[at] = list[i];
		g->pos[list[i]] = at;
		g->in[list[i]] = 1;
	}
	g->built = m;
	g->nlive = m;
	return 0;
}

static void
grid_remove(struct grid *g, int32_t e)
{
	size_t c = cell_of(g, ex(g, e), ey(g, e));
	size_t at = g->pos[e], last = g->start[c] + g->live[c] - 1;
	int32_t moved = g->items[last];

	g->items[at] = moved;
	g->pos[moved] = at;
	g->items[last] = e;
	g->pos[e] = last;
	g->live[c]--;
	g->nlive--;
	g->in[e] = 0;
}

/* The live entry nearest (x, y), ties to the lowest; -1 when none. */
static int32_t
grid_nearest(const struct grid *g, double x, double y)
{
	int cx = clampi((x - g->x0) * g->inv, g->nx);
	int cy = clampi((y - g->y0) * g->inv, g->ny);
	int r, rmax = g->nx > g->ny ? g->nx : g->ny;
	double best = INFINITY;
	int32_t found = -1;

	for (r = 0; r <= rmax; r++) {
		int ylo = cy - r, yhi = cy + r, j;

		for (j = ylo < 0 ? 0 : ylo; j <= yhi && j < g->ny; j++) {
			/* The ring: whole rows at its top and bottom, two
			 * cells on the rows between. */
			int step = j == ylo || j == yhi ? 1 : 2 * r;
			int i;

			for (i = cx - r; i <= cx + r; i += step) {
				size_t c, k, lo, hi;

				if (i < 0 || i >= g->nx)
					continue;
				c = (size_t)j * (size_t)g->nx + (size_t)i;
				lo = g->start[c];
				hi = lo + g->live[c];
				for (k = lo; k < hi; k++) {
					int32_t e = g->items[k];
					double dx = ex(g, e) - x;
					double dy = ey(g, e) - y;
					double d2 = dx * dx + dy * dy;

					if (d2 < best ||
					    (d2 == best && e < found)) {
						best = d2;
						found = e;
					}
				}
			}
		}
		/* Cells beyond ring r are at least r cells away. */
		if (found >= 0 && best < (r * g->cell) * (r * g->cell))
			break;
	}
	return found;
}

int
pk_order_greedy(const double *ends, size_t n, double x, double y,
		int reverse, int32_t *order, unsigned char *rev)
{
	struct grid g;
	int32_t *list = NULL;
	size_t m = 0, i, k;
	int rc = -1;

	memset(&g, 0, sizeof(g));
	if (n > INT32_MAX / 2 || !isfinite(x) || !isfinite(y))
		return -1;
	if (n == 0)
		return 0;
	g.ends = ends;
	g.pos = malloc(2 * n * sizeof(*g.pos));
	g.in = calloc(2 * n, 1);
	list = malloc(2 * n * sizeof(*list));
	if (!g.pos || !g.in || !list)
		goto out;
	for (i = 0; i < n; i++) {
		const double *p = ends + 4 * i;

		if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]) ||
		    !isfinite(p[3]))
			goto out;
		list[m++] = (int32_t)(2 * i);
		/* A closed path's end is its start: one entry is enough. */
		if (reverse && (p[0] != p[2] || p[1] != p[3]))
			list[m++] = (int32_t)(2 * i + 1);
	}
	if (grid_build(&g, list, m, x, y) < 0)
		goto out;
	for (k = 0; k < n; k++) {
		int32_t e = grid_nearest(&g, x, y), other;
		size_t path;

		if (e < 0)
			goto out;	/* cannot happen: n entries remain */
		path = (size_t)e / 2;
		order[k] = (int32_t)path;
		if (rev)
			rev[k] = (unsigned char)(e & 1);
		grid_remove(&g, e);
		/* Take the path's other entry out too, if it has one. */
		other = e ^ 1;
		if (g.in[other])
			grid_remove(&g, other);
		x = ends[4 * path + (e & 1 ? 0 : 2)];
		y = ends[4 * path + (e & 1 ? 1 : 3)];
		if (g.built > 256 && g.nlive * 4 < g.built) {
			size_t j, live = 0;

			for (j = 0; j < (size_t)g.nx * (size_t)g.ny; j++) {
				memcpy(list + live, g.items + g.start[j],
				       g.live[j] * sizeof(*list));
				live += g.live[j];
			}
			if (grid_build(&g, list, live, x, y) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	grid_free(&g);
	free(g.pos);
	free(g.in);
	free(list);
	return rc;
}

double
pk_order_travel(const double *ends, size_t n, double x, double y,
		const int32_t *order, const unsigned char *rev)
{
	double total = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		const double *p = ends + 4 * (order ? (size_t)order[k] : k);
		int r = rev && rev[k];
		double sx = r ? p[2] : p[0], sy = r ? p[3] : p[1];
		double dx = sx - x, dy = sy - y;

		total += sqrt(dx * dx + dy * dy);
		x = r ? p[0] : p[2];
		y = r ? p[1] : p[3];
	}
	return total;
}
