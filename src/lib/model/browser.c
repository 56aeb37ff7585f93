/* browser.c: Playwright rows, in the new and the seed's older form, turned
 * into schema-1 browser samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/env.h"
#include "base/grow.h"
#include "base/json.h"
#include "model/browser.h"
#include "model/sample.h"

/* Per-workload counters for rows that carry no index. */
struct counter {
	char workload[256];
	long next;
};

struct counters {
	struct counter *c;
	size_t n;
};

static long
next_index(struct counters *cs, const char *workload)
{
	size_t i;
	struct counter *c;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].workload, workload))
			return cs->c[i].next++;
	if (PROF_RESIZE(cs->c, cs->n + 1) < 0)
		return 0;
	c = cs->c;
	snprintf(c[cs->n].workload, sizeof(c[cs->n].workload), "%s", workload);
	c[cs->n].next = 1;
	cs->n++;
	return 0;
}

static int
scalar(struct json_object *v)
{
	return prof_json_is_number(v) || json_object_is_type(v, json_type_string) ||
	       json_object_is_type(v, json_type_boolean);
}

static const char *
opt_str(struct json_object *o, const char *key, const char *dflt)
{
	const char *s = prof_json_str(o, key);

	return s && s[0] ? s : dflt;
}

/* A field that must be a string when present. */
static int
check_str(struct json_object *row, const char *key, struct prof_err *err)
{
	struct json_object *v;
	char path[64];

	if (!json_object_object_get_ex(row, key, &v) || !v ||
	    json_object_is_type(v, json_type_string))
		return 0;
	snprintf(path, sizeof(path), ".%s", key);
	return prof_err_path(err, path, "expected a string, got %s",
			     prof_json_type_name(v));
}

/* The workload of a row (browser.STORY for the older form) into workload,
 * and a new row's string fields and outcome checked; -1 with err. */
static int
row_workload(struct json_object *row, int old, char *workload, size_t size,
	     const char **outcome, struct prof_err *err)
{
	const char *w;

	if (old) {
		w = prof_json_str(row, "story");
		if (!w || !w[0])
			return prof_err_path(err, ".story",
					     "expected a non-empty string");
		snprintf(workload, size, "browser.%s", w);
		return 0;
	}
	w = prof_json_str(row, "workload");
	if (!json_object_object_get_ex(row, "workload", NULL))
		return prof_err_path(err, ".workload",
				     "missing (a row needs workload, or the "
				     "older story)");
	if (!w || !w[0])
		return prof_err_path(err, ".workload",
				     "expected a non-empty string");
	snprintf(workload, size, "%s", w);
	if (check_str(row, "fixture", err) || check_str(row, "backend", err) ||
	    check_str(row, "reason", err) ||
	    check_str(row, "fixture_checksum", err) ||
	    check_str(row, "kind", err))
		return -1;
	*outcome = opt_str(row, "outcome", "success");
	if (strcmp(*outcome, "success") && strcmp(*outcome, "error"))
		return prof_err_path(err, ".outcome",
				     "expected success or error");
	return 0;
}

/* The row's duration_ms into *duration: a number >= 0, or null (left at
 * -1) in a row whose outcome is error; -1 with err. */
static int
row_duration(struct json_object *row, const char *outcome, double *duration,
	     struct prof_err *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(row, "duration_ms", &v))
		return prof_err_path(err, ".duration_ms", "missing");
	if (v && !prof_json_is_number(v))
		return prof_err_path(err, ".duration_ms",
				     "expected a number, got %s",
				     prof_json_type_name(v));
	if (!v && strcmp(outcome, "error"))
		return prof_err_path(err, ".duration_ms",
				     "expected a number, got null");
	if (!v)
		return 0;
	*duration = prof_json_number(v);
	if (*duration < 0)
		return prof_err_path(err, ".duration_ms",
				     "expected a number >= 0");
	/* before it is rounded to nanoseconds: 1e308 ms would be inf ns,
	 * written as null */
	if (prof_range_ms(*duration, err) < 0) {
		snprintf(err->path, sizeof(err->path), ".duration_ms");
		return -1;
	}
	return 0;
}

/* The scalar fields of from into metrics, each named at PREFIX.KEY where
 * it is not one; an older row's own story and duration_ms (skip) are
 * not metrics. -1 with err. */
static int
put_metrics(struct json_object *metrics, struct json_object *from,
	    const char *prefix, int skip, struct prof_err *err)
{
	char path[300];

	json_object_object_foreach(from, k, mv)
	{
		if (skip && (!strcmp(k, "story") || !strcmp(k, "duration_ms")))
			continue;
		if (!scalar(mv)) {
			snprintf(path, sizeof(path), "%s%s", prefix, k);
			return prof_err_path(err, path,
					     "expected a scalar metric, got %s",
					     prof_json_type_name(mv));
		}
		json_object_object_add(metrics, k, json_object_get(mv));
	}
	return 0;
}

/* The row's metrics into metrics (every other field of an older row,
 * .metrics of a new one) and its .env into *envj; -1 with err. */
static int
row_metrics(struct json_object *row, int old, struct json_object *metrics,
	    struct json_object **envj, struct prof_err *err)
{
	struct json_object *v;

	if (old) {
		if (put_metrics(metrics, row, ".", 1, err) < 0)
			return -1;
	} else if (json_object_object_get_ex(row, "metrics", &v) && v) {
		if (!json_object_is_type(v, json_type_object))
			return prof_err_path(err, ".metrics",
					     "expected an object, got %s",
					     prof_json_type_name(v));
		if (put_metrics(metrics, v, ".metrics.", 0, err) < 0)
			return -1;
	}
	if (!old && json_object_object_get_ex(row, "env", envj) && *envj &&
	    !json_object_is_type(*envj, json_type_object))
		return prof_err_path(err, ".env", "expected an object, got %s",
				     prof_json_type_name(*envj));
	return 0;
}

/* What the row's sample says of its workload (m, whose workload is the
 * caller's); -1 with err on a warning floor beyond range. */
static int
row_meta(struct json_object *row, int old, struct prof_sample_meta *m,
	 struct prof_err *err)
{
	struct json_object *v;

	m->version = 1;
	if (!old && json_object_object_get_ex(row, "workload_version", &v) &&
	    json_object_is_type(v, json_type_int))
		m->version = json_object_get_int64(v);
	m->category = "browser";
	m->fixture = old ? "playwright-existing" :
			   opt_str(row, "fixture", "playwright");
	m->fixture_checksum = old ? NULL :
				    prof_json_str(row, "fixture_checksum");
	m->warning_floor_ms = PROF_BROWSER_FLOOR_MS;
	if (!old && json_object_object_get_ex(row, "warning_floor_ms", &v) &&
	    prof_json_is_number(v) && prof_json_number(v) >= 0) {
		m->warning_floor_ms = prof_json_number(v);
		if (prof_range_ms(m->warning_floor_ms, err) < 0) {
			snprintf(err->path, sizeof(err->path),
				 ".warning_floor_ms");
			return -1;
		}
	}
	m->backend = old ? "chromium" : opt_str(row, "backend", "chromium");
	return 0;
}

/* The row's index: its own (a new row's "index" >= 0), else the next of
 * its workload; the workload's count goes on either way. */
static long
row_index(struct json_object *row, int old, struct counters *cs,
	  const char *workload)
{
	struct json_object *v;
	long index = -1;

	if (!old && json_object_object_get_ex(row, "index", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0)
		index = json_object_get_int64(v);
	if (index < 0)
		index = next_index(cs, workload);
	else
		next_index(cs, workload);
	return index;
}

/* The sample of one row; NULL with err (path and reason) on a bad row. */
static struct json_object *
row_sample(struct json_object *row, struct counters *cs, struct prof_err *err)
{
	struct json_object *metrics, *envj = NULL, *s;
	struct prof_sample_meta m = {0};
	struct prof_env_in in = {0};
	char workload[300];
	const char *outcome = "success";
	int old = json_object_object_get_ex(row, "story", NULL);
	long index;
	double duration = -1;

	if (!json_object_is_type(row, json_type_object)) {
		prof_err_path(err, ".", "expected a row object, got %s",
			      prof_json_type_name(row));
		return NULL;
	}
	if (row_workload(row, old, workload, sizeof(workload), &outcome,
			 err) < 0 ||
	    row_duration(row, outcome, &duration, err) < 0)
		return NULL;
	metrics = json_object_new_object();
	m.workload = workload;
	if (row_metrics(row, old, metrics, &envj, err) < 0 ||
	    row_meta(row, old, &m, err) < 0) {
		json_object_put(metrics);
		return NULL;
	}
	in.backend_requested = m.backend;
	in.backend = m.backend;
	in.browser = envj ? prof_json_str(envj, "browser") : NULL;
	in.problem_size = envj ? opt_str(envj, "viewport", "none") : "none";
	in.dtype = "none";
	in.tile = "none";
	index = row_index(row, old, cs, workload);
	s = prof_sample_new(&m, prof_env_collect(&in), "browser",
			    old ? "warm" : opt_str(row, "kind", "warm"), index);
	if (!s) {
		json_object_put(metrics);
		prof_err_path(err, ".", "out of memory");
		return NULL;
	}
	if (!strcmp(outcome, "error")) {
		json_object_object_add(s, "metrics", metrics);
		prof_sample_fail(s, opt_str(row, "reason", "the story failed"),
				 duration);
	} else {
		prof_sample_succeed(s, duration, metrics, NULL);
	}
	return s;
}

struct rows {
	struct json_object *arr;
	struct counters cs;
};

/* A browser row: turned into a sample, checked, kept. */
static int
add_row(void *arg, struct json_object *row, struct prof_err *err)
{
	struct rows *r = arg;
	struct json_object *s = row_sample(row, &r->cs, err);

	json_object_put(row);
	if (!s)
		return -1;
	if (prof_sample_check(s, "", err) < 0) {
		json_object_put(s);
		return -1;
	}
	json_object_array_add(r->arr, s);
	return 0;
}

long
prof_browser_parse_lines(const char *buf, size_t len, const char *name,
			 struct json_object *arr, struct prof_err *err)
{
	struct rows r = {arr, {0}};
	long n = prof_json_lines(buf, len, name, add_row, &r, err);

	free(r.cs.c);
	return n;
}
