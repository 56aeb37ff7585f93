/* stream.c: reading samples one at a time from results files and JSON-lines
 * streams: the top level walked here, each value parsed by json-c. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/env.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/json.h"
#include "base/pool.h"
#include "base/prof.h"
#include "base/utf8.h"
#include "model/stream-int.h"
#include "model/stream.h"

struct prof_stream *
prof_stream_new(void)
{
	struct prof_stream *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->envs = json_object_new_object();
	st->segments = json_object_new_object();
	st->groups = json_object_new_object();
	st->tok = json_tokener_new();
	st->meta = json_object_new_object();
	st->pending = json_object_new_object();
	st->pairs = json_object_new_object();
	st->gfd = -1;
	if (!st->envs || !st->segments || !st->groups || !st->tok ||
	    !st->meta || !st->pending || !st->pairs) {
		prof_stream_free(st);
		return NULL;
	}
	return st;
}

void
prof_stream_free(struct prof_stream *st)
{
	if (!st)
		return;
	json_object_put(st->envs);
	json_object_put(st->segments);
	json_object_put(st->groups);
	free(st->gat);
	prof_htab64_free(&st->gidx);
	free(st->gbuf);
	json_object_put(st->glast);
	free(st->glast_id);
	json_object_put(st->meta);
	json_object_put(st->pending);
	json_object_put(st->pairs);
	free(st->last_pair_e);
	free(st->last_pair_s);
	json_object_put(st->last_env);
	free(st->last_seg);
	free(st->buf);
	prof_buf_free(&st->val);
	if (st->tok)
		json_tokener_free(st->tok);
	free(st);
}

int
prof_stream_mixed(const struct prof_stream *st)
{
	return st->mixed;
}

struct json_object *
prof_stream_meta(const struct prof_stream *st)
{
	return st->meta;
}

int
prof_stream_version(const struct prof_stream *st)
{
	return st->version;
}

/* Opening and closing an input. */
static int
open_input(struct prof_stream *st, const char *path, struct prof_err *err)
{
	int is_stdin = !strcmp(path, "-");

	st->name = path;
	/* A regular file or stdin: streamed, so of any size. */
	st->fp = prof_input_open(path, PROF_INPUT_STDIN, 0, err);
	if (!st->fp)
		return -1;
	{
		struct stat sb;
		off_t at = -1;

		if (fstat(fileno(st->fp), &sb) == 0 && S_ISREG(sb.st_mode))
			at = ftello(st->fp);
		st->gfd = at >= 0 ? fileno(st->fp) : -1;
		st->gbase = at >= 0 ? at : 0;
	}
	if (!st->buf) {
		st->buf = malloc(CHUNK);
		if (!st->buf) {
			if (!is_stdin)
				fclose(st->fp);
			st->fp = NULL;
			return prof_err_at(err, path, 0, 0, "out of memory");
		}
	}
	st->len = st->pos = st->base = st->line_start = 0;
	st->line = 1;
	st->eof = st->read_error = 0;
	return 0;
}

static void
close_input(struct prof_stream *st)
{
	if (st->fp && st->fp != stdin)
		fclose(st->fp);
	st->fp = NULL;
	st->gfd = -1;
}

/* Make buf[pos] readable. Returns 0, or -1 at the end of the input. */
static int
fill(struct prof_stream *st)
{
	if (st->pos < st->len)
		return 0;
	if (st->eof)
		return -1;
	st->base += st->len;
	st->pos = 0;
	st->len = fread(st->buf, 1, CHUNK, st->fp);
	if (st->len == 0) {
		st->eof = 1;
		st->read_error = ferror(st->fp);
		return -1;
	}
	return 0;
}

static size_t
offset(const struct prof_stream *st)
{
	return st->base + st->pos;
}

static int
column(const struct prof_stream *st)
{
	return (int)(offset(st) - st->line_start) + 1;
}

/* An error at the current place: name:line:col: reason. */
static int
here(struct prof_stream *st, struct prof_err *err, const char *reason)
{
	if (st->read_error)
		return prof_err_at(err, st->name, 0, 0, "read error: %s",
				   strerror(errno));
	return prof_err_at(err, st->name, (int)st->line, column(st), "%s",
			   reason);
}

static int
truncated(struct prof_stream *st, struct prof_err *err)
{
	return here(st, err, "unexpected end of input (truncated JSON)");
}

/* The next byte that is not white space, not taken; -1 at the end. */
static int
peek(struct prof_stream *st)
{
	for (;;) {
		char c;

		if (fill(st) < 0)
			return -1;
		c = st->buf[st->pos];
		if (c == '\n') {
			st->line++;
			st->line_start = offset(st) + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return (unsigned char)c;
		}
		st->pos++;
	}
}

static int
val_put(struct prof_stream *st, const char *p, size_t n,
	struct prof_err *err)
{
	/* One value (one line of JSON lines) is parsed whole: json-c
	 * takes an int length, so a longer one is refused, not read on. */
	if ((long long)(st->val.len + n) > PROF_INPUT_DOC_MAX)
		return prof_err_at(err, st->name, (int)st->line, 0,
				   "a value of more than the %lld bytes json-c "
				   "parses", PROF_INPUT_DOC_MAX);
	if (prof_buf_put(&st->val, p, n) < 0)
		return prof_err_at(err, st->name, 0, 0, "out of memory");
	return 0;
}

/*
 * Read the value that starts at the next byte that is not white space and
 * parse it with prof_json_parse(), padded so that its errors name the
 * input's line and column. Object, array and string ends are found here
 * (a closing bracket of the wrong kind ends the value, for json-c to
 * reject); a number or literal ends before a delimiter. *out is the value,
 * or NULL with err filled.
 */
/* Where the scan of one value stands: in a scalar, a string (an escape,
 * a \u's digits, a high surrogate's low half due, a long string being
 * cut) or between the brackets of its stack. */
struct vscan {
	char *stack; /* MAX_DEPTH closing brackets due */
	int depth, scalar, in_str, esc, uesc, cutting, hi, done;
	unsigned ucode;
	size_t slen; /* the string's bytes so far */
	const char *from; /* what is not yet put into st->val */
};

/* skip_plain: past what needs no look from Q: a string's plain ASCII (up
 * to where it is cut) or, between strings, what is not a quote, a bracket
 * or a new line. */
static const char *
skip_plain(struct vscan *s, const char *q, const char *end)
{
	if (s->in_str && !s->esc && !s->uesc && !s->cutting) {
		const char *run = q;
		size_t room = s->slen < PROF_TEXT_MAX ?
				      PROF_TEXT_MAX - s->slen :
				      0;
		const char *stop = (size_t)(end - q) < room ? end : q + room;

		while (q < stop && (unsigned char)*q >= 0x20 &&
		       (unsigned char)*q < 0x80 && *q != '"' && *q != '\\')
			q++;
		if (q > run) {
			s->slen += (size_t)(q - run);
			s->hi = 0;
		}
	} else if (!s->in_str) {
		while (q < end && *q != '"' && *q != '{' && *q != '[' &&
		       *q != '}' && *q != ']' && *q != '\n')
			q++;
	}
	return q;
}

/* string_byte: the byte at Q of a string taken; 1 when it ended the
 * value (a string at the top), 0 to go on, -1 (err) when out of room. */
static int
string_byte(struct prof_stream *st, struct vscan *s, const char *q,
	    struct prof_err *err)
{
	char ch = *q, mark[64];
	unsigned char u = (unsigned char)ch;

	if (!s->cutting && s->slen >= PROF_TEXT_MAX && !s->esc && !s->uesc &&
	    !s->hi && ch != '"' && (u < 0x80 || u >= 0xc0)) {
		/* Cut a string too long to keep, between two characters:
		 * never inside an escape, a UTF-8 character or a surrogate
		 * pair. */
		if (val_put(st, s->from, (size_t)(q - s->from), err) < 0)
			return -1;
		s->cutting = 1;
		st->cut = 1;
	}
	s->slen++;
	if (s->uesc) {
		s->ucode = s->ucode << 4 |
			   (unsigned)(u <= '9' ? u - '0' : (u | 0x20) - 'a' + 10);
		s->hi = --s->uesc == 0 && s->ucode >= 0xd800 &&
			s->ucode <= 0xdbff;
	} else {
		s->hi = 0;
	}
	if (s->esc)
		s->esc = 0, s->uesc = ch == 'u' ? 4 : 0, s->ucode = 0;
	else if (ch == '\\')
		s->esc = 1;
	else if (ch == '"')
		s->in_str = 0;
	if (s->cutting && !s->in_str) {
		snprintf(mark, sizeof(mark), " [... cut, %zu bytes]",
			 s->slen - 1);
		if (val_put(st, mark, strlen(mark), err) < 0)
			return -1;
		s->cutting = 0;
		s->from = q;
	}
	return !s->in_str && s->depth == 0;
}

/* structure_byte: CH outside a string; 1 when it ends the value (the
 * top's closing bracket, a wrong one or one too deep, for json-c to
 * reject), else 0. */
static int
structure_byte(struct vscan *s, char ch)
{
	if (ch == '"') {
		s->in_str = 1;
		s->slen = 0;
		s->uesc = s->hi = 0;
	} else if (ch == '{' || ch == '[') {
		if (s->depth == MAX_DEPTH)
			return 1;
		s->stack[s->depth++] = ch == '{' ? '}' : ']';
	} else if (ch == '}' || ch == ']') {
		if (!s->depth || s->stack[s->depth - 1] != ch)
			return 1;
		if (--s->depth == 0)
			return 1;
	}
	return 0;
}

/* scan_bytes: the value's bytes in the buffer from P to END taken;
 * where the scan stopped (END, or past the value's end with s->done), or
 * NULL (err). */
static const char *
scan_bytes(struct prof_stream *st, struct vscan *s, const char *p,
	   const char *end, struct prof_err *err)
{
	const char *q = p;
	int r;

	for (; q < end; q++) {
		char ch = *q;

		if (s->scalar) {
			if (ch == ',' || ch == ']' || ch == '}' || ch == ' ' ||
			    ch == '\t' || ch == '\n' || ch == '\r' ||
			    ch == '{' || ch == '[' || ch == '"' || ch == ':') {
				s->done = 1;
				break;
			}
			continue;
		}
		q = skip_plain(s, q, end);
		if (q == end)
			break;
		ch = *q;
		if (ch == '\n') {
			st->line++;
			st->line_start = st->base + (q - st->buf) + 1;
		}
		r = s->in_str ? string_byte(st, s, q, err) :
				structure_byte(s, ch);
		if (r < 0)
			return NULL;
		if (r) {
			s->done = 1;
			return q + 1;
		}
	}
	return q;
}

static int
read_value(struct prof_stream *st, struct json_object **out,
	   struct prof_err *err)
{
	char stack[MAX_DEPTH];
	struct vscan s = {.stack = stack};
	long line;
	int col, c;
	size_t pad;

	*out = NULL;
	c = peek(st);
	if (c < 0)
		return truncated(st, err);
	line = st->line;
	col = column(st);
	pad = col - 1 <= MAX_PAD ? (size_t)col - 1 : 0;
	st->val.len = 0;
	st->cut = 0;
	if (prof_buf_reserve(&st->val, pad + 4096) < 0)
		return prof_err_at(err, st->name, 0, 0, "out of memory");
	memset(st->val.p, ' ', pad);
	st->val.len = st->vpad = pad;
	s.scalar = c != '{' && c != '[' && c != '"';
	while (!s.done && fill(st) == 0) {
		const char *p = st->buf + st->pos, *q;

		s.from = p;
		q = scan_bytes(st, &s, p, st->buf + st->len, err);
		if (!q)
			return -1;
		if (!s.cutting &&
		    val_put(st, s.from, (size_t)(q - s.from), err) < 0)
			return -1;
		st->pos += (size_t)(q - p);
	}
	if (st->read_error)
		return here(st, err, "");
	/* A null member is a value (json-c gives it as NULL), for the
	 * schema check to name: ".groups: expected an object, got null". */
	if (s.scalar && st->val.len - st->vpad == 4 &&
	    !memcmp(st->val.p + st->vpad, "null", 4))
		return 0;
	*out = prof_json_parse_tok(st->tok, st->val.p, st->val.len, st->name,
				   (int)line, err);
	if (!*out) {
		/* Past MAX_PAD (a file on one line) the column is moved by
		 * hand: the value's own first line starts at col. */
		if (!pad && col > 1 && err && err->line == (int)line &&
		    err->col > 0)
			err->col += col - 1;
		return -1;
	}
	return 0;
}

/* Reset what one input keeps. */
static void
start_input(struct prof_stream *st)
{
	json_object_put(st->meta);
	st->meta = json_object_new_object();
	json_object_put(st->pending);
	st->pending = json_object_new_object();
	stream_groups_reset(st);
	st->version = 0;
	st->mixed = 0;
	st->first_v1 = st->first_v2 = -1;
}

/* The checks at the end of a document. */
static int
finish_document(struct prof_stream *st, int saw_samples, int saw_envs,
		int saw_segments, struct prof_err *err)
{
	struct json_object *v = NULL;

	if (prof_results_check_head(st->meta, 1, err) < 0) {
		prof_err_file(err, st->name);
		return -1;
	}
	json_object_object_get_ex(st->meta, "schema_version", &v);
	st->version = (int)json_object_get_int64(v);
	if (st->version == PROF_SCHEMA_V1 && st->first_v2 >= 0) {
		stream_mixed_reason(st, err, st->version, st->first_v2,
			     PROF_SCHEMA_VERSION);
		return -1;
	}
	if (st->version == PROF_SCHEMA_VERSION && st->first_v1 >= 0) {
		stream_mixed_reason(st, err, st->version, st->first_v1,
			     PROF_SCHEMA_V1);
		return -1;
	}
	if (!saw_samples)
		return stream_path_err(st, err, ".samples", "missing");
	if (st->version == PROF_SCHEMA_VERSION && !saw_envs)
		return stream_path_err(st, err, ".envs", "missing");
	if (st->version == PROF_SCHEMA_VERSION && !saw_segments)
		return stream_path_err(st, err, ".segments", "missing");
	json_object_object_foreach(st->pending, key, index)
	{
		char path[96];
		int is_env = key[0] == 'e';

		if (json_object_object_get_ex(is_env ? st->envs :
						       st->segments,
					      key + 2, NULL))
			continue;
		snprintf(path, sizeof(path), ".samples[%lld].%s",
			 (long long)json_object_get_int64(index),
			 is_env ? "env_id" : "segment_id");
		return stream_path_err(st, err, path,
				is_env ? "no such id in .envs" :
					 "no such id in .segments");
	}
	return stream_check_pending_pairs(st, err);
}

/* A top-level member that is not samples. */
static int
take_member(struct prof_stream *st, const char *key, struct json_object *v,
	    int *saw_envs, int *saw_segments, struct prof_err *err)
{
	if (!strcmp(key, "groups")) {
		int rc = stream_take_table(st, key, v, err);

		json_object_put(v);
		return rc;
	}
	if (!strcmp(key, "envs") || !strcmp(key, "segments")) {
		int rc = stream_take_table(st, key, v, err);

		*(key[0] == 'e' ? saw_envs : saw_segments) = 1;
		json_object_put(v);
		return rc;
	}
	json_object_object_add(st->meta, key, v);
	if (prof_results_check_head(st->meta, 0, err) < 0) {
		prof_err_file(err, st->name);
		return -1;
	}
	if (!strcmp(key, "schema_version"))
		st->version = (int)json_object_get_int64(v);
	return 0;
}

/* A JSON syntax error of json-c's wording at the current place. */
static int
syntax(struct prof_stream *st, int c, enum json_tokener_error e,
       struct prof_err *err)
{
	if (c < 0)
		return truncated(st, err);
	return here(st, err, json_tokener_error_desc(e));
}

/* The first byte of a document, or -1 after the error of an input that
 * holds none (a read error, nothing, or only white space). */
static int
doc_first(struct prof_stream *st, struct prof_err *err)
{
	int c = peek(st);

	if (c >= 0)
		return c;
	if (st->read_error)
		here(st, err, "");
	else
		here(st, err,
		     offset(st) ? "no JSON value, only white space" :
				  "empty input, expected a JSON value");
	return -1;
}

/* 0 where only white space follows the document, else -1 with the
 * error. */
static int
doc_end(struct prof_stream *st, struct prof_err *err)
{
	if (peek(st) >= 0)
		return here(st, err, "unexpected data after the JSON value");
	if (st->read_error)
		return here(st, err, "");
	return 0;
}

/* The schema error of a value of another type than expected where the
 * next byte is: read for its type, "<path>: expected <expected>, got
 * <type>". Returns -1. */
static int
wrong_type(struct prof_stream *st, const char *path, const char *expected,
	   struct prof_err *err)
{
	struct json_object *v;

	if (read_value(st, &v, err) < 0)
		return -1;
	prof_err_path(err, path, "expected %s, got %s", expected,
		      prof_json_type_name(v));
	prof_err_file(err, st->name);
	json_object_put(v);
	return -1;
}

/* The ':' after a member's key, passed over: 0, or -1 with json-c's
 * error. */
static int
key_sep(struct prof_stream *st, struct prof_err *err)
{
	int c = peek(st);

	if (c != ':')
		return syntax(st, c, json_tokener_error_parse_object_key_sep,
			      err);
	st->pos++;
	return 0;
}

/* What follows a member or an element, passed over: 1 at the end of its
 * object or array (close), 0 at a ',', else -1 with json-c's error e. */
static int
next_item(struct prof_stream *st, int close, enum json_tokener_error e,
	  struct prof_err *err)
{
	int c = peek(st);

	if (c == close) {
		st->pos++;
		return 1;
	}
	if (c != ',')
		return syntax(st, c, e, err);
	st->pos++;
	return 0;
}

/* The document's opening '{', passed over: 0, or -1 with the error of an
 * input that holds no object (what: the object expected). */
static int
doc_object(struct prof_stream *st, const char *what, struct prof_err *err)
{
	int c = doc_first(st, err);

	if (c < 0)
		return -1;
	if (c != '{')
		return wrong_type(st, ".", what, err);
	st->pos++;
	return 0;
}

/* Where a member's key starts: its line and column, and its offset in
 * the input. */
struct key_at {
	long line;
	int col;
	size_t off;
};

/* A member's key read into *k, where it starts into *at: 0, 1 at the '}'
 * of an empty object (first: no member read yet), else -1 with json-c's
 * error. */
static int
member_key(struct prof_stream *st, int first, struct json_object **k,
	   struct key_at *at, struct prof_err *err)
{
	int c = peek(st);

	if (c == '}' && first) {
		st->pos++;
		return 1;
	}
	if (c != '"')
		return syntax(st, c, json_tokener_error_parse_object_key_name,
			      err);
	at->line = st->line;
	at->col = column(st);
	at->off = offset(st);
	return read_value(st, k, err) < 0 ? -1 : 0;
}

/* After a member: its key *k released, *first cleared, then next_item()
 * at the object's '}'. */
static int
member_next(struct prof_stream *st, struct json_object **k, int *first,
	    struct prof_err *err)
{
	json_object_put(*k);
	*k = NULL;
	*first = 0;
	return next_item(st, '}', json_tokener_error_parse_object_value_sep,
			 err);
}

/* The first byte of an array's first element, its '[' passed over; 1
 * where the array is empty (its ']' passed over too). */
static int
array_open(struct prof_stream *st)
{
	st->pos++;
	if (peek(st) == ']') {
		st->pos++;
		return 1;
	}
	return 0;
}

static long
read_samples(struct prof_stream *st, prof_stream_fn fn, void *arg,
	     struct prof_err *err)
{
	struct json_object *s;
	long n = 0;
	int c, end;

	if (peek(st) != '[')
		return wrong_type(st, ".samples", "an array", err);
	if (array_open(st))
		return 0;
	for (;;) {
		c = peek(st);
		if (c == ']' || c == '}' || c == ',')
			return syntax(st, c, json_tokener_error_parse_unexpected,
				      err);
		if (read_value(st, &s, err) < 0)
			return -1;
		if (stream_take_sample(st, s, n, 1, fn, arg, err) < 0)
			return -1;
		n++;
		end = next_item(st, ']', json_tokener_error_parse_array, err);
		if (end)
			return end < 0 ? -1 : n;
	}
}

/*
 * The groups table read one group at a time (a large run's table is tens
 * of megabytes of text): each member's id and group, checked as
 * take_groups() (stream-samples.c) checks them, a duplicate id an error
 * at its place.
 */
static int
read_groups(struct prof_stream *st, struct prof_err *err)
{
	struct json_object *k = NULL, *g = NULL, *prev;
	char path[300];
	struct key_at at;
	size_t koff, klen, mlen;
	uint64_t probe = 0;
	int rc = -1, kcut, found, end, first = 1;

	st->pos++;
	for (;;) {
		end = member_key(st, first, &k, &at, err);
		if (end < 0)
			goto out;
		if (end)
			return 0;
		koff = at.off;
		klen = offset(st) - koff;
		kcut = st->cut;
		if (key_sep(st, err) < 0 || read_value(st, &g, err) < 0)
			goto out;
		mlen = offset(st) - koff;
		prev = stream_group_find(st, json_object_get_string(k), &found,
				  &probe);
		json_object_put(prev);
		if (found < 0) {
			prof_err_at(err, st->name, (int)at.line, at.col,
				    "cannot read the input again");
			goto out;
		}
		if (found) {
			prof_err_at(err, st->name, (int)at.line, at.col,
				    "duplicate key \"%.120s\"",
				    json_object_get_string(k));
			goto out;
		}
		snprintf(path, sizeof(path), ".groups.%.200s",
			 json_object_get_string(k));
		if (prof_group_check(g, path, err) < 0) {
			prof_err_file(err, st->name);
			goto out;
		}
		/* Its place in a regular input where the bytes there are
		 * what was checked (no string of it was cut). */
		if (st->gfd >= 0 && !kcut && !st->cut && mlen <= UINT32_MAX ?
			    stream_group_put(st, probe, koff, klen, mlen,
					     err) < 0 :
			    stream_keep_group(st, json_object_get_string(k), g,
					      err) < 0)
			goto out;
		json_object_put(g);
		g = NULL;
		end = member_next(st, &k, &first, err);
		if (end)
			return end < 0 ? -1 : 0;
	}
out:
	json_object_put(k);
	json_object_put(g);
	return rc;
}

/*
 * The elements of the array whose '[' is the next byte, each parsed and
 * given to fn (borrowed), one at a time. Returns how many, -1 on an
 * error, or -2 when fn returned 1 (stop, no error).
 */
static long
read_elements(struct prof_stream *st, prof_stream_fn fn, void *arg,
	      struct prof_err *err)
{
	struct json_object *v = NULL;
	long n = 0;
	int c, k;

	if (array_open(st))
		return 0;
	for (;;) {
		c = peek(st);
		if (c == ']' || c == '}' || c == ',')
			return syntax(st, c,
				      json_tokener_error_parse_unexpected,
				      err);
		if (read_value(st, &v, err) < 0)
			return -1;
		k = fn(arg, v, n, err);
		json_object_put(v);
		if (k < 0) {
			prof_err_file(err, st->name);
			return -1;
		}
		if (k > 0)
			return -2;
		n++;
		k = next_item(st, ']', json_tokener_error_parse_array, err);
		if (k)
			return k < 0 ? -1 : n;
	}
}

long
prof_stream_array(struct prof_stream *st, const char *path, const char *what,
		  prof_stream_fn fn, void *arg, struct prof_err *err)
{
	char expected[300];
	long n = 0;
	int c;

	start_input(st);
	if (open_input(st, path, err) < 0)
		return -1;
	c = doc_first(st, err);
	if (c < 0)
		goto out;
	if (c != '[') {
		snprintf(expected, sizeof(expected), "an array of %.250s",
			 what);
		wrong_type(st, ".", expected, err);
		goto out;
	}
	n = read_elements(st, fn, arg, err);
	if (n < 0 || doc_end(st, err) < 0)
		goto out;
	close_input(st);
	return n;
out:
	close_input(st);
	return -1;
}

long
prof_stream_object(struct prof_stream *st, const char *path, const char *what,
		   const char *array, prof_stream_member_fn member,
		   prof_stream_fn elem, void *arg, struct prof_err *err)
{
	struct json_object *k = NULL, *v = NULL, *seen = NULL;
	struct key_at at;
	long n = 0, got;
	int first = 1, end;

	start_input(st);
	if (open_input(st, path, err) < 0)
		return -1;
	seen = json_object_new_object();
	if (!seen) {
		prof_err_at(err, st->name, 0, 0, "out of memory");
		goto out;
	}
	if (doc_object(st, what, err) < 0)
		goto out;
	for (;;) {
		const char *key;

		end = member_key(st, first, &k, &at, err);
		if (end)
			break;
		key = json_object_get_string(k);
		if (json_object_object_get_ex(seen, key, NULL)) {
			prof_err_at(err, st->name, (int)at.line, at.col,
				    "duplicate key \"%.120s\"", key);
			goto out;
		}
		json_object_object_add(seen, key, NULL);
		if (key_sep(st, err) < 0)
			goto out;
		if (!strcmp(key, array) && peek(st) == '[') {
			got = read_elements(st, elem, arg, err);
			if (got < 0) {
				n = got;
				goto out;
			}
			n += got;
		} else {
			if (read_value(st, &v, err) < 0)
				goto out;
			if (member(arg, key, v, err) < 0) {
				prof_err_file(err, st->name);
				goto out;
			}
			json_object_put(v);
			v = NULL;
		}
		end = member_next(st, &k, &first, err);
		if (end)
			break;
	}
	if (end < 0 || doc_end(st, err) < 0)
		goto out;
	close_input(st);
	json_object_put(seen);
	return n;
out:
	if (n >= 0)
		n = -1;
	close_input(st);
	json_object_put(k);
	json_object_put(v);
	json_object_put(seen);
	return n;
}

long
prof_stream_results(struct prof_stream *st, const char *path,
		    prof_stream_fn fn, void *arg, struct prof_err *err)
{
	int saw_samples = 0, saw_envs = 0, saw_segments = 0, saw_groups = 0;
	struct json_object *k = NULL, *v = NULL;
	struct key_at at = {0};
	long n = -1, got;
	int first = 1, end;

	start_input(st);
	if (open_input(st, path, err) < 0)
		return -1;
	if (doc_object(st, "a results object", err) < 0)
		goto out;
	for (;;) {
		end = member_key(st, first, &k, &at, err);
		if (end)
			break;
		if (key_sep(st, err) < 0)
			goto out;
		if (!strcmp(json_object_get_string(k), "groups") &&
		    !saw_groups && peek(st) == '{') {
			saw_groups = 1;
			if (read_groups(st, err) < 0)
				goto out;
		} else if (!strcmp(json_object_get_string(k), "samples")) {
			if (saw_samples) {
				prof_err_at(err, st->name, (int)at.line,
					    at.col,
					    "duplicate key \"samples\"");
				goto out;
			}
			saw_samples = 1;
			got = read_samples(st, fn, arg, err);
			if (got < 0)
				goto out;
			n = got;
		} else {
			const char *key = json_object_get_string(k);

			if (json_object_object_get_ex(st->meta, key, NULL) ||
			    (!strcmp(key, "groups") && saw_groups++) ||
			    (!strcmp(key, "envs") && saw_envs) ||
			    (!strcmp(key, "segments") && saw_segments)) {
				prof_err_at(err, st->name, (int)at.line,
					    at.col, "duplicate key \"%.120s\"",
					    key);
				goto out;
			}
			if (read_value(st, &v, err) < 0 ||
			    take_member(st, key, v, &saw_envs, &saw_segments,
					err) < 0) {
				v = NULL;
				goto out;
			}
			v = NULL;
		}
		end = member_next(st, &k, &first, err);
		if (end)
			break;
	}
	if (end < 0 || doc_end(st, err) < 0)
		goto out;
	if (finish_document(st, saw_samples, saw_envs, saw_segments, err) < 0)
		goto out;
	/* The groups are joined into their samples: done with. */
	stream_groups_reset(st);
	if (n < 0)
		n = 0;
	close_input(st);
	json_object_put(k);
	json_object_put(v);
	return n;
out:
	close_input(st);
	json_object_put(k);
	json_object_put(v);
	return -1;
}

/* A record line of a stream: context, run, or the caller's (the drift
 * guard's calibration and machine lines). */
static int
take_record(struct prof_stream *st, struct json_object *o,
	    struct prof_err *err)
{
	const char *rec = prof_json_str(o, "record");
	struct json_object *env = NULL, *seg = NULL, *run;
	const char *eid, *sid;

	if (!rec)
		return prof_err_path(err, ".record", "expected a string");
	if (!strcmp(rec, "context")) {
		eid = prof_json_str(o, "env_id");
		sid = prof_json_str(o, "segment_id");
		json_object_object_get_ex(o, "env", &env);
		json_object_object_get_ex(o, "segment", &seg);
		if (!eid || !eid[0])
			return prof_err_path(err, ".env_id",
					     "expected a non-empty string");
		if (!sid || !sid[0])
			return prof_err_path(err, ".segment_id",
					     "expected a non-empty string");
		if (!json_object_is_type(env, json_type_object))
			return prof_err_path(err, ".env",
					     "expected an object, got %s",
					     prof_json_type_name(env));
		if (!json_object_is_type(seg, json_type_string) ||
		    !json_object_get_string_len(seg))
			return prof_err_path(err, ".segment",
					     "expected a non-empty string, "
					     "got %s",
					     prof_json_type_name(seg));
		{
			char why[400];
			int rc = prof_env_segment_check(
				env, json_object_get_string(seg), why,
				sizeof(why));

			if (rc < 0)
				return prof_err_set(err, "out of memory");
			if (rc)
				return prof_err_path(err, ".segment", "%s",
						     why);
		}
		if (stream_table_put(st, st->envs, "envs", eid, env, err) < 0 ||
		    stream_table_put(st, st->segments, "segments", sid, seg,
				     err) < 0)
			return -1;
		return 0;
	}
	if (!strcmp(rec, "run")) {
		if (prof_json_str(o, "run_id"))
			json_object_object_add(
				st->meta, "run_id",
				json_object_new_string(
					prof_json_str(o, "run_id")));
		run = json_object_new_object();
		json_object_object_foreach(o, key, v)
		{
			if (strcmp(key, "record") && strcmp(key, "run_id"))
				json_object_object_add(run, key,
						       json_object_get(v));
		}
		json_object_object_add(st->meta, "run", run);
		if (prof_results_check_head(st->meta, 0, err) < 0)
			return -1;
		return 0;
	}
	if (st->on_record) {
		int rc = st->on_record(st->on_record_arg, o, err);

		if (rc)
			return rc < 0 ? -1 : 0;
	}
	return prof_err_path(err, ".record", "unknown record '%s'", rec);
}

void
prof_stream_on_record(struct prof_stream *st, prof_stream_record_fn fn,
		      void *arg)
{
	st->on_record = fn;
	st->on_record_arg = arg;
}

/* One line of a stream. */
static int
take_line(struct prof_stream *st, const char *p, size_t n, prof_stream_fn fn,
	  void *arg, struct prof_err *err)
{
	struct json_object *o;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			break;
	if (i == n)
		return 1;	/* blank */
	o = prof_json_parse_tok(st->tok, p, n, st->name, (int)st->line, err);
	if (!o)
		return -2;	/* name:line:col, from the parse */
	if (json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "record", NULL)) {
		int rc = take_record(st, o, err);

		json_object_put(o);
		return rc < 0 ? rc : 1;	/* a record is not a sample */
	}
	return stream_take_sample(st, o, st->line, 0, fn, arg, err) < 0 ? -1
								       : 0;
}

long
prof_stream_lines(struct prof_stream *st, const char *path,
		  prof_stream_fn fn, void *arg, struct prof_err *err)
{
	long n = 0;
	int rc;

	start_input(st);
	if (open_input(st, path, err) < 0)
		return -1;
	if (!strcmp(path, "-"))
		st->name = "<stdin>";
	while (fill(st) == 0) {
		const char *p = st->buf + st->pos;
		const char *nl = memchr(p, '\n', st->len - st->pos);

		if (!nl) {
			/* The line goes on in the next chunk. */
			if (val_put(st, p, st->len - st->pos, err) < 0)
				goto out;
			st->pos = st->len;
			continue;
		}
		if (st->val.len) {
			if (val_put(st, p, (size_t)(nl - p), err) < 0)
				goto out;
			rc = take_line(st, st->val.p, st->val.len, fn, arg,
				       err);
			st->val.len = 0;
		} else {
			rc = take_line(st, p, (size_t)(nl - p), fn, arg, err);
		}
		st->pos += (size_t)(nl - p) + 1;
		if (rc == -2)
			goto out;
		if (rc < 0)
			goto fail;
		n += rc == 0;
		st->line++;
	}
	if (st->read_error) {
		prof_err_at(err, st->name, 0, 0, "read error: %s",
			    strerror(errno));
		goto out;
	}
	if (st->val.len) {
		rc = take_line(st, st->val.p, st->val.len, fn, arg, err);
		st->val.len = 0;
		if (rc == -2)
			goto out;
		if (rc < 0)
			goto fail;
		n += rc == 0;
	}
	close_input(st);
	return n;
fail:
	/* One line, one place: the line names it. */
	prof_err_file(err, st->name);
	err->line = (int)st->line;
	err->col = 0;
out:
	st->val.len = 0;
	close_input(st);
	return -1;
}
