/* color.h: SVG paint values as 0xRRGGBB, the key of a pen. */
#ifndef PK_COLOR_H
#define PK_COLOR_H

#include <stdint.h>

#define PK_COLOR_NONE 0xffffffffu	/* "none", "transparent" */
#define PK_COLOR_CURRENT 0xfffffffeu	/* "currentColor" */

/*
 * Parse a paint value in [s, end): none, transparent, currentColor, #rgb,
 * #rrggbb, rgb(r, g, b) with integers or percentages, a CSS colour name
 * (any case), or url(#id) with an optional fallback paint (url() alone is
 * black: a plotter has no gradients). Returns 0, or -1 for anything else.
 */
int pk_color_parse(const char *s, const char *end, uint32_t *rgb);

/* "#rrggbb" (lowercase) of rgb, or "none". */
void pk_color_name(uint32_t rgb, char out[8]);

#endif /* PK_COLOR_H */
