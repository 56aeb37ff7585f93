/* axis.h: a chart's value axis: its range (from zero, or a zoom that says
 * so), round ticks, and their labels. Computes only; never prints. */
#ifndef PROF_AXIS_H
#define PROF_AXIS_H

#include <stddef.h>

/* At most this many ticks on an axis, whatever the numbers. */
#define PROF_AXIS_MAX_TICKS 12

/*
 * An axis over the values a chart draws. zoom is 0 when the axis starts
 * at zero (or holds it), 1 when it shows only the values' neighbourhood:
 * a chart must then say so, with the range, since a step on a zoomed axis
 * looks larger than it is.
 */
struct prof_axis {
	double lo, hi;			/* the range drawn, lo < hi */
	int zoom;
	double step;			/* between ticks */
	double tick[PROF_AXIS_MAX_TICKS];
	int n;				/* ticks, ascending, inside [lo, hi] */
};

/*
 * Fit an axis to values from lo to hi (finite, lo <= hi). An axis starts
 * at zero when that costs at most half its height (the lowest value is at
 * most half the highest, or the values hold zero); otherwise it zooms on
 * the values, spanning at least least (a fraction of their level, e.g.
 * 0.2: noise of a few per cent stays small and a 0.1% change is no
 * cliff). Numbers a double can hardly tell apart still get a range whose
 * ends and ticks differ. Returns 0, or -1 (a->n = 0) when lo or hi is not
 * finite or lo > hi.
 */
int prof_axis_fit(struct prof_axis *a, double lo, double hi, double least);

/*
 * The range of the finite values of v[0..n) and, when w is not NULL, of
 * w[0..n). Returns 0, or -1 when none is finite.
 */
int prof_axis_extent(const double *v, const double *w, size_t n, double *lo,
		     double *hi);

/* A tick's label, with as many decimals as the step needs: "0", "2.5". */
void prof_axis_label(char *buf, size_t n, double v, double step);

/*
 * A count's tick label in the unit of mag (the axis's largest magnitude):
 * "58.5M", "120k", "3G", with as many decimals as the step needs.
 */
void prof_axis_label_count(char *buf, size_t n, double v, double step,
			   double mag);

#endif /* PROF_AXIS_H */
