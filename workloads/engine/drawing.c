/* drawing.c: building, measuring and reordering a drawing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drawing.h"

void
pk_drawing_init(struct pk_drawing *d)
{
	memset(d, 0, sizeof(*d));
	d->open = SIZE_MAX;
}

static void
free_layers(struct pk_drawing *d)
{
	size_t i;

	for (i = 0; i < d->nlayers; i++)
		free(d->layers[i].id);
	free(d->layers);
	d->layers = NULL;
	d->nlayers = 0;
}

void
pk_drawing_free(struct pk_drawing *d)
{
	free(d->pts);
	free(d->paths);
	free(d->pens);
	free_layers(d);
	pk_drawing_init(d);
}

void
pk_drawing_clear(struct pk_drawing *d)
{
	free_layers(d);
	d->npts = 0;
	d->npaths = 0;
	d->npens = 0;
	d->width_mm = 0;
	d->height_mm = 0;
	d->open = SIZE_MAX;
	d->oom = 0;
}

int
pk_drawing_pen(struct pk_drawing *d, uint32_t rgb)
{
	uint32_t *p;
	size_t i;

	for (i = 0; i < d->npens; i++)
		if (d->pens[i] == rgb)
			return (int)i;
	/* Pens are few: grow by one, no capacity to keep. */
	p = realloc(d->pens, (d->npens + 1) * sizeof(*p));
	if (!p) {
		d->oom = 1;
		return -1;
	}
	d->pens = p;
	d->pens[d->npens] = rgb;
	return (int)d->npens++;
}

int
pk_drawing_layer(struct pk_drawing *d, const char *id, int hidden)
{
	struct pk_layer *l;
	char *copy = NULL;

	if (id) {
		copy = strdup(id);
		if (!copy)
			goto oom;
	}
	l = realloc(d->layers, (d->nlayers + 1) * sizeof(*l));
	if (!l) {
		free(copy);
		goto oom;
	}
	d->layers = l;
	d->layers[d->nlayers].id = copy;
	d->layers[d->nlayers].hidden = hidden;
	return (int)d->nlayers++;
oom:
	d->oom = 1;
	return -1;
}

void
pk_drawing_begin(struct pk_drawing *d, const struct pk_style *st)
{
	d->style = *st;
	d->open = d->npts;
}

int
pk_drawing_grow(struct pk_drawing *d)
{
	size_t cap = d->cap_pts ? d->cap_pts * 2 : 1024;
	struct pk_pt *p;

	if (d->oom)
		return -1;
	/* A budget (a server's, against a few bytes that flatten to GBs). */
	if (d->max_pts && cap > d->max_pts) {
		if (d->cap_pts >= d->max_pts) {
			d->oom = 1;
			return -1;
		}
		cap = d->max_pts;
	}
	p = realloc(d->pts, cap * sizeof(*p));
	if (!p) {
		d->oom = 1;
		return -1;
	}
	d->pts = p;
	d->cap_pts = cap;
	return 0;
}

struct pk_pt *
pk_drawing_last(struct pk_drawing *d)
{
	if (d->open == SIZE_MAX || d->npts == d->open)
		return NULL;
	return &d->pts[d->npts - 1];
}

int
pk_drawing_end(struct pk_drawing *d, unsigned flags, double cx, double cy,
	       double r)
{
	struct pk_path *p;
	size_t first = d->open;

	d->open = SIZE_MAX;
	if (d->oom)
		return -1;
	if (first == SIZE_MAX)
		return 0;
	if (d->npts - first < 2) {
		d->npts = first;
		return 0;
	}
	if (d->npaths == d->cap_paths) {
		size_t cap = d->cap_paths ? d->cap_paths * 2 : 256;

		p = realloc(d->paths, cap * sizeof(*p));
		if (!p) {
			d->oom = 1;
			return -1;
		}
		d->paths = p;
		d->cap_paths = cap;
	}
	p = &d->paths[d->npaths++];
	p->first = first;
	p->n = d->npts - first;
	p->pen = d->style.pen;
	p->layer = d->style.layer;
	p->flags = flags | d->style.flags;
	p->width_mm = d->style.width_mm;
	if (flags & PK_PATH_CIRCLE) {
		p->cx = cx;
		p->cy = cy;
		p->r = r;
	} else {
		p->cx = p->cy = p->r = 0;
	}
	return 1;
}

int
pk_drawing_in_range(const struct pk_drawing *d, size_t first_pt,
		    size_t first_path)
{
	size_t i;
	int ok = 1;

	/* No early exit: one branch-free pass over the points. */
	for (i = first_pt; i < d->npts; i++)
		ok &= pk_mm_ok(d->pts[i].x) & pk_mm_ok(d->pts[i].y);
	for (i = first_path; i < d->npaths; i++)
		ok &= pk_mm_ok(d->paths[i].width_mm) &
		      pk_mm_ok(d->paths[i].cx) & pk_mm_ok(d->paths[i].cy) &
		      pk_mm_ok(d->paths[i].r);
	return ok;
}

double
pk_path_length(const struct pk_drawing *d, const struct pk_path *p)
{
	const struct pk_pt *q = d->pts + p->first;
	double len = 0;
	size_t i;

	for (i = 1; i < p->n; i++) {
		double dx = q[i].x - q[i - 1].x, dy = q[i].y - q[i - 1].y;

		len += sqrt(dx * dx + dy * dy);
	}
	return len;
}

void
pk_drawing_stats(const struct pk_drawing *d, struct pk_stats *s)
{
	size_t i, j;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];
		const struct pk_pt *q = d->pts + p->first;

		if (p->flags & PK_PATH_HIDDEN)
			continue;
		if (s->paths == 0) {
			s->bounds[0] = s->bounds[2] = q[0].x;
			s->bounds[1] = s->bounds[3] = q[0].y;
		}
		s->paths++;
		s->points += p->n;
		s->circles += (p->flags & PK_PATH_CIRCLE) != 0;
		s->length_mm += pk_path_length(d, p);
		for (j = 0; j < p->n; j++) {
			if (q[j].x < s->bounds[0])
				s->bounds[0] = q[j].x;
			if (q[j].x > s->bounds[2])
				s->bounds[2] = q[j].x;
			if (q[j].y < s->bounds[1])
				s->bounds[1] = q[j].y;
			if (q[j].y > s->bounds[3])
				s->bounds[3] = q[j].y;
		}
	}
}

void
pk_drawing_pen_counts(const struct pk_drawing *d, size_t *counts)
{
	size_t i;

	memset(counts, 0, d->npens * sizeof(*counts));
	for (i = 0; i < d->npaths; i++)
		if (!(d->paths[i].flags & PK_PATH_HIDDEN))
			counts[d->paths[i].pen]++;
}

void
pk_drawing_ends(const struct pk_drawing *d, double *ends)
{
	size_t i;

	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];
		const struct pk_pt *a = &d->pts[p->first];
		const struct pk_pt *b = &d->pts[p->first + p->n - 1];

		ends[4 * i + 0] = a->x;
		ends[4 * i + 1] = a->y;
		ends[4 * i + 2] = b->x;
		ends[4 * i + 3] = b->y;
	}
}

/* Copy src's page, pens and layers into the cleared dst. */
static int
copy_header(const struct pk_drawing *src, struct pk_drawing *dst)
{
	size_t i;

	dst->width_mm = src->width_mm;
	dst->height_mm = src->height_mm;
	for (i = 0; i < src->npens; i++)
		if (pk_drawing_pen(dst, src->pens[i]) < 0)
			return -1;
	for (i = 0; i < src->nlayers; i++)
		if (pk_drawing_layer(dst, src->layers[i].id,
				     src->layers[i].hidden) < 0)
			return -1;
	return 0;
}

int
pk_drawing_permute(const struct pk_drawing *src, const int32_t *order,
		   const unsigned char *rev, struct pk_drawing *dst)
{
	unsigned char *seen = NULL;
	size_t i, j;
	int rc = -1;

	pk_drawing_clear(dst);
	seen = calloc(src->npaths ? src->npaths : 1, 1);
	if (!seen || copy_header(src, dst) < 0)
		goto out;
	while (dst->cap_pts < src->npts)
		if (pk_drawing_grow(dst) < 0)
			goto out;
	if (src->npaths > dst->cap_paths) {
		struct pk_path *p = realloc(dst->paths,
					    src->npaths * sizeof(*p));

		if (!p)
			goto out;
		dst->paths = p;
		dst->cap_paths = src->npaths;
	}
	for (i = 0; i < src->npaths; i++) {
		const struct pk_path *p;
		struct pk_path *q;
		const struct pk_pt *from;
		struct pk_pt *to;
		int32_t k = order[i];

		if (k < 0 || (size_t)k >= src->npaths || seen[k])
			goto out;
		seen[k] = 1;
		p = &src->paths[k];
		q = &dst->paths[i];
		*q = *p;
		q->first = dst->npts;
		from = src->pts + p->first;
		to = dst->pts + dst->npts;
		if (rev && rev[i])
			for (j = 0; j < p->n; j++)
				to[j] = from[p->n - 1 - j];
		else
			memcpy(to, from, p->n * sizeof(*to));
		dst->npts += p->n;
	}
	dst->npaths = src->npaths;
	rc = 0;
out:
	if (rc < 0)
		pk_drawing_clear(dst);
	free(seen);
	return rc;
}
