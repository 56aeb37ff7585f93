/* svg.h: the SVG reader: a file's bytes to a drawing in page millimetres. */
#ifndef PK_SVG_H
#define PK_SVG_H

#include <stddef.h>

#include "drawing.h"
#include "err.h"
#include "flatten.h"

/*
 * What is read (on libxml2's SAX2 parser; nothing is loaded from the
 * network, and no entity is expanded: a reference to an entity declared
 * in the document's DTD is an error):
 *
 *   <svg> width and height in mm, cm, in, pt, pc or px (96 per inch), a
 *   viewBox with preserveAspectRatio; nested <svg> viewports;
 *   <g> and <a>, whose stroke, fill, color, stroke-width, display and
 *   visibility (as attributes or in style="") are inherited;
 *   transform lists on every element (matrix, translate, scale, rotate
 *   with a centre, skewX, skewY);
 *   <circle>, <ellipse>, <rect> (rx and ry), <line>, <polyline>,
 *   <polygon> and <path> (every command, see path.h).
 *
 * Each top-level group is a layer; layer 0 holds what is outside them. A
 * shape's pen is its stroke, or its fill when it has no stroke (not for
 * <line>, which has no inside); a shape with neither is not drawn. Elements
 * that draw nothing (defs, title, metadata, gradients, ...) and elements of
 * other namespaces (Inkscape's, say) are skipped with what they hold. Elements
 * that would draw something this reader cannot (text, image, use, switch) are
 * errors, as are unknown ones: a plot that silently lacks part of its drawing
 * is worse than one that does not start.
 */
struct pk_svg_opts {
	struct pk_flatten flatten;
	unsigned flags;
};

/*
 * Keep hidden shapes (display:none, visibility:hidden), marked
 * PK_PATH_HIDDEN, instead of dropping them: compose needs them.
 */
#define PK_SVG_KEEP_HIDDEN 1u

/*
 * Parse buf[0..len) into d (cleared first; its memory is reused). o NULL
 * means step PK_FLATTEN_STEP, tol PK_FLATTEN_TOL and no flags. Returns 0,
 * or -1 with err holding the line and the reason (libxml2's for XML
 * syntax, ours for SVG: "unclosed element 'g'", "bad length '1x' in
 * attribute 'r'", "unknown element 'circel'"); d is then empty.
 */
int pk_svg_parse(const char *buf, size_t len, const struct pk_svg_opts *o,
		 struct pk_drawing *d, struct pk_err *err);

#endif /* PK_SVG_H */
