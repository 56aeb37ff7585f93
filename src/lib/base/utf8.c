/* utf8.c: text from outside made valid UTF-8 before it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"

#define REPL_LEN (sizeof(PROF_UTF8_REPLACEMENT) - 1)

size_t
prof_utf8_seq(const unsigned char *p, size_t avail)
{
	unsigned char c = p[0];
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (avail < n)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

size_t
prof_utf8_check(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (p[i] && p[i] < 0x80) {
			i++;
			continue;
		}
		if (!p[i])
			return i;
		k = prof_utf8_seq(p + i, n - i);
		if (!k)
			return i;
		i += k;
	}
	return n;
}

int
prof_utf8_valid(const char *s, char *why, size_t why_n)
{
	size_t n = s ? strlen(s) : 0, bad = prof_utf8_check(s, n);

	if (bad == n)
		return 1;
	if (why && why_n)
		snprintf(why, why_n, "byte 0x%02x at offset %zu is not UTF-8",
			 (unsigned char)s[bad], bad);
	return 0;
}

size_t
prof_utf8_cut(const char *s, size_t n, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;

	if (n <= max)
		return n;
	/* Back over continuation bytes to the start of the character that
	 * max falls in (at most three of them). */
	while (max > 0 && (p[max] & 0xc0) == 0x80)
		max--;
	return max;
}

char *
prof_utf8_fix(const char *s, size_t n, size_t max, size_t *out_n)
{
	struct prof_buf b = {0};
	size_t i = 0, k, keep;
	char mark[64];

	if (prof_buf_reserve(&b, n < 4096 ? n : 4096) < 0)
		return NULL;
	while (i < n) {
		k = prof_utf8_check(s + i, n - i);
		if (k && prof_buf_put(&b, s + i, k) < 0)
			goto oom;
		i += k;
		if (i == n)
			break;
		/* One replacement per byte that begins no character. */
		if (prof_buf_put(&b, PROF_UTF8_REPLACEMENT, REPL_LEN) < 0)
			goto oom;
		i++;
		if (max && b.len > max + 4)
			break;
	}
	if (max && b.len > max) {
		keep = prof_utf8_cut(b.p, b.len, max);
		snprintf(mark, sizeof(mark), " [... cut, %zu bytes]", n);
		b.len = keep;
		if (prof_buf_put(&b, mark, strlen(mark)) < 0)
			goto oom;
	}
	if (!b.p && prof_buf_put(&b, "", 0) < 0)
		goto oom;
	b.p[b.len] = '\0';
	if (out_n)
		*out_n = b.len;
	return b.p;
oom:
	prof_buf_free(&b);
	return NULL;
}

char *
prof_utf8_line(const char *s, size_t max)
{
	struct prof_buf b = {0};
	size_t n = strlen(s), i, fn, keep;
	char *fixed, *grown, esc[8];
	char mark[64];
	int rc = 0;

	/* Escaped as far as a cut needs, the rest only counted in n. */
	for (i = 0; i < n && (!max || b.len <= max + 8) && !rc; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\t' || c == '\n' || c == '\r') {
			rc = prof_buf_put(&b, " ", 1);
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			rc = prof_buf_put(&b, esc, 4);
		} else {
			rc = prof_buf_put(&b, s + i, 1);
		}
	}
	if (rc || prof_buf_reserve(&b, b.len) < 0) {
		prof_buf_free(&b);
		return NULL;
	}
	fixed = prof_utf8_fix(b.p, b.len, 0, &fn);
	prof_buf_free(&b);
	if (!fixed || !max || (i == n && fn <= max))
		return fixed;
	keep = prof_utf8_cut(fixed, fn, max);
	/* Nor inside a \xNN written above (a backslash of s's own in the
	 * last three bytes goes too: no harm). */
	for (i = 1; i <= 3 && i <= keep; i++)
		if (fixed[keep - i] == '\\') {
			keep -= i;
			break;
		}
	snprintf(mark, sizeof(mark), " [... cut, %zu bytes]", n);
	grown = realloc(fixed, keep + strlen(mark) + 1);
	if (!grown) {
		free(fixed);
		return NULL;
	}
	memcpy(grown + keep, mark, strlen(mark) + 1);
	return grown;
}

/* Whether text[i..n) begins an escaped NUL ("\u0000"), i at the 'u'. */
static int
escaped_nul(const char *t, size_t i, size_t n)
{
	return n - i >= 5 && !memcmp(t + i, "u0000", 5);
}

int
prof_utf8_json(const char *text, size_t n, char **fixed, size_t *fixed_n)
{
	const unsigned char *p = (const unsigned char *)text;
	struct prof_buf b = {0};
	size_t i = 0, from = 0, k = 0;
	int bad = 0;

	/* The common case, a clean text, costs one pass and no copy. */
	while (i < n && !bad) {
		if (p[i] == '\\') {
			bad = i + 1 < n && escaped_nul(text, i + 1, n);
			i += 2;
		} else if (p[i] >= 0x80) {
			k = prof_utf8_seq(p + i, n - i);
			bad = !k;
			i += k ? k : 1;
		} else {
			i++;
		}
	}
	if (!bad)
		return 0;
	if (prof_buf_reserve(&b, n + 16) < 0)
		return -1;
	i = 0;
	while (i < n) {
		size_t skip = 0;

		if (p[i] == '\\' && i + 1 < n && escaped_nul(text, i + 1, n)) {
			skip = 6;
			if (prof_buf_put(&b, text + from, i - from) < 0 ||
			    prof_buf_put(&b, "\\ufffd", 6) < 0)
				goto oom;
		} else if (p[i] == '\\') {
			i += 2;
			continue;
		} else if (p[i] >= 0x80 && !(k = prof_utf8_seq(p + i, n - i))) {
			skip = 1;
			if (prof_buf_put(&b, text + from, i - from) < 0 ||
			    prof_buf_put(&b, PROF_UTF8_REPLACEMENT, REPL_LEN) <
				    0)
				goto oom;
		} else {
			i += p[i] >= 0x80 ? k : 1;
			continue;
		}
		i += skip;
		from = i;
	}
	if (i > n)
		i = n;
	if (prof_buf_put(&b, text + from, i - from) < 0)
		goto oom;
	*fixed = b.p;
	*fixed_n = b.len;
	return 1;
oom:
	prof_buf_free(&b);
	return -1;
}

int
prof_utf8_put_wide(FILE *fp, const unsigned char *c, size_t *len)
{
	*len = prof_utf8_seq(c, 4);
	if (*len > 1) {
		fwrite(c, 1, *len, fp);
		return 1;
	}
	if (!*len) {
		fputs(PROF_UTF8_REPLACEMENT, fp);
		return 1;
	}
	return 0;
}

/* The characters HTML text and attributes write as references. */
static const char *const html_entity[0x80] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
	['"'] = "&quot;", ['\''] = "&#39;",
};

const char *
prof_html_entity(unsigned char c)
{
	return c < 0x80 ? html_entity[c] : NULL;
}

void
prof_utf8_html(FILE *fp, const char *s, size_t max)
{
	const unsigned char *c = (const unsigned char *)s;
	size_t k, len;

	for (k = 0; c && *c && k < max; k++, c += len ? len : 1) {
		if (prof_utf8_put_wide(fp, c, &len))
			continue;
		if (prof_html_entity(*c))
			fputs(prof_html_entity(*c), fp);
		else if (*c == '\t' || *c == '\n')
			fputc(*c, fp);
		else if (*c < 0x20 || *c == 0x7f)
			fputs(PROF_UTF8_REPLACEMENT, fp);
		else
			fputc(*c, fp);
	}
}
