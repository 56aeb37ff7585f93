/* sum.c: the library of the tiny library project (its tests); a test's
 * commit makes it do more work. */
#include "sum.h"

uint64_t
tiny_sum(const uint32_t *v, size_t n)
{
	volatile uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}
