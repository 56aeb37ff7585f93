/* buf.h: a growable byte buffer for the SVG and JSON the engine writes. */
#ifndef PK_BUF_H
#define PK_BUF_H

#include <stddef.h>

/*
 * data is NUL-terminated whenever it is not NULL, and owned by the buffer.
 * A failed allocation sets oom and makes every later append a no-op, so a
 * writer checks once at the end instead of after every call.
 */
struct pk_buf {
	char *data;
	size_t len;
	size_t cap;
	int oom;
};

void pk_buf_init(struct pk_buf *b);
void pk_buf_free(struct pk_buf *b);

/* Empty the buffer but keep its memory (and clear oom). */
void pk_buf_reset(struct pk_buf *b);

/* Make room for n more bytes. Returns 0, or -1 (and sets oom). */
int pk_buf_reserve(struct pk_buf *b, size_t n);

void pk_buf_add(struct pk_buf *b, const void *p, size_t n);
void pk_buf_str(struct pk_buf *b, const char *s);
void pk_buf_printf(struct pk_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * v rounded to decimals (0 to 9) places, trailing zeros and a bare point
 * dropped, never "-0": 1.5, 2, -0.125. The same value gives the same text
 * on every machine.
 */
void pk_buf_num(struct pk_buf *b, double v, int decimals);

/* s with &, <, >, " and ' escaped for XML text and attribute values. */
void pk_buf_xml(struct pk_buf *b, const char *s);

#endif /* PK_BUF_H */
