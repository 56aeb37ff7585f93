/* drawing.h: the engine's model: polylines in page millimetres. */
#ifndef PK_DRAWING_H
#define PK_DRAWING_H

#include <stddef.h>
#include <stdint.h>

/*
 * A drawing is what a plotter draws: polylines in page millimetres, the
 * origin at the top-left corner of the page and y pointing down, as the
 * SVG is drawn. Every path has at least two points; a closed path repeats
 * its first point at the end. Points live in one array (pts) that paths
 * index, so a drawing is a handful of allocations however many paths it
 * holds. The drawing owns everything it points to.
 */

struct pk_pt {
	double x, y;
};

enum {
	PK_PATH_CLOSED = 1 << 0,	/* ends where it starts */
	PK_PATH_CIRCLE = 1 << 1,	/* a flattened circle: cx, cy, r */
	PK_PATH_HIDDEN = 1 << 2,	/* display:none or visibility:hidden */
};

struct pk_path {
	size_t first;		/* index of the first point in pts */
	size_t n;		/* how many points, >= 2 */
	int pen;		/* index into pens */
	int layer;		/* index into layers */
	unsigned flags;		/* PK_PATH_* */
	double width_mm;	/* stroke width */
	double cx, cy, r;	/* the circle, when PK_PATH_CIRCLE */
};

/* A top-level group of the SVG (layer 0 holds what is outside any). */
struct pk_layer {
	char *id;		/* its id or label, or NULL */
	int hidden;
};

/* What the paths begun next share. */
struct pk_style {
	int pen;
	int layer;
	unsigned flags;		/* PK_PATH_HIDDEN, or 0 */
	double width_mm;
};

struct pk_drawing {
	double width_mm, height_mm;	/* the page; 0 when unknown */
	struct pk_pt *pts;
	size_t npts, cap_pts;
	struct pk_path *paths;
	size_t npaths, cap_paths;
	uint32_t *pens;			/* 0xRRGGBB, see color.h */
	size_t npens;
	struct pk_layer *layers;
	size_t nlayers;
	struct pk_style style;		/* of the path being built */
	size_t open;			/* first point of it, or SIZE_MAX */
	int oom;			/* an allocation failed */
	size_t max_pts;			/* 0, or more points are out of memory */
};

/* Totals over the paths that are not hidden. */
struct pk_stats {
	size_t paths;
	size_t points;
	size_t circles;
	double length_mm;		/* pen-down length */
	double bounds[4];		/* x0, y0, x1, y1; 0 when no paths */
};

/*
 * The largest magnitude of a coordinate, radius, stroke width or page
 * side, in mm. Readers refuse what goes beyond it (or is not a number at
 * all): then every sum, distance and squared distance over a drawing is
 * finite, and a coordinate to 1 um is an exact integer in a double.
 */
#define PK_DRAWING_MAX_MM 1e12
#define PK_DRAWING_MAX_MM_TEXT "1e12"	/* for messages */

/* Whether v is a number within PK_DRAWING_MAX_MM (NaN is not). */
static inline int
pk_mm_ok(double v)
{
	return v >= -PK_DRAWING_MAX_MM && v <= PK_DRAWING_MAX_MM;
}

/*
 * Whether the points from first_pt on and the paths from first_path on
 * are all within range (pk_mm_ok): 1, or 0.
 */
int pk_drawing_in_range(const struct pk_drawing *d, size_t first_pt,
			size_t first_path);

void pk_drawing_init(struct pk_drawing *d);
void pk_drawing_free(struct pk_drawing *d);

/* Empty d but keep its memory, for the next parse of the same size. */
void pk_drawing_clear(struct pk_drawing *d);

/* The index of pen rgb, added when new; -1 when out of memory. */
int pk_drawing_pen(struct pk_drawing *d, uint32_t rgb);

/* Add a layer (id is copied, NULL allowed); its index, or -1. */
int pk_drawing_layer(struct pk_drawing *d, const char *id, int hidden);

/*
 * Build a path: begin, add points, end. pk_drawing_end() keeps it when it
 * has two points or more (with flags, and the circle when PK_PATH_CIRCLE
 * is among them) and drops it otherwise. A failed allocation sets d->oom,
 * makes later calls no-ops, and makes pk_drawing_end() return -1; it
 * returns 1 when the path was kept and 0 when dropped.
 */
void pk_drawing_begin(struct pk_drawing *d, const struct pk_style *st);
int pk_drawing_grow(struct pk_drawing *d);

static inline void
pk_drawing_point(struct pk_drawing *d, double x, double y)
{
	if (d->npts == d->cap_pts && pk_drawing_grow(d) < 0)
		return;
	d->pts[d->npts].x = x;
	d->pts[d->npts].y = y;
	d->npts++;
}

/* The last point of the path being built; NULL when it has none. */
struct pk_pt *pk_drawing_last(struct pk_drawing *d);

int pk_drawing_end(struct pk_drawing *d, unsigned flags, double cx,
		   double cy, double r);

/* Totals over the visible paths. */
void pk_drawing_stats(const struct pk_drawing *d, struct pk_stats *s);

/* The length of one path. */
double pk_path_length(const struct pk_drawing *d, const struct pk_path *p);

/*
 * Fill counts[0..npens) with the number of visible paths of each pen.
 * counts must hold d->npens entries.
 */
void pk_drawing_pen_counts(const struct pk_drawing *d, size_t *counts);

/*
 * The endpoints of every path, 4 doubles each (x0, y0, x1, y1), for
 * path ordering. ends must hold 4 * d->npaths doubles.
 */
void pk_drawing_ends(const struct pk_drawing *d, double *ends);

/*
 * dst = the paths of src in the order given, each reversed where rev[i]
 * is set (rev may be NULL). order holds n = src->npaths distinct indices.
 * dst is cleared first and keeps src's page, pens and layers. Returns 0,
 * or -1 when out of memory or order is not a permutation.
 */
int pk_drawing_permute(const struct pk_drawing *src, const int32_t *order,
		       const unsigned char *rev, struct pk_drawing *dst);

#endif /* PK_DRAWING_H */
