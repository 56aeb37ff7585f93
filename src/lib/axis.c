/* axis.c: a chart's value axis: from zero or a marked zoom, round ticks
 * counted by index, and labels with the decimals their step needs. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "axis.h"

/* Room above the highest value (and below the lowest of a zoom), as a
 * fraction of the values' span. */
#define PAD 0.05

static double
clamp(double v)
{
	return fmax(fmin(v, DBL_MAX), -DBL_MAX);
}

/* A round step, 1, 2 or 5 times a power of ten, giving about five ticks
 * over [lo, hi] (halves first: the width of [-DBL_MAX, DBL_MAX] is not a
 * double). */
static double
round_step(double lo, double hi)
{
	double raw = (hi / 2 - lo / 2) / 2.5, mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/*
 * The ticks: the multiples of a round step inside [lo, hi], counted by
 * index before any is drawn (adding steps never ends where a step is
 * below the doubles' spacing), the step doubled until they are at most
 * PROF_AXIS_MAX_TICKS, each greater than the one before.
 */
static void
ticks(struct prof_axis *a)
{
	double s = round_step(a->lo, a->hi), k0 = 0, k1 = -1;
	int tries;
	long i;

	a->n = 0;
	for (tries = 0; tries < 64; tries++) {
		k0 = ceil(a->lo / s);
		k1 = floor(a->hi / s + 1e-9);
		if (!isfinite(k0) || !isfinite(k1) || k1 < k0)
			break;
		if (k1 - k0 < PROF_AXIS_MAX_TICKS)
			break;
		s *= 2;
	}
	a->step = s;
	if (!isfinite(k0) || !isfinite(k1) || k1 < k0 ||
	    k1 - k0 >= PROF_AXIS_MAX_TICKS)
		return;
	for (i = 0; i <= (long)(k1 - k0); i++) {
		double t = (k0 + (double)i) * s;

		if (!a->n || t > a->tick[a->n - 1])
			a->tick[a->n++] = t;
	}
}

int
prof_axis_fit(struct prof_axis *a, double lo, double hi, double least)
{
	memset(a, 0, sizeof(*a));
	if (!isfinite(lo) || !isfinite(hi) || lo > hi)
		return -1;
	if (!(least >= 0) || !isfinite(least))
		least = 0;
	if (lo == 0 && hi == 0) {
		a->hi = 1;
	} else if (lo <= 0 && hi >= 0) {
		/* The values hold zero: their own range, padded. */
		double span = hi / 2 - lo / 2;

		a->lo = lo < 0 ? clamp(lo - 2 * PAD * span) : 0;
		a->hi = hi > 0 ? clamp(hi + 2 * PAD * span) : 0;
	} else if (lo > 0 && lo <= hi / 2) {
		a->hi = clamp(hi * (1 + PAD));
	} else if (hi < 0 && hi >= lo / 2) {
		a->lo = clamp(lo * (1 + PAD));
	} else {
		double mid = lo / 2 + hi / 2, level = fabs(mid);
		double half = (hi / 2 - lo / 2) * (1 + 2 * PAD);

		half = fmax(half, least * level / 2);
		/* Values a few doubles apart: still ends that differ. */
		half = fmax(half, level * 1e-9);
		a->lo = clamp(mid - half);
		a->hi = clamp(mid + half);
		a->zoom = 1;
		if (lo > 0 && a->lo <= 0) {
			a->lo = 0;
			a->zoom = 0;
		} else if (hi < 0 && a->hi >= 0) {
			a->hi = 0;
			a->zoom = 0;
		}
	}
	if (!(a->hi > a->lo))
		return -1;
	ticks(a);
	return 0;
}

int
prof_axis_extent(const double *v, const double *w, size_t n, double *lo,
		 double *hi)
{
	size_t i;
	int any = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < n; i++) {
		double x[2] = {v[i], w ? w[i] : NAN};
		int j;

		for (j = 0; j < 2; j++) {
			if (!isfinite(x[j]))
				continue;
			any = 1;
			*lo = fmin(*lo, x[j]);
			*hi = fmax(*hi, x[j]);
		}
	}
	return any ? 0 : -1;
}

/* Decimals that tell ticks step apart in unit. */
static int
decimals(double step, double unit)
{
	int d;

	if (!(step > 0) || step / unit >= 1)
		return 0;
	d = (int)ceil(-log10(step / unit) - 1e-9);
	return d > 6 ? 6 : d;
}

void
prof_axis_label(char *buf, size_t n, double v, double step)
{
	snprintf(buf, n, "%.*f", decimals(step, 1),
		 fabs(v) < step * 1e-9 ? 0 : v);
}

void
prof_axis_label_count(char *buf, size_t n, double v, double step, double mag)
{
	double m = fabs(mag);
	double unit = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e3 ? 1e3 : 1;
	const char *u = unit == 1e9 ? "G" : unit == 1e6 ? "M" :
			unit == 1e3 ? "k" : "";

	snprintf(buf, n, "%.*f%s", decimals(step, unit),
		 fabs(v) < step * 1e-9 ? 0 : v / unit, u);
}
