/* lib-verdict-seq.c: the sequential rule of adaptive A/B sampling, a pure
 * decision on fixed sample sets: clear cases stop at the first look,
 * unclear ones go on; the looks and the interval behind them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int
settled(const struct prof_cmp_seq *q, const double *cur, const double *base,
	size_t n, double floor_ms)
{
	char why[128];

	return prof_cmp_seq_settled(q, cur, base, n, floor_ms, why,
				    sizeof(why));
}

static void
test_looks(void)
{
	struct prof_cmp_seq q;

	prof_cmp_seq_init(&q, 10, 40);
	is_int(q.step, 5, "full: a look every 5 samples a side");
	is_int(q.looks, 7, "10, 15, ..., 40: 7 looks");
	is_int(prof_cmp_seq_next(&q, 10), 15, "after 10 comes 15");
	is_int(prof_cmp_seq_next(&q, 40), 0, "40 is the budget");
	prof_cmp_seq_init(&q, 3, 12);
	is_int(q.looks, 6, "quick: 3, 5, 7, 9, 11, 12");
	is_int(prof_cmp_seq_next(&q, 11), 12, "the last look is the budget");
	prof_cmp_seq_init(&q, 10, 10);
	is_int(q.looks, 1, "--max-repeat = --repeat: one look, no adaptivity");
}

static void
test_rule(void)
{
	static const double slow[] = {12.8, 13.0, 13.0, 13.1, 13.3,
				      12.9, 13.2, 13.0, 13.1, 12.9};
	static const double base[] = {9.8,  10.0, 10.0, 10.1, 10.2,
				      9.9,  10.1, 10.0, 10.0, 9.9};
	static const double same[] = {9.9,  10.1, 10.0, 10.0, 10.2,
				      9.8,  10.0, 10.1, 9.9,  10.0};
	static const double edge[] = {11.7, 12.3, 12.0, 11.9, 12.1,
				      11.8, 12.2, 12.0, 12.1, 11.9};
	static const double wide_a[] = {5, 25, 9, 14, 7, 20, 11, 6, 18, 12};
	static const double wide_b[] = {6, 22, 10, 8, 16, 24, 5, 13, 9, 19};
	static const double tiny_a[] = {0.005, 0.03, 0.01, 0.02, 0.008,
					0.012, 0.025, 0.006, 0.015, 0.011};
	static const double tiny_b[] = {0.01, 0.01, 0.011, 0.009, 0.01,
					0.01, 0.012, 0.01, 0.009, 0.01};
	struct prof_cmp_seq q, off;

	prof_cmp_seq_init(&q, 10, 40);
	prof_cmp_seq_init(&off, 10, 10);
	is_int(settled(&q, slow, base, 10, 0.5), 1,
	       "30% slower, tight: settled at the first look (warning)");
	is_int(settled(&q, base, slow, 10, 0.5), 1,
	       "23% faster, tight: settled at the first look (improved)");
	is_int(settled(&q, same, base, 10, 0.5), 1,
	       "the same, tight: settled at the first look (stable)");
	is_int(settled(&q, edge, base, 10, 0.5), 0,
	       "20% slower: the interval holds 1.20, more rounds");
	is_int(settled(&q, wide_a, wide_b, 10, 0.5), 0,
	       "wide and overlapping: more rounds");
	is_int(settled(&q, tiny_a, tiny_b, 10, 0.5), 1,
	       "noisy but every change under the 0.5 ms floor: settled");
	is_int(settled(&q, tiny_a, tiny_b, 10, 0.001), 0,
	       "the same under a 0.001 ms floor: more rounds");
	is_int(settled(&q, slow, base, 3, 0.5), 0,
	       "3 samples a side cannot reach the confidence: more rounds");
	is_int(settled(&off, wide_a, wide_b, 10, 0.5), 1,
	       "adaptivity off: every look is the last");
}

static void
test_interval(void)
{
	static const double a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	static const double b[] = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
	double lo, hi;

	is_int(prof_stats_shift_ci(a, 10, b, 10, 0.05, &lo, &hi), 0,
	       "the shift interval of two samples");
	ok(lo < -10 && hi > -10 && lo >= -16 && hi <= -4,
	   "holds the shift of -10, within the pairwise differences");
	prof_stats_shift_ci(a, 3, b, 3, 0.05, &lo, &hi);
	ok(isinf(lo) && isinf(hi),
	   "3 a side cannot give 95%: an unbounded interval");
}

int
main(void)
{
	plan(19);
	test_looks();
	test_rule();
	test_interval();
	return done();
}
