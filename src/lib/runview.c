/* runview.c: results of schema 1 or 2 read one way; their rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "prof.h"
#include "runview.h"
#include "sample.h"
#include "sum.h"

static struct json_object *
get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

int
prof_runview_take(struct prof_runview *v, struct json_object *doc,
		  struct prof_err *err)
{
	memset(v, 0, sizeof(*v));
	v->doc = doc;
	/* libprof's checker knows both schemas (and refuses other ones). */
	if (prof_results_expand(doc, err) < 0 ||
	    prof_results_check(doc, err) < 0)
		return -1;
	v->schema_version = (int)json_object_get_int64(get(doc,
							   "schema_version"));
	v->samples = get(doc, "samples");
	if (v->schema_version == 2) {
		v->envs = get(doc, "envs");
		v->segments = get(doc, "segments");
	}
	if (prof_sum_json(doc, v->digest) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
}

int
prof_runview_load(struct prof_runview *v, const char *path,
		  struct prof_err *err)
{
	struct json_object *doc;

	memset(v, 0, sizeof(*v));
	doc = prof_json_load(path, err);
	if (!doc)
		return -1;
	if (prof_runview_take(v, doc, err) < 0) {
		prof_err_file(err, path);
		return -1;
	}
	return 0;
}

void
prof_runview_free(struct prof_runview *v)
{
	json_object_put(v->doc);
	memset(v, 0, sizeof(*v));
}

size_t
prof_runview_count(const struct prof_runview *v)
{
	return v->samples ? json_object_array_length(v->samples) : 0;
}

struct json_object *
prof_runview_sample(const struct prof_runview *v, size_t i)
{
	return json_object_array_get_idx(v->samples, i);
}

const char *
prof_runview_str(const struct prof_runview *v, const char *key)
{
	const char *s = prof_json_str(v->doc, key);

	return s ? s : "";
}

const char *
prof_runview_segment(const struct prof_runview *v, struct json_object *s)
{
	const char *id, *key;

	if (v->schema_version == 1) {
		key = prof_json_str(s, "segment");
		return key ? key : "";
	}
	id = prof_json_str(s, "segment_id");
	key = id ? prof_json_str(v->segments, id) : NULL;
	return key ? key : "";
}

struct json_object *
prof_runview_env(const struct prof_runview *v, struct json_object *s)
{
	const char *id;

	if (v->schema_version == 1)
		return get(s, "env");
	id = prof_json_str(s, "env_id");
	return id ? get(v->envs, id) : NULL;
}

void
prof_runview_segment_id(const char *key, char id[17])
{
	char hex[PROF_SUM_HEX];

	if (prof_sum_buffer(key, strlen(key), hex) < 0)
		memset(hex, '0', 16);
	memcpy(id, hex, 16);
	id[16] = '\0';
}

/* Rows are found by sorting the samples' indexes by their row key. */
struct keyed {
	const char *workload, *backend, *segment;
	size_t i;
};

static int
cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->workload, b->workload);

	if (!c)
		c = strcmp(a->backend, b->backend);
	if (!c)
		c = strcmp(a->segment, b->segment);
	if (!c)
		c = a->i < b->i ? -1 : a->i > b->i;
	return c;
}

static int
cmp_ll(const void *pa, const void *pb)
{
	long long a = *(const long long *)pa, b = *(const long long *)pb;

	return a < b ? -1 : a > b;
}

static void
peak(double *into, struct json_object *mem, const char *key)
{
	struct json_object *f = get(mem, key);
	double x;

	if (!prof_json_is_number(f))
		return;
	x = prof_json_number(f);
	if (!(*into >= x))
		*into = x;
}

static int
aggregated(struct json_object *s)
{
	return (prof_sample_is(s, "phase", "timing") ||
		prof_sample_is(s, "phase", "browser")) &&
	       prof_sample_is(s, "kind", "warm") &&
	       prof_sample_is(s, "outcome", "success") &&
	       prof_json_is_number(get(s, "duration_ms"));
}

/* Fill one row from the sorted samples k[0..m). */
static int
fill_row(const struct prof_runview *v, struct prof_runrow *r,
	 const struct keyed *k, size_t m, long long *counts)
{
	size_t j, nc = 0;

	memset(r, 0, sizeof(*r));
	r->workload = k[0].workload;
	r->backend = k[0].backend;
	r->segment = k[0].segment;
	r->first = k[0].i;
	r->instructions = -1;
	r->host_peak_bytes = r->rss_peak_bytes = r->device_peak_bytes = NAN;
	prof_runview_segment_id(r->segment, r->segment_id);
	r->v = malloc((m ? m : 1) * sizeof(*r->v));
	if (!r->v)
		return -1;
	for (j = 0; j < m; j++) {
		struct json_object *s = prof_runview_sample(v, k[j].i);
		struct json_object *ins = get(s, "instructions");

		if (!r->category)
			r->category = prof_json_str(s, "category");
		if (!r->version)
			r->version = json_object_get_int64(
				get(s, "workload_version"));
		if (prof_sample_is(s, "outcome", "error"))
			r->errors++;
		if (aggregated(s))
			r->v[r->n++] = prof_json_number(get(s, "duration_ms"));
		else if (prof_sample_is(s, "phase", "instructions") &&
			 prof_sample_is(s, "outcome", "success") &&
			 json_object_is_type(ins, json_type_int))
			counts[nc++] = json_object_get_int64(ins);
		else if (prof_sample_is(s, "phase", "memory") &&
			 prof_sample_is(s, "outcome", "success")) {
			struct json_object *mem = get(s, "memory");

			peak(&r->host_peak_bytes, mem, "host_peak_bytes");
			peak(&r->rss_peak_bytes, mem, "rss_peak_bytes");
			peak(&r->device_peak_bytes, mem,
			     "device_peak_allocated_bytes");
		}
	}
	if (!r->category)
		r->category = "";
	if (nc) {
		qsort(counts, nc, sizeof(*counts), cmp_ll);
		r->instructions = counts[(nc - 1) / 2];
	}
	return prof_stats_compute(r->v, r->n, &r->st);
}

long
prof_runview_rows(const struct prof_runview *v, struct prof_runrow **rows,
		  struct prof_err *err)
{
	size_t n = prof_runview_count(v), i, start, nrows = 0;
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	long long *counts = malloc((n ? n : 1) * sizeof(*counts));
	struct prof_runrow *out = NULL;

	*rows = NULL;
	if (!k || !counts)
		goto oom;
	for (i = 0; i < n; i++) {
		struct json_object *s = prof_runview_sample(v, i);
		const char *w = prof_json_str(s, "workload");
		const char *b = prof_json_str(s, "backend");

		k[i].workload = w ? w : "";
		k[i].backend = b ? b : "";
		k[i].segment = prof_runview_segment(v, s);
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	out = calloc(n ? n : 1, sizeof(*out));
	if (!out)
		goto oom;
	for (start = 0; start < n; start = i) {
		for (i = start + 1; i < n; i++)
			if (strcmp(k[i].workload, k[start].workload) ||
			    strcmp(k[i].backend, k[start].backend) ||
			    strcmp(k[i].segment, k[start].segment))
				break;
		if (fill_row(v, &out[nrows++], k + start, i - start, counts) <
		    0)
			goto oom;
	}
	free(k);
	free(counts);
	*rows = out;
	return (long)nrows;
oom:
	prof_runview_rows_free(out, nrows);
	free(k);
	free(counts);
	prof_err_set(err, "out of memory");
	return -1;
}

void
prof_runview_rows_free(struct prof_runrow *rows, size_t n)
{
	size_t i;

	for (i = 0; rows && i < n; i++)
		free(rows[i].v);
	free(rows);
}
