/* gbench.c: Google Benchmark JSON (--benchmark_out) turned into schema-1
 * timing samples, one per repetition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "contend.h"
#include "env.h"
#include "gbench.h"
#include "id.h"
#include "json.h"
#include "range.h"
#include "sample.h"

int
prof_gbench_id(const char *name, char *id, size_t n, char *why, size_t why_n)
{
	static const char prefix[] = "gbench.";
	size_t len = name ? strlen(name) : 0, i, off = 0;
	int lead;

	if (!len) {
		if (why)
			snprintf(why, why_n, "an empty benchmark name");
		return -1;
	}
	lead = (name[0] >= 'a' && name[0] <= 'z') ||
	       (name[0] >= 'A' && name[0] <= 'Z') ||
	       (name[0] >= '0' && name[0] <= '9');
	if ((lead ? 0 : sizeof(prefix) - 1) + len > PROF_ID_MAX ||
	    n <= PROF_ID_MAX) {
		if (why)
			snprintf(why, why_n,
				 "its id would be longer than %d bytes",
				 PROF_ID_MAX);
		return -1;
	}
	if (!lead) {
		memcpy(id, prefix, sizeof(prefix) - 1);
		off = sizeof(prefix) - 1;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			   c == '-';

		id[off++] = keep ? (char)c : c == '/' ? '.' : c == ':' ? '-' :
							       '_';
	}
	id[off] = '\0';
	return 0;
}

/* ms per unit of a time_unit; 0 when it is none of Google Benchmark's. */
static double
unit_ms(const char *unit)
{
	if (!unit)
		return 0;
	if (!strcmp(unit, "ns"))
		return 1e-6;
	if (!strcmp(unit, "us"))
		return 1e-3;
	if (!strcmp(unit, "ms"))
		return 1;
	if (!strcmp(unit, "s"))
		return 1e3;
	return 0;
}

/* The fields of an entry that are Google Benchmark's own; every other
 * number is a user counter. */
static int
own_field(const char *k)
{
	static const char *const own[] = {
		"name", "family_index", "per_family_instance_index",
		"run_name", "run_type", "repetitions", "repetition_index",
		"threads", "iterations", "real_time", "cpu_time", "time_unit",
		"error_occurred", "error_message", "aggregate_name",
		"aggregate_unit", "label", NULL,
	};
	size_t i;

	for (i = 0; own[i]; i++)
		if (!strcmp(k, own[i]))
			return 1;
	return 0;
}

/* A context member into env as gbench_KEY (null when absent). */
static void
put_ctx(struct json_object *env, struct json_object *ctx, const char *key)
{
	struct json_object *v = NULL;
	char name[64];

	snprintf(name, sizeof(name), "gbench_%s", key);
	json_object_object_get_ex(ctx, key, &v);
	json_object_object_add(env, name, json_object_get(v));
}

/*
 * The environment of the file's samples: this machine's facts when it was
 * written here (its host_name is ours), else those facts null; and the
 * context's own. NULL with err on a bad context.
 */
static struct json_object *
context_env(struct json_object *doc, int *foreign, struct prof_err *err)
{
	static const char *const host_facts[] = {
		"os", "distro", "distro_version", "distro_name", "kernel",
		"machine", "cpu_model", "cpu_count", "cpu_governor", "libc",
		NULL,
	};
	struct prof_env_in in = {
		.backend_requested = "cpu",
		.backend = "cpu",
		.dtype = "none",
		.problem_size = "none",
		.tile = "none",
	};
	struct json_object *ctx = NULL, *env, *v = NULL;
	const char *host, *type;
	char here[256] = "";
	size_t i;

	if (!json_object_object_get_ex(doc, "context", &ctx) ||
	    !json_object_is_type(ctx, json_type_object)) {
		prof_err_path(err, ".context",
			      "expected the context object of Google "
			      "Benchmark's JSON output, got %s",
			      prof_json_type_name(ctx));
		return NULL;
	}
	host = prof_json_str(ctx, "host_name");
	type = prof_json_str(ctx, "library_build_type");
	if (json_object_object_get_ex(ctx, "library_build_type", &v) && v &&
	    !type) {
		prof_err_path(err, ".context.library_build_type",
			      "expected a string, got %s",
			      prof_json_type_name(v));
		return NULL;
	}
	if (json_object_object_get_ex(ctx, "num_cpus", &v) && v &&
	    (!json_object_is_type(v, json_type_int) ||
	     prof_range_double(prof_json_number(v), 1, 1e6, "num_cpus", "",
			       err) < 0)) {
		if (!json_object_is_type(v, json_type_int))
			prof_err_set(err, "expected an integer, got %s",
				     prof_json_type_name(v));
		snprintf(err->path, sizeof(err->path), ".context.num_cpus");
		return NULL;
	}
	env = prof_env_collect(&in);
	if (!env) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	gethostname(here, sizeof(here) - 1);
	*foreign = !host || strcmp(host, here);
	for (i = 0; *foreign && host_facts[i]; i++)
		json_object_object_add(env, host_facts[i], NULL);
	if (v && json_object_is_type(v, json_type_int))
		json_object_object_add(env, "cpu_count", json_object_get(v));
	json_object_object_add(env, "gbench_build_type",
			       type ? json_object_new_string(type) : NULL);
	put_ctx(env, ctx, "library_version");
	put_ctx(env, ctx, "num_cpus");
	put_ctx(env, ctx, "mhz_per_cpu");
	put_ctx(env, ctx, "cpu_scaling_enabled");
	if (json_object_object_get_ex(ctx, "aslr_enabled", NULL))
		put_ctx(env, ctx, "aslr_enabled");
	put_ctx(env, ctx, "host_name");
	put_ctx(env, ctx, "executable");
	return env;
}

/* A number of an entry at .benchmarks[i].key: a time converted to ms by
 * factor (> 0) and range-checked as one, or (factor 0) a number in [min,
 * max]; -1 with err's path when it is not. */
static int
entry_num(struct json_object *b, const char *at, const char *key, int integer,
	  double factor, double min, double max, double *out,
	  struct prof_err *err)
{
	struct json_object *v = NULL;
	char path[300];

	snprintf(path, sizeof(path), "%s.%s", at, key);
	if (!json_object_object_get_ex(b, key, &v) ||
	    !(integer ? json_object_is_type(v, json_type_int) :
			prof_json_is_number(v)))
		return prof_err_path(err, path, "expected %s, got %s",
				     integer ? "an integer" : "a number",
				     v ? prof_json_type_name(v) : "nothing");
	*out = prof_json_number(v) * (factor > 0 ? factor : 1);
	/* A time under prof's resolution (a benchmark of a fraction of a
	 * nanosecond an iteration) is rounded to it, not refused. */
	if (factor > 0 && *out > 0 && *out < PROF_MS_MIN)
		*out = *out >= PROF_MS_MIN / 2 ? PROF_MS_MIN : 0;
	if (factor > 0 ? prof_range_ms(*out, err) < 0 :
			  prof_range_double(*out, min, max, key, "", err) < 0) {
		snprintf(err->path, sizeof(err->path), "%.200s", path);
		return -1;
	}
	return 0;
}

/* The one sample of repetition entry b (at is its path). */
static struct json_object *
entry_sample(struct json_object *b, const char *at, const char *name,
	     const char *id, long long index, struct json_object *env,
	     long cpus, struct prof_err *err)
{
	struct prof_sample_meta m = {
		.workload = id,
		.version = 1,
		.category = "gbench",
		.fixture = name,
		.backend = "cpu",
	};
	struct json_object *s, *metrics = NULL, *v = NULL;
	double f, real, cpu, iters, threads = 1;
	char path[300];
	int failed;

	snprintf(path, sizeof(path), "%s.time_unit", at);
	f = unit_ms(prof_json_str(b, "time_unit"));
	if (!f) {
		prof_err_path(err, path, "expected ns, us, ms or s");
		return NULL;
	}
	failed = json_object_object_get_ex(b, "error_occurred", &v) &&
		 json_object_get_boolean(v);
	if (entry_num(b, at, "iterations", 1, 0, failed ? 0 : 1, 9e18, &iters,
		      err) < 0 ||
	    entry_num(b, at, "real_time", 0, f, 0, 0, &real, err) < 0 ||
	    entry_num(b, at, "cpu_time", 0, f, 0, 0, &cpu, err) < 0 ||
	    (json_object_object_get_ex(b, "threads", NULL) &&
	     entry_num(b, at, "threads", 1, 0, 1, 1e6, &threads, err) < 0))
		return NULL;
	metrics = json_object_new_object();
	s = prof_sample_new(&m, json_object_get(env), "timing", "warm", index);
	if (!metrics || !s)
		goto oom;
	json_object_object_foreach(b, k, mv)
	{
		if (!strcmp(k, "label") &&
		    json_object_is_type(mv, json_type_string))
			json_object_object_add(metrics, k, json_object_get(mv));
		else if (!own_field(k) && prof_json_is_number(mv))
			json_object_object_add(metrics, k, json_object_get(mv));
	}
	if (failed) {
		const char *why = prof_json_str(b, "error_message");
		char reason[600];

		json_object_object_add(s, "metrics", metrics);
		snprintf(reason, sizeof(reason),
			 "the benchmark failed (SkipWithError): %.500s",
			 why && why[0] ? why : "no message");
		prof_sample_fail(s, reason, -1);
		return s;
	}
	prof_sample_succeed(s, real, metrics, NULL);
	real = prof_json_number(json_object_object_get(s, "duration_ms"));
	/* A CPU time beyond the real time on one thread is the process's
	 * (MeasureProcessCPUTime): the call used more than one core. */
	if (threads == 1 &&
	    cpu > real * PROF_CPU_TOL_RATIO + PROF_CPU_TOL_MS)
		threads = cpus > 1 ? cpus : 2;
	cpu = (double)(long long)(cpu * 1e6 + 0.5) / 1e6;
	json_object_object_add(s, "cpu_ms", prof_json_double(cpu));
	json_object_object_add(s, "threads",
			       json_object_new_int64((long long)threads));
	/* Judged on the whole loop's times (the rule's slack is for one
	 * call's start and end, which the loop has once). */
	json_object_object_add(s, "contended",
			       json_object_new_boolean(prof_sample_contended(
				       real * iters, cpu * iters, 0,
				       (long)threads)));
	json_object_object_add(s, "iterations",
			       json_object_new_int64((long long)iters));
	json_object_object_add(s, "checksum_reason",
			       json_object_new_string(PROF_GBENCH_NO_CHECKSUM));
	return s;
oom:
	json_object_put(metrics);
	json_object_put(s);
	prof_err_set(err, "out of memory");
	return NULL;
}

long
prof_gbench_samples(struct json_object *doc, struct json_object *arr,
		    struct json_object *where, int *foreign,
		    struct prof_err *err)
{
	struct json_object *list = NULL, *env = NULL, *ids, *next, *runs;
	struct json_object *v = NULL;
	long count = 0, cpus;
	size_t i, n;

	*foreign = 0;
	if (!json_object_is_type(doc, json_type_object))
		return prof_err_path(err, ".",
				     "expected Google Benchmark's JSON "
				     "output {context, benchmarks}, got %s",
				     prof_json_type_name(doc));
	if (!json_object_object_get_ex(doc, "benchmarks", &list) ||
	    !json_object_is_type(list, json_type_array))
		return prof_err_path(err, ".benchmarks",
				     "expected an array, got %s",
				     list ? prof_json_type_name(list) :
					    "nothing");
	env = context_env(doc, foreign, err);
	if (!env)
		return -1;
	cpus = (long)prof_json_numf(env, "cpu_count");
	ids = json_object_new_object();		/* id -> name */
	next = json_object_new_object();	/* id -> next index */
	runs = json_object_new_object();	/* run_name of a repetition */
	if (!ids || !next || !runs) {
		prof_err_set(err, "out of memory");
		goto fail;
	}
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(list, i);
		const char *type = prof_json_str(b, "run_type");
		const char *run = prof_json_str(b, "run_name");

		if (type && !strcmp(type, "iteration") && run)
			json_object_object_add(runs, run, NULL);
	}
	for (i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(list, i);
		struct json_object *s, *prev = NULL;
		const char *name = prof_json_str(b, "name");
		const char *type = prof_json_str(b, "run_type");
		const char *run = prof_json_str(b, "run_name");
		char at[64], path[96], id[PROF_ID_MAX + 1], why[160];
		long long index;

		snprintf(at, sizeof(at), ".benchmarks[%zu]", i);
		if (!json_object_is_type(b, json_type_object)) {
			prof_err_path(err, at, "expected an object, got %s",
				      prof_json_type_name(b));
			goto fail;
		}
		if (type && !strcmp(type, "aggregate")) {
			/* Big-O fits and the statistics of repetitions that
			 * are here are theirs; a statistic alone is not a
			 * sample. */
			if (run && json_object_object_get_ex(runs, run, NULL))
				continue;
			snprintf(path, sizeof(path), "%s.run_type", at);
			prof_err_path(err, path,
				      "'%.200s' is an aggregate (%.40s) without "
				      "its repetitions: prof needs each "
				      "repetition (run without "
				      "--benchmark_report_aggregates_only)",
				      name ? name : "?",
				      prof_json_str(b, "aggregate_name") ?
					      prof_json_str(b,
							    "aggregate_name") :
					      "?");
			goto fail;
		}
		if (type && strcmp(type, "iteration")) {
			snprintf(path, sizeof(path), "%s.run_type", at);
			prof_err_path(err, path,
				      "expected iteration or aggregate");
			goto fail;
		}
		snprintf(path, sizeof(path), "%s.name", at);
		if (!name) {
			prof_err_path(err, path, "expected a string");
			goto fail;
		}
		if (prof_gbench_id(name, id, sizeof(id), why, sizeof(why)) <
		    0) {
			prof_err_path(err, path, "'%.200s': %s", name, why);
			goto fail;
		}
		if (json_object_object_get_ex(ids, id, &prev) &&
		    strcmp(json_object_get_string(prev), name)) {
			prof_err_path(err, path,
				      "'%.200s' and '%.200s' are both workload "
				      "'%s': rename one",
				      json_object_get_string(prev), name, id);
			goto fail;
		}
		json_object_object_add(ids, id, json_object_new_string(name));
		if (json_object_object_get_ex(b, "repetition_index", &v)) {
			double k;

			if (entry_num(b, at, "repetition_index", 1, 0, 0,
				      1e12, &k, err) < 0)
				goto fail;
			index = (long long)k;
		} else {
			index = json_object_object_get_ex(next, id, &v) ?
					json_object_get_int64(v) :
					0;
		}
		json_object_object_add(next, id,
				       json_object_new_int64(index + 1));
		s = entry_sample(b, at, name, id, index, env, cpus, err);
		if (!s)
			goto fail;
		if (prof_sample_check(s, "", err) < 0) {
			json_object_put(s);
			goto fail;
		}
		json_object_array_add(arr, s);
		if (where)
			json_object_array_add(where,
					      json_object_new_int64((long long)i));
		count++;
	}
	if (!count && n == 0) {
		prof_err_path(err, ".benchmarks", "no benchmarks");
		goto fail;
	}
	json_object_put(ids);
	json_object_put(next);
	json_object_put(runs);
	json_object_put(env);
	return count;
fail:
	json_object_put(ids);
	json_object_put(next);
	json_object_put(runs);
	json_object_put(env);
	return -1;
}
