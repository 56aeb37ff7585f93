/* work.c: a command that does WORK units of arithmetic, for prof-count's
 * tests: built with -DWORK=100000 and -DWORK=102000, the second does 2%
 * more work under the same command line. */
#include <stdio.h>

#ifndef WORK
#define WORK 100000
#endif

int
main(void)
{
	volatile unsigned long x = 0;
	long i;

	for (i = 0; i < WORK * 10L; i++)
		x += (unsigned long)i * 2654435761u;
	printf("%lu\n", (unsigned long)x);
	return 0;
}
