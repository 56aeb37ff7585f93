/* steps.c: an exact penalized L1 step fit (see steps.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "steps.h"

double
prof_steps_median(const double *x, size_t n)
{
	double *c = malloc(n * sizeof(*c)), m;

	if (!c || !n) {
		free(c);
		return NAN;
	}
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), prof_cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/*
 * Two heaps keep the running L1 cost of a growing piece: lo holds the
 * smaller half (a max-heap), hi the larger (a min-heap), each with its sum;
 * the cost about the median is (sum hi - m |hi|) + (m |lo| - sum lo).
 */
struct heap {
	double *v;
	size_t n;
	int max;	/* a max-heap */
	double sum;
};

static int
above(const struct heap *h, double a, double b)
{
	return h->max ? a > b : a < b;
}

static void
heap_push(struct heap *h, double x)
{
	size_t i = h->n++;

	h->sum += x;
	while (i > 0 && above(h, x, h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static double
heap_pop(struct heap *h)
{
	double top = h->v[0], x = h->v[--h->n];
	size_t i = 0;

	h->sum -= top;
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && above(h, h->v[c + 1], h->v[c]))
			c++;
		if (!above(h, h->v[c], x))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

static void
piece_add(struct heap *lo, struct heap *hi, double x)
{
	if (!lo->n || x <= lo->v[0])
		heap_push(lo, x);
	else
		heap_push(hi, x);
	if (lo->n > hi->n + 1)
		heap_push(hi, heap_pop(lo));
	else if (hi->n > lo->n)
		heap_push(lo, heap_pop(hi));
}

static double
piece_cost(const struct heap *lo, const struct heap *hi)
{
	double m = lo->v[0];	/* a median: any point between the halves */

	return (hi->sum - m * (double)hi->n) + (m * (double)lo->n - lo->sum);
}

/* The noise scale of x: successive differences, robustly. */
static double
noise(const double *x, size_t n)
{
	double *d = malloc(n * sizeof(*d)), s, level;
	size_t i;

	if (!d)
		return NAN;
	for (i = 1; i < n; i++)
		d[i - 1] = fabs(x[i] - x[i - 1]);
	s = 1.4826 * prof_steps_median(d, n - 1) / sqrt(2.0);
	free(d);
	level = fabs(prof_steps_median(x, n));
	if (!(s >= PROF_STEPS_FLOOR * level))
		s = PROF_STEPS_FLOOR * level;
	return s;
}

long
prof_steps_fit(const double *x, size_t n, size_t *cuts)
{
	double *best = NULL, beta, sigma;
	size_t *from = NULL, t, s, k;
	struct heap lo = {.max = 1}, hi = {.max = 0};
	long ncuts = -1;

	if (n < 2 * PROF_STEPS_MIN)
		return 0;
	sigma = noise(x, n);
	best = malloc((n + 1) * sizeof(*best));
	from = malloc((n + 1) * sizeof(*from));
	lo.v = malloc(n * sizeof(double));
	hi.v = malloc(n * sizeof(double));
	if (!best || !from || !lo.v || !hi.v || isnan(sigma))
		goto out;
	beta = PROF_STEPS_K * sigma * log((double)n);
	/* best[t]: the least cost of x[0..t); from[t]: its last piece's start. */
	best[0] = 0;
	for (t = 1; t <= n; t++) {
		best[t] = INFINITY;
		from[t] = 0;
		lo.n = hi.n = 0;
		lo.sum = hi.sum = 0;
		/* Grow the piece x[s..t) leftwards from t. */
		for (s = t; s-- > 0;) {
			double c;

			piece_add(&lo, &hi, x[s]);
			if (t - s < PROF_STEPS_MIN)
				continue;
			if (s > 0 && (s < PROF_STEPS_MIN || isinf(best[s])))
				continue;
			c = best[s] + piece_cost(&lo, &hi) + beta;
			if (c < best[t]) {
				best[t] = c;
				from[t] = s;
			}
		}
	}
	ncuts = 0;
	for (t = n; t > 0 && !isinf(best[t]); t = from[t])
		if (from[t] > 0)
			cuts[ncuts++] = from[t];
	/* Backtracking gave them last first. */
	for (k = 0; k < (size_t)ncuts / 2; k++) {
		size_t tmp = cuts[k];

		cuts[k] = cuts[ncuts - 1 - k];
		cuts[ncuts - 1 - k] = tmp;
	}
out:
	free(best);
	free(from);
	free(lo.v);
	free(hi.v);
	return ncuts;
}
