/* buf.c: a growing byte buffer. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

int
prof_buf_reserve(struct prof_buf *b, size_t n)
{
	size_t ncap = b->cap ? b->cap : 256;
	char *np;

	if (n < b->cap)
		return 0;
	/* The room doubles from 256: above half the address space no
	 * doubling reaches n + 1 (it would wrap to 0 and loop). */
	if (n > SIZE_MAX / 2)
		return -1;
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
	if (n > SIZE_MAX - b->len || prof_buf_reserve(b, b->len + n) < 0)
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

int
prof_buf_vprintf(struct prof_buf *b, const char *fmt, va_list ap)
{
	char small[512];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(small))
		return prof_buf_put(b, small, (size_t)n);
	if ((size_t)n > SIZE_MAX - b->len ||
	    prof_buf_reserve(b, b->len + (size_t)n) < 0)
		return -1;
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int
prof_buf_printf(struct prof_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = prof_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}
