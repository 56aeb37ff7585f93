/* export.c: a history's runs as results files (export.h), the files
 * prof-history export-runs writes and import reads back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backend.h"
#include "base/json.h"
#include "base/out.h"
#include "base/prof.h"
#include "export.h"
#include "history.h"
#include "model/runview.h"
#include "model/sample.h"

/*
 * export-runs: one results file a run, DIR/RUN_ID.json, that import reads
 * back to the same history (prof-history(1), EXPORTED RUNS). A history
 * keeps each row's statistics, not its samples, so each row is written
 * as the fewest samples that give it again: n warm timing samples whose
 * min, median, p90 and max are the row's, its error samples, one count
 * sample and one memory sample where it has them (one profile sample
 * where it has nothing else), its env the fields of its segment key.
 * The run's digest and its rows' verdicts go in .history, which add and
 * import take in place of the file's own digest and of comparisons.
 */
struct exporter {
	const char *dir;
	struct json_object *doc;	/* the run being gathered, or NULL */
	struct json_object *samples;
	struct json_object *envs;	/* schema 2: id -> env */
	struct json_object *segments;	/* schema 2: id -> key */
	struct json_object *kept;	/* .history.rows */
	int schema;
	char run_id[256];
	long long runs;
};

/* The durations of n warm samples whose statistics (stats.c) are min,
 * median, p90 and max again: the sorted slots those are read from hold
 * them, and every other slot the value below it. */
static void
durations(double *s, long long n, double min, double median, double p90,
	  double max)
{
	long long lo = n % 2 ? n / 2 : n / 2 - 1, hi = n / 2;
	long long p = (9 * n + 9) / 10 - 1, i;

	if (n == 1) {
		s[0] = median;
		return;
	}
	if (n == 2) {
		s[0] = min;
		s[1] = max;
		return;
	}
	for (i = 0; i < n; i++)
		s[i] = i < lo ? min : i <= p ? median : p90;
	s[p] = p90;
	s[0] = min;
	s[n - 1] = max;
	for (i = lo; i <= hi; i++)
		s[i] = median;
}

static struct json_object *
str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* Member key of o, the string s. */
static void
put_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, json_object_new_string(s));
}

/* A sample of the row, as its schema writes it. */
static struct json_object *
row_sample(struct exporter *x, const struct prof_history_record *r,
	   const char *env_id, struct json_object *env, const char *phase,
	   long long index)
{
	struct json_object *s = json_object_new_object();

	if (x->schema == 1)
		json_object_object_add(s, "schema_version",
				       json_object_new_int(1));
	put_str(s, "workload", r->workload);
	json_object_object_add(s, "workload_version",
			       json_object_new_int64(r->workload_version));
	put_str(s, "category", r->category);
	put_str(s, "fixture", "none");
	json_object_object_add(s, "fixture_checksum", NULL);
	json_object_object_add(s, "warning_floor_ms", prof_json_double(0));
	put_str(s, "backend", r->backend);
	if (x->schema == 1) {
		json_object_object_add(s, "env", json_object_get(env));
		put_str(s, "segment", r->segment);
	} else {
		put_str(s, "env_id", env_id);
		put_str(s, "segment_id", r->segment_id);
	}
	put_str(s, "phase", phase);
	put_str(s, "kind", "warm");
	json_object_object_add(s, "index", json_object_new_int64(index));
	json_object_object_add(s, "duration_ms", prof_json_double(0));
	json_object_object_add(s, "metrics", json_object_new_object());
	json_object_object_add(s, "checksum", NULL);
	put_str(s, "outcome", "success");
	json_object_object_add(s, "reason", NULL);
	json_object_object_add(s, "artifacts", json_object_new_array());
	json_object_array_add(x->samples, s);
	return s;
}

/* The verdicts of a row (.history.rows), where it has any: the row's
 * own, and each memory metric's as its columns are named (KEY_status,
 * KEY_reason). */
static void
keep_verdicts(struct exporter *x, const struct prof_history_record *r)
{
	struct json_object *k;
	char key[64];
	int m;

	for (m = 0; m < PROF_CMP_MEM_N; m++)
		if (m ? r->mem_status[m] != NULL : r->status != NULL)
			break;
	if (m == PROF_CMP_MEM_N)
		return;
	k = json_object_new_object();
	put_str(k, "workload", r->workload);
	put_str(k, "backend", r->backend);
	put_str(k, "segment_id", r->segment_id);
	json_object_object_add(k, "status", str_or_null(r->status));
	json_object_object_add(k, "reason", str_or_null(r->reason));
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!r->mem_status[m])
			continue;
		snprintf(key, sizeof(key), "%s_status",
			 prof_cmp_metrics[m].key);
		json_object_object_add(k, key, str_or_null(r->mem_status[m]));
		snprintf(key, sizeof(key), "%s_reason",
			 prof_cmp_metrics[m].key);
		json_object_object_add(k, key, str_or_null(r->mem_reason[m]));
	}
	json_object_array_add(x->kept, k);
}

/* The samples of one row. */
static int
export_row(struct exporter *x, const struct prof_history_record *r,
	   struct prof_err *err)
{
	struct json_object *env, *s, *mem;
	char env_id[PROF_ID_SIZE];
	double *d = NULL;
	long long i, index = 0;
	int m;

	env = json_tokener_parse(r->segment);
	if (!json_object_is_type(env, json_type_object)) {
		json_object_put(env);
		return prof_err_set(err,
				    "run '%s': the row of '%s' (%s) has no "
				    "segment key to write its env from",
				    r->run_id, r->workload, r->backend);
	}
	if (prof_sample_json_id(env, env_id) < 0)
		goto oom;
	if (x->schema == 2) {
		json_object_object_add(x->envs, env_id, json_object_get(env));
		put_str(x->segments, r->segment_id, r->segment);
	}
	if (r->n > 0) {
		d = malloc((size_t)r->n * sizeof(*d));
		if (!d)
			goto oom;
		durations(d, r->n, r->min, r->median, r->p90, r->max);
		for (i = 0; i < r->n; i++) {
			s = row_sample(x, r, env_id, env, "timing", index++);
			json_object_object_add(s, "duration_ms",
					       prof_json_double(d[i]));
		}
		free(d);
	}
	for (i = 0; i < r->errors; i++) {
		s = row_sample(x, r, env_id, env, "timing", index++);
		json_object_object_add(s, "duration_ms", NULL);
		put_str(s, "outcome", "error");
		put_str(s, "reason",
			"an error sample (the history keeps no reason)");
	}
	if (r->instructions >= 0) {
		s = row_sample(x, r, env_id, env, "instructions", index++);
		json_object_object_add(s, "instructions",
				       json_object_new_int64(r->instructions));
	}
	/* One memory sample: each metric's median (history/backend.h) is its
	 * value, and so is the device's peak. */
	mem = NULL;
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!isfinite(r->mem[m]))
			continue;
		if (!mem) {
			s = row_sample(x, r, env_id, env, "memory", index++);
			mem = json_object_new_object();
			json_object_object_add(s, "memory", mem);
		}
		json_object_object_add(mem, prof_cmp_metrics[m].key,
				       prof_json_double(r->mem[m]));
	}
	if (!index)
		row_sample(x, r, env_id, env, "profile", index++);
	keep_verdicts(x, r);
	json_object_put(env);
	return 0;
oom:
	json_object_put(env);
	return prof_err_set(err, "out of memory");
}

/* The run gathered so far, written to DIR/RUN_ID.json. */
static int
export_flush(struct exporter *x, struct prof_err *err)
{
	char path[4096];
	int rc;

	if (!x->doc)
		return 0;
	if (x->schema == 2) {
		json_object_object_add(x->doc, "envs", x->envs);
		json_object_object_add(x->doc, "segments", x->segments);
	} else {
		json_object_put(x->envs);
		json_object_put(x->segments);
	}
	json_object_object_add(x->doc, "samples", x->samples);
	x->envs = x->segments = x->samples = NULL;
	snprintf(path, sizeof(path), "%s/%s.json", x->dir, x->run_id);
	/* path is a file in dir, never "-": no stream */
	rc = prof_out_json_to(path, NULL, x->doc, err);
	json_object_put(x->doc);
	x->doc = NULL;
	if (rc == 0)
		x->runs++;
	return rc;
}

static int
export_record(void *arg, const struct prof_history_record *r,
	      struct prof_err *err)
{
	struct exporter *x = arg;
	struct json_object *h;

	if (!x->doc || strcmp(x->run_id, r->run_id)) {
		if (export_flush(x, err) < 0)
			return -1;
		snprintf(x->run_id, sizeof(x->run_id), "%s", r->run_id);
		x->schema = r->results_schema == 1 ? 1 : 2;
		x->doc = json_object_new_object();
		x->samples = json_object_new_array();
		x->envs = json_object_new_object();
		x->segments = json_object_new_object();
		x->kept = json_object_new_array();
		h = json_object_new_object();
		if (!x->doc || !x->samples || !x->envs || !x->segments ||
		    !x->kept || !h)
			return prof_err_set(err, "out of memory");
		put_str(x->doc, "schema", PROF_SCHEMA);
		json_object_object_add(x->doc, "schema_version",
				       json_object_new_int(x->schema));
		put_str(x->doc, "run_id", r->run_id);
		put_str(x->doc, "timestamp_utc", r->timestamp_utc);
		put_str(x->doc, "command", r->command);
		put_str(x->doc, "commit", r->commit);
		if (r->commit_time)
			put_str(x->doc, "commit_time", r->commit_time);
		if (r->parents) {
			struct json_object *a = json_object_new_array();
			const char *p = r->parents;

			while (a && *p) {
				size_t n = strcspn(p, " ");

				if (n)
					json_object_array_add(
						a, json_object_new_string_len(
							   p, (int)n));
				p += n + (p[n] == ' ');
			}
			if (!a)
				return prof_err_set(err, "out of memory");
			json_object_object_add(x->doc, "parents", a);
		}
		put_str(h, "digest", r->digest);
		json_object_object_add(h, "rows", x->kept);
		json_object_object_add(x->doc, "history", h);
	}
	return r->workload ? export_row(x, r, err) : 0;
}

int
prof_history_export_runs(struct prof_history *h, const char *dir,
			 long long *runs, struct prof_err *err)
{
	struct exporter x = {.dir = dir};
	int rc = 0;

	if (prof_history_export(h, export_record, &x, err) < 0 ||
	    export_flush(&x, err) < 0)
		rc = -1;
	json_object_put(x.doc);
	json_object_put(x.samples);
	json_object_put(x.envs);
	json_object_put(x.segments);
	*runs = x.runs;
	return rc;
}
