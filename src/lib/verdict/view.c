/* view.c: comparisons spooled as text, parsed again a few at a time. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "base/json.h"
#include "model/stream.h"
#include "verdict/read.h"
#include "verdict/verdict.h"
#include "verdict/view.h"

/* The key of a row of pooled workload w, backend b, count mark and
 * pooled segment seg (NULL: any), as a prof_htab64 key. */
static uint64_t
key_of(const char *w, const char *b, int count, const char *seg)
{
	const void *k[4] = {w, b, count ? (const void *)1 : NULL, seg};

	return prof_pool_hash(k, sizeof(k), PROF_POOL_FNV);
}

/* Whether row a is of that key. */
static int
is_key(const struct prof_cmpview_at *a, const char *w, const char *b,
       int count, const char *seg)
{
	return a->w == w && a->b == b && !a->count == !count &&
	       (!seg || a->seg == seg);
}

/* The first row of the key in h, or -1; *slot the key it has (or would
 * have: the first free one). */
static long
find_key(const struct prof_cmpview *v, const struct prof_htab64 *h,
	 const char *w, const char *b, int count, const char *seg,
	 uint64_t *slot)
{
	uint64_t k = key_of(w, b, count, seg);
	int64_t i;

	while (prof_htab64_get(h, k, &i)) {
		if (is_key(&v->at[i], w, b, count, seg)) {
			*slot = k;
			return (long)i;
		}
		k = prof_pool_next(k);
	}
	*slot = k;
	return -1;
}

/* Row i, whose keys are set, as the first of its keys where it is. */
static int
index_row(struct prof_cmpview *v, size_t i)
{
	const struct prof_cmpview_at *a = &v->at[i];
	uint64_t slot;

	if (find_key(v, &v->index, a->w, a->b, a->count, a->seg, &slot) < 0 &&
	    prof_htab64_put(&v->index, slot, (int64_t)i) < 0)
		return -1;
	return 0;
}

/* Keep row o's text and its keys. */
static int
add(struct prof_cmpview *v, struct json_object *o, struct prof_err *err)
{
	struct prof_verdict vd;
	const char *w, *b, *seg;
	int count;
	struct prof_cmpview_at *a;
	const char *text;
	size_t len;
	long off;

	/* Memory rows go to a view of their own, or nowhere: runview's
	 * verdicts and the tables of time and counts leave them out. */
	/* A checked comparison's phase is one of prof-diff's; a memory row
	 * names a metric of the table (prof_cmp_check_one()). */
	prof_verdict_read_key(o, &vd);
	w = vd.workload;
	b = vd.backend;
	seg = vd.segment;
	count = vd.phase == PROF_VERDICT_COUNT;
	if ((vd.phase == PROF_VERDICT_MEMORY) != v->memory_rows)
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
	if (PROF_GROW(v->at, v->n + 1, v->cap) < 0)
		return prof_err_set(err, "out of memory");
	text = json_object_to_json_string_length(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
		&len);
	off = ftell(v->spool);
	if (!text || off < 0 || len > UINT_MAX ||
	    fwrite(text, 1, len, v->spool) != len)
		return prof_err_set(err, "cannot keep the comparisons in a "
					 "temporary file");
	a = &v->at[v->n];
	a->off = off;
	a->len = (unsigned)len;
	a->slot = -1;
	a->count = count;
	a->w = w ? prof_pool_str(&v->pool, w) : NULL;
	a->b = b ? prof_pool_str(&v->pool, b) : NULL;
	a->seg = prof_pool_str(&v->pool, seg ? seg : "");
	if ((w && !a->w) || (b && !a->b) || !a->seg)
		return prof_err_set(err, "out of memory");
	/* A row without a workload or backend is found by none (checked
	 * comparisons have both). */
	if (a->w && a->b && index_row(v, v->n) < 0)
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
	return l->v ? add(l->v, o, err) : 0;
}

/* The rows are all there: the table's spare room goes (of v and of the
 * view its memory rows went to). */
static void
trim(struct prof_cmpview *v)
{
	struct prof_cmpview_at *a;

	if (!v || !v->n || v->n == v->cap)
		return;
	a = realloc(v->at, v->n * sizeof(*a));
	if (a) {
		v->at = a;
		v->cap = v->n;
	}
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
	if (v) {
		trim(v);
		trim(v->memory);
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
	trim(v);
	trim(v->memory);
	return 0;
}

size_t
prof_cmpview_len(const struct prof_cmpview *v)
{
	return v ? v->n : 0;
}

/* Row i parsed, kept in a slot with its verdict (see view.h), or NULL. */
static struct json_object *
row_at(struct prof_cmpview *v, size_t i)
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
	if (!v->verdicts) {
		v->verdicts = calloc(PROF_CMPVIEW_KEEP, sizeof(*v->verdicts));
		if (!v->verdicts) {
			json_object_put(o);
			return NULL;
		}
	}
	s = v->next;
	v->next = (v->next + 1) % PROF_CMPVIEW_KEEP;
	if (v->kept[s] >= 0)
		v->at[v->kept[s]].slot = -1;
	json_object_put(v->keep[s]);
	v->keep[s] = o;
	v->kept[s] = (long)i;
	/* Checked when the view was loaded: a row it took reads whole. */
	prof_verdict_read(o, &v->verdicts[s]);
	a->slot = (int)s;
	return o;
}

const struct prof_verdict *
prof_cmpview_verdict(struct prof_cmpview *v, size_t i)
{
	if (!row_at(v, i))
		return NULL;
	return &v->verdicts[v->at[i].slot];
}

long
prof_cmpview_find(const struct prof_cmpview *v, const char *w, const char *b,
		  int count, const char *seg)
{
	const char *pw, *pb, *ps;
	uint64_t slot;

	if (!v || !v->n || !w || !b || !seg)
		return -1;
	pw = prof_pool_find(&v->pool, w);
	pb = prof_pool_find(&v->pool, b);
	ps = prof_pool_find(&v->pool, seg);
	if (!pw || !pb || !ps)
		return -1;
	return find_key(v, &v->index, pw, pb, count, ps, &slot);
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
	free(v->verdicts);
	v->verdicts = NULL;
	prof_htab64_free(&v->index);
	prof_pool_free(&v->pool);
	memset(v, 0, sizeof(*v));
}
