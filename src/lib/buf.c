/* buf.c: a growing byte buffer. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int
prof_buf_reserve(struct prof_buf *b, size_t n)
{
	size_t ncap = b->cap ? b->cap : 256;
	char *np;

	if (n + 1 <= b->cap)
		return 0;
	while (ncap < n + 1)
		ncap *= 2;
	np = realloc(b->p, ncap);
	if (!np)
		return -1;
	b->p = np;
	b->cap = ncap;
	return 0;
}

int
prof_buf_put(struct prof_buf *b, const void *s, size_t n)
{
	if (prof_buf_reserve(b, b->len + n) < 0)
		return -1;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void
prof_buf_free(struct prof_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
