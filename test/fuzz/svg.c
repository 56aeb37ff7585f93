/* svg.c: fuzz target: the SVG reader, then everything that reads a drawing. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/buf.h"
#include "engine/compose.h"
#include "engine/svg.h"
#include "server/plan.h"
#include "server/report.h"

/* A budget, as the server's: a few bytes may flatten to gigabytes. */
#define MAX_PTS ((size_t)1 << 18)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pk_drawing d, back;
static struct pk_planner pl;

static void
check_finite(const struct pk_drawing *dr)
{
	struct pk_stats st;
	size_t i;

	for (i = 0; i < dr->npts; i++)
		if (!isfinite(dr->pts[i].x) || !isfinite(dr->pts[i].y))
			abort();	/* a point the reader let through */
	for (i = 0; i < dr->npaths; i++)
		if (!isfinite(dr->paths[i].width_mm) ||
		    !isfinite(dr->paths[i].r))
			abort();
	pk_drawing_stats(dr, &st);
	if (!isfinite(st.length_mm) || !isfinite(dr->width_mm) ||
	    !isfinite(dr->height_mm))
		abort();
}

/*
 * An accepted SVG gives a finite drawing, whose report, plan and SVG
 * (read back: it must read) all come out; a refused one says why.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_err err;
	struct pk_buf out;
	struct pk_plan plan;
	struct pk_pen_svg *pens = NULL;
	size_t npens = 0;

	if (!d.open) {
		pk_drawing_init(&d);
		pk_drawing_init(&back);
		pk_planner_init(&pl);
	}
	d.max_pts = MAX_PTS;
	back.max_pts = 4 * MAX_PTS;
	if (pk_svg_parse((const char *)data, size, NULL, &d, &err) < 0) {
		if (!err.reason[0])
			abort();	/* refused without a reason */
		return 0;
	}
	check_finite(&d);
	pk_buf_init(&out);
	if (pk_report_flatten(&d, &(struct pk_flatten){PK_FLATTEN_STEP,
						       PK_FLATTEN_TOL},
			      &out) < 0)
		abort();
	pk_buf_free(&out);
	if (pk_plan_make(&pl, &d, &plan, &err) == 0) {
		pk_buf_init(&out);
		pk_plan_json(&plan, &out);
		pk_buf_free(&out);
	}
	pk_buf_init(&out);
	if (pk_compose_visible(&d, &out, NULL) < 0)
		abort();
	if (pk_svg_parse(out.data, out.len, NULL, &back, &err) < 0 &&
	    !back.oom && err.reason[0] && out.len < 1000000)
		abort();	/* what compose wrote does not read back */
	pk_buf_free(&out);
	if (pk_split_by_pen(&d, &pens, &npens) == 0)
		pk_pen_svgs_free(pens, npens);
	return 0;
}
