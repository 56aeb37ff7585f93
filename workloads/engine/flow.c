/* flow.c: a seeded vector field and evenly spaced streamlines through it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "rng.h"

struct field {
	const struct pk_flow *p;
	size_t nx, ny;		/* lattice nodes */
	double *v;		/* 2 per node */
};

/* The unit field direction at (x, y); -1 where it vanishes. */
static int
field_at(const struct field *f, double x, double y, double *ux, double *uy)
{
	double gx = x > 0 ? x / f->p->scale : 0;
	double gy = y > 0 ? y / f->p->scale : 0;
	size_t i = (size_t)gx, j = (size_t)gy;
	double tx = gx - (double)i, ty = gy - (double)j, sx, sy, vx, vy, len;
	const double *a, *b, *c, *d;

	if (i + 1 >= f->nx)
		i = f->nx - 2;
	if (j + 1 >= f->ny)
		j = f->ny - 2;
	sx = tx * tx * (3 - 2 * tx);
	sy = ty * ty * (3 - 2 * ty);
	a = f->v + 2 * (j * f->nx + i);
	b = a + 2;
	c = a + 2 * f->nx;
	d = c + 2;
	vx = (a[0] * (1 - sx) + b[0] * sx) * (1 - sy) +
	     (c[0] * (1 - sx) + d[0] * sx) * sy + 0.35;
	vy = (a[1] * (1 - sx) + b[1] * sx) * (1 - sy) +
	     (c[1] * (1 - sx) + d[1] * sx) * sy;
	len = sqrt(vx * vx + vy * vy);
	if (!(len > 1e-9))
		return -1;
	*ux = vx / len;
	*uy = vy / len;
	return 0;
}

/* Points of accepted lines in cells of dsep, for the distance tests. */
struct occ {
	double x0, y0, cell;
	size_t nx, ny;
	int32_t *head;
	int32_t *next;
	double *pt;
	size_t n, cap;
};

static size_t
occ_cell(const struct occ *o, double x, double y)
{
	double fx = (x - o->x0) / o->cell, fy = (y - o->y0) / o->cell;
	size_t cx = fx < 0 ? 0 : (size_t)fx, cy = fy < 0 ? 0 : (size_t)fy;

	if (cx >= o->nx)
		cx = o->nx - 1;
	if (cy >= o->ny)
		cy = o->ny - 1;
	return cy * o->nx + cx;
}

/* Whether an accepted point lies within dist of (x, y). */
static int
occ_near(const struct occ *o, double x, double y, double dist)
{
	size_t c = occ_cell(o, x, y), cx = c % o->nx, cy = c / o->nx, gx, gy;

	for (gy = cy ? cy - 1 : 0; gy <= cy + 1 && gy < o->ny; gy++)
		for (gx = cx ? cx - 1 : 0; gx <= cx + 1 && gx < o->nx; gx++) {
			int32_t k;

			for (k = o->head[gy * o->nx + gx]; k >= 0;
			     k = o->next[k]) {
				double dx = o->pt[2 * k] - x;
				double dy = o->pt[2 * k + 1] - y;

				if (dx * dx + dy * dy < dist * dist)
					return 1;
			}
		}
	return 0;
}

static int
occ_add(struct occ *o, double x, double y)
{
	size_t c;

	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 4096;
		double *pt = realloc(o->pt, 2 * cap * sizeof(*pt));
		int32_t *next;

		if (!pt)
			return -1;
		o->pt = pt;
		next = realloc(o->next, cap * sizeof(*next));
		if (!next)
			return -1;
		o->next = next;
		o->cap = cap;
	}
	if (o->n >= INT32_MAX)
		return -1;
	c = occ_cell(o, x, y);
	o->pt[2 * o->n] = x;
	o->pt[2 * o->n + 1] = y;
	o->next[o->n] = o->head[c];
	o->head[c] = (int32_t)o->n;
	o->n++;
	return 0;
}

/*
 * Trace from (x, y) in direction dir (+1 or -1) into line[] (2 doubles a
 * point, the start not included), at most max points; returns how many.
 */
static size_t
trace(const struct field *f, const struct occ *o, double x, double y,
      double dir, double *line, size_t max)
{
	const struct pk_flow *p = f->p;
	double h = p->step * dir;
	size_t n = 0;

	while (n < max) {
		double ux, uy, mx, my, nx, ny;

		if (field_at(f, x, y, &ux, &uy) < 0)
			break;
		mx = x + h / 2 * ux;
		my = y + h / 2 * uy;
		if (field_at(f, mx, my, &ux, &uy) < 0)
			break;
		nx = x + h * ux;
		ny = y + h * uy;
		if (nx < p->margin || ny < p->margin ||
		    nx > p->width - p->margin || ny > p->height - p->margin ||
		    occ_near(o, nx, ny, p->dtest))
			break;
		line[2 * n] = x = nx;
		line[2 * n + 1] = y = ny;
		n++;
	}
	return n;
}

long
pk_flow_field(const struct pk_flow *p, const struct pk_style *st,
	      struct pk_drawing *d)
{
	struct field f;
	struct occ o;
	struct pk_rng rng;
	double *fwd = NULL, *back = NULL, *seeds = NULL;
	size_t sx, sy, nseeds, i, k, half;
	long lines = -1;

	memset(&f, 0, sizeof(f));
	memset(&o, 0, sizeof(o));
	if (!(p->scale > 0) || !(p->dsep > 0) || !(p->dtest > 0) ||
	    p->dtest > p->dsep || !(p->step > 0) || p->max_points < 2 ||
	    !(p->width > 2 * p->margin) || !(p->height > 2 * p->margin))
		return -1;
	f.p = p;
	f.nx = (size_t)(p->width / p->scale) + 3;
	f.ny = (size_t)(p->height / p->scale) + 3;
	f.v = malloc(2 * f.nx * f.ny * sizeof(*f.v));
	o.x0 = p->margin;
	o.y0 = p->margin;
	o.cell = p->dsep;
	o.nx = (size_t)((p->width - 2 * p->margin) / p->dsep) + 1;
	o.ny = (size_t)((p->height - 2 * p->margin) / p->dsep) + 1;
	o.head = malloc(o.nx * o.ny * sizeof(*o.head));
	half = p->max_points / 2;
	fwd = malloc(2 * half * sizeof(*fwd));
	back = malloc(2 * half * sizeof(*back));
	sx = o.nx;
	sy = o.ny;
	nseeds = sx * sy;
	seeds = malloc(2 * nseeds * sizeof(*seeds));
	if (!f.v || !o.head || !fwd || !back || !seeds)
		goto out;
	for (i = 0; i < o.nx * o.ny; i++)
		o.head[i] = -1;
	pk_rng_seed(&rng, p->seed);
	for (i = 0; i < 2 * f.nx * f.ny; i++)
		f.v[i] = pk_rng_range(&rng, -1, 1);
	/* A jittered grid of starts, shuffled (Fisher-Yates). */
	for (i = 0; i < nseeds; i++) {
		seeds[2 * i] = p->margin + ((double)(i % sx) +
					    pk_rng_uniform(&rng)) * p->dsep;
		seeds[2 * i + 1] = p->margin + ((double)(i / sx) +
						pk_rng_uniform(&rng)) * p->dsep;
	}
	for (i = nseeds; i > 1; i--) {
		size_t j = (size_t)pk_rng_below(&rng, i);
		double tx = seeds[2 * (i - 1)], ty = seeds[2 * (i - 1) + 1];

		seeds[2 * (i - 1)] = seeds[2 * j];
		seeds[2 * (i - 1) + 1] = seeds[2 * j + 1];
		seeds[2 * j] = tx;
		seeds[2 * j + 1] = ty;
	}
	lines = 0;
	for (i = 0; i < nseeds; i++) {
		double x = seeds[2 * i], y = seeds[2 * i + 1];
		size_t nf, nb;

		if (x > p->width - p->margin || y > p->height - p->margin ||
		    occ_near(&o, x, y, p->dsep))
			continue;
		nf = trace(&f, &o, x, y, 1, fwd, half);
		nb = trace(&f, &o, x, y, -1, back, half);
		if (nf + nb + 1 < p->min_points || nf + nb + 1 < 2)
			continue;
		pk_drawing_begin(d, st);
		for (k = nb; k > 0; k--)
			pk_drawing_point(d, back[2 * (k - 1)],
					 back[2 * (k - 1) + 1]);
		pk_drawing_point(d, x, y);
		for (k = 0; k < nf; k++)
			pk_drawing_point(d, fwd[2 * k], fwd[2 * k + 1]);
		if (pk_drawing_end(d, 0, 0, 0, 0) < 0)
			goto fail;
		for (k = 0; k < nb; k++)
			if (occ_add(&o, back[2 * k], back[2 * k + 1]) < 0)
				goto fail;
		if (occ_add(&o, x, y) < 0)
			goto fail;
		for (k = 0; k < nf; k++)
			if (occ_add(&o, fwd[2 * k], fwd[2 * k + 1]) < 0)
				goto fail;
		lines++;
	}
	goto out;
fail:
	lines = -1;
out:
	free(f.v);
	free(o.head);
	free(o.next);
	free(o.pt);
	free(fwd);
	free(back);
	free(seeds);
	return lines;
}
