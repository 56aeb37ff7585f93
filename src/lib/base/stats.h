/* stats.h: order statistics of samples and a rank test between two sets. */
#ifndef PROF_STATS_H
#define PROF_STATS_H

#include <stddef.h>

struct prof_stats {
	size_t n;
	double min;
	double median;	/* middle value; mean of the two middle ones for even n */
	double p90;	/* nearest rank: sorted[max(0, ceil(0.9 n) - 1)] */
	double max;
	double mean;
};

/* qsort()'s ascending order of doubles and of long longs. */
int prof_cmp_double(const void *a, const void *b);
int prof_cmp_ll(const void *a, const void *b);

/*
 * Statistics of v[0..n). v is not changed. n == 0 gives n = 0 and zeros.
 * Returns 0, or -1 when out of memory.
 */
int prof_stats_compute(const double *v, size_t n, struct prof_stats *out);

/*
 * A row's instruction count, the one number every output shows for it
 * (comparisons.json, summary.md, report.html, the history, the dashboard
 * and the exports): the lower median of its counted calls' counts,
 * sorted[prof_stats_count_index(n)], that is sorted[(n - 1) / 2]. It is a
 * count one call really executed (the mean of two calls is not one), the
 * middle one of an odd number and the fewer of two.
 */
size_t prof_stats_count_index(size_t n);

/* prof_stats_compute() of counts: the same, but median is the count
 * above. */
int prof_stats_counts(const double *v, size_t n, struct prof_stats *out);

/*
 * Two-sided Mann-Whitney U test of a against b: the p-value, exact when both
 * sets have at most 20 values and there are no ties, otherwise the normal
 * approximation with tie and continuity corrections. Returns a negative
 * number when either set is empty (no p-value).
 */
double prof_stats_mann_whitney(const double *a, size_t na, const double *b,
			       size_t nb);

/*
 * The distribution-free confidence interval, at level 1 - alpha, of the
 * shift between a and b (a - b), from the Mann-Whitney U distribution
 * (Hodges and Lehmann; Bauer 1972): the c+1-th smallest and largest of the
 * na x nb differences a_i - b_j, c the largest U with P(U <= c) <=
 * alpha / 2 (exact up to 20 a side). Fed logarithms, it bounds the ratio
 * of a to b. With too few samples for that confidence, *lo is -INFINITY
 * and *hi INFINITY. Returns 0, or -1 when out of memory.
 */
int prof_stats_shift_ci(const double *a, size_t na, const double *b, size_t nb,
			double alpha, double *lo, double *hi);

/*
 * The distribution-free confidence interval, at level 1 - alpha, of the
 * centre of d[0..n), the differences of paired values (Wilcoxon's signed
 * rank; Hodges and Lehmann): the c+1-th smallest and largest of the
 * n (n + 1) / 2 Walsh averages (d_i + d_j) / 2, i <= j, c the largest
 * T with P(T+ <= c) <= alpha / 2 (exact up to 200 pairs, else the normal
 * approximation). Fed the logarithms of paired times, it bounds their
 * ratio. With too few pairs for that confidence, *lo is -INFINITY and
 * *hi INFINITY. Returns 0, or -1 when out of memory.
 */
int prof_stats_paired_ci(const double *d, size_t n, double alpha, double *lo,
			 double *hi);

#endif /* PROF_STATS_H */
