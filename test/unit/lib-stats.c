/* lib-stats.c: median, nearest-rank p90, min, max; Mann-Whitney U. */
#include "base/stats.h"
#include "tap.h"

/* The p90 of the values n .. 1 (n <= 20): its nearest rank, 1-based. */
static double
p90_of(size_t n)
{
	double v[20];
	struct prof_stats st;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (double)(n - i);
	prof_stats_compute(v, n, &st);
	return st.p90;
}

int
main(void)
{
	struct prof_stats st;
	double odd[5] = {5, 1, 4, 2, 3};
	double even[4] = {4, 1, 3, 2};
	double ten[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	double eleven[11] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	double one[1] = {7};
	double a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 10};
	double c[3] = {1, 2, 3}, dd[3] = {1, 2, 3};
	double big_a[30], big_b[30];
	double p;
	int i;

	plan(27);
	prof_stats_compute(odd, 5, &st);
	is_num(st.median, 3, 0, "odd n: the middle value");
	is_num(st.min, 1, 0, "min");
	is_num(st.max, 5, 0, "max");
	is_num(st.p90, 5, 0, "p90 of 5: sorted[ceil(4.5) - 1] = sorted[4]");
	prof_stats_compute(even, 4, &st);
	is_num(st.median, 2.5, 0, "even n: the mean of the two middle values");
	is_num(st.p90, 4, 0, "p90 of 4: sorted[ceil(3.6) - 1] = sorted[3]");
	prof_stats_compute(ten, 10, &st);
	is_num(st.p90, 9, 0, "p90 of 10: sorted[8]");
	is_num(st.median, 5.5, 0, "median of 10");
	prof_stats_compute(eleven, 11, &st);
	is_num(st.p90, 10, 0, "p90 of 11: sorted[ceil(9.9) - 1] = sorted[9]");
	prof_stats_compute(one, 1, &st);
	is_num(st.p90, 7, 0, "p90 of 1 is the value");
	is_num(st.median, 7, 0, "median of 1 is the value");
	is_num(p90_of(3), 3, 0, "p90 of 3 is sorted[2]");
	is_num(p90_of(20), 18, 0, "p90 of 20 is sorted[17]");
	prof_stats_compute(one, 0, &st);
	is_int((long long)st.n, 0, "no values: n = 0");
	ok(odd[0] == 5 && odd[1] == 1, "the input is not reordered");
	/* Exact: 5 vs 5 fully separated: 2 / C(10,5) = 2/252. */
	p = prof_stats_mann_whitney(a, 5, b, 5);
	is_num(p, 2.0 / 252, 1e-12, "exact p, fully separated 5 vs 5");
	p = prof_stats_mann_whitney(b, 5, a, 5);
	is_num(p, 2.0 / 252, 1e-12, "the test is two-sided");
	p = prof_stats_mann_whitney(c, 3, dd, 3);
	is_num(p, 1, 1e-9, "identical sets: p = 1");
	ok(prof_stats_mann_whitney(c, 0, dd, 3) < 0, "an empty set has no p");
	/* Normal approximation for large sets (scipy: 2.87e-11 with
	 * continuity correction, 30 vs 30 separated). */
	for (i = 0; i < 30; i++) {
		big_a[i] = i;
		big_b[i] = 100 + i;
	}
	p = prof_stats_mann_whitney(big_a, 30, big_b, 30);
	ok(p > 1e-11 && p < 1e-10, "normal approximation, 30 vs 30");
	/* Ties force the approximation: 1,2,2,3 vs 2,3,3,4. */
	{
		double t1[4] = {1, 2, 2, 3}, t2[4] = {2, 3, 3, 4};

		p = prof_stats_mann_whitney(t1, 4, t2, 4);
		ok(p > 0.1 && p < 0.5, "ties use the corrected approximation");
	}
	{
		double x[3] = {1, 2, 3}, y[3] = {4, 5, 6};

		is_num(prof_stats_mann_whitney(x, 3, y, 3), 0.1, 1e-12,
		       "3 vs 3 separated: the smallest p is 0.1");
	}
	/* The paired interval: Walsh averages, the signed-rank critical
	 * value (8 for 10 pairs at 95%, two-sided: Wilcoxon's table). */
	{
		double d[10] = {3, 1, 4, 10, 5, 9, 2, 6, 8, 7}, lo, hi;

		is_int(prof_stats_paired_ci(d, 10, 0.05, &lo, &hi), 0,
		       "the paired interval of 10 differences");
		ok(lo == 3 && hi == 8,
		   "the 9th smallest and largest of 55 Walsh averages");
		prof_stats_paired_ci(d, 6, 0.05, &lo, &hi);
		ok(lo == 1 && hi == 10,
		   "6 pairs at 95%: the smallest and largest differences");
		prof_stats_paired_ci(d, 5, 0.05, &lo, &hi);
		ok(isinf(lo) && isinf(hi),
		   "5 pairs cannot give 95%: an unbounded interval");
		for (i = 0; i < 30; i++)
			big_a[i] = 0.01 * (i % 7) - 0.03;
		prof_stats_paired_ci(big_a, 30, 0.01, &lo, &hi);
		ok(lo < 0 && hi > 0 && lo >= -0.03 && hi <= 0.03,
		   "differences round zero: an interval that holds it");
	}
	return done();
}
