/* lib-extremes.c: extreme values never give an impossible verdict or one
 * checksum for different numbers (issue 14, item 5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict/verdict.h"
#include "prof/sum.h"
#include "tap.h"

static enum prof_cmp_status
judge3(double cur, double base, double floor_ms, char *reason, size_t n)
{
	struct prof_cmp_row r;
	int i;

	memset(&r, 0, sizeof(r));
	r.workload = "w";
	r.backend = "cpu";
	r.segment = "{}";
	r.warning_floor_ms = floor_ms;
	r.cur.version = r.base.version = 1;
	r.matched = 1;
	for (i = 0; i < 3; i++) {
		prof_cmp_side_add(&r.cur, cur);
		prof_cmp_side_add(&r.base, base);
	}
	prof_cmp_judge(&r);
	snprintf(reason, n, "%s", r.reason);
	free(r.cur.v);
	free(r.base.v);
	return r.status;
}

static void
sum1(double v, char hex[PROF_SUM_HEX])
{
	struct prof_sum s;

	prof_sum_init(&s);
	prof_sum_f64(&s, v);
	prof_sum_final(&s, hex);
}

int
main(void)
{
	char why[512], a[PROF_SUM_HEX], b[PROF_SUM_HEX];

	plan(8);
	/* 1e13 ms slower: beyond int64 nanoseconds, still a warning. */
	is_int(judge3(2e13, 1e13, 1, why, sizeof(why)), PROF_CMP_WARNING,
	       "a huge slowdown is a warning");
	ok(!strstr(why, "under the floor"), "never 'under the floor' by overflow");
	/* A floor of 1e19 ms: 2 ms slower is under it. */
	is_int(judge3(3, 1, 1e19, why, sizeof(why)), PROF_CMP_STABLE,
	       "a huge floor is not reached");
	ok(strstr(why, "under the floor") != NULL, "and says it is under the floor");
	/* A denormal baseline: no "inf% slower". */
	is_int(judge3(1, 1e-310, 1, why, sizeof(why)), PROF_CMP_INCOMPARABLE,
	       "a denormal baseline median cannot be judged");
	ok(!strstr(why, "inf"), "and no 'inf' in the reason");
	sum1(1e13, a);
	sum1(2e13, b);
	ok(strcmp(a, b) != 0, "1e13 and 2e13 hash apart");
	sum1(-1e300, a);
	sum1(1e300, b);
	ok(strcmp(a, b) != 0, "-1e300 and 1e300 hash apart");
	return done();
}
