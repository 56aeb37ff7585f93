/* ab_slow.c: the B side of the A/B test pair: test.ab with 30% more work,
 * test.ilp in four independent lanes. */
#define AB_WORK_PCT 130
#define AB_LANES 4
#include "ab.c"
