/* lib-axis.c: a chart's axis (page.h): from zero or a zoom, ticks, labels. */
#include <float.h>

#include "kit/page.h"
#include "tap.h"

/* Whether the ticks ascend inside the range, a step apart. */
static int
ticks_ok(const struct prof_page_axis *a)
{
	int i;

	if (a->n < 2)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (a->tick[i] < a->lo || a->tick[i] > a->hi * (1 + 1e-9))
			return 0;
		if (i && !(a->tick[i] > a->tick[i - 1]))
			return 0;
	}
	return 1;
}

int
main(void)
{
	struct prof_page_axis a;
	char buf[64];
	double lo, hi;
	double v[4] = {3, NAN, 7, 5}, w[4] = {4, 9, NAN, NAN};

	plan(26);
	is_int(prof_page_axis_fit(&a, 4, 16, 0.2), 0, "4 to 16 ms");
	ok(a.lo == 0 && !a.zoom, "starts at zero: the lowest is at most half");
	ok(a.hi >= 16 && a.hi < 17, "and ends a little above the highest");
	ok(ticks_ok(&a) && a.tick[0] == 0, "its ticks start at 0");

	is_int(prof_page_axis_fit(&a, 58012207, 58109210, 0.1), 0,
	       "instruction counts 0.17% apart");
	ok(a.zoom, "a zoom, not from zero");
	ok(a.lo < 58012207 && a.hi > 58109210, "holding the values");
	is_num((a.hi - a.lo) / 58060708.5, 0.1, 1e-9,
	       "spanning the least asked: a tenth of their level");
	ok(ticks_ok(&a), "with ticks inside it");
	is_num(a.step, 1e6, 0, "a million apart");
	prof_page_count_tick(buf, sizeof(buf), a.tick[0], a.step, a.hi);
	is_str(buf, "56M", "labelled in millions");

	is_int(prof_page_axis_fit(&a, 10, 10.5, 0.2), 0, "10 to 10.5 ms");
	ok(a.zoom && a.hi - a.lo >= 2 - 1e-9,
	   "zoomed to at least 20% of the level");
	is_int(prof_page_axis_fit(&a, 1, 1.1, 5), 0, "a least wider than the level");
	ok(!a.zoom && a.lo == 0, "comes down to zero, and is no zoom");

	is_int(prof_page_axis_fit(&a, 999999999.9999999, 999999999.99999994, 0),
	       0, "values a double can hardly tell apart");
	ok(a.hi > a.lo && a.n >= 1 && a.n <= PROF_PAGE_AXIS_TICKS,
	   "still a range with a few ticks");
	is_int(prof_page_axis_fit(&a, 0, 0, 0.2), 0, "all zero");
	ok(a.lo == 0 && a.hi == 1 && !a.zoom, "zero to one");
	is_int(prof_page_axis_fit(&a, -DBL_MAX, DBL_MAX, 0), 0, "the whole line");
	ok(a.n >= 2 && a.n <= PROF_PAGE_AXIS_TICKS, "a few ticks");
	is_int(prof_page_axis_fit(&a, NAN, 1, 0), -1, "not a number: no axis");

	is_int(prof_page_axis_extent(v, w, 4, &lo, &hi), 0, "the extent of two");
	ok(lo == 3 && hi == 9, "of their finite values");
	prof_page_tick(buf, sizeof(buf), 2.5, 0.5);
	is_str(buf, "2.5", "a label with the decimals of its step");
	prof_page_tick(buf, sizeof(buf), 1e-12, 0.5);
	is_str(buf, "0.0", "zero is zero, not a rounding's -0 or 1e-12");
	return done();
}
