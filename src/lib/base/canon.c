/* canon.c: JSON written canonically (prof_json_canonical()): members in
 * byte order, numbers in the shortest text that reads back the same, one
 * line; what sample ids and digests are taken over. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/utf8.h"

/* A growing string for the canonical writer; out of memory sticks. */
struct sbuf {
	struct prof_buf b;
	int oom;
};

static void
sb_put(struct sbuf *b, const char *s, size_t n)
{
	/* Where there is room (the common case), the bytes go in here. */
	if (b->b.p && n < b->b.cap - b->b.len) {
		memcpy(b->b.p + b->b.len, s, n);
		b->b.len += n;
		b->b.p[b->b.len] = '\0';
		return;
	}
	if (!b->oom && prof_buf_put(&b->b, s, n) < 0)
		b->oom = 1;
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void
sb_quoted(struct sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char tmp[8];

	/* Most strings (every key) need no escape: quoted at once. */
	while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
		p++;
	if (!*p && !b->oom) {
		size_t n = (size_t)(p - (const unsigned char *)s);

		if (!b->b.p || n + 2 >= b->b.cap - b->b.len) {
			if (prof_buf_reserve(&b->b, b->b.len + n + 2) < 0) {
				b->oom = 1;
				return;
			}
		}
		b->b.p[b->b.len] = '"';
		memcpy(b->b.p + b->b.len + 1, s, n);
		b->b.p[b->b.len + n + 1] = '"';
		b->b.len += n + 2;
		b->b.p[b->b.len] = '\0';
		return;
	}
	sb_put(b, "\"", 1);
	for (p = (const unsigned char *)s; *p; p++) {
		const unsigned char *run = p;

		/* A run of bytes written as they are, put at once. */
		while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			sb_put(b, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		switch (*p) {
		case '"':
			sb_put(b, "\\\"", 2);
			break;
		case '\\':
			sb_put(b, "\\\\", 2);
			break;
		case '\n':
			sb_put(b, "\\n", 2);
			break;
		case '\t':
			sb_put(b, "\\t", 2);
			break;
		case '\r':
			sb_put(b, "\\r", 2);
			break;
		default:
			if (*p < 0x20) {
				snprintf(tmp, sizeof(tmp), "\\u%04x", *p);
				sb_str(b, tmp);
			} else if (*p >= 0x80) {
				/* Canonical text (an id's input) is valid
				 * UTF-8, as every writer writes it. */
				size_t k = prof_utf8_seq(
					p, strnlen((const char *)p, 4));

				if (k)
					sb_put(b, (const char *)p, k);
				else
					sb_str(b, PROF_UTF8_REPLACEMENT);
				p += k ? k - 1 : 0;
			} else {
				sb_put(b, (const char *)p, 1);
			}
		}
	}
	sb_put(b, "\"", 1);
}

/* A member of an object, for its keys' order. */
struct canon_member {
	const char *key;
	struct json_object *v;
};

/* The members sorted by key (an object's keys are distinct, so any
 * sort gives this one order); by insertion where they are few. */
static int
cmp_members(const void *a, const void *b)
{
	return strcmp(((const struct canon_member *)a)->key,
		      ((const struct canon_member *)b)->key);
}

static void
sort_members(struct canon_member *m, size_t n)
{
	size_t i, j;

	if (n > 48) {
		qsort(m, n, sizeof(*m), cmp_members);
		return;
	}
	for (i = 1; i < n; i++) {
		struct canon_member t = m[i];

		for (j = i; j > 0 && strcmp(m[j - 1].key, t.key) > 0; j--)
			m[j] = m[j - 1];
		m[j] = t;
	}
}

/* The decimal digits of v, as "%lld" writes them. */
static void
sb_int(struct sbuf *b, long long v)
{
	char tmp[24], *e = tmp + sizeof(tmp), *d = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
				       (unsigned long long)v;

	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--d = '-';
	sb_put(b, d, (size_t)(e - d));
}

/* Six decimals, trailing zeros dropped, never "-0". */
static void
sb_number6(struct sbuf *b, double v)
{
	char tmp[64];
	char *dot;
	size_t n;

	/*
	 * From 1e18 on, six decimals mean nothing and the digits would not
	 * fit here (1e308 has 309), nor read back as the 64-bit integer they
	 * look like: the exact form with an exponent instead.
	 */
	if (fabs(v) >= 1e18) {
		snprintf(tmp, sizeof(tmp), "%.17g", v);
		sb_str(b, tmp);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.6f", v);
	dot = strchr(tmp, '.');
	if (dot) {
		n = strlen(tmp);
		while (n > 0 && tmp[n - 1] == '0')
			tmp[--n] = '\0';
		if (n > 0 && tmp[n - 1] == '.')
			tmp[--n] = '\0';
	}
	if (!strcmp(tmp, "-0"))
		strcpy(tmp, "0");
	sb_str(b, tmp);
}

static void
canon(struct sbuf *b, struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		sb_str(b, "null");
		break;
	case json_type_boolean:
		sb_str(b, json_object_get_boolean(o) ? "true" : "false");
		break;
	case json_type_int:
		sb_int(b, (long long)json_object_get_int64(o));
		break;
	case json_type_double:
		sb_number6(b, json_object_get_double(o));
		break;
	case json_type_string:
		sb_quoted(b, json_object_get_string(o));
		break;
	case json_type_array: {
		size_t i, n = json_object_array_length(o);

		sb_put(b, "[", 1);
		for (i = 0; i < n; i++) {
			if (i)
				sb_put(b, ",", 1);
			canon(b, json_object_array_get_idx(o, i));
		}
		sb_put(b, "]", 1);
		break;
	}
	case json_type_object: {
		size_t i, n = (size_t)json_object_object_length(o);
		struct canon_member few[48], *m = few;

		if (n > sizeof(few) / sizeof(*few) &&
		    !(m = malloc(n * sizeof(*m)))) {
			b->oom = 1;
			return;
		}
		i = 0;
		json_object_object_foreach(o, k, v)
		{
			m[i].key = k;
			m[i++].v = v;
		}
		sort_members(m, n);
		sb_put(b, "{", 1);
		for (i = 0; i < n; i++) {
			if (i)
				sb_put(b, ",", 1);
			sb_quoted(b, m[i].key);
			sb_put(b, ":", 1);
			canon(b, m[i].v);
		}
		sb_put(b, "}", 1);
		if (m != few)
			free(m);
		break;
	}
	}
}

char *
prof_json_canonical(struct json_object *o)
{
	struct sbuf b = {0};

	if (prof_buf_reserve(&b.b, 512) < 0)
		return NULL;
	canon(&b, o);
	if (b.oom || !b.b.p) {
		prof_buf_free(&b.b);
		return NULL;
	}
	return b.b.p;
}
