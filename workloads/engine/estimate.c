/* estimate.c: pen-down and pen-up travel and time with trapezoidal moves. */
#include <math.h>
#include <string.h>

#include "estimate.h"

double
pk_move_time(double dist, double accel, double vmax)
{
	if (!(dist > 0))
		return 0;
	/* Accelerating to vmax and back takes vmax^2 / accel of distance. */
	if (dist >= vmax * vmax / accel)
		return dist / vmax + vmax / accel;
	return 2 * sqrt(dist / accel);
}

int
pk_estimate_plot(const struct pk_drawing *d, const struct pk_plotter *p,
		 struct pk_estimate *e)
{
	double x = 0, y = 0, cos_corner;
	int down = 0;
	size_t i, j;

	memset(e, 0, sizeof(*e));
	if (!(p->accel > 0) || !(p->v_down > 0) || !(p->v_up > 0) ||
	    !(p->lift_s >= 0) || !(p->corner_deg >= 0))
		return -1;
	cos_corner = cos(p->corner_deg * (M_PI / 180.0));
	for (i = 0; i < d->npaths; i++) {
		const struct pk_path *path = &d->paths[i];
		const struct pk_pt *q = d->pts + path->first;
		double run = 0, ux = 0, uy = 0, ul = 0;
		double dx = q[0].x - x, dy = q[0].y - y;

		if (path->flags & PK_PATH_HIDDEN)
			continue;
		if (!down || dx != 0 || dy != 0) {
			double dist = sqrt(dx * dx + dy * dy);

			e->up_mm += dist;
			e->up_s += pk_move_time(dist, p->accel, p->v_up);
			e->strokes++;
		}
		down = 1;
		for (j = 1; j < path->n; j++) {
			double vx = q[j].x - q[j - 1].x;
			double vy = q[j].y - q[j - 1].y;
			double vl = sqrt(vx * vx + vy * vy);

			if (vl == 0)
				continue;
			/* Stop at a sharp turn: u.v < |u||v| cos(corner). */
			if (ul > 0 &&
			    ux * vx + uy * vy < ul * vl * cos_corner) {
				e->down_s += pk_move_time(run, p->accel,
							  p->v_down);
				e->moves++;
				run = 0;
			}
			run += vl;
			e->down_mm += vl;
			ux = vx;
			uy = vy;
			ul = vl;
		}
		if (run > 0) {
			e->down_s += pk_move_time(run, p->accel, p->v_down);
			e->moves++;
		}
		x = q[path->n - 1].x;
		y = q[path->n - 1].y;
	}
	e->lift_s = 2 * p->lift_s * (double)e->strokes;
	e->total_s = e->down_s + e->up_s + e->lift_s;
	return 0;
}
