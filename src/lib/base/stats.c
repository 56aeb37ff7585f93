/* stats.c: median, nearest-rank p90, min, max; Mann-Whitney U p-values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"

int
prof_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
prof_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank p90 index of a sorted array of n > 0 values. */
static size_t
p90_index(size_t n)
{
	/* ceil(0.9 n) in integers: (9 n + 9) / 10 */
	size_t rank = (9 * n + 9) / 10;

	return rank > 0 ? rank - 1 : 0;
}

size_t
prof_stats_count_index(size_t n)
{
	return n ? (n - 1) / 2 : 0;
}

static int
compute(const double *v, size_t n, struct prof_stats *out, int counts)
{
	double *s, sum = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), prof_cmp_double);
	for (i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	if (counts)
		out->median = s[prof_stats_count_index(n)];
	else
		out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->p90 = s[p90_index(n)];
	out->mean = sum / (double)n;
	free(s);
	return 0;
}

int
prof_stats_compute(const double *v, size_t n, struct prof_stats *out)
{
	return compute(v, n, out, 0);
}

int
prof_stats_counts(const double *v, size_t n, struct prof_stats *out)
{
	return compute(v, n, out, 1);
}

struct ranked {
	double v;
	int from_a;
};

static int
cmp_ranked(const void *a, const void *b)
{
	return prof_cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

/*
 * P(U <= u) under the null hypothesis, exact, by counting the orderings of
 * m a's and n b's with each U: f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u).
 */
static double
exact_cdf(size_t m, size_t n, double u)
{
	size_t maxu = m * n, i, j, k, stride_u = maxu + 1;
	double *f, total = 0, below = 0;

	f = calloc((m + 1) * (n + 1) * stride_u, sizeof(*f));
	if (!f)
		return -1;
#define F(i_, j_, k_) f[((i_) * (n + 1) + (j_)) * stride_u + (k_)]
	for (i = 0; i <= m; i++) {
		for (j = 0; j <= n; j++) {
			if (i == 0 || j == 0) {
				F(i, j, 0) = 1;
				continue;
			}
			for (k = 0; k <= i * j; k++) {
				double x = F(i, j - 1, k);

				if (k >= j)
					x += F(i - 1, j, k - j);
				F(i, j, k) = x;
			}
		}
	}
	for (k = 0; k <= maxu; k++) {
		total += F(m, n, k);
		if ((double)k <= u + 1e-9)
			below += F(m, n, k);
	}
#undef F
	free(f);
	return below / total;
}

double
prof_stats_mann_whitney(const double *a, size_t na, const double *b,
			size_t nb)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double rank_a = 0, tie_sum = 0, u1, u2, u, p, mu, sigma, z;
	int ties = 0;

	if (na == 0 || nb == 0)
		return -1;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -1;
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){a[i], 1};
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){b[i], 0};
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double avg, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		avg = ((double)i + 1 + (double)j) / 2; /* ranks i+1 .. j */
		t = (double)(j - i);
		if (t > 1) {
			ties = 1;
			tie_sum += t * t * t - t;
		}
		for (size_t k = i; k < j; k++)
			if (r[k].from_a)
				rank_a += avg;
	}
	free(r);
	u1 = rank_a - (double)na * ((double)na + 1) / 2;
	u2 = (double)na * (double)nb - u1;
	u = u1 < u2 ? u1 : u2;
	if (!ties && na <= 20 && nb <= 20) {
		p = exact_cdf(na, nb, u);
		if (p < 0)
			return -1;
		p *= 2;
		return p > 1 ? 1 : p;
	}
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 *
		     (((double)n + 1) - tie_sum / ((double)n * ((double)n - 1))));
	if (sigma <= 0)
		return 1;
	z = (fabs(u1 - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	p = erfc(z / sqrt(2));
	return p > 1 ? 1 : p;
}

/* z with P(Z > z) = q for the standard normal, 0 < q < 0.5. */
static double
normal_upper(double q)
{
	double lo = 0, hi = 40, mid;
	int i;

	for (i = 0; i < 100; i++) {
		mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / sqrt(2)) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The largest c with P(U <= c) <= q under the null hypothesis (exact up
 * to 20 a side, else the normal approximation with a continuity
 * correction); -1 when there is none.
 */
static long
u_quantile(size_t m, size_t n, double q)
{
	double mu = (double)m * (double)n / 2, sigma, c;
	size_t k;

	if (m <= 20 && n <= 20) {
		for (k = 0; k <= m * n / 2; k++) {
			double p = exact_cdf(m, n, (double)k);

			if (p < 0)
				return -2;
			if (p > q)
				break;
		}
		return (long)k - 1;
	}
	sigma = sqrt((double)m * (double)n * ((double)(m + n) + 1) / 12);
	c = floor(mu - normal_upper(q) * sigma - 0.5);
	return c < 0 ? -1 : (long)c;
}

/*
 * Room for the m values of a distribution-free interval whose bounds are
 * the c-th from each end (c from u_quantile() or t_quantile()): 1 with
 * *w malloc'd; 0 when c says there are too few samples for the
 * confidence (the interval stays unbounded); -1 when out of memory.
 */
static int
ci_room(long c, size_t m, double **w)
{
	if (c == -2)
		return -1;
	if (c < 0)
		return 0;
	*w = malloc(m * sizeof(**w));
	return *w ? 1 : -1;
}

/* The bounds: the c-th of the m values w from each end, once sorted;
 * w is freed. */
static void
ci_ends(double *w, size_t m, long c, double *lo, double *hi)
{
	qsort(w, m, sizeof(*w), prof_cmp_double);
	*lo = w[c];
	*hi = w[m - 1 - (size_t)c];
	free(w);
}

int
prof_stats_shift_ci(const double *a, size_t na, const double *b, size_t nb,
		    double alpha, double *lo, double *hi)
{
	size_t n = na * nb, i, j, k = 0;
	double *d;
	long c;
	int rc;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (na == 0 || nb == 0)
		return 0;
	c = u_quantile(na, nb, alpha / 2);
	rc = ci_room(c, n, &d);
	if (rc <= 0)
		return rc;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[k++] = a[i] - b[j];
	ci_ends(d, n, c, lo, hi);
	return 0;
}

/*
 * The largest c with P(T+ <= c) <= q for Wilcoxon's signed-rank statistic
 * of n pairs under the null hypothesis; -1 when there is none, -2 when
 * out of memory. Exact by counting the subsets of the ranks 1..n with
 * each sum, up to 200 pairs; else the normal approximation.
 */
static long
t_quantile(size_t n, double q)
{
	size_t max = n * (n + 1) / 2, i, k;
	double *f, total, below = 0, mu, sigma, c;
	long at = -1;

	if (n > 200) {
		mu = (double)n * ((double)n + 1) / 4;
		sigma = sqrt((double)n * ((double)n + 1) *
			     (2 * (double)n + 1) / 24);
		c = floor(mu - normal_upper(q) * sigma - 0.5);
		return c < 0 ? -1 : (long)c;
	}
	f = calloc(max + 1, sizeof(*f));
	if (!f)
		return -2;
	f[0] = 1;
	for (i = 1; i <= n; i++)
		for (k = max; k >= i; k--)
			f[k] += f[k - i];
	total = ldexp(1, (int)n);
	for (k = 0; k <= max / 2; k++) {
		below += f[k];
		if (below / total > q)
			break;
		at = (long)k;
	}
	free(f);
	return at;
}

int
prof_stats_paired_ci(const double *d, size_t n, double alpha, double *lo,
		     double *hi)
{
	size_t m = n * (n + 1) / 2, i, j, k = 0;
	double *w;
	long c;
	int rc;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (n == 0)
		return 0;
	c = t_quantile(n, alpha / 2);
	rc = ci_room(c, m, &w);
	if (rc <= 0)
		return rc;
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	ci_ends(w, m, c, lo, hi);
	return 0;
}
