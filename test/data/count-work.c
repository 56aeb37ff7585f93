/* count-work.c: a program that does WORK x argv[1] loop steps (t6206
 * builds it twice: the same, and with 2% more work). */
#include <stdlib.h>

#ifndef WORK
#define WORK 1000000
#endif

int
main(int argc, char **argv)
{
	volatile unsigned long sum = 0;
	long i, n = (long)WORK * (argc > 1 ? atol(argv[1]) : 1);

	for (i = 0; i < n; i++)
		sum += (unsigned long)i;
	return sum == 1;
}
