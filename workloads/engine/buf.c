/* buf.c: a growable byte buffer with a sticky out-of-memory flag. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void
pk_buf_init(struct pk_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void
pk_buf_free(struct pk_buf *b)
{
	free(b->data);
	pk_buf_init(b);
}

void
pk_buf_reset(struct pk_buf *b)
{
	b->len = 0;
	b->oom = 0;
	if (b->data)
		b->data[0] = '\0';
}

int
pk_buf_reserve(struct pk_buf *b, size_t n)
{
	size_t want, cap;
	char *p;

	if (b->oom)
		return -1;
	if (n >= SIZE_MAX / 2 - b->len)
		goto fail;
	want = b->len + n + 1;
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < want)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		goto fail;
	b->data = p;
	b->cap = cap;
	return 0;
fail:
	b->oom = 1;
	return -1;
}

void
pk_buf_add(struct pk_buf *b, const void *p, size_t n)
{
	if (pk_buf_reserve(b, n) < 0)
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
pk_buf_str(struct pk_buf *b, const char *s)
{
	pk_buf_add(b, s, strlen(s));
}

void
pk_buf_printf(struct pk_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || pk_buf_reserve(b, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
pk_buf_num(struct pk_buf *b, double v, int decimals)
{
	static const double scale[] = {1,   1e1, 1e2, 1e3, 1e4,
				       1e5, 1e6, 1e7, 1e8, 1e9};
	char tmp[48], *p = tmp + sizeof(tmp);
	unsigned long long q, ip, fp, div;
	int neg, i, trimmed;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	if (!isfinite(v) || fabs(v) * scale[decimals] >= 9e15) {
		/* Out of the exact range: let printf round it. */
		pk_buf_printf(b, "%.*f", decimals, v);
		return;
	}
	neg = v < 0;
	q = (unsigned long long)llround(fabs(v) * scale[decimals]);
	div = (unsigned long long)scale[decimals];
	ip = q / div;
	fp = q % div;
	/* Digits are written backwards from the end of tmp. */
	trimmed = 0;
	for (i = 0; i < decimals; i++) {
		int digit = (int)(fp % 10);

		fp /= 10;
		if (!trimmed && digit == 0)
			continue;
		trimmed = 1;
		*--p = (char)('0' + digit);
	}
	if (trimmed)
		*--p = '.';
	do {
		*--p = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	if (neg && q)
		*--p = '-';
	pk_buf_add(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

void
pk_buf_xml(struct pk_buf *b, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		const char *rep;

		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			continue;
		}
		pk_buf_add(b, run, (size_t)(s - run));
		pk_buf_str(b, rep);
		run = s + 1;
	}
	pk_buf_add(b, run, (size_t)(s - run));
}
