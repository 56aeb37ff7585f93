/* rows.c: the second row builder: whether a comparisons document holds
 * exactly the rows of a results file, with the rows as keys only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/sample.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* The row class of a comparison object (class_mark()). */
static int
json_class(struct json_object *o)
{
	const char *ph = prof_json_str(o, "phase");
	enum prof_cmp_mem m;

	if (!ph || !strcmp(ph, "timing"))
		return 0;
	if (!strcmp(ph, "instructions"))
		return 1;
	m = prof_cmp_metric_find(prof_json_str(o, "metric"));
	return m && !strcmp(ph, "memory") ? 1 + (int)m : -1;
}

/* Room for one more row in k's own table (rows from samples). */
static int
rows_grow(struct prof_cmp_rows *k)
{
	size_t ncap;
	void *a, *b;

	if (k->n < k->cap)
		return 0;
	ncap = k->cap ? k->cap * 2 : 64;
	a = realloc(k->names, ncap * sizeof(*k->names));
	if (!a)
		return -1;
	k->names = a;
	b = realloc(k->seen, ncap * sizeof(*k->seen));
	if (!b)
		return -1;
	k->seen = b;
	k->cap = ncap;
	return 0;
}

void
prof_cmp_rows_begin(struct prof_cmp_rows *k)
{
	memset(k, 0, sizeof(*k));
}

/* The row of pooled w, b and seg of class cls in k, or -1; *slot its key
 * in k->h (or the free one it would have). */
static long
rows_find(const struct prof_cmp_rows *k, const char *w, const char *b,
	  const char *seg, int cls, uint64_t *slot)
{
	const void *key[4] = {w, b, seg, (const void *)(intptr_t)cls};
	uint64_t h = prof_pool_hash(key, sizeof(key), PROF_POOL_FNV);
	int64_t i;

	while (prof_htab64_get(&k->h, h, &i)) {
		if (k->names[i].w == w && k->names[i].b == b &&
		    k->names[i].seg == seg && k->names[i].cls == cls) {
			*slot = h;
			return (long)i;
		}
		h = prof_pool_next(h);
	}
	*slot = h;
	return -1;
}

/* One row of class cls of sample s's workload, backend and segment id. */
static int
rows_add(struct prof_cmp_rows *k, struct json_object *s, const char *seg,
	 int cls, struct prof_err *err)
{
	const char *w = prof_pool_str(&k->pool, prof_sample_str(s, "workload"));
	const char *b = prof_pool_str(&k->pool, prof_sample_str(s, "backend"));
	const char *sid = prof_pool_str(&k->pool, seg);
	uint64_t slot;

	if (!w || !b || !sid)
		return prof_err_set(err, "out of memory");
	if (rows_find(k, w, b, sid, cls, &slot) >= 0)
		return 0;
	if (rows_grow(k) < 0 ||
	    prof_htab64_put(&k->h, slot, (int64_t)k->n) < 0)
		return prof_err_set(err, "out of memory");
	k->names[k->n].w = w;
	k->names[k->n].b = b;
	k->names[k->n].seg = sid;
	k->names[k->n].cls = cls;
	k->seen[k->n] = -1;
	k->n++;
	return 0;
}

int
prof_cmp_rows_sample(struct prof_cmp_rows *k, struct json_object *s,
		     const char *segment_id, struct prof_err *err)
{
	int m;

	/* The rows prof_cmp_take() makes of s, by the same rules. */
	if (!prof_cmp_rowed(s) || !prof_sample_str(s, "workload") ||
	    !prof_sample_str(s, "backend") || !segment_id)
		return 0;
	if (!prof_sample_is(s, "phase", "memory") &&
	    rows_add(k, s, segment_id,
		     prof_sample_is(s, "phase", "instructions"), err) < 0)
		return -1;
	for (m = 1; prof_cmp_mem_any(s) && m < PROF_CMP_MEM_N; m++)
		if (prof_cmp_mem_takes(s, (enum prof_cmp_mem)m) &&
		    rows_add(k, s, segment_id, 1 + m, err) < 0)
			return -1;
	return 0;
}

int
prof_cmp_rows_close(struct prof_cmp_rows *k, prof_cmp_segment_fn fn,
		    void *arg, struct prof_err *err)
{
	size_t i;

	/* The rows stay keyed by segment id (a key is a few hundred bytes,
	 * the same on most rows): each segment key names the first row of
	 * its id, whose id take() looks the comparison's row up by. */
	for (i = 0; i < k->n; i++) {
		const char *seg = fn ? fn(arg, k->names[i].seg) : NULL;

		seg = seg ? seg : k->names[i].seg;
		if (prof_htab_get(&k->segs, seg, strlen(seg)) < 0 &&
		    prof_htab_put(&k->segs, seg, strlen(seg), (long)i) < 0)
			return prof_err_set(err, "out of memory");
	}
	return 0;
}

int
prof_cmp_rows_take(struct prof_cmp_rows *k, struct json_object *o, size_t i,
		   struct prof_err *err)
{
	const char *w = prof_json_str(o, "workload");
	const char *b = prof_json_str(o, "backend");
	const char *seg = prof_json_str(o, "segment");
	const char *pw = w ? prof_pool_find(&k->pool, w) : NULL;
	const char *pb = b ? prof_pool_find(&k->pool, b) : NULL;
	char path[64];
	uint64_t slot;
	long j;

	snprintf(path, sizeof(path), "[%zu]", i);
	j = seg ? prof_htab_get(&k->segs, seg, strlen(seg)) : -1;
	j = j >= 0 && pw && pb ? rows_find(k, pw, pb, k->names[j].seg,
					  json_class(o), &slot) :
				 -1;
	if (j < 0)
		return prof_err_path(err, path,
				     "no such row in the results (%s, %s)", w,
				     b);
	if (k->seen[j] >= 0)
		return prof_err_path(err, path,
				     "the same row as [%ld] (%s, %s)",
				     k->seen[j], w, b);
	k->seen[j] = (long)i;
	return 0;
}

int
prof_cmp_rows_end(struct prof_cmp_rows *k, struct prof_err *err)
{
	long first = -1;
	size_t i;

	/* The first missing row in prof_cmp_close()'s order: by workload,
	 * then backend (rows from samples come in the file's order). */
	for (i = 0; i < k->n; i++) {
		int d;

		if (k->seen[i] >= 0)
			continue;
		if (first < 0) {
			first = (long)i;
			continue;
		}
		d = strcmp(k->names[i].w, k->names[first].w);
		if (!d)
			d = strcmp(k->names[i].b, k->names[first].b);
		if (d < 0)
			first = (long)i;
	}
	if (first >= 0)
		return prof_err_path(err, ".",
				     "no row for the results' %s (%s)",
				     k->names[first].w, k->names[first].b);
	return 0;
}

void
prof_cmp_rows_free(struct prof_cmp_rows *k)
{
	free(k->names);
	free(k->seen);
	prof_htab64_free(&k->h);
	prof_htab_free(&k->segs);
	prof_pool_free(&k->pool);
	memset(k, 0, sizeof(*k));
}
