/* compose.h: drawings back to SVG: the visible layers, or one file per pen. */
#ifndef PK_COMPOSE_H
#define PK_COMPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "drawing.h"

/*
 * The SVG written here is plain: a page in mm (viewBox in mm, so user
 * units are millimetres), fill="none" on the root, coordinates rounded to
 * 1 um. A
 * flattened circle is written back as a <circle>, any other path as a
 * <path> of straight segments (closed ones ending in Z). Read back with
 * the same step and tolerance, it gives the same paths to within 1 um.
 */

/*
 * One SVG of the visible layers of d, in order, one <g> per layer (its id
 * kept; layer 0, what lies outside any group, stays outside), without the
 * hidden layers and hidden paths. out is reset first;
 * *shapes (when not NULL) is the number of shapes written. Returns 0, or
 * -1 when out of memory.
 */
int pk_compose_visible(const struct pk_drawing *d, struct pk_buf *out,
		       size_t *shapes);

/* One SVG per pen: the pen's visible shapes, in drawing order. */
struct pk_pen_svg {
	uint32_t pen;		/* 0xRRGGBB */
	size_t shapes;
	struct pk_buf svg;
};

/*
 * Split d by pen: *out gets one pk_pen_svg per pen that has a visible
 * shape, in the order the pens first appear, and *n their number. Free
 * with pk_pen_svgs_free(). Returns 0, or -1 when out of memory.
 */
int pk_split_by_pen(const struct pk_drawing *d, struct pk_pen_svg **out,
		    size_t *n);

void pk_pen_svgs_free(struct pk_pen_svg *v, size_t n);

#endif /* PK_COMPOSE_H */
