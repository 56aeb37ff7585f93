/* runview.c: results of schema 1 or 2 streamed into their rows. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/env.h"
#include "base/grow.h"
#include "base/id.h"
#include "base/json.h"
#include "base/pool.h"
#include "base/prof.h"
#include "base/stats.h"
#include "model/runview.h"
#include "model/sample.h"
#include "model/stream.h"
#include "prof/sum.h"
#include "verdict/check.h"
#include "verdict/read.h"
#include "verdict/table.h"

/* What a row gathers while the file is walked and drops at its end. */
struct prof_runacc {
	char *segment_id;		/* the file's, until its key is known */
	size_t cap_v;
	long long *counts;		/* instruction counts */
	size_t n_counts, cap_counts;
	size_t cap_mem[PROF_CMP_MEM_N];	/* of the row's mem[] */
	size_t cap_artifacts;
};

size_t
prof_runview_count(const struct prof_runview *v)
{
	return v->count;
}

const char *
prof_runview_str(const struct prof_runview *v, const char *key)
{
	const char *s = v->meta ? prof_json_str(v->meta, key) : NULL;

	return s ? s : "";
}

const char *
prof_runview_commit_time(const struct prof_runview *v, char *utc)
{
	const char *t = v->meta ? prof_json_str(v->meta, "commit_time") : NULL;

	if (!t || !prof_commit_time_valid(t, utc, NULL, 0))
		return NULL;
	return t;
}

int
prof_runview_parents(const struct prof_runview *v, char *out, size_t n)
{
	struct json_object *a;
	size_t i, off = 0;

	if (!v->meta || !json_object_object_get_ex(v->meta, "parents", &a) ||
	    !json_object_is_type(a, json_type_array) || !n)
		return 0;
	out[0] = 0;
	for (i = 0; i < json_object_array_length(a); i++) {
		const char *p =
			json_object_get_string(json_object_array_get_idx(a, i));
		int k = snprintf(out + off, n - off, "%s%s", i ? " " : "",
				 p ? p : "");

		if (k < 0 || (size_t)k >= n - off)
			break;
		off += (size_t)k;
	}
	return 1;
}

struct json_object *
prof_runview_env(const struct prof_runview *v)
{
	if (!v->st || !v->count)
		return NULL;
	return prof_stream_env(v->st, v->first_env);
}

const char *
prof_runview_segment(const struct prof_runview *v, const char *segment_id)
{
	const char *key = v->st ? prof_stream_segment(v->st, segment_id) :
				  NULL;

	return key ? key : "";
}

size_t
prof_runview_rows(const struct prof_runview *v,
		  const struct prof_runrow **rows)
{
	*rows = v->rows;
	return v->n_rows;
}

/* Key parts joined by NUL bytes, in buf; its length, or 0 if too long. */
static size_t
join_key(char *buf, size_t n, const char *w, const char *b, const char *sid)
{
	size_t lw = strlen(w), lb = strlen(b), ls = strlen(sid);

	if (lw + lb + ls + 2 > n)
		return 0;
	memcpy(buf, w, lw + 1);
	memcpy(buf + lw + 1, b, lb + 1);
	memcpy(buf + lw + lb + 2, sid, ls);
	return lw + lb + ls + 2;
}

/* A new row at the end of the table, its accumulator with it. */
static struct prof_runrow *
new_row(struct prof_runview *v, const char *w, const char *b,
	const char *sid, size_t first)
{
	struct prof_runrow *r;
	struct prof_runacc *a;

	if (PROF_GROW(v->rows, v->n_rows + 1, v->cap_rows) < 0 ||
	    PROF_RESIZE(v->acc, v->cap_rows) < 0)
		return NULL;
	a = &v->acc[v->n_rows];
	r = &v->rows[v->n_rows++];
	memset(r, 0, sizeof(*r));
	memset(a, 0, sizeof(*a));
	r->instructions = -1;
	r->host_peak_bytes = r->rss_peak_bytes = r->device_peak_bytes = NAN;
	r->first = first;
	r->workload = strdup(w);
	r->backend = strdup(b);
	a->segment_id = strdup(sid);
	return r->workload && r->backend && a->segment_id ? r : NULL;
}

/*
 * The row of a sample, made when it is the first. Rows are keyed by the
 * file's segment id; a segment key resolves only once the walk is done
 * (a file sorted with jq -S has its "segments" after its "samples").
 */
static long
row_of(struct prof_runview *v, struct json_object *s, size_t i,
       struct prof_err *err)
{
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	char key[4096];
	size_t len;
	long k;

	w = w ? w : "";
	b = b ? b : "";
	sid = sid ? sid : "";
	len = join_key(key, sizeof(key), w, b, sid);
	if (!len)
		return prof_err_set(err, "a workload id, backend and segment "
					 "id of more than 4096 bytes");
	k = prof_htab_get(&v->index, key, len);
	if (k >= 0)
		return k;
	k = (long)v->n_rows;
	if (!new_row(v, w, b, sid, i) ||
	    prof_htab_put(&v->index, key, len, k) < 0)
		return prof_err_set(err, "out of memory");
	return k;
}

static void
peak(double *into, struct json_object *mem, const char *key)
{
	struct json_object *f = prof_json_get(mem, key);
	double x;

	if (!prof_json_is_number(f))
		return;
	x = prof_json_number(f);
	if (!(*into >= x))
		*into = x;
}

int
prof_runview_aggregated(struct json_object *s)
{
	return (prof_sample_is(s, "phase", "timing") ||
		prof_sample_is(s, "phase", "browser")) &&
	       prof_sample_is(s, "kind", "warm") &&
	       prof_sample_is(s, "outcome", "success") &&
	       prof_json_is_number(prof_json_get(s, "duration_ms"));
}

static int
take_artifacts(struct prof_runrow *r, struct prof_runacc *a,
	       struct json_object *arts)
{
	size_t j, n = json_object_is_type(arts, json_type_array) ?
			      json_object_array_length(arts) :
			      0;

	for (j = 0; j < n; j++) {
		const char *s = json_object_get_string(
			json_object_array_get_idx(arts, j));

		if (!s)
			continue;
		if (PROF_GROW(r->artifacts, r->n_artifacts + 1,
			      a->cap_artifacts) < 0)
			return -1;
		r->artifacts[r->n_artifacts] = strdup(s);
		if (!r->artifacts[r->n_artifacts])
			return -1;
		r->n_artifacts++;
	}
	return 0;
}

/* Add one sample to its row: what fill_row() did over a sorted run of
 * samples, one sample at a time. */
static int
take(struct prof_runrow *r, struct prof_runacc *a, struct json_object *s)
{
	struct json_object *ins = prof_json_get(s, "instructions");
	double x;
	int m;

	if (!r->category && prof_json_str(s, "category")) {
		r->category = strdup(prof_json_str(s, "category"));
		if (!r->category)
			return -1;
	}
	if (!r->fixture && prof_json_str(s, "fixture")) {
		r->fixture = strdup(prof_json_str(s, "fixture"));
		if (!r->fixture)
			return -1;
	}
	if (!r->version)
		r->version = json_object_get_int64(prof_json_get(s, "workload_version"));
	if (prof_sample_is(s, "outcome", "error"))
		r->errors++;
	if (prof_runview_aggregated(s)) {
		if (PROF_GROW(r->v, r->n + 1, a->cap_v) < 0 ||
		    prof_cpu_row_take(&r->cpu, s) < 0)
			return -1;
		r->v[r->n++] = prof_json_number(prof_json_get(s, "duration_ms"));
	} else if (prof_sample_is(s, "phase", "instructions") &&
		   prof_sample_is(s, "outcome", "success") &&
		   json_object_is_type(ins, json_type_int)) {
		if (PROF_GROW(a->counts, a->n_counts + 1, a->cap_counts) < 0)
			return -1;
		a->counts[a->n_counts++] = json_object_get_int64(ins);
	} else if (prof_sample_is(s, "phase", "memory") &&
		   prof_sample_is(s, "outcome", "success")) {
		struct json_object *mem = prof_json_get(s, "memory");

		peak(&r->host_peak_bytes, mem, "host_peak_bytes");
		peak(&r->rss_peak_bytes, mem, "rss_peak_bytes");
		peak(&r->device_peak_bytes, mem,
		     "device_peak_allocated_bytes");
	}
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!prof_cmp_mem_value(s, (enum prof_cmp_mem)m, &x))
			continue;
		if (PROF_GROW(r->mem[m], r->n_mem[m] + 1, a->cap_mem[m]) < 0)
			return -1;
		r->mem[m][r->n_mem[m]++] = x;
	}
	return take_artifacts(r, a, prof_json_get(s, "artifacts"));
}

/* The canonical text of o and a NUL byte, into the digest. */
static int
sum_json(struct prof_sum *sum, struct json_object *o)
{
	char *text = prof_json_canonical(o);

	if (!text)
		return -1;
	prof_sum_bytes(sum, text, strlen(text) + 1);
	free(text);
	return 0;
}

/*
 * Drop what schema 2 leaves out of a sample as saying nothing (a null
 * reason or checksum, no artifacts; see rwriter.c), so that a schema-1
 * sample and its schema-2 form hash alike. The reader frees s after the
 * walk's callback, so it is changed in place.
 */
static void
drop_empty(struct json_object *s)
{
	struct json_object *a = NULL;

	if (json_object_object_get_ex(s, "reason", &a) && !a)
		json_object_object_del(s, "reason");
	if (json_object_object_get_ex(s, "checksum", &a) && !a)
		json_object_object_del(s, "checksum");
	if (json_object_object_get_ex(s, "artifacts", &a) &&
	    (!a || (json_object_is_type(a, json_type_array) &&
		    !json_object_array_length(a))))
		json_object_object_del(s, "artifacts");
}

/* While a view in brief is walked: its rows by key, and each aggregated
 * sample's CPU time with its row. */
struct brief_cpu {
	double v;
	size_t row;
};

struct brief_walk {
	struct prof_htab64 index;	/* hash of a row's key -> row */
	const char **sids;		/* each row's segment id (pooled) */
	struct brief_cpu *cpu;
	size_t n_cpu, cap_cpu, cap_rows, cap_sids;
	struct prof_cpu_row scratch;	/* prof_cpu_row_take()'s say */
};

struct walk {
	struct prof_runview *v;
	struct prof_sum sum;
	prof_runview_fn fn;		/* the caller's, or NULL */
	void *arg;
	prof_runview_keep_fn keep;	/* which rows to build, or NULL */
	void *keep_arg;
	struct brief_walk *brief;	/* rows in brief, or NULL */
};

/* The brief row of a sample, made when it is the first. */
static long
brief_row(struct prof_runview *v, struct brief_walk *bw,
	  struct json_object *s, size_t i, struct prof_err *err)
{
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	const char *key[3];
	struct prof_runbrief *r;
	uint64_t h;
	int64_t k;

	key[0] = prof_pool_str(v->pool, w ? w : "");
	key[1] = prof_pool_str(v->pool, b ? b : "");
	key[2] = prof_pool_str(v->pool, sid ? sid : "");
	if (!key[0] || !key[1] || !key[2])
		return prof_err_set(err, "out of memory");
	/* Pooled: the addresses are the key. */
	h = prof_pool_hash(key, sizeof(key), PROF_POOL_FNV);
	while (prof_htab64_get(&bw->index, h, &k)) {
		if (v->briefs[k].workload == key[0] &&
		    v->briefs[k].backend == key[1] && bw->sids[k] == key[2])
			return (long)k;
		h = prof_pool_next(h);
	}
	k = (int64_t)v->n_briefs;
	if (PROF_GROW(v->briefs, v->n_briefs + 1, bw->cap_rows) < 0)
		return prof_err_set(err, "out of memory");
	if (bw->cap_sids < bw->cap_rows) {
		if (PROF_RESIZE(bw->sids, bw->cap_rows) < 0)
			return prof_err_set(err, "out of memory");
		bw->cap_sids = bw->cap_rows;
	}
	r = &v->briefs[v->n_briefs++];
	memset(r, 0, sizeof(*r));
	r->workload = key[0];
	r->backend = key[1];
	r->first = i;
	r->cpu_median = NAN;
	r->host_peak_bytes = r->rss_peak_bytes = r->device_peak_bytes = NAN;
	bw->sids[k] = key[2];
	if (prof_htab64_put(&bw->index, h, k) < 0)
		return prof_err_set(err, "out of memory");
	return (long)k;
}

/* Add one sample to its brief row, by take()'s rules. */
static int
brief_take(struct brief_walk *bw, struct prof_runbrief *r, size_t row,
	   struct json_object *s)
{
	struct json_object *ins = prof_json_get(s, "instructions");
	double x;
	int m;

	if (prof_sample_is(s, "outcome", "error"))
		r->errors++;
	if (prof_runview_aggregated(s)) {
		bw->scratch.n = 0;
		bw->scratch.contended = 0;
		if (prof_cpu_row_take(&bw->scratch, s) < 0)
			return -1;
		r->contended += bw->scratch.contended;
		if (bw->scratch.n) {
			if (PROF_GROW(bw->cpu, bw->n_cpu + 1, bw->cap_cpu) < 0)
				return -1;
			bw->cpu[bw->n_cpu].v = bw->scratch.v[0];
			bw->cpu[bw->n_cpu++].row = row;
			r->cpu_n++;
		}
		r->n++;
	} else if (prof_sample_is(s, "phase", "instructions") &&
		   prof_sample_is(s, "outcome", "success") &&
		   json_object_is_type(ins, json_type_int)) {
		r->n_counts++;
	} else if (prof_sample_is(s, "phase", "memory") &&
		   prof_sample_is(s, "outcome", "success")) {
		struct json_object *mem = prof_json_get(s, "memory");

		peak(&r->host_peak_bytes, mem, "host_peak_bytes");
		peak(&r->rss_peak_bytes, mem, "rss_peak_bytes");
		peak(&r->device_peak_bytes, mem,
		     "device_peak_allocated_bytes");
	}
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (prof_cmp_mem_value(s, (enum prof_cmp_mem)m, &x))
			r->mem |= (unsigned char)(1u << m);
	return 0;
}

/* Which side of an interleaved A/B the sample is of, if any. */
static void
ab_side(struct prof_runview *v, struct json_object *s)
{
	struct json_object *ab = NULL;
	const char *side;

	if (!json_object_object_get_ex(s, "ab", &ab))
		return;
	side = prof_json_str(ab, "side");
	if (side && !strcmp(side, "current"))
		v->ab_sides |= PROF_RUNVIEW_AB_CURRENT;
	else if (side && !strcmp(side, "reference"))
		v->ab_sides |= PROF_RUNVIEW_AB_REFERENCE;
}

static int
on_sample(void *arg, struct json_object *s, long index,
	  struct prof_err *err)
{
	struct walk *w = arg;
	struct prof_runview *v = w->v;
	long k;

	(void)index;
	if (!v->count) {
		const char *eid = prof_json_str(s, "env_id");

		snprintf(v->first_env, sizeof(v->first_env), "%s",
			 eid ? eid : "");
	}
	ab_side(v, s);
	if (w->brief) {
		k = brief_row(v, w->brief, s, v->count, err);
		if (k < 0)
			return -1;
		if (brief_take(w->brief, &v->briefs[k], (size_t)k, s) < 0)
			return prof_err_set(err, "out of memory");
	} else if (!w->keep ||
		   w->keep(w->keep_arg, prof_json_str(s, "workload"),
			   prof_json_str(s, "backend"))) {
		k = row_of(v, s, v->count, err);
		if (k < 0)
			return -1;
		if (take(&v->rows[k], &v->acc[k], s) < 0)
			return prof_err_set(err, "out of memory");
	}
	if (w->fn && w->fn(w->arg, s, err) < 0)
		return -1;
	drop_empty(s);
	if (sum_json(&w->sum, s) < 0)
		return prof_err_set(err, "out of memory");
	v->count++;
	return 0;
}

/* A row's order, whole or in brief: workload, backend, segment, then the
 * place of its first sample. */
static int
key_order(const char *wa, const char *ba, const char *sa, size_t fa,
	  const char *wb, const char *bb, const char *sb, size_t fb)
{
	int c = strcmp(wa, wb);

	if (!c)
		c = strcmp(ba, bb);
	if (!c)
		c = strcmp(sa, sb);
	if (!c)
		c = fa < fb ? -1 : fa > fb;
	return c;
}

static int
cmp_rows(const void *pa, const void *pb)
{
	const struct prof_runrow *a = pa, *b = pb;

	return key_order(a->workload, a->backend, a->segment, a->first,
			 b->workload, b->backend, b->segment, b->first);
}

/* The walk is done: keys, medians, statistics, the order. */
static int
finish_rows(struct prof_runview *v)
{
	size_t k;
	int m;

	for (k = 0; k < v->n_rows; k++) {
		struct prof_runrow *r = &v->rows[k];
		struct prof_runacc *a = &v->acc[k];

		r->segment = prof_runview_segment(v, a->segment_id);
		if (prof_sample_id(r->segment, r->segment_id) < 0)
			return -1;
		free(a->segment_id);
		a->segment_id = NULL;
		if (!r->category)
			r->category = strdup("");
		if (!r->category)
			return -1;
		if (a->n_counts) {
			qsort(a->counts, a->n_counts, sizeof(*a->counts),
			      prof_cmp_ll);
			r->instructions =
				a->counts[prof_stats_count_index(a->n_counts)];
		}
		r->counts = a->counts;
		r->n_counts = a->n_counts;
		a->counts = NULL;
		if (prof_stats_compute(r->v, r->n, &r->st) < 0 ||
		    prof_cpu_row_stats(&r->cpu, &r->cpu_st) < 0)
			return -1;
		/* A memory metric's median is one of its samples, as
		 * prof-diff's memory rows have it (verdict/rule.c, row_stats). */
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (prof_stats_counts(r->mem[m], r->n_mem[m],
					       &r->mem_st[m]) < 0)
				return -1;
	}
	free(v->acc);
	v->acc = NULL;
	/* The walk's index and the table's spare room are done with: of a
	 * 40,000-row run, a third of the view. */
	prof_htab_free(&v->index);
	memset(&v->index, 0, sizeof(v->index));
	if (v->n_rows && v->n_rows < v->cap_rows &&
	    PROF_RESIZE(v->rows, v->n_rows) == 0)
		v->cap_rows = v->n_rows;
	if (v->n_rows)
		qsort(v->rows, v->n_rows, sizeof(*v->rows), cmp_rows);
	return 0;
}

static int
cmp_cpu(const void *pa, const void *pb)
{
	const struct brief_cpu *a = pa, *b = pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

static int
cmp_briefs(const void *pa, const void *pb)
{
	const struct prof_runbrief *a = pa, *b = pb;

	return key_order(a->workload, a->backend, a->segment, a->first,
			 b->workload, b->backend, b->segment, b->first);
}

/* The walk in brief is done: keys, CPU medians (as prof_stats_compute()
 * gives them of the row's CPU times), the order. */
static int
finish_briefs(struct prof_runview *v, struct brief_walk *bw)
{
	double *x = NULL;
	size_t k, i, j;
	int rc = -1;

	for (k = 0; k < v->n_briefs; k++)
		v->briefs[k].segment = prof_runview_segment(v, bw->sids[k]);
	if (bw->n_cpu)
		qsort(bw->cpu, bw->n_cpu, sizeof(*bw->cpu), cmp_cpu);
	for (i = 0; i < bw->n_cpu; i = j) {
		struct prof_stats st;

		for (j = i; j < bw->n_cpu && bw->cpu[j].row == bw->cpu[i].row;
		     j++)
			;
		if (PROF_RESIZE(x, j - i) < 0)
			goto out;
		for (k = i; k < j; k++)
			x[k - i] = bw->cpu[k].v;
		if (prof_stats_compute(x, j - i, &st) < 0)
			goto out;
		v->briefs[bw->cpu[i].row].cpu_median = st.median;
	}
	if (v->n_briefs) {
		/* The spare room given back; where it cannot be, kept. */
		(void)PROF_RESIZE(v->briefs, v->n_briefs);
		qsort(v->briefs, v->n_briefs, sizeof(*v->briefs), cmp_briefs);
	}
	rc = 0;
out:
	free(x);
	return rc;
}

static void
brief_walk_free(struct brief_walk *bw)
{
	prof_htab64_free(&bw->index);
	free(bw->sids);
	free(bw->cpu);
	prof_cpu_row_free(&bw->scratch);
	memset(bw, 0, sizeof(*bw));
}

/*
 * The digest's tail: the top level and the tables, as one object. The
 * schema version is left out: it says how the file is written, and the
 * samples are hashed in one form whatever it is.
 */
static int
sum_top(struct prof_runview *v, struct prof_sum *sum)
{
	struct json_object *top = json_object_new_object();
	struct json_object *meta = NULL;
	int rc;

	if (!top || json_object_deep_copy(v->meta, &meta, NULL) < 0) {
		json_object_put(top);
		return -1;
	}
	json_object_object_del(meta, "schema_version");
	json_object_object_add(top, "meta", meta);
	json_object_object_add(top, "envs",
			       json_object_get(prof_stream_envs(v->st)));
	json_object_object_add(top, "segments",
			       json_object_get(prof_stream_segments(v->st)));
	rc = sum_json(sum, top);
	json_object_put(top);
	return rc;
}

/* Copy stdin to a temporary file, for a second walk. */
static int
spool_stdin(struct prof_runview *v, struct prof_err *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[1 << 16];
	size_t n;
	FILE *fp;
	int fd;

	if (asprintf(&v->spool, "%s/prof-stdin.XXXXXX",
		     dir && dir[0] ? dir : "/tmp") < 0) {
		v->spool = NULL;
		return prof_err_at(err, "-", 0, 0, "out of memory");
	}
	/* Registered: an interrupt or a closed pipe removes it too. */
	fd = prof_afile_mkstemp(v->spool);
	if (fd < 0) {
		free(v->spool);
		v->spool = NULL;
		return prof_err_at(err, "-", 0, 0,
				   "cannot keep a copy of stdin: %s",
				   strerror(errno));
	}
	fp = fdopen(fd, "wb");
	if (!fp) {
		close(fd);
		return prof_err_at(err, "-", 0, 0,
				   "cannot keep a copy of stdin: %s",
				   strerror(errno));
	}
	prof_afile_note_input(STDIN_FILENO);
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, fp) != n)
			break;
	if (ferror(stdin) || ferror(fp) || fclose(fp) != 0)
		return prof_err_at(err, "-", 0, 0,
				   "cannot keep a copy of stdin: %s",
				   strerror(errno));
	return 0;
}

/* The file to read: stdin's copy where there is one. */
static const char *
source(const struct prof_runview *v)
{
	return v->spool ? v->spool : v->path;
}

/* Errors of the copy name stdin, as reading it straight would. */
static void
name_stdin(const struct prof_runview *v, struct prof_err *err)
{
	if (v->spool && err && !strcmp(err->file, v->spool))
		snprintf(err->file, sizeof(err->file), "-");
}

/*
 * A file prof-history export-runs wrote is the run it was exported from
 * to a history: .history.digest is that run's digest, kept in place of
 * the file's own (whose samples are not the run's).
 */
static int
kept_digest(struct prof_runview *v, struct prof_err *err)
{
	struct json_object *h = NULL, *d = NULL;

	if (!json_object_object_get_ex(v->meta, "history", &h))
		return 0;
	if (!json_object_is_type(h, json_type_object))
		return prof_err_path(err, ".history", "expected an object, got %s",
				     prof_json_type_name(h));
	if (!json_object_object_get_ex(h, "digest", &d) ||
	    !json_object_is_type(d, json_type_string) ||
	    !json_object_get_string_len(d) ||
	    (size_t)json_object_get_string_len(d) >= sizeof(v->digest))
		return prof_err_path(err, ".history.digest",
				     "expected a digest of at most %zu bytes",
				     sizeof(v->digest) - 1);
	snprintf(v->digest, sizeof(v->digest), "%s", json_object_get_string(d));
	return 0;
}

static int load(struct prof_runview *v, const char *path, int again,
		int brief, prof_runview_keep_fn keep, void *keep_arg,
		prof_runview_fn fn, void *arg, struct prof_err *err);

int
prof_runview_load(struct prof_runview *v, const char *path, int again,
		  struct prof_err *err)
{
	return load(v, path, again, 0, NULL, NULL, NULL, NULL, err);
}

int
prof_runview_load_only(struct prof_runview *v, const char *path,
		       prof_runview_keep_fn keep, void *keep_arg,
		       prof_runview_fn fn, void *arg, struct prof_err *err)
{
	return load(v, path, 0, 0, keep, keep_arg, fn, arg, err);
}

int
prof_runview_load_brief(struct prof_runview *v, const char *path,
			prof_runview_fn fn, void *arg, struct prof_err *err)
{
	return load(v, path, 0, 1, NULL, NULL, fn, arg, err);
}

size_t
prof_runview_briefs(const struct prof_runview *v,
		    const struct prof_runbrief **rows)
{
	*rows = v->briefs;
	return v->n_briefs;
}

/*
 * The place of the row of w, b and seg among n rows of size bytes sorted
 * by workload, backend and segment key, the strings at offsets at[] of
 * each (a struct prof_runrow or prof_runbrief); -1 when there is none.
 */
static long
find_sorted(const void *rows, size_t n, size_t size, const size_t at[3],
	    const char *w, const char *b, const char *seg)
{
	const char *want[3] = {w, b, seg};
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, f;
		const char *r = (const char *)rows + mid * size;
		int c = 0;

		for (f = 0; !c && f < 3; f++)
			c = strcmp(want[f], *(const char *const *)(r + at[f]));
		if (!c)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

long
prof_runview_brief(const struct prof_runview *v, const char *w, const char *b,
		   const char *seg)
{
	static const size_t at[3] = {
	    offsetof(struct prof_runbrief, workload),
	    offsetof(struct prof_runbrief, backend),
	    offsetof(struct prof_runbrief, segment),
	};

	return find_sorted(v->briefs, v->n_briefs, sizeof(*v->briefs), at, w, b,
			   seg);
}

const char *
prof_runview_path(const struct prof_runview *v)
{
	return v->path ? v->path : "";
}

static int
load(struct prof_runview *v, const char *path, int again, int brief,
     prof_runview_keep_fn keep, void *keep_arg, prof_runview_fn fn,
     void *arg, struct prof_err *err)
{
	struct brief_walk bw = {0};
	struct walk w = {.v = v, .fn = fn, .arg = arg, .keep = keep,
			 .keep_arg = keep_arg, .brief = brief ? &bw : NULL};
	char hex[PROF_SUM_HEX];
	int summing = 0;

	memset(v, 0, sizeof(*v));
	v->path = strdup(path);
	v->st = prof_stream_new();
	if (brief)
		v->pool = calloc(1, sizeof(*v->pool));
	if (!v->path || !v->st || (brief && !v->pool))
		return prof_err_at(err, path, 0, 0, "out of memory");
	if (again && !strcmp(path, "-") && spool_stdin(v, err) < 0)
		return -1;
	if (prof_sum_init(&w.sum) < 0)
		return prof_err_at(err, path, 0, 0, "out of memory");
	summing = 1;
	if (prof_stream_results(v->st, source(v), on_sample, &w, err) < 0) {
		name_stdin(v, err);
		prof_err_file(err, path);
		goto fail;
	}
	v->meta = json_object_get(prof_stream_meta(v->st));
	v->schema_version = prof_stream_version(v->st);
	if (finish_rows(v) < 0 || (brief && finish_briefs(v, &bw) < 0) ||
	    sum_top(v, &w.sum) < 0) {
		prof_err_at(err, path, 0, 0, "out of memory");
		goto fail;
	}
	brief_walk_free(&bw);
	/* The pool's index is done with; its strings stay. */
	if (v->pool)
		prof_pool_seal(v->pool);
	prof_sum_final(&w.sum, hex);
	snprintf(v->digest, sizeof(v->digest), "v2:%s", hex);
	summing = 0;
	if (kept_digest(v, err) < 0) {
		prof_err_file(err, path);
		goto fail;
	}
	return 0;
fail:
	brief_walk_free(&bw);
	if (summing)
		prof_sum_final(&w.sum, hex);
	return -1;
}

struct again {
	prof_runview_fn fn;
	void *arg;
};

static int
on_again(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct again *a = arg;

	(void)index;
	return a->fn(a->arg, s, err);
}

int
prof_runview_each(struct prof_runview *v, prof_runview_fn fn, void *arg,
		  struct prof_err *err)
{
	struct again a = {fn, arg};

	if (!strcmp(v->path, "-") && !v->spool)
		return prof_err_at(err, "-", 0, 0,
				   "stdin cannot be read twice");
	if (prof_stream_results(v->st, source(v), on_again, &a, err) < 0) {
		name_stdin(v, err);
		prof_err_file(err, v->path);
		return -1;
	}
	return 0;
}

void
prof_runview_free(struct prof_runview *v)
{
	size_t k, j;
	int m;

	for (k = 0; k < v->n_rows; k++) {
		struct prof_runrow *r = &v->rows[k];

		free((char *)r->workload);
		free((char *)r->backend);
		free((char *)r->category);
		free((char *)r->fixture);
		free(r->v);
		prof_cpu_row_free(&r->cpu);
		free(r->counts);
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			free(r->mem[m]);
		for (j = 0; j < r->n_artifacts; j++)
			free(r->artifacts[j]);
		free(r->artifacts);
		if (v->acc) {
			free(v->acc[k].counts);
			free(v->acc[k].segment_id);
		}
	}
	free(v->rows);
	free(v->acc);
	free(v->briefs);
	if (v->pool)
		prof_pool_free(v->pool);
	free(v->pool);
	prof_htab_free(&v->index);
	json_object_put(v->meta);
	prof_stream_free(v->st);
	if (v->spool)
		prof_afile_remove(v->spool);
	free(v->spool);
	free(v->path);
	memset(v, 0, sizeof(*v));
}

long
prof_runview_row(const struct prof_runview *v, const char *w, const char *b,
		 const char *seg)
{
	static const size_t at[3] = {
	    offsetof(struct prof_runrow, workload),
	    offsetof(struct prof_runrow, backend),
	    offsetof(struct prof_runrow, segment),
	};

	return find_sorted(v->rows, v->n_rows, sizeof(*v->rows), at, w, b, seg);
}

/* A row's verdict slots: time, counts, each memory metric. */
#define SLOTS (1 + PROF_CMP_MEM_N)

int
prof_runview_verdicts(const struct prof_runview *v,
		      struct json_object *comparisons,
		      struct prof_runverdict *out, struct prof_err *err)
{
	size_t i, n;
	long *seen = NULL, k;
	char path[64];
	int rc = -1;

	if (prof_cmp_check(comparisons, err) < 0 ||
	    prof_cmp_check_run(comparisons, prof_runview_str(v, "run_id"),
			       err) < 0)
		return -1;
	/* Which comparison took each row's time, count and memory verdicts
	 * (slot 0, 1 and 1 + metric). */
	seen = malloc(SLOTS * (v->n_rows ? v->n_rows : 1) * sizeof(*seen));
	if (!seen)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < SLOTS * v->n_rows; i++)
		seen[i] = -1;
	memset(out, 0, v->n_rows * sizeof(*out));
	n = json_object_array_length(comparisons);
	for (i = 0; i < n; i++) {
		struct prof_verdict vd;
		const char *w, *b;
		int count;
		enum prof_cmp_mem m;
		long *slot;

		prof_verdict_read(json_object_array_get_idx(comparisons, i),
				  &vd);
		w = vd.workload;
		b = vd.backend;
		count = vd.phase == PROF_VERDICT_COUNT;
		m = vd.metric;
		snprintf(path, sizeof(path), "[%zu]", i);
		if (vd.phase == PROF_VERDICT_MEMORY) {
			if (!m) {
				snprintf(path, sizeof(path), "[%zu].metric", i);
				prof_err_path(err, path,
					      "not a memory metric of prof-diff "
					      "(host_peak_bytes, host_allocs, "
					      "host_allocated_bytes, "
					      "rss_peak_bytes)");
				goto out;
			}
		}
		k = prof_runview_row(v, w, b, vd.segment);
		if (k < 0) {
			prof_err_path(err, path,
				      "no such row in the results (%.80s, "
				      "%.40s)",
				      w, b);
			goto out;
		}
		slot = &seen[SLOTS * k + (m ? 1 + (int)m : count)];
		if (*slot >= 0) {
			prof_err_path(err, path,
				      "the same row as [%ld] (%.80s, %.40s)",
				      *slot, w, b);
			goto out;
		}
		*slot = (long)i;
		if (m) {
			out[k].mem_status[m] = vd.status_name;
			out[k].mem_reason[m] = vd.reason;
		} else if (count) {
			out[k].count_status = vd.status_name;
			out[k].count_reason = vd.reason;
		} else {
			out[k].status = vd.status_name;
			out[k].reason = vd.reason;
			out[k].threshold_pct = vd.threshold_pct;
		}
	}
	rc = 0;
out:
	free(seen);
	return rc;
}

/* Whether a row's verdicts were filled already. */
static int
seen_row(const struct prof_runverdict *vd)
{
	int m;

	if (vd->status || vd->reason)
		return 1;
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (vd->mem_status[m] || vd->mem_reason[m])
			return 1;
	return 0;
}

/* A kept verdict's status (NULL, or absent: none): 0 with *out, or -1
 * with err at path.KEY. */
static int
kept_status(struct json_object *o, const char *path, const char *key,
	    int is_reason, const char **out, struct prof_err *err)
{
	struct json_object *v = NULL;
	char at[128];

	*out = NULL;
	snprintf(at, sizeof(at), "%s.%s", path, key);
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return prof_err_path(err, at, "expected a string or null, got %s",
				     prof_json_type_name(v));
	*out = json_object_get_string(v);
	if (is_reason || prof_cmp_status_known(*out))
		return 0;
	return prof_err_path(err, at,
			     "expected one of new, incomparable, stable, "
			     "warning, improved, unsettled, unjudged");
}

int
prof_runview_kept_verdicts(const struct prof_runview *v,
			   struct prof_runverdict *out, struct prof_err *err)
{
	struct json_object *h = NULL, *rows = NULL;
	size_t i, n, k;
	char path[64], key[64];
	int m;

	if (!json_object_object_get_ex(v->meta, "history", &h) ||
	    !json_object_object_get_ex(h, "rows", &rows))
		return 0;
	if (!json_object_is_type(rows, json_type_array))
		return prof_err_path(err, ".history.rows",
				     "expected an array, got %s",
				     prof_json_type_name(rows));
	memset(out, 0, v->n_rows * sizeof(*out));
	n = json_object_array_length(rows);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(rows, i);
		const char *w = prof_json_str(o, "workload");
		const char *b = prof_json_str(o, "backend");
		const char *sid = prof_json_str(o, "segment_id");
		struct prof_runverdict vd = {0};

		snprintf(path, sizeof(path), ".history.rows[%zu]", i);
		if (!w || !b || !sid)
			return prof_err_path(err, path,
					     "expected an object with "
					     "workload, backend and segment_id "
					     "strings");
		if (kept_status(o, path, "status", 0, &vd.status, err) < 0 ||
		    kept_status(o, path, "reason", 1, &vd.reason, err) < 0)
			return -1;
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			snprintf(key, sizeof(key), "%s_status",
				 prof_cmp_metrics[m].key);
			if (kept_status(o, path, key, 0, &vd.mem_status[m],
					err) < 0)
				return -1;
			snprintf(key, sizeof(key), "%s_reason",
				 prof_cmp_metrics[m].key);
			if (kept_status(o, path, key, 1, &vd.mem_reason[m],
					err) < 0)
				return -1;
		}
		for (k = 0; k < v->n_rows; k++)
			if (!strcmp(v->rows[k].workload, w) &&
			    !strcmp(v->rows[k].backend, b) &&
			    !strcmp(v->rows[k].segment_id, sid))
				break;
		if (k == v->n_rows)
			return prof_err_path(err, path,
					     "no such row in the results "
					     "(%.80s, %.40s)",
					     w, b);
		if (seen_row(&out[k]))
			return prof_err_path(err, path,
					     "a second verdict of the row "
					     "(%.80s, %.40s)",
					     w, b);
		out[k] = vd;
	}
	return 1;
}

void
prof_runrow_span(const struct prof_runrow *rows, size_t n, size_t i,
		 size_t *from, size_t *to)
{
	const struct prof_runrow *r = &rows[i];

	*from = i;
	*to = i + 1;
	while (*from > 0 && !strcmp(rows[*from - 1].workload, r->workload) &&
	       !strcmp(rows[*from - 1].backend, r->backend))
		(*from)--;
	while (*to < n && !strcmp(rows[*to].workload, r->workload) &&
	       !strcmp(rows[*to].backend, r->backend))
		(*to)++;
}

long
prof_runview_count_row(const struct prof_runview *v, size_t i)
{
	const struct prof_runrow *r = i < v->n_rows ? &v->rows[i] : NULL;
	size_t from, to, k;

	if (!r)
		return -1;
	if (r->instructions >= 0)
		return (long)i;
	prof_runrow_span(v->rows, v->n_rows, i, &from, &to);
	for (k = from; k < to; k++)
		if (k != i && v->rows[k].instructions >= 0 && !v->rows[k].n &&
		    prof_env_segment_count_pair(r->segment,
						v->rows[k].segment) == 1)
			return (long)k;
	return -1;
}
