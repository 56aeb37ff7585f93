/* plan.h: a drawing's plot plan: greedy nearest order, then the estimate. */
#ifndef PK_PLAN_H
#define PK_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/buf.h"
#include "engine/drawing.h"
#include "engine/err.h"
#include "engine/estimate.h"

/*
 * What POST /api/plan answers: the drawing's paths put in greedy nearest
 * order from the page origin (either end may start a path), then the plot
 * of that order estimated on the default plotter (PK_PLOTTER_DEFAULTS).
 */
struct pk_plan {
	size_t paths, points;
	double up_before_mm;	/* pen-up travel in the drawing's own order */
	struct pk_estimate est;	/* of the ordered drawing */
	uint64_t order_sum;	/* FNV-1a 64 of the order and reversals */
};

/*
 * What planning needs besides the drawing: the ordered copy and the order
 * arrays. Kept between plans, their memory is reused (a server plans the
 * same size of drawing again and again).
 */
struct pk_planner {
	struct pk_drawing ordered;
	double *ends;
	int32_t *order;
	unsigned char *rev;
	size_t cap;		/* paths the arrays hold */
};

void pk_planner_init(struct pk_planner *w);
void pk_planner_free(struct pk_planner *w);

/*
 * Plan d into p, with w's memory. Returns 0, or -1 with err saying why
 * (out of memory, a coordinate that is not finite).
 */
int pk_plan_make(struct pk_planner *w, const struct pk_drawing *d,
		 struct pk_plan *p, struct pk_err *err);

/*
 * p as one line of JSON and a newline, appended to b: {"paths", "points",
 * "pen_down_mm", "pen_up_mm", "pen_up_unordered_mm", "time_s",
 * "pen_down_s", "pen_up_s", "lift_s", "strokes", "moves",
 * "order_checksum" (16 hex digits of order_sum)}. Returns 0 or -1 (OOM).
 */
int pk_plan_json(const struct pk_plan *p, struct pk_buf *b);

#endif /* PK_PLAN_H */
