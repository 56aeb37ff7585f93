/* json.c: strict JSON reading with line and column (the canonical writer:
 * canon.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/grow.h"
#include "base/json.h"
#include "base/utf8.h"

int
prof_json_read_file(const char *path, char **buf, size_t *len,
		    struct prof_err *err)
{
	FILE *fp;
	char *data = NULL;
	size_t cap = 0, used = 0;
	int rc = -1;
	int is_stdin = !strcmp(path, "-");

	fp = prof_input_open(path, PROF_INPUT_STDIN, PROF_INPUT_DOC_MAX, err);
	if (!fp)
		return -1;
	for (;;) {
		size_t got;

		/* Bounded: stdin (or a file that grows as it is read) past
		 * what a document read whole may be. */
		if ((long long)used > PROF_INPUT_DOC_MAX) {
			prof_err_at(err, path, 0, 0, "more than the %lld bytes "
				    "a document read whole may be",
				    PROF_INPUT_DOC_MAX);
			goto out;
		}

		if (cap - used < 65536) {
			size_t ncap = cap ? cap * 2 : 65536 * 2;
			char *n = realloc(data, ncap + 1);

			if (!n) {
				prof_err_at(err, path, 0, 0, "out of memory");
				goto out;
			}
			data = n;
			cap = ncap;
		}
		got = fread(data + used, 1, cap - used, fp);
		used += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		prof_err_at(err, path, 0, 0, "read error: %s", strerror(errno));
		goto out;
	}
	if (!data) {
		data = malloc(1);
		if (!data) {
			prof_err_at(err, path, 0, 0, "out of memory");
			goto out;
		}
	}
	data[used] = '\0';
	*buf = data;
	*len = used;
	data = NULL;
	rc = 0;
out:
	free(data);
	if (!is_stdin)
		fclose(fp);
	return rc;
}

/* Line and column (from 1) of byte offset off in buf. */
static void
locate(const char *buf, size_t len, size_t off, int first_line, int *line,
       int *col)
{
	size_t i, start = 0;
	int l = first_line;

	if (off > len)
		off = len;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			l++;
			start = i + 1;
		}
	}
	*line = l;
	*col = (int)(off - start) + 1;
}

/* Whether o holds a number that is not finite (the path is found only
 * then: every document is asked). */
static int
any_nonfinite(struct json_object *o)
{
	size_t i, cnt;

	switch (json_object_get_type(o)) {
	case json_type_double:
		return !isfinite(json_object_get_double(o));
	case json_type_object: {
		json_object_object_foreach(o, k, v)
		{
			(void)k;
			if (any_nonfinite(v))
				return 1;
		}
		return 0;
	}
	case json_type_array:
		cnt = json_object_array_length(o);
		for (i = 0; i < cnt; i++)
			if (any_nonfinite(json_object_array_get_idx(o, i)))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* Find a non-finite number anywhere in o; fill path. */
static int
find_nonfinite(struct json_object *o, char *path, size_t n)
{
	size_t len = strlen(path);

	switch (json_object_get_type(o)) {
	case json_type_double:
		return !isfinite(json_object_get_double(o));
	case json_type_object: {
		json_object_object_foreach(o, k, v)
		{
			snprintf(path + len, n - len, ".%s", k);
			if (find_nonfinite(v, path, n))
				return 1;
		}
		break;
	}
	case json_type_array: {
		size_t i, cnt = json_object_array_length(o);

		for (i = 0; i < cnt; i++) {
			snprintf(path + len, n - len, "[%zu]", i);
			if (find_nonfinite(json_object_array_get_idx(o, i),
					   path, n))
				return 1;
		}
		break;
	}
	default:
		break;
	}
	path[len] = '\0';
	return 0;
}

/*
 * What json-c lets through, found by a scan of the text before it parses:
 * bytes that are not UTF-8, NUL characters (raw, or written \u0000, which
 * a C string cannot hold), integers outside int64 (json-c clamps them) and
 * duplicate keys (json-c keeps the last). The first one by offset wins;
 * json-c's own syntax error wins when it comes first, so the scan may be
 * lenient about grammar and stop tracking what it cannot follow.
 */
struct scan_key {
	const char *p;		/* the decoded bytes of a key */
	size_t n;
	size_t off;		/* the offset of its opening quote */
	char *owned;		/* p when it had to be decoded */
};

/* Keys an object holds before its array leaves few[] for the heap. */
#define SCAN_FEW_KEYS 24

struct scan_obj {
	struct scan_key *keys;	/* few, or the heap's */
	size_t n, cap;
	int is_object;
	struct scan_key few[SCAN_FEW_KEYS];
};

/* Levels kept in struct scan itself before the stack goes to the heap. */
#define SCAN_FEW_LEVELS 4

struct scan {
	const char *buf;
	size_t len;
	int found;
	size_t off;
	char reason[200];
	struct scan_obj *stack;	/* levels, or the heap's */
	size_t depth, cap;
	int lost;		/* too deep or out of memory: keys untracked */
	struct scan_obj levels[SCAN_FEW_LEVELS];
};

#define SCAN_MAX_DEPTH 256

static void
scan_issue(struct scan *sc, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
scan_issue(struct scan *sc, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (sc->found && sc->off <= off)
		return;
	sc->found = 1;
	sc->off = off;
	va_start(ap, fmt);
	vsnprintf(sc->reason, sizeof(sc->reason), fmt, ap);
	va_end(ap);
}

static int
hex4(const char *p, size_t avail, unsigned *v)
{
	size_t i;

	*v = 0;
	if (avail < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* Append code point cp as UTF-8. */
static size_t
put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | (cp >> 6));
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | (cp >> 12));
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | (cp >> 18));
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Scan the string whose opening quote is at buf[i]; return the offset just
 * after its closing quote (len when it is not closed). A key's decoded
 * bytes go to *key when key is not NULL.
 */
static size_t
scan_string(struct scan *sc, size_t i, struct scan_key *key)
{
	const char *buf = sc->buf;
	size_t len = sc->len, start = i + 1, j = start;
	int escaped = 0;

	while (j < len) {
		unsigned char c = (unsigned char)buf[j];

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			j++;	/* the common case: plain ASCII */
			continue;
		}
		if (c == '"')
			break;
		if (c == '\\') {
			unsigned v;

			escaped = 1;
			if (j + 1 < len && buf[j + 1] == 'u' &&
			    hex4(buf + j + 2, len - j - 2, &v) == 0) {
				if (v == 0)
					scan_issue(sc, j,
						   "a NUL character (\\u0000) "
						   "in a string");
				j += 6;
			} else {
				j += 2;
			}
			continue;
		}
		if (c == 0) {
			scan_issue(sc, j, "a NUL byte in a string");
			j++;
			continue;
		}
		if (c >= 0x80) {
			size_t n = prof_utf8_seq((const unsigned char *)buf + j,
					    len - j);

			if (!n) {
				scan_issue(sc, j, "invalid UTF-8 (byte 0x%02x)",
					   c);
				j++;
				continue;
			}
			j += n;
			continue;
		}
		j++;
	}
	if (key && j >= len) {
		/* Cut: what is there may be a prefix of another key. */
		key->owned = NULL;
		key->n = (size_t)-1;
	} else if (key) {
		size_t end = j;

		key->off = i;
		key->owned = NULL;
		key->p = buf + start;
		key->n = end - start;
		if (escaped) {
			/* Decode, so that "a" and "\u0061" are one key. */
			char *d = malloc(key->n + 1);
			size_t k = start, m = 0;

			if (!d) {
				sc->lost = 1;
			} else {
				while (k < end) {
					unsigned v, lo;

					if (buf[k] != '\\' || k + 1 >= end) {
						d[m++] = buf[k++];
						continue;
					}
					switch (buf[k + 1]) {
					case 'b': d[m++] = '\b'; k += 2; break;
					case 'f': d[m++] = '\f'; k += 2; break;
					case 'n': d[m++] = '\n'; k += 2; break;
					case 'r': d[m++] = '\r'; k += 2; break;
					case 't': d[m++] = '\t'; k += 2; break;
					case 'u':
						if (hex4(buf + k + 2, end - k - 2,
							 &v) < 0) {
							d[m++] = buf[k++];
							break;
						}
						k += 6;
						if (v >= 0xd800 && v < 0xdc00 &&
						    k + 6 <= end &&
						    buf[k] == '\\' &&
						    buf[k + 1] == 'u' &&
						    hex4(buf + k + 2, 4, &lo) ==
							    0 &&
						    lo >= 0xdc00 &&
						    lo < 0xe000) {
							v = 0x10000 +
							    ((v - 0xd800)
							     << 10) +
							    (lo - 0xdc00);
							k += 6;
						}
						m += put_utf8(d + m, v);
						break;
					default:
						d[m++] = buf[k + 1];
						k += 2;
					}
				}
				key->owned = d;
				key->p = d;
				key->n = m;
			}
		}
	}
	return j < len ? j + 1 : len;
}

/* An integer token at buf[i..e) (no '.', 'e' or 'E'): within int64? */
static void
scan_integer(struct scan *sc, size_t i, size_t e)
{
	const char *p = sc->buf + i;
	size_t n = e - i, digits;
	int neg = p[0] == '-';
	const char *limit = neg ? "9223372036854775808" :
				  "9223372036854775807";
	const char *d = p + neg;

	digits = n - (size_t)neg;
	while (digits > 1 && *d == '0') {
		d++;
		digits--;
	}
	if (digits < 19 || (digits == 19 && memcmp(d, limit, 19) <= 0))
		return;
	scan_issue(sc, i,
		   "integer %.*s%s is out of range (from -2^63 to 2^63-1)",
		   n > 40 ? 40 : (int)n, p, n > 40 ? "..." : "");
}

/* A number token with a fraction or an exponent at buf[i..e): finite as
 * a double? json-c would read 1e999 as inf, which no writer can write
 * back; found here, it is named by line and column. */
static void
scan_real(struct scan *sc, size_t i, size_t e)
{
	char small[64], *t = small;
	size_t n = e - i;
	double v;

	/* Without an exponent, fewer than 300 characters are far below
	 * a double's limit (about 1.8e308): finite. */
	if (n < 300 && !memchr(sc->buf + i, 'e', n) &&
	    !memchr(sc->buf + i, 'E', n))
		return;
	if (n >= sizeof(small) && !(t = malloc(n + 1)))
		return;	/* the walk of the parsed value still finds it */
	memcpy(t, sc->buf + i, n);
	t[n] = '\0';
	v = strtod(t, NULL);
	if (t != small)
		free(t);
	if (isfinite(v))
		return;
	scan_issue(sc, i, "number %.*s%s is not finite (beyond a double)",
		   n > 40 ? 40 : (int)n, sc->buf + i, n > 40 ? "..." : "");
}

static int
cmp_scan_keys(const void *a, const void *b)
{
	const struct scan_key *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int d = memcmp(x->p, y->p, n);

	if (d)
		return d;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Report the first duplicate key of an object, then forget its keys. */
static void
scan_close(struct scan *sc, struct scan_obj *o)
{
	size_t k, first = 0;
	int any = 0;

	if (o->n > 1 && o->n <= SCAN_FEW_KEYS) {
		/* Few keys, in the order of their offsets: the first that
		 * an earlier one equals is the duplicate named, as the
		 * sort below finds it. */
		for (k = 1; k < o->n && !any; k++) {
			const struct scan_key *b = &o->keys[k];
			size_t a;

			for (a = 0; a < k; a++)
				if (o->keys[a].n == b->n &&
				    !memcmp(o->keys[a].p, b->p, b->n)) {
					first = k;
					any = 1;
					break;
				}
		}
	} else if (o->n > 1) {
		qsort(o->keys, o->n, sizeof(*o->keys), cmp_scan_keys);
		for (k = 1; k < o->n; k++) {
			struct scan_key *a = &o->keys[k - 1], *b = &o->keys[k];

			if (a->n == b->n && !memcmp(a->p, b->p, a->n) &&
			    (!any || b->off < o->keys[first].off)) {
				first = k;
				any = 1;
			}
		}
	}
	if (o->n > 1) {
		if (any) {
			struct scan_key *d = &o->keys[first];
			char name[64];
			size_t m, q = 0;

			/* The key as written, made safe for one line. */
			for (m = 0; m < d->n && q + 4 < sizeof(name); m++) {
				unsigned char c = (unsigned char)d->p[m];

				name[q++] = c < 0x20 || c == 0x7f ? '?' :
								    (char)c;
			}
			name[q] = '\0';
			scan_issue(sc, d->off, "duplicate key \"%s%s\"", name,
				   m < d->n ? "..." : "");
		}
	}
	for (k = 0; k < o->n; k++)
		free(o->keys[k].owned);
	if (o->keys != o->few)
		free(o->keys);
	o->keys = NULL;
	o->n = o->cap = 0;
}

static void
scan_push(struct scan *sc, int is_object)
{
	if (sc->lost)
		return;
	if (sc->depth == SCAN_MAX_DEPTH) {
		sc->lost = 1;
		return;
	}
	if (sc->depth == sc->cap) {
		/* Past the levels kept here: the stack to the heap, with
		 * each level's keys that were in its few[] moved along. */
		size_t ncap = sc->cap * 2, k;
		struct scan_obj *p = malloc(ncap * sizeof(*p));

		if (!p) {
			sc->lost = 1;
			return;
		}
		memcpy(p, sc->stack, sc->depth * sizeof(*p));
		for (k = 0; k < sc->depth; k++)
			if (sc->stack[k].keys == sc->stack[k].few)
				p[k].keys = p[k].few;
		if (sc->stack != sc->levels)
			free(sc->stack);
		sc->stack = p;
		sc->cap = ncap;
	}
	sc->stack[sc->depth].keys = sc->stack[sc->depth].few;
	sc->stack[sc->depth].n = 0;
	sc->stack[sc->depth].cap = SCAN_FEW_KEYS;
	sc->stack[sc->depth++].is_object = is_object;
}

static void
scan_add_key(struct scan *sc, struct scan_key *k)
{
	struct scan_obj *o;

	if (sc->lost || !sc->depth || !sc->stack[sc->depth - 1].is_object ||
	    k->n == (size_t)-1) {
		free(k->owned);
		return;
	}
	o = &sc->stack[sc->depth - 1];
	if (o->n == o->cap) {
		/* Past few[]: the keys to the heap. */
		size_t ncap = o->cap * 2;
		struct scan_key *p = o->keys == o->few ?
					     malloc(ncap * sizeof(*p)) :
					     realloc(o->keys, ncap * sizeof(*p));

		if (!p) {
			free(k->owned);
			sc->lost = 1;
			return;
		}
		if (o->keys == o->few)
			memcpy(p, o->few, o->n * sizeof(*p));
		o->keys = p;
		o->cap = ncap;
	}
	o->keys[o->n++] = *k;
}

static void
scan_json(struct scan *sc, const char *buf, size_t len)
{
	size_t i = 0;
	int expect_key = 0;

	sc->buf = buf;
	sc->len = len;
	sc->found = 0;
	sc->off = 0;
	sc->reason[0] = '\0';
	sc->stack = sc->levels;
	sc->depth = 0;
	sc->cap = SCAN_FEW_LEVELS;
	sc->lost = 0;
	while (i < len) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '"') {
			struct scan_key k;

			if (expect_key) {
				i = scan_string(sc, i, &k);
				scan_add_key(sc, &k);
				expect_key = 0;
			} else {
				i = scan_string(sc, i, NULL);
			}
			continue;
		}
		if (c == '-' || (c >= '0' && c <= '9')) {
			size_t e = i + 1;
			int integer = 1;

			for (; e < len; e++) {
				char d = buf[e];

				if (d >= '0' && d <= '9')
					continue;
				if (d == '.' || d == 'e' || d == 'E')
					integer = 0;
				else if (d != '+' && d != '-')
					break;
			}
			if (integer && e - i > (size_t)(c == '-'))
				scan_integer(sc, i, e);
			else if (!integer)
				scan_real(sc, i, e);
			i = e;
			continue;
		}
		switch (c) {
		case '{':
		case '[':
			scan_push(sc, c == '{');
			expect_key = c == '{';
			break;
		case '}':
		case ']':
			if (!sc->lost && sc->depth) {
				sc->depth--;
				scan_close(sc, &sc->stack[sc->depth]);
			}
			expect_key = 0;
			break;
		case ',':
			expect_key = !sc->lost && sc->depth &&
				     sc->stack[sc->depth - 1].is_object;
			break;
		case ':':
			expect_key = 0;
			break;
		case '\0':
			scan_issue(sc, i, "a NUL byte (not allowed in JSON)");
			break;
		default:
			if (c >= 0x80 &&
			    !prof_utf8_seq((const unsigned char *)buf + i, len - i))
				scan_issue(sc, i, "invalid UTF-8 (byte 0x%02x)",
					   c);
		}
		i++;
	}
	/* What a cut input left open may still hold a duplicate. */
	while (sc->depth) {
		sc->depth--;
		scan_close(sc, &sc->stack[sc->depth]);
	}
	if (sc->stack != sc->levels)
		free(sc->stack);
	sc->stack = NULL;
}

struct json_object *
prof_json_parse(const char *buf, size_t len, const char *name, int first_line,
		struct prof_err *err)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;

	if (!tok) {
		prof_err_at(err, name, 0, 0, "out of memory");
		return NULL;
	}
	o = prof_json_parse_tok(tok, buf, len, name, first_line, err);
	json_tokener_free(tok);
	return o;
}

struct json_object *
prof_json_parse_tok(struct json_tokener *tok, const char *buf, size_t len,
		    const char *name, int first_line, struct prof_err *err)
{
	struct json_object *o = NULL;
	enum json_tokener_error jerr;
	size_t end, i;
	int line, col;
	char path[256] = "";
	struct scan sc;

	for (i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' &&
		    buf[i] != '\r')
			break;
	if (i == len) {
		locate(buf, len, len, first_line, &line, &col);
		prof_err_at(err, name, line, col,
			    len ? "no JSON value, only white space" :
				  "empty input, expected a JSON value");
		return NULL;
	}
	json_tokener_reset(tok);
	scan_json(&sc, buf, len);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		/* A number or literal at the very end needs to see the end. */
		o = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		end = len;
	}
	if (!o && jerr == json_tokener_success) {
		/* json-c's null: no caller takes a document or a line that
		 * is only null, and "success" would be no error message. */
		locate(buf, len, i, first_line, &line, &col);
		prof_err_at(err, name, line, col,
			    "expected an object or an array, got null");
		goto out;
	}
	if (!o || jerr != json_tokener_success) {
		if (sc.found && sc.off <= end)
			goto scanned;
		locate(buf, len, end, first_line, &line, &col);
		if (jerr == json_tokener_continue ||
		    jerr == json_tokener_error_parse_eof)
			prof_err_at(err, name, line, col,
				    "unexpected end of input (truncated JSON)");
		else
			prof_err_at(err, name, line, col, "%s",
				    json_tokener_error_desc(jerr));
		json_object_put(o);
		o = NULL;
		goto out;
	}
	for (i = end; i < len; i++) {
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' &&
		    buf[i] != '\r') {
			if (sc.found && sc.off <= i)
				goto scanned;
			locate(buf, len, i, first_line, &line, &col);
			prof_err_at(err, name, line, col,
				    "unexpected data after the JSON value");
			json_object_put(o);
			o = NULL;
			goto out;
		}
	}
	if (sc.found)
		goto scanned;
	if (any_nonfinite(o) && find_nonfinite(o, path, sizeof(path))) {
		prof_err_at(err, name, 0, 0, "%s: not a finite number",
			    path[0] ? path : ".");
		json_object_put(o);
		o = NULL;
	}
	goto out;
scanned:
	locate(buf, len, sc.off, first_line, &line, &col);
	prof_err_at(err, name, line, col, "%s", sc.reason);
	json_object_put(o);
	o = NULL;
out:
	return o;
}

long
prof_json_lines(const char *buf, size_t len, const char *name,
		prof_json_line_fn fn, void *arg, struct prof_err *err)
{
	size_t pos = 0;
	long count = 0;
	int line = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t start = pos, end = nl ? (size_t)(nl - buf) : len, i;
		struct json_object *o;

		line++;
		pos = end + 1;
		for (i = start; i < end; i++)
			if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r')
				break;
		if (i == end)
			continue;
		o = prof_json_parse(buf + start, end - start, name, line, err);
		if (!o)
			return -1;	/* name:line:col, from the parse */
		if (fn(arg, o, err) < 0) {
			/* A schema error: the line and the JSON path. */
			if (err) {
				prof_err_file(err, name);
				err->line = line;
				err->col = 0;
			}
			return -1;
		}
		count++;
	}
	return count;
}

struct json_object *
prof_json_load(const char *path, struct prof_err *err)
{
	char *buf;
	size_t len;
	struct json_object *o;

	if (prof_json_read_file(path, &buf, &len, err) < 0)
		return NULL;
	o = prof_json_parse(buf, len, path, 1, err);
	free(buf);
	return o;
}

struct json_object *
prof_json_double(double v)
{
	char tmp[64];

	if (!isfinite(v))
		return json_object_new_null();
	snprintf(tmp, sizeof(tmp), "%.15g", v);
	if (!strcmp(tmp, "-0"))
		strcpy(tmp, "0");
	return json_object_new_double_s(v, tmp);
}

double
prof_json_number(struct json_object *o)
{
	if (json_object_is_type(o, json_type_int))
		return (double)json_object_get_int64(o);
	if (json_object_is_type(o, json_type_double))
		return json_object_get_double(o);
	return 0;
}

double
prof_json_numf(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !prof_json_is_number(v))
		return NAN;
	return prof_json_number(v);
}

int
prof_json_is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double);
}

struct json_object *
prof_json_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

const char *
prof_json_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

const char *
prof_json_type_name(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_int:
	case json_type_double:
		return "a number";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	}
	return "unknown";
}

struct json_object *
prof_json_text_new(const char *s, size_t n, size_t max)
{
	struct json_object *o;
	size_t fixed_n;
	char *fixed;

	if (prof_utf8_check(s, n) == n && (!max || n <= max))
		return json_object_new_string_len(s, (int)n);
	fixed = prof_utf8_fix(s, n, max, &fixed_n);
	if (!fixed)
		return NULL;
	o = json_object_new_string_len(fixed, (int)fixed_n);
	free(fixed);
	return o;
}

const char *
prof_json_text(struct json_object *o, int flags, size_t *len, char **own)
{
	const char *t = json_object_to_json_string_length(o, flags, len);
	int rc;

	*own = NULL;
	if (!t)
		return NULL;
	rc = prof_utf8_json(t, *len, own, len);
	if (rc < 0)
		return NULL;
	return rc ? *own : t;
}
