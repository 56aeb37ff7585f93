/* cmpview.c: comparisons spooled as text, parsed again a few at a time. */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmpview.h"
#include "compare.h"
#include "json.h"
#include "stream.h"

/* workload NUL backend NUL count mark [NUL segment], in buf; its length,
 * or 0 when too long. */
static size_t
key_of(char *buf, size_t n, const char *w, const char *b, int count,
       const char *seg)
{
	int len;

	if (!w || !b)
		return 0;
	len = snprintf(buf, n, "%s%c%s%c%c", w, '\0', b, '\0',
		       count ? 'c' : 't');
	if (len < 0 || (size_t)len >= n)
		return 0;
	if (seg) {
		int more = snprintf(buf + len, n - (size_t)len, "%c%s", '\0',
				    seg);

		if (more < 0 || (size_t)(len + more) >= n)
			return 0;
		len += more;
	}
	return (size_t)len;
}

/* Segment key seg as its number in segs, in buf; NULL when it is not
 * there. */
static const char *
seg_tag(const struct prof_htab *segs, const char *seg, char *buf, size_t n)
{
	long k = prof_htab_get(segs, seg, strlen(seg));

	if (k < 0)
		return NULL;
	snprintf(buf, n, "%ld", k);
	return buf;
}

static int
is_count(struct json_object *o)
{
	const char *phase = prof_json_str(o, "phase");

	return phase && !strcmp(phase, "instructions");
}

/* Keep row o's text and its keys. */
static int
add(struct prof_cmpview *v, struct json_object *o, struct prof_err *err)
{
	const char *w = prof_json_str(o, "workload");
	const char *b = prof_json_str(o, "backend");
	const char *seg = prof_json_str(o, "segment");
	int count = is_count(o);
	size_t len, klen;
	const char *text;
	char key[8192], tagbuf[32];
	const char *tag;
	long off;

	/* Memory rows go to a view of their own, or nowhere: runview's
	 * verdicts and the tables of time and counts leave them out. */
	if ((prof_json_str(o, "phase") &&
	     !strcmp(prof_json_str(o, "phase"), "memory")) != v->memory_rows)
		return v->memory && !v->memory_rows ? add(v->memory, o, err) :
						      0;
	if (!v->spool) {
		size_t i;

		v->spool = tmpfile();
		if (!v->spool)
			return prof_err_set(err, "cannot make a temporary "
						 "file");
		for (i = 0; i < PROF_CMPVIEW_KEEP; i++)
			v->kept[i] = -1;
	}
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 256;
		void *p = realloc(v->at, ncap * sizeof(*v->at));

		if (!p)
			return prof_err_set(err, "out of memory");
		v->at = p;
		v->cap = ncap;
	}
	text = json_object_to_json_string_length(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
		&len);
	off = ftell(v->spool);
	if (!text || off < 0 || fwrite(text, 1, len, v->spool) != len)
		return prof_err_set(err, "cannot keep the comparisons in a "
					 "temporary file");
	v->at[v->n].off = off;
	v->at[v->n].len = len;
	v->at[v->n].slot = -1;
	seg = seg ? seg : "";
	if (prof_htab_get(&v->segs, seg, strlen(seg)) < 0 &&
	    prof_htab_put(&v->segs, seg, strlen(seg), (long)v->segs.n) < 0)
		return prof_err_set(err, "out of memory");
	tag = seg_tag(&v->segs, seg, tagbuf, sizeof(tagbuf));
	klen = key_of(key, sizeof(key), w, b, count, tag);
	if (klen && prof_htab_get(&v->index, key, klen) < 0 &&
	    prof_htab_put(&v->index, key, klen, (long)v->n) < 0)
		return prof_err_set(err, "out of memory");
	klen = key_of(key, sizeof(key), w, b, count, NULL);
	if (klen && prof_htab_get(&v->first, key, klen) < 0 &&
	    prof_htab_put(&v->first, key, klen, (long)v->n) < 0)
		return prof_err_set(err, "out of memory");
	v->any_count |= count;
	v->n++;
	return 0;
}

struct loading {
	struct prof_cmpview *v;
	const char *run_id;
	struct prof_cmp_rows *rows;
};

static int
take(void *arg, struct json_object *o, long index, struct prof_err *err)
{
	struct loading *l = arg;

	if (prof_cmp_check_one(o, (size_t)index, err) < 0 ||
	    prof_cmp_check_run_one(o, (size_t)index, l->run_id, err) < 0 ||
	    (l->rows && prof_cmp_rows_take(l->rows, o, (size_t)index, err) < 0))
		return -1;
	return add(l->v, o, err);
}

int
prof_cmpview_load(struct prof_cmpview *v, const char *path,
		  const char *run_id, struct prof_cmp_rows *rows,
		  struct prof_err *err)
{
	struct loading l = {.v = v, .run_id = run_id, .rows = rows};
	struct prof_stream *st = prof_stream_new();
	int rc = -1;

	if (!st)
		return prof_err_set(err, "out of memory");
	if (prof_stream_array(st, path, "comparisons", take, &l, err) < 0)
		goto out;
	if (rows && prof_cmp_rows_end(rows, err) < 0) {
		prof_err_file(err, path);
		goto out;
	}
	rc = 0;
out:
	prof_stream_free(st);
	return rc;
}

int
prof_cmpview_from(struct prof_cmpview *v, const struct prof_cmp *c,
		  struct prof_err *err)
{
	size_t k;

	for (k = 0; k < c->n; k++) {
		struct json_object *o = prof_cmp_row_json(c, k);
		int rc;

		if (!o)
			return prof_err_set(err, "out of memory");
		rc = add(v, o, err);
		json_object_put(o);
		if (rc < 0)
			return -1;
	}
	return 0;
}

size_t
prof_cmpview_len(const struct prof_cmpview *v)
{
	return v ? v->n : 0;
}

struct json_object *
prof_cmpview_row(struct prof_cmpview *v, size_t i)
{
	struct prof_cmpview_at *a;
	struct json_object *o;
	size_t s;

	if (!v || i >= v->n)
		return NULL;
	a = &v->at[i];
	if (a->slot >= 0)
		return v->keep[a->slot];
	if (a->len + 1 > v->cap_buf) {
		char *p = realloc(v->buf, a->len + 1);

		if (!p)
			return NULL;
		v->buf = p;
		v->cap_buf = a->len + 1;
	}
	if (fseek(v->spool, a->off, SEEK_SET) != 0 ||
	    fread(v->buf, 1, a->len, v->spool) != a->len)
		return NULL;
	v->buf[a->len] = '\0';
	o = json_tokener_parse(v->buf);
	if (!o)
		return NULL;
	s = v->next;
	v->next = (v->next + 1) % PROF_CMPVIEW_KEEP;
	if (v->kept[s] >= 0)
		v->at[v->kept[s]].slot = -1;
	json_object_put(v->keep[s]);
	v->keep[s] = o;
	v->kept[s] = (long)i;
	a->slot = (int)s;
	return o;
}

long
prof_cmpview_find(const struct prof_cmpview *v, const char *w, const char *b,
		  int count, const char *seg)
{
	char key[8192], tagbuf[32];
	size_t len;

	if (!v || !v->n)
		return -1;
	if (seg) {
		seg = seg_tag(&v->segs, seg, tagbuf, sizeof(tagbuf));
		if (!seg)
			return -1;
	}
	len = key_of(key, sizeof(key), w, b, count, seg);
	if (!len)
		return -1;
	return prof_htab_get(seg ? &v->index : &v->first, key, len);
}

int
prof_cmpview_has_counts(const struct prof_cmpview *v)
{
	return v && v->any_count;
}

void
prof_cmpview_free(struct prof_cmpview *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < PROF_CMPVIEW_KEEP; i++) {
		json_object_put(v->keep[i]);
		v->keep[i] = NULL;
	}
	if (v->spool)
		fclose(v->spool);
	free(v->at);
	free(v->buf);
	prof_htab_free(&v->index);
	prof_htab_free(&v->first);
	prof_htab_free(&v->segs);
	memset(v, 0, sizeof(*v));
}
