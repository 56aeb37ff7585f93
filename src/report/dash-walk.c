/* dash-walk.c: the history read for the dashboard: two walks, the series and
 * their segments, then each series' runs and change points (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/grow.h"
#include "history/steps.h"
#include "model/sample.h"
#include "dash-int.h"

static void
free_points(struct dash *d)
{
	size_t i;
	int m;

	for (i = 0; i < d->n; i++) {
		free(d->pts[i].run_id);
		free(d->pts[i].commit);
		free(d->pts[i].timestamp);
		free(d->pts[i].status);
		free(d->pts[i].reason);
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			free(d->pts[i].mem_status[m]);
			free(d->pts[i].mem_reason[m]);
		}
	}
	d->n = 0;
	free(d->workload);
	free(d->backend);
	free(d->segment_id);
	free(d->segment);
	d->workload = d->backend = d->segment_id = d->segment = NULL;
}

/* The last change point of s (there is one) in e: the run after it, its
 * size from the medians on each side, its two commits. */
static void
last_change(const struct dash *d, const struct dash_steps *s,
	    struct entry *e)
{
	size_t c = s->off + s->cuts[s->nc - 1];
	size_t lo = s->nc > 1 ? s->off + s->cuts[s->nc - 2] : s->off;
	double before = prof_steps_median(s->x + lo, c - lo);
	double after = prof_steps_median(s->x + c, s->k - c);

	e->change_at = s->idx[c];
	e->change_pct = before > 0 ? (after / before - 1) * 100 : NAN;
	snprintf(e->change, sizeof(e->change), "%.7s..%.7s",
		 d->pts[s->idx[c - 1]].commit, d->pts[s->idx[c]].commit);
}

/* The change points of the medians of a series (runs with a median only),
 * as indexes of runs; the last one in words. 0 or -1 (out of memory). */
static int
changes(struct dash *d, struct entry *e)
{
	struct dash_steps s;
	long k;
	int rc = -1;

	e->cuts = malloc((d->n ? d->n : 1) * sizeof(*e->cuts));
	if (dash_steps_fit(d, 0, &s) < 0 || !e->cuts)
		goto out;
	for (k = 0; k < s.nc; k++)
		e->cuts[k] = s.idx[s.off + s.cuts[k]];
	e->ncuts = s.nc;
	e->change_pct = NAN;
	if (s.nc > 0)
		last_change(d, &s, e);
	rc = 0;
out:
	dash_steps_free(&s);
	return rc;
}

/*
 * A series of instruction counts only has no change points (they are
 * found in medians of times): a count is exact, so its last change is the
 * last run whose count differs from the counted run before it.
 */
static void
count_change(const struct dash *d, struct entry *e)
{
	const struct chart_run *prev = NULL, *b = NULL, *a = NULL;
	size_t i, at = 0;

	for (i = 0; i < d->n; i++) {
		const struct chart_run *p = &d->pts[i];

		if (p->instructions < 0)
			continue;
		if (prev && p->instructions != prev->instructions) {
			b = prev;
			a = p;
			at = i;
		}
		prev = p;
	}
	if (!a)
		return;
	e->count_changed = 1;
	e->change_at = at;
	e->change_pct = b->instructions > 0 ?
				((double)a->instructions /
					 (double)b->instructions -
				 1) * 100 :
				NAN;
	snprintf(e->change, sizeof(e->change), "%.7s..%.7s", b->commit,
		 a->commit);
}

static char *
dup(const char *s, int *oom)
{
	char *c = strdup(s ? s : "");

	if (!c)
		*oom = 1;
	return c;
}

/* The order of the history's walk: workload, backend, segment id. */
static int
key_cmp(const char *w1, const char *b1, const char *s1, const char *w2,
	const char *b2, const char *s2)
{
	int c = strcmp(w1, w2);

	if (!c)
		c = strcmp(b1, b2);
	return c ? c : strcmp(s1, s2);
}

static int
skey_cmp(const void *x, const void *y)
{
	const struct skey *a = x, *b = y;

	return key_cmp(a->workload, a->backend, a->segment_id, b->workload,
		       b->backend, b->segment_id);
}

/* The first walk's key of a series, or NULL (a series added to the history
 * between the two walks). */
static const struct skey *
find_key(const struct dash *d, const char *w, const char *b, const char *s)
{
	size_t lo = 0, hi = d->n_keys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct skey *k = &d->keys[mid];
		int c = key_cmp(w, b, s, k->workload, k->backend,
				k->segment_id);

		if (!c)
			return k;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* A file name no workload or backend can make unsafe or ambiguous. */
static int
page_file(const char *w, const char *b, const char *s, char file[32])
{
	char key[1200], id[PROF_ID_SIZE];

	snprintf(key, sizeof(key), "%s\n%s\n%s", w, b, s);
	if (prof_sample_id(key, id) < 0)
		return -1;
	snprintf(file, 32, "s-%s.html", id);
	return 0;
}

/* The first walk: each series once, with its segment. */
int
dash_on_key(void *arg, const struct prof_history_point *p, struct prof_err *err)
{
	struct dash *d = arg;
	struct skey *k;
	int oom = 0;

	if (d->n_keys) {
		k = &d->keys[d->n_keys - 1];
		if (!key_cmp(k->workload, k->backend, k->segment_id,
			     p->workload, p->backend, p->segment_id))
			return 0;
	}
	if (PROF_GROW(d->keys, d->n_keys + 1, d->cap_keys) < 0)
		return prof_err_set(err, "out of memory");
	k = &d->keys[d->n_keys++];
	memset(k, 0, sizeof(*k));
	k->workload = dup(p->workload, &oom);
	k->backend = dup(p->backend, &oom);
	k->segment_id = dup(p->segment_id, &oom);
	k->segment = dup(p->segment, &oom);
	k->differs = dup("", &oom);
	if (oom || page_file(p->workload, p->backend, p->segment_id, k->file) <
			   0)
		return prof_err_set(err, "out of memory");
	return 0;
}

/*
 * What tells each series from the other series of its workload: the
 * fields of its segment (but backend, which has a column of its own) whose
 * values are not the same in all of them, as "field value" ("field none"
 * where it has none), at most DIFFERS_MAX bytes.
 */
int
dash_find_differs(struct dash *d, struct prof_err *err)
{
	size_t g0 = 0, g1, i, j;

	if (d->n_keys)
		qsort(d->keys, d->n_keys, sizeof(*d->keys), skey_cmp);
	for (; g0 < d->n_keys; g0 = g1) {
		struct json_object **segs;
		size_t ng;

		for (g1 = g0 + 1; g1 < d->n_keys &&
				  !strcmp(d->keys[g1].workload,
					  d->keys[g0].workload);
		     g1++)
			;
		for (i = g0; i < g1; i++) {
			d->keys[i].g0 = g0;
			d->keys[i].g1 = g1;
		}
		ng = g1 - g0;
		if (ng < 2)
			continue;
		segs = calloc(ng, sizeof(*segs));
		if (!segs)
			return prof_err_set(err, "out of memory");
		for (i = 0; i < ng; i++) {
			segs[i] = json_tokener_parse(d->keys[g0 + i].segment);
			if (segs[i] &&
			    !json_object_is_type(segs[i], json_type_object)) {
				json_object_put(segs[i]);
				segs[i] = NULL;
			}
		}
		for (i = 0; i < ng; i++) {
			struct skey *k = &d->keys[g0 + i];
			char buf[DIFFERS_MAX + 1] = "";
			size_t len = 0;

			/* The fields of every segment of the group, each
			 * once: those this one lacks differ too. */
			for (j = 0; j < ng; j++) {
				if (!segs[j] || !segs[i])
					continue;
				json_object_object_foreach(segs[j], f, v) {
					const char *t;
					size_t m;
					int seen = 0;

					(void)v;
					for (m = 0; m < j && !seen; m++)
						seen = segs[m] &&
						       json_object_object_get_ex(
							       segs[m], f,
							       NULL);
					if (seen ||
					    !dash_field_differs(k, segs, i, f))
						continue;
					t = dash_field_text(
						json_object_object_get(
							segs[i], f));
					len += (size_t)snprintf(
						buf + len, len < sizeof(buf) ?
								   sizeof(buf) - len :
								   0,
						"%s%s%s%s", len ? ", " : "",
						t ? f : "no ", t ? " " : f,
						t ? t : "");
					if (len >= sizeof(buf))
						len = sizeof(buf);
				}
			}
			if (len >= sizeof(buf))
				snprintf(buf + sizeof(buf) - 4, 4, "...");
			free(k->differs);
			k->differs = strdup(buf);
			if (!k->differs) {
				for (j = 0; j < ng; j++)
					json_object_put(segs[j]);
				free(segs);
				return prof_err_set(err, "out of memory");
			}
		}
		for (i = 0; i < ng; i++)
			json_object_put(segs[i]);
		free(segs);
	}
	return 0;
}

/*
 * A series of memory only has no change points of times: its last change
 * is its first measured metric's (the heap peak's where there is one),
 * found as a time series' is, the size from the medians on each side.
 * 0 or -1 (out of memory).
 */
static int
mem_change(const struct dash *d, struct entry *e)
{
	struct dash_steps s;
	int m, rc = -1;

	for (m = 1; m < PROF_CMP_MEM_N && !(e->memory & 1u << m); m++)
		;
	if (dash_steps_fit(d, m, &s) < 0)
		goto out;
	if (s.nc > 0) {
		e->mem_changed = 1;
		e->mem_metric = m;
		last_change(d, &s, e);
	}
	rc = 0;
out:
	dash_steps_free(&s);
	return rc;
}

/*
 * A page of the dashboard, name in its folder, written whole or not at
 * all: entry e's series page, or the index where e is NULL. The pages'
 * writers (dash-series.c, dash-index.c) open no file. 0, or -1 with err.
 */
static int
write_file(struct dash *d, const char *name, struct entry *e,
	   struct prof_err *err)
{
	struct prof_afile af = {0};
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", d->o->dir, name);
	fp = prof_afile_open(&af, path, err);
	if (!fp)
		return -1;
	if (e)
		dash_series_page(fp, d, e);
	else if (dash_index_page(fp, d, err) < 0) {
		prof_afile_abort(&af);
		return -1;
	}
	return prof_afile_commit(&af, err);
}

int
dash_write_index(struct dash *d, struct prof_err *err)
{
	return write_file(d, "index.html", NULL, err);
}

/* The series read so far is whole: its page, and its row of the index. */
int
dash_flush_series(struct dash *d, struct prof_err *err)
{
	struct entry *e;
	size_t i;

	if (!d->workload)
		return 0;
	if (PROF_GROW(d->entries, d->n_entries + 1, d->cap_entries) < 0)
		return prof_err_set(err, "out of memory");
	e = &d->entries[d->n_entries++];
	memset(e, 0, sizeof(*e));
	e->workload = d->workload;
	e->backend = d->backend;
	e->segment_id = d->segment_id;
	e->segment = d->segment;
	d->workload = d->backend = d->segment_id = d->segment = NULL;
	if (page_file(e->workload, e->backend, e->segment_id, e->file) < 0)
		return prof_err_set(err, "out of memory");
	e->key = find_key(d, e->workload, e->backend, e->segment_id);
	e->n = d->n;
	e->change_at = d->n;
	e->medians = malloc((d->n ? d->n : 1) * sizeof(*e->medians));
	e->instructions = malloc((d->n ? d->n : 1) * sizeof(*e->instructions));
	e->heap = malloc((d->n ? d->n : 1) * sizeof(*e->heap));
	if (!e->medians || !e->instructions || !e->heap || changes(d, e) < 0)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < d->n; i++) {
		int m;

		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (isfinite(d->pts[i].mem[m]))
				e->memory |= 1u << m;
		e->heap[i] = d->pts[i].mem[PROF_CMP_MEM_PEAK];
		e->medians[i] = d->pts[i].median;
		e->instructions[i] = d->pts[i].instructions;
		if (d->pts[i].instructions >= 0)
			e->counted = 1;
		if (isfinite(d->pts[i].median))
			e->timed = 1;
	}
	if (!e->timed && e->counted)
		count_change(d, e);
	if (!e->timed && !e->counted && e->memory && mem_change(d, e) < 0)
		return prof_err_set(err, "out of memory");
	if (e->memory)
		d->any_memory = 1;
	if (d->n) {
		const struct chart_run *p = &d->pts[d->n - 1];
		int m;

		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (isfinite(p->mem[m]))
				e->last_memory = 1;
		e->last_median = p->median;
		e->last_n = p->n;
		e->last_errors = p->errors;
		e->last_instructions = p->instructions;
		snprintf(e->last_run, sizeof(e->last_run), "%s", p->run_id);
		snprintf(e->last_status, sizeof(e->last_status), "%s",
			 p->status ? p->status : "");
	}
	if (write_file(d, e->file, e, err) < 0)
		return -1;
	/* The last run's verdicts, for what changed recently: handed over
	 * to the entry, free_points() frees the rest. */
	if (d->n) {
		struct chart_run *p = &d->pts[d->n - 1];
		int m;

		e->last_reason = p->reason;
		p->reason = NULL;
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			e->last_mem_status[m] = p->mem_status[m];
			e->last_mem_reason[m] = p->mem_reason[m];
			p->mem_status[m] = p->mem_reason[m] = NULL;
		}
	}
	free_points(d);
	return 0;
}

int
dash_on_point(void *arg, const struct prof_history_point *p,
	      struct prof_err *err)
{
	struct dash *d = arg;
	struct chart_run *q;
	int oom = 0, m;

	if (d->workload && (strcmp(d->workload, p->workload) ||
			    strcmp(d->backend, p->backend) ||
			    strcmp(d->segment_id, p->segment_id)) &&
	    dash_flush_series(d, err) < 0)
		return -1;
	if (!d->workload) {
		d->workload = dup(p->workload, &oom);
		d->backend = dup(p->backend, &oom);
		d->segment_id = dup(p->segment_id, &oom);
		d->segment = dup(p->segment, &oom);
	}
	if (PROF_GROW(d->pts, d->n + 1, d->cap) < 0)
		return prof_err_set(err, "out of memory");
	q = &d->pts[d->n++];
	q->run_id = dup(p->run_id, &oom);
	q->commit = dup(p->commit, &oom);
	q->timestamp = dup(p->timestamp_utc, &oom);
	q->n = p->n;
	q->errors = p->errors;
	q->median = p->n > 0 ? p->median : NAN;
	q->p90 = p->n > 0 ? p->p90 : NAN;
	q->instructions = p->instructions;
	q->status = p->status ? dup(p->status, &oom) : NULL;
	q->reason = p->reason ? dup(p->reason, &oom) : NULL;
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		q->mem[m] = p->mem[m];
		q->mem_status[m] = p->mem_status[m] ?
					   dup(p->mem_status[m], &oom) :
					   NULL;
		q->mem_reason[m] = p->mem_reason[m] ?
					   dup(p->mem_reason[m], &oom) :
					   NULL;
	}
	return oom ? prof_err_set(err, "out of memory") : 0;
}

void
dash_free_dash(struct dash *d)
{
	size_t i;
	int m;

	free_points(d);
	free(d->pts);
	for (i = 0; i < d->n_entries; i++) {
		struct entry *e = &d->entries[i];

		free(e->workload);
		free(e->backend);
		free(e->segment_id);
		free(e->segment);
		free(e->medians);
		free(e->instructions);
		free(e->heap);
		free(e->cuts);
		free(e->last_reason);
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			free(e->last_mem_status[m]);
			free(e->last_mem_reason[m]);
		}
	}
	free(d->entries);
	for (i = 0; i < d->n_keys; i++) {
		struct skey *k = &d->keys[i];

		free(k->workload);
		free(k->backend);
		free(k->segment_id);
		free(k->segment);
		free(k->differs);
	}
	free(d->keys);
}
