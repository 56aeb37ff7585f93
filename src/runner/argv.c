/* argv.c: the one builder of the argument vectors the runner starts
 * programs with (a command under callgrind, a worker or a Google Benchmark
 * binary wrapped in valgrind, a command's memory runs in prof-count's
 * fixed environment): any number of arguments, every one passed whole. */
#include <stdlib.h>

#include "runner-int.h"

void
argv_add(struct argv_build *a, const char *s)
{
	if (!a->failed && prof_buf_put(&a->b, &s, sizeof(s)) < 0)
		a->failed = 1;
}

void
argv_add_all(struct argv_build *a, char *const *v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		argv_add(a, v[i]);
}

char **
argv_done(struct argv_build *a)
{
	const char *end = NULL;

	if (a->failed || prof_buf_put(&a->b, &end, sizeof(end)) < 0)
		return NULL;
	a->b.len -= sizeof(end);	/* argv_add() may go on after it */
	return (char **)(void *)a->b.p;
}

void
argv_reset(struct argv_build *a)
{
	a->b.len = 0;
	a->failed = 0;
}

void
argv_free(struct argv_build *a)
{
	prof_buf_free(&a->b);
	a->failed = 0;
}
