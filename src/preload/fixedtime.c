/* fixedtime.c: libprof-fixedtime.so, loaded only into the workers of the
 * instruction phase: time() returns one fixed instant (2026-01-01T00:00:00Z).
 *
 * Libraries seed hash tables from the clock (libxml2 seeds its dictionary
 * with time(NULL)), and another seed makes other collisions: the same
 * work then executes a few hundred more or fewer instructions from one
 * second to the next. With the clock fixed, counts repeat exactly. Only
 * time() is fixed; clock_gettime() and gettimeofday() are left alone, so a
 * workload that waits for time to pass still sees it pass.
 */
#include <time.h>

#define FIXED_INSTANT ((time_t)1767225600)

__attribute__((visibility("default"))) time_t
time(time_t *t)
{
	if (t)
		*t = FIXED_INSTANT;
	return FIXED_INSTANT;
}
