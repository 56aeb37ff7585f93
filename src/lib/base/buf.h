/* buf.h: a growing byte buffer, always NUL-terminated. */
#ifndef PROF_BUF_H
#define PROF_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct prof_buf {
	char *p;	/* NULL until the first byte */
	size_t len, cap;
};

/* Append n bytes of s (doubling the room as it runs out). Returns 0, or
 * -1 when out of memory (the buffer as it was). */
int prof_buf_put(struct prof_buf *b, const void *s, size_t n);

/* Room for at least n bytes and a NUL. Returns 0, or -1 when out of
 * memory or n is more than half the address space (the buffer as it was). */
int prof_buf_reserve(struct prof_buf *b, size_t n);

/* Append what fmt says, whole however long. Returns 0, or -1 when out
 * of memory or fmt cannot be formatted (the buffer as it was). */
int prof_buf_printf(struct prof_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int prof_buf_vprintf(struct prof_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

void prof_buf_free(struct prof_buf *b);

#endif /* PROF_BUF_H */
