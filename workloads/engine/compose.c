/* compose.c: writing drawings as SVG, whole or split by pen. */
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "compose.h"

#define DECIMALS 3	/* 1 um */

static void
header(struct pk_buf *b, const struct pk_drawing *d)
{
	double w = d->width_mm, h = d->height_mm;

	if (w <= 0 || h <= 0) {
		/* No page: the drawing's own extent from the origin. */
		struct pk_stats st;

		pk_drawing_stats(d, &st);
		w = st.bounds[2] > 0 ? st.bounds[2] : 1;
		h = st.bounds[3] > 0 ? st.bounds[3] : 1;
	}
	/*
	 * A side under 1 um would be written as 0, a viewBox that no reader
	 * takes (the svg fuzz target found a page 4.5e-16 mm wide).
	 */
	if (w < 0.001)
		w = 0.001;
	if (h < 0.001)
		h = 0.001;
	pk_buf_str(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	pk_buf_num(b, w, DECIMALS);
	pk_buf_str(b, "mm\" height=\"");
	pk_buf_num(b, h, DECIMALS);
	pk_buf_str(b, "mm\" viewBox=\"0 0 ");
	pk_buf_num(b, w, DECIMALS);
	pk_buf_str(b, " ");
	pk_buf_num(b, h, DECIMALS);
	pk_buf_str(b, "\" fill=\"none\">\n");
}

static void
attr_num(struct pk_buf *b, const char *name, double v)
{
	pk_buf_str(b, name);
	pk_buf_num(b, v, DECIMALS);
	pk_buf_add(b, "\"", 1);
}

/* One shape; its stroke colour too when with_pen is set. */
static void
shape(struct pk_buf *b, const struct pk_drawing *d, const struct pk_path *p,
      int with_pen)
{
	const struct pk_pt *q = d->pts + p->first;
	size_t i, n = p->n;

	if (p->flags & PK_PATH_CIRCLE) {
		attr_num(b, "<circle cx=\"", p->cx);
		attr_num(b, " cy=\"", p->cy);
		attr_num(b, " r=\"", p->r);
	} else {
		int closed = (p->flags & PK_PATH_CLOSED) && n > 2;

		if (closed)
			n--;	/* Z draws the last chord back */
		pk_buf_str(b, "<path d=\"M");
		for (i = 0; i < n; i++) {
			if (i == 1)
				pk_buf_add(b, "L", 1);
			else if (i > 1)
				pk_buf_add(b, " ", 1);
			pk_buf_num(b, q[i].x, DECIMALS);
			pk_buf_add(b, " ", 1);
			pk_buf_num(b, q[i].y, DECIMALS);
		}
		pk_buf_str(b, closed ? "Z\"" : "\"");
	}
	if (with_pen) {
		char name[8];

		pk_color_name(d->pens[p->pen], name);
		pk_buf_printf(b, " stroke=\"%s\"", name);
	}
	attr_num(b, " stroke-width=\"", p->width_mm);
	pk_buf_str(b, "/>\n");
}

int
pk_compose_visible(const struct pk_drawing *d, struct pk_buf *out,
		   size_t *shapes)
{
	size_t *count = NULL, *at = NULL, *sorted = NULL, i, n = 0;
	size_t nl = d->nlayers ? d->nlayers : 1;
	int rc = -1;

	pk_buf_reset(out);
	/* Bucket the visible paths by layer, keeping their order. */
	count = calloc(nl + 1, sizeof(*count));
	at = calloc(nl + 1, sizeof(*at));
	sorted = malloc((d->npaths ? d->npaths : 1) * sizeof(*sorted));
	if (!count || !at || !sorted)
		goto out;
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];
		size_t l = (size_t)p->layer < nl ? (size_t)p->layer : 0;

		if (!(p->flags & PK_PATH_HIDDEN) &&
		    !(d->nlayers && d->layers[l].hidden))
			count[l + 1]++;
	}
	for (i = 0; i < nl; i++)
		at[i + 1] = count[i + 1] += count[i];
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];
		size_t l = (size_t)p->layer < nl ? (size_t)p->layer : 0;

		if (!(p->flags & PK_PATH_HIDDEN) &&
		    !(d->nlayers && d->layers[l].hidden))
			sorted[at[l]++] = i;
	}
	header(out, d);
	for (i = 0; i < nl; i++) {
		size_t k;

		if (count[i] == count[i + 1])
			continue;
		/* Layer 0 is what lies outside any: it stays outside. */
		if (i > 0) {
			pk_buf_str(out, "<g");
			if (d->layers[i].id) {
				pk_buf_str(out, " id=\"");
				pk_buf_xml(out, d->layers[i].id);
				pk_buf_str(out, "\"");
			}
			pk_buf_str(out, ">\n");
		}
		for (k = count[i]; k < count[i + 1]; k++)
			shape(out, d, &d->paths[sorted[k]], 1);
		if (i > 0)
			pk_buf_str(out, "</g>\n");
		n += count[i + 1] - count[i];
	}
	pk_buf_str(out, "</svg>\n");
	if (shapes)
		*shapes = n;
	rc = out->oom ? -1 : 0;
out:
	free(count);
	free(at);
	free(sorted);
	return rc;
}

void
pk_pen_svgs_free(struct pk_pen_svg *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		pk_buf_free(&v[i].svg);
	free(v);
}

int
pk_split_by_pen(const struct pk_drawing *d, struct pk_pen_svg **out,
		size_t *n)
{
	struct pk_pen_svg *v;
	size_t i, kept = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	v = calloc(d->npens ? d->npens : 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < d->npens; i++) {
		v[i].pen = d->pens[i];
		pk_buf_init(&v[i].svg);
	}
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *p = &d->paths[i];
		struct pk_pen_svg *o = &v[p->pen];

		if (p->flags & PK_PATH_HIDDEN ||
		    (d->nlayers && d->layers[p->layer].hidden))
			continue;
		if (o->shapes++ == 0) {
			char name[8];

			header(&o->svg, d);
			pk_color_name(o->pen, name);
			pk_buf_printf(&o->svg, "<g stroke=\"%s\">\n", name);
		}
		shape(&o->svg, d, p, 0);
	}
	for (i = 0; i < d->npens; i++) {
		if (v[i].shapes)
			pk_buf_str(&v[i].svg, "</g>\n</svg>\n");
		if (v[i].svg.oom)
			goto out;
	}
	/* Drop the pens with nothing to draw. */
	for (i = 0; i < d->npens; i++) {
		if (!v[i].shapes)
			pk_buf_free(&v[i].svg);
		else
			v[kept++] = v[i];
	}
	*out = v;
	*n = kept;
	v = NULL;
	rc = 0;
out:
	if (v)
		pk_pen_svgs_free(v, d->npens);
	return rc;
}
