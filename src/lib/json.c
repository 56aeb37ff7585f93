/* json.c: strict JSON reading with line and column, canonical writing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int
prof_json_read_file(const char *path, char **buf, size_t *len,
		    struct prof_err *err)
{
	FILE *fp;
	char *data = NULL;
	size_t cap = 0, used = 0;
	int rc = -1;
	int is_stdin = !strcmp(path, "-");

	fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp)
		return prof_err_at(err, path, 0, 0, "cannot open: %s",
				   strerror(errno));
	for (;;) {
		size_t got;

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

struct json_object *
prof_json_parse(const char *buf, size_t len, const char *name, int first_line,
		struct prof_err *err)
{
	struct json_tokener *tok;
	struct json_object *o = NULL;
	enum json_tokener_error jerr;
	size_t end, i;
	int line, col;
	char path[256] = "";

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
	tok = json_tokener_new();
	if (!tok) {
		prof_err_at(err, name, 0, 0, "out of memory");
		return NULL;
	}
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
	if (!o || jerr != json_tokener_success) {
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
			locate(buf, len, i, first_line, &line, &col);
			prof_err_at(err, name, line, col,
				    "unexpected data after the JSON value");
			json_object_put(o);
			o = NULL;
			goto out;
		}
	}
	if (find_nonfinite(o, path, sizeof(path))) {
		prof_err_at(err, name, 0, 0, "%s: not a finite number",
			    path[0] ? path : ".");
		json_object_put(o);
		o = NULL;
	}
out:
	json_tokener_free(tok);
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
		if (!o || fn(arg, o, err) < 0) {
			/* One line, one place: the line names it. */
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

/* A growing string for the canonical writer. */
struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void
sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 256;
		char *p;

		while (ncap < b->len + n + 1)
			ncap *= 2;
		p = realloc(b->s, ncap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void
sb_quoted(struct sbuf *b, const char *s)
{
	const unsigned char *p;
	char tmp[8];

	sb_put(b, "\"", 1);
	for (p = (const unsigned char *)s; *p; p++) {
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
			} else {
				sb_put(b, (const char *)p, 1);
			}
		}
	}
	sb_put(b, "\"", 1);
}

static int
cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Six decimals, trailing zeros dropped, never "-0". */
static void
sb_number6(struct sbuf *b, double v)
{
	char tmp[64];
	char *dot;
	size_t n;

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
	char tmp[32];

	switch (json_object_get_type(o)) {
	case json_type_null:
		sb_str(b, "null");
		break;
	case json_type_boolean:
		sb_str(b, json_object_get_boolean(o) ? "true" : "false");
		break;
	case json_type_int:
		snprintf(tmp, sizeof(tmp), "%lld",
			 (long long)json_object_get_int64(o));
		sb_str(b, tmp);
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
		const char **keys = calloc(n ? n : 1, sizeof(*keys));

		if (!keys) {
			b->oom = 1;
			return;
		}
		i = 0;
		json_object_object_foreach(o, k, v)
		{
			(void)v;
			keys[i++] = k;
		}
		qsort(keys, n, sizeof(*keys), cmp_keys);
		sb_put(b, "{", 1);
		for (i = 0; i < n; i++) {
			if (i)
				sb_put(b, ",", 1);
			sb_quoted(b, keys[i]);
			sb_put(b, ":", 1);
			canon(b, json_object_object_get(o, keys[i]));
		}
		sb_put(b, "}", 1);
		free(keys);
		break;
	}
	}
}

char *
prof_json_canonical(struct json_object *o)
{
	struct sbuf b = {0};

	canon(&b, o);
	if (b.oom || !b.s) {
		free(b.s);
		return NULL;
	}
	return b.s;
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

int
prof_json_is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double);
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
