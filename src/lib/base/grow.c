/* grow.c: room in a growing array (grow.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* *pp read and written as bytes: pp is a T ** of any object type T, and
 * every object pointer has void *'s representation here (as the tools'
 * realloc of a T * has always assumed). */
static void *
get(const void *pp)
{
	void *p;

	memcpy(&p, pp, sizeof(p));
	return p;
}

static void
put(void *pp, void *p)
{
	memcpy(pp, &p, sizeof(p));
}

int
prof_resize(void *pp, size_t n, size_t size)
{
	void *np;

	if (!n || !size || n > SIZE_MAX / size)
		return -1;
	np = realloc(get(pp), n * size);
	if (!np)
		return -1;
	put(pp, np);
	return 0;
}

int
prof_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t ncap;

	if (need <= *cap)
		return 0;
	if (!size || need > SIZE_MAX / size)
		return -1;
	ncap = *cap ? *cap : PROF_GROW_FIRST;
	/* Doubling, as far as the room in bytes stays a size_t. */
	if (*cap && ncap <= SIZE_MAX / size / 2)
		ncap *= 2;
	else if (*cap)
		ncap = SIZE_MAX / size;
	if (ncap < need)
		ncap = need;
	if (prof_resize(pp, ncap, size) < 0)
		return -1;
	*cap = ncap;
	return 0;
}

void
prof_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
