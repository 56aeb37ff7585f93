/* plan.c: greedy nearest order and the plot estimate, as POST /api/plan. */
#include <stdlib.h>
#include <string.h>

#include "engine/order.h"
#include "plan.h"
#include "report.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* FNV-1a over each index as 4 little-endian bytes and its reversal byte. */
static uint64_t
order_sum(const int32_t *order, const unsigned char *rev, size_t n)
{
	uint64_t h = FNV_OFFSET;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		uint32_t v = (uint32_t)order[i];

		for (k = 0; k < 4; k++) {
			h ^= (v >> (8 * k)) & 0xff;
			h *= FNV_PRIME;
		}
		h ^= rev[i];
		h *= FNV_PRIME;
	}
	return h;
}

void
pk_planner_init(struct pk_planner *w)
{
	memset(w, 0, sizeof(*w));
	pk_drawing_init(&w->ordered);
}

void
pk_planner_free(struct pk_planner *w)
{
	pk_drawing_free(&w->ordered);
	free(w->ends);
	free(w->order);
	free(w->rev);
	pk_planner_init(w);
}

/* Room for n paths in the arrays. */
static int
reserve(struct pk_planner *w, size_t n)
{
	double *ends;
	int32_t *order;
	unsigned char *rev;

	if (n <= w->cap && w->ends)
		return 0;
	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / (4 * sizeof(*ends)))
		return -1;
	ends = realloc(w->ends, 4 * n * sizeof(*ends));
	if (ends)
		w->ends = ends;
	order = realloc(w->order, n * sizeof(*order));
	if (order)
		w->order = order;
	rev = realloc(w->rev, n);
	if (rev)
		w->rev = rev;
	if (!ends || !order || !rev)
		return -1;
	w->cap = n;
	return 0;
}

int
pk_plan_make(struct pk_planner *w, const struct pk_drawing *d,
	     struct pk_plan *p, struct pk_err *err)
{
	static const struct pk_plotter plotter = PK_PLOTTER_DEFAULTS;
	struct pk_stats st;
	size_t n = d->npaths;

	memset(p, 0, sizeof(*p));
	if (reserve(w, n) < 0)
		return pk_err_set(err, 0, "out of memory");
	pk_drawing_ends(d, w->ends);
	if (pk_order_greedy(w->ends, n, 0, 0, 1, w->order, w->rev) < 0)
		return pk_err_set(err, 0, "cannot order the paths (out of "
					  "memory, or a coordinate is not "
					  "finite)");
	if (pk_drawing_permute(d, w->order, w->rev, &w->ordered) < 0)
		return pk_err_set(err, 0, "out of memory");
	if (pk_estimate_plot(&w->ordered, &plotter, &p->est) < 0)
		return pk_err_set(err, 0, "bad plotter parameters");
	pk_drawing_stats(d, &st);
	p->paths = st.paths;
	p->points = st.points;
	p->up_before_mm = pk_order_travel(w->ends, n, 0, 0, NULL, NULL);
	p->order_sum = order_sum(w->order, w->rev, n);
	return 0;
}

int
pk_plan_json(const struct pk_plan *p, struct pk_buf *b)
{
	const struct pk_estimate *e = &p->est;

	pk_buf_printf(b, "{\"paths\":%zu,\"points\":%zu,", p->paths,
		      p->points);
	pk_report_num(b, "pen_down_mm", e->down_mm);
	pk_buf_str(b, ",");
	pk_report_num(b, "pen_up_mm", e->up_mm);
	pk_buf_str(b, ",");
	pk_report_num(b, "pen_up_unordered_mm", p->up_before_mm);
	pk_buf_str(b, ",");
	pk_report_num(b, "time_s", e->total_s);
	pk_buf_str(b, ",");
	pk_report_num(b, "pen_down_s", e->down_s);
	pk_buf_str(b, ",");
	pk_report_num(b, "pen_up_s", e->up_s);
	pk_buf_str(b, ",");
	pk_report_num(b, "lift_s", e->lift_s);
	pk_buf_printf(b, ",\"strokes\":%zu,\"moves\":%zu,"
			 "\"order_checksum\":\"%016llx\"}\n",
		      e->strokes, e->moves, (unsigned long long)p->order_sum);
	return b->oom ? -1 : 0;
}
