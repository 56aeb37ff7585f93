/* path.c: fuzz target: the micro-grammars of SVG attributes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/color.h"
#include "engine/num.h"
#include "engine/path.h"
#include "engine/xform.h"

#define MAX_PTS ((size_t)1 << 18)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pk_drawing d;

/*
 * The input as path data, a transform list, a length and a colour, each
 * read on [s, end) with no NUL after it, as libxml2 hands them over.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size, *at = NULL;
	struct pk_style st = {0, 0, 0, 0.3};
	struct pk_flatten f = {PK_FLATTEN_STEP, PK_FLATTEN_TOL};
	struct pk_xform m;
	enum pk_unit unit;
	uint32_t rgb;
	char why[160];
	double v;

	if (!d.open) {
		pk_drawing_init(&d);
		d.max_pts = MAX_PTS;
	}
	pk_drawing_clear(&d);
	pk_xform_identity(&m);
	if (pk_path_parse(s, end, &m, &st, &f, &d, why, sizeof(why)) < 0 &&
	    !why[0])
		abort();
	if (pk_xform_parse(s, end, &m, &at) == 0 &&
	    (!isfinite(m.a) || !isfinite(m.b) || !isfinite(m.c) ||
	     !isfinite(m.d) || !isfinite(m.e) || !isfinite(m.f)))
		abort();	/* a transform that overflowed, accepted */
	if (pk_length_parse(s, end, &v, &unit) == 0 && !isfinite(v))
		abort();
	pk_color_parse(s, end, &rgb);
	return 0;
}
