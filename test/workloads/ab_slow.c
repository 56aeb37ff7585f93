/* ab_slow.c: the B side of the A/B test pair: test.ab with 30% more work. */
#define AB_WORK_PCT 130
#include "ab.c"
