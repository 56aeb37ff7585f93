/* path.h: the SVG path data mini-language, flattened into a drawing. */
#ifndef PK_PATH_H
#define PK_PATH_H

#include <stddef.h>

#include "drawing.h"
#include "flatten.h"
#include "xform.h"

/*
 * Parse the path data in [s, end) (every command: M L H V C S Q T A Z,
 * absolute and relative, with implicit repeats and the compact number
 * forms "M1-2.5.5"), map it through ctm into page mm and flatten it into
 * d: one path per subpath, closed ones (Z) ending on their first point,
 * each with style st. Arcs follow the SVG implementation notes (F.6).
 *
 * Returns 0, or -1 with why (up to n bytes) saying what is wrong and
 * where ("expected a number at 'x 3'"); what was drawn before the error
 * stays in d. An empty path is fine and draws nothing. Relative numbers
 * that add up past a double ("number out of range at 'm1e308 ...'") and
 * points beyond PK_DRAWING_MAX_MM ("coordinates out of range") are errors
 * too.
 */
int pk_path_parse(const char *s, const char *end, const struct pk_xform *ctm,
		  const struct pk_style *st, const struct pk_flatten *f,
		  struct pk_drawing *d, char *why, size_t n);

#endif /* PK_PATH_H */
