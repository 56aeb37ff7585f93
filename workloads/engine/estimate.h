/* estimate.h: how long a plot takes, pen-down and pen-up, with acceleration. */
#ifndef PK_ESTIMATE_H
#define PK_ESTIMATE_H

#include <stddef.h>

#include "drawing.h"

/*
 * The model: the pen starts up at the page origin. Each visible path, in
 * order, is one pen drop, its chords, and one pen lift; a path that starts
 * exactly where the last one ended is drawn on without lifting. Pen-down
 * motion is split into rest-to-rest moves wherever the path turns by more
 * than corner_deg (a plotter must stop there; gentler turns, like those of
 * a flattened circle, are taken at speed). Pen-up travel is one straight
 * rest-to-rest move between paths. Every move follows a trapezoidal speed
 * profile: constant acceleration up to the top speed, cruise, and the same
 * deceleration (a triangle when the move is too short to reach it).
 */
struct pk_plotter {
	double accel;		/* mm/s^2 */
	double v_down;		/* top speed drawing, mm/s */
	double v_up;		/* top speed travelling, mm/s */
	double lift_s;		/* seconds per pen lift, and per drop */
	double corner_deg;	/* turns sharper than this stop the pen */
};

/* An AxiDraw-like machine at its default settings. */
#define PK_PLOTTER_DEFAULTS {1000.0, 50.0, 150.0, 0.15, 30.0}

struct pk_estimate {
	double down_mm, up_mm;	/* pen-down and pen-up distance */
	double down_s, up_s;	/* time moving with the pen down and up */
	double lift_s;		/* time lifting and dropping the pen */
	double total_s;
	size_t strokes;		/* pen drops (each lifted again) */
	size_t moves;		/* rest-to-rest pen-down moves */
};

/*
 * The time of one rest-to-rest move of dist mm: dist / v + v / a when it
 * reaches v, else 2 sqrt(dist / a).
 */
double pk_move_time(double dist, double accel, double vmax);

/* Estimate the plot of d's visible paths in their order. Returns 0, or -1
 * when a parameter is not positive. */
int pk_estimate_plot(const struct pk_drawing *d, const struct pk_plotter *p,
		     struct pk_estimate *e);

#endif /* PK_ESTIMATE_H */
