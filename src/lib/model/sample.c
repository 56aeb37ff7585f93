/* sample.c: building, checking, reading and writing samples and results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/env.h"
#include "base/id.h"
#include "base/json.h"
#include "base/prof.h"
#include "base/utf8.h"
#include "model/contend.h"
#include "model/sample.h"

#include <openssl/evp.h>

struct json_object *
prof_sample_new(const struct prof_sample_meta *m, struct json_object *env,
		const char *phase, const char *kind, long long index)
{
	struct json_object *s = json_object_new_object();
	char *segment;

	if (!s) {
		json_object_put(env);
		return NULL;
	}
	segment = prof_env_segment(env);
	json_object_object_add(s, "schema_version",
			       json_object_new_int(PROF_SCHEMA_V1));
	json_object_object_add(s, "workload",
			       json_object_new_string(m->workload));
	json_object_object_add(s, "workload_version",
			       json_object_new_int64(m->version));
	json_object_object_add(s, "category",
			       json_object_new_string(m->category ? m->category : "uncategorized"));
	json_object_object_add(s, "fixture",
			       json_object_new_string(m->fixture ? m->fixture : "none"));
	json_object_object_add(s, "fixture_checksum",
			       m->fixture_checksum ?
				       json_object_new_string(m->fixture_checksum) :
				       NULL);
	json_object_object_add(s, "warning_floor_ms",
			       prof_json_double(m->warning_floor_ms));
	json_object_object_add(s, "backend",
			       json_object_new_string(m->backend ? m->backend : "cpu"));
	json_object_object_add(s, "env", env);
	json_object_object_add(s, "segment",
			       json_object_new_string(segment ? segment : "{}"));
	json_object_object_add(s, "phase", json_object_new_string(phase));
	json_object_object_add(s, "kind", json_object_new_string(kind));
	json_object_object_add(s, "index", json_object_new_int64(index));
	json_object_object_add(s, "duration_ms", NULL);
	json_object_object_add(s, "metrics", json_object_new_object());
	json_object_object_add(s, "checksum", NULL);
	json_object_object_add(s, "outcome", json_object_new_string("success"));
	json_object_object_add(s, "reason", NULL);
	json_object_object_add(s, "artifacts", json_object_new_array());
	free(segment);
	return s;
}

void
prof_sample_succeed(struct json_object *s, double duration_ms,
		    struct json_object *metrics, const char *checksum)
{
	/* Nanoseconds are the clock's resolution; more digits are noise. */
	duration_ms = round(duration_ms * 1e6) / 1e6;
	json_object_object_add(s, "duration_ms", prof_json_double(duration_ms));
	if (metrics)
		json_object_object_add(s, "metrics", metrics);
	json_object_object_add(s, "checksum",
			       checksum ? json_object_new_string(checksum) : NULL);
	json_object_object_add(s, "outcome", json_object_new_string("success"));
	json_object_object_add(s, "reason", NULL);
}

void
prof_sample_fail(struct json_object *s, const char *reason, double duration_ms)
{
	json_object_object_add(s, "duration_ms",
			       duration_ms >= 0 ?
				       prof_json_double(round(duration_ms * 1e6) / 1e6) :
				       NULL);
	json_object_object_add(s, "outcome", json_object_new_string("error"));
	char *line;

	/* A reason is text from outside (a command's stderr, a story's
	 * message) that progress lines, summaries and CI logs print. */
	if (!reason || !reason[0])
		reason = "unknown error";
	line = prof_utf8_line(reason, PROF_REASON_MAX);
	json_object_object_add(s, "reason",
			       line ? json_object_new_string(line) : NULL);
	free(line);
}

/* Schema checking: each helper fills err with prefix.key and returns -1. */
struct ctx {
	const char *prefix;
	struct prof_err *err;
	int lax;	/* schema 2: a null or empty field may be left out */
	int own;	/* a grouped sample's own fields, before the join */
};

static int
fail(struct ctx *c, const char *key, const char *fmt, const char *what)
{
	char path[256];

	snprintf(path, sizeof(path), "%s.%s", c->prefix, key);
	return prof_err_path(c->err, path, fmt, what);
}

/* The fields a schema-2 sample may leave out when null or empty. */
static int
lax_key(const char *key)
{
	static const char *const keys[] = {"fixture_checksum", "checksum",
					   "reason", "metrics", "artifacts",
					   NULL};
	size_t i;

	for (i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static struct json_object *
field(struct ctx *c, struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v)) {
		if (c->lax && lax_key(key))
			return NULL;
		fail(c, key, "%s", "missing");
		return (struct json_object *)-1;
	}
	return v;
}

#define GET(v, key)                                                            \
	do {                                                                   \
		v = field(c, o, key);                                          \
		if (v == (struct json_object *)-1)                             \
			return -1;                                             \
	} while (0)

static int
want_string(struct ctx *c, struct json_object *o, const char *key,
	    int nullable, int nonempty)
{
	struct json_object *v;

	GET(v, key);
	if (!v && nullable)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(c, key, "expected a string, got %s",
			    prof_json_type_name(v));
	if (nonempty && !json_object_get_string_len(v))
		return fail(c, key, "%s", "expected a non-empty string");
	return 0;
}

static int
want_number(struct ctx *c, struct json_object *o, const char *key,
	    int nullable, double min)
{
	struct json_object *v;

	GET(v, key);
	if (!v && nullable)
		return 0;
	if (!prof_json_is_number(v))
		return fail(c, key, "expected a number, got %s",
			    prof_json_type_name(v));
	if (prof_json_number(v) < min)
		return fail(c, key, "%s", min == 0 ? "expected a number >= 0" :
						    "number out of range");
	return 0;
}

/*
 * A workload id or backend name by the rule of id.h: they reach file
 * names, terminals, Markdown and CI logs.
 */
static int
want_id(struct ctx *c, struct json_object *o, const char *key)
{
	char why[160], buf[200];

	if (want_string(c, o, key, 0, 1))
		return -1;
	if (prof_id_valid(prof_json_str(o, key), why, sizeof(why)))
		return 0;
	snprintf(buf, sizeof(buf), "not a valid %s: %s",
		 !strcmp(key, "workload") ? "workload id" :
		 !strcmp(key, "run_id")	  ? "run id" :
					    key,
		 why);
	return fail(c, key, "%s", buf);
}

/* A time orders the history: RFC 3339 UTC (prof_range_timestamp()). */
static int
want_timestamp(struct ctx *c, struct json_object *o, const char *key)
{
	if (!prof_range_timestamp(prof_json_str(o, key), c->err))
		return 0;
	snprintf(c->err->path, sizeof(c->err->path), "%s.%s", c->prefix, key);
	return -1;
}

/* A commit reaches logs and summaries: it follows id.h's rule. */
static int
want_commit(struct ctx *c, struct json_object *o)
{
	char why[160];

	if (prof_commit_valid(prof_json_str(o, "commit"), why, sizeof(why)))
		return 0;
	return fail(c, "commit", "not a valid commit: %s", why);
}

/* A time in ms that can be judged (prof_range_ms()). */
static int
want_ms(struct ctx *c, struct json_object *o, const char *key, int nullable)
{
	struct json_object *v;

	if (want_number(c, o, key, nullable, 0))
		return -1;
	GET(v, key);
	if (!v || !prof_range_ms(prof_json_number(v), c->err))
		return 0;
	snprintf(c->err->path, sizeof(c->err->path), "%s.%s", c->prefix, key);
	return -1;
}

static int
want_int(struct ctx *c, struct json_object *o, const char *key)
{
	struct json_object *v;

	GET(v, key);
	if (!json_object_is_type(v, json_type_int))
		return fail(c, key, "expected an integer, got %s",
			    prof_json_type_name(v));
	if (json_object_get_int64(v) < 0)
		return fail(c, key, "%s", "expected an integer >= 0");
	return 0;
}

static int
want_enum(struct ctx *c, struct json_object *o, const char *key,
	  const char *const *values, const char *listed)
{
	struct json_object *v;
	const char *s;

	GET(v, key);
	if (!json_object_is_type(v, json_type_string))
		return fail(c, key, "expected a string, got %s",
			    prof_json_type_name(v));
	s = json_object_get_string(v);
	for (; *values; values++)
		if (!strcmp(s, *values))
			return 0;
	return fail(c, key, "expected one of %s", listed);
}

static int
check_schema_version(struct ctx *c, struct json_object *o)
{
	struct json_object *v;

	GET(v, "schema_version");
	if (!json_object_is_type(v, json_type_int))
		return fail(c, "schema_version", "expected an integer, got %s",
			    prof_json_type_name(v));
	if (json_object_get_int64(v) != PROF_SCHEMA_V1) {
		char buf[96];

		snprintf(buf, sizeof(buf),
			 "unknown schema version %lld (this prof reads %d)",
			 (long long)json_object_get_int64(v), PROF_SCHEMA_V1);
		return fail(c, "schema_version", "%s", buf);
	}
	return 0;
}

static int
check_metrics(struct ctx *c, struct json_object *o, const char *key,
	      int numbers_only)
{
	struct json_object *v;
	char path[256];

	GET(v, key);
	if (numbers_only && !v)
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return fail(c, key, "expected an object, got %s",
			    prof_json_type_name(v));
	json_object_object_foreach(v, k, m)
	{
		int ok = numbers_only ? (!m || prof_json_is_number(m)) :
					(prof_json_is_number(m) ||
					 json_object_is_type(m, json_type_string) ||
					 json_object_is_type(m, json_type_boolean));

		if (!ok) {
			snprintf(path, sizeof(path), "%s.%s.%s", c->prefix, key,
				 k);
			return prof_err_path(c->err, path,
					     numbers_only ?
						     "expected a number or null, got %s" :
						     "expected a scalar (number, string or boolean), got %s",
					     prof_json_type_name(m));
		}
		/* bytes and counts, compared exactly: from 0 to a petabyte */
		if (numbers_only && m &&
		    prof_range_double(prof_json_number(m), 0, PROF_MEMORY_MAX,
				      "a memory number", "", c->err) < 0) {
			snprintf(c->err->path, sizeof(c->err->path),
				 "%s.%s.%s", c->prefix, key, k);
			return -1;
		}
	}
	return 0;
}

/* The fields before env and segment, which schema 1 and 2 share. */
static int
check_workload(struct ctx *c, struct json_object *o)
{
	return want_id(c, o, "workload") ||
	       want_int(c, o, "workload_version") ||
	       want_string(c, o, "category", 0, 1) ||
	       want_string(c, o, "fixture", 0, 0) ||
	       want_string(c, o, "fixture_checksum", 1, 0) ||
	       want_ms(c, o, "warning_floor_ms", 0) ||
	       want_id(c, o, "backend") ?
		       -1 :
		       0;
}

/* The optional fields a sample shares with the others of its run and
 * workload (a results file's groups hold them too). */
static int
check_shared(struct ctx *c, struct json_object *o)
{
	struct json_object *v = NULL;

	if (json_object_object_get_ex(o, "count_threshold_pct", NULL) &&
	    want_number(c, o, "count_threshold_pct", 0, 0))
		return -1;
	/* A time threshold a rule can take (verdict/verdict.h): above 0, at most
	 * 1000 (PROF_CMP_THRESHOLD_MAX). */
	if (json_object_object_get_ex(o, "time_threshold_pct", &v)) {
		if (want_number(c, o, "time_threshold_pct", 0, 0))
			return -1;
		if (!(prof_json_number(v) > 0) || prof_json_number(v) > 1000)
			return fail(c, "time_threshold_pct", "%s",
				    "expected a percentage above 0 and at "
				    "most 1000");
	}
	if (json_object_object_get_ex(o, "order_seed", NULL) &&
	    want_int(c, o, "order_seed"))
		return -1;
	if (json_object_object_get_ex(o, "shard", NULL) &&
	    want_string(c, o, "shard", 0, 1))
		return -1;
	if (!json_object_object_get_ex(o, "threads", &v))
		return 0;
	if (want_int(c, o, "threads"))
		return -1;
	if (json_object_get_int64(v) < 1)
		return fail(c, "threads", "%s", "expected an integer >= 1");
	return 0;
}

/*
 * A contended mark must be what the sample's own times say by the rule of
 * contend.h (prof_sample_rule()): a flag that contradicts them would turn
 * a verdict by itself. Grouped samples are checked at their join, as
 * check_times().
 */
static int
check_contended(struct ctx *c, struct json_object *o, struct json_object *g)
{
	struct json_object *v = NULL, *b = NULL;
	double m, tol, delay, wall, cpu;
	char buf[400];
	int said, gpu, partial;

	if (!json_object_object_get_ex(o, "contended", &v) ||
	    !json_object_is_type(v, json_type_boolean) ||
	    prof_sample_rule(o, g, &m, &tol) < 0)
		return 0;
	said = json_object_get_boolean(v);
	if (said ? m >= -tol : m <= tol)
		return 0;
	if (!json_object_object_get_ex(o, "backend", &b) && g)
		json_object_object_get_ex(g, "backend", &b);
	gpu = json_object_is_type(b, json_type_string) &&
	      !strcmp(json_object_get_string(b), "gpu");
	wall = prof_sample_num(o, "duration_ms");
	cpu = prof_sample_num(o, "cpu_ms");
	partial = prof_sample_is(o, "run_delay", "partial");
	if (prof_sample_run_delay(o, &delay) && !partial)
		snprintf(buf, sizeof(buf),
			 "%s, but its threads waited %g ms for a core in %g ms "
			 "(run_delay_ms, duration_ms: contended above %g%% of "
			 "the wall time + %g ms)",
			 said ? "true" : "false", delay, wall,
			 PROF_DELAY_SHARE * 100, PROF_DELAY_SLACK_MS);
	else if (gpu)
		snprintf(buf, sizeof(buf),
			 "%s, but the GPU call had %g involuntary switches "
			 "(contended above 0)",
			 said ? "true" : "false",
			 isnan(prof_sample_num(o, "involuntary_switches")) ?
				 0 :
				 prof_sample_num(o, "involuntary_switches"));
	else
		snprintf(buf, sizeof(buf),
			 "%s, but the call ran %g ms of CPU time in %g ms%s "
			 "(cpu_ms, duration_ms: contended when the wall time "
			 "is above CPU x %g + %g ms%s)",
			 said ? "true" : "false", cpu, wall,
			 json_object_object_get_ex(o, "iterations", NULL) ?
				 " a call" :
				 "",
			 PROF_CONTEND_RATIO, PROF_CONTEND_SLACK_MS,
			 partial ? ", or its partial run_delay_ms says so" :
				   "");
	return fail(c, "contended", "%s", buf);
}

/*
 * A call's CPU time cannot exceed its wall time on one thread (threads 1,
 * or none) beyond the clocks' tolerance (contend.h), nor can its threads'
 * run-queue delay exceed the wall time on each of them (threads x wall).
 * A grouped sample is checked so at its join, its threads in o or in its
 * group g (or NULL).
 */
static int
check_times(struct ctx *c, struct json_object *o, struct json_object *g)
{
	struct json_object *v = NULL, *d = NULL, *t = NULL;
	double wall, delay, threads = 1;
	char buf[200];

	if (!json_object_object_get_ex(o, "duration_ms", &d) ||
	    !prof_json_is_number(d))
		return 0;
	wall = prof_json_number(d);
	if (json_object_object_get_ex(o, "threads", &t) ||
	    (g && json_object_object_get_ex(g, "threads", &t)))
		threads = (double)json_object_get_int64(t);
	if (threads == 1 && json_object_object_get_ex(o, "cpu_ms", &v) &&
	    prof_json_is_number(v) &&
	    prof_json_number(v) >
		    wall * PROF_CPU_TOL_RATIO + PROF_CPU_TOL_MS) {
		snprintf(buf, sizeof(buf),
			 "%g ms of CPU time in a call of %g ms (duration_ms) "
			 "on one thread",
			 prof_json_number(v), wall);
		return fail(c, "cpu_ms", "%s", buf);
	}
	if (prof_sample_run_delay(o, &delay) &&
	    delay > threads * (wall * PROF_CPU_TOL_RATIO + PROF_CPU_TOL_MS)) {
		if (threads == 1)
			snprintf(buf, sizeof(buf),
				 "%g ms of run-queue delay in a call of %g ms "
				 "(duration_ms) on one thread",
				 delay, wall);
		else
			snprintf(buf, sizeof(buf),
				 "%g ms of run-queue delay in a call of %g ms "
				 "(duration_ms) on %g threads",
				 delay, wall, threads);
		return fail(c, "run_delay_ms", "%s", buf);
	}
	return check_contended(c, o, g);
}

/*
 * The run-queue delay's fields (contend.h): run_delay_ms a time, and
 * run_delay, where present, "unavailable" (no run_delay_ms beside it) or
 * "partial" (with one).
 */
static int
check_delay(struct ctx *c, struct json_object *o)
{
	struct json_object *v = NULL;
	int has_ms = json_object_object_get_ex(o, "run_delay_ms", NULL);
	const char *why;

	if (has_ms && want_ms(c, o, "run_delay_ms", 0))
		return -1;
	if (!json_object_object_get_ex(o, "run_delay", &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(c, "run_delay", "expected a string, got %s",
			    prof_json_type_name(v));
	why = json_object_get_string(v);
	if (!strcmp(why, "unavailable")) {
		if (has_ms)
			return fail(c, "run_delay_ms", "%s",
				    "a delay beside run_delay \"unavailable\"");
		return 0;
	}
	if (!strcmp(why, "partial")) {
		if (!has_ms)
			return fail(c, "run_delay", "%s",
				    "\"partial\" without run_delay_ms");
		return 0;
	}
	return fail(c, "run_delay", "%s",
		    "expected \"unavailable\" or \"partial\"");
}

/*
 * A timing sample's CPU time, involuntary switches and contended mark
 * (contend.h; threads is a group field, see check_shared()), each
 * optional: a file older than them is read as before.
 */
static int
check_cpu(struct ctx *c, struct json_object *o)
{
	struct json_object *v = NULL;

	if (json_object_object_get_ex(o, "involuntary_switches", NULL) &&
	    want_int(c, o, "involuntary_switches"))
		return -1;
	if (json_object_object_get_ex(o, "contended", &v) &&
	    !json_object_is_type(v, json_type_boolean))
		return fail(c, "contended", "expected a boolean, got %s",
			    prof_json_type_name(v));
	if (json_object_object_get_ex(o, "cpu_ms", NULL) &&
	    want_ms(c, o, "cpu_ms", 0))
		return -1;
	if (check_delay(c, o))
		return -1;
	if (json_object_object_get_ex(o, "iterations", &v)) {
		if (want_int(c, o, "iterations"))
			return -1;
		if (json_object_get_int64(v) < 1)
			return fail(c, "iterations", "%s",
				    "expected an integer >= 1");
	}
	return c->own ? 0 : check_times(c, o, NULL);
}

/*
 * Whether p may be an artifact path: relative to the run folder and inside
 * it (no leading '/', no ".." component), no leading '-' (so it is never
 * taken for an option) and no control characters. Readers refuse others
 * with their JSON path; a reader that opens one still checks where a
 * symbolic link leads.
 */
static int
artifact_valid(const char *p)
{
	const char *q;

	if (!p || !p[0] || p[0] == '/' || p[0] == '-')
		return 0;
	for (q = p; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			return 0;
	/* No component may be "..". */
	for (q = p; q; q = strchr(q, '/')) {
		if (*q == '/')
			q++;
		if (q[0] == '.' && q[1] == '.' && (q[2] == '/' || !q[2]))
			return 0;
	}
	return 1;
}

/* The fields after env and segment, which schema 1 and 2 share. */
static int
check_common(struct ctx *c, struct json_object *o)
{
	static const char *const phases[] = {"timing", "memory", "profile",
					     "browser", "instructions", NULL};
	static const char *const kinds[] = {"warm", "cold", NULL};
	static const char *const outcomes[] = {"success", "error", NULL};
	struct json_object *v;
	int is_error;
	size_t i;

	if (want_enum(c, o, "phase", phases,
		      "timing, memory, profile, browser, instructions") ||
	    want_enum(c, o, "kind", kinds, "warm, cold") ||
	    want_int(c, o, "index") ||
	    want_enum(c, o, "outcome", outcomes, "success, error"))
		return -1;
	/* A memory sample's call index in its worker: prof-diff checks
	 * that the exact metrics of each index repeat (verdict/group.c). */
	if (json_object_object_get_ex(o, "call", NULL) &&
	    want_int(c, o, "call"))
		return -1;
	is_error = prof_sample_is(o, "outcome", "error");
	if (want_ms(c, o, "duration_ms", is_error) ||
	    want_string(c, o, "checksum", 1, 0) ||
	    (json_object_object_get_ex(o, "checksum_reason", NULL) &&
	     want_string(c, o, "checksum_reason", 0, 1)) ||
	    want_string(c, o, "reason", !is_error, is_error))
		return -1;
	GET(v, "metrics");
	if ((v || !c->lax) && check_metrics(c, o, "metrics", 0))
		return -1;
	GET(v, "artifacts");
	if (!v && c->lax)
		goto rest;
	if (!json_object_is_type(v, json_type_array))
		return fail(c, "artifacts", "expected an array, got %s",
			    prof_json_type_name(v));
	for (i = 0; i < json_object_array_length(v); i++) {
		struct json_object *a = json_object_array_get_idx(v, i);
		char key[32];

		snprintf(key, sizeof(key), "artifacts[%zu]", i);
		if (!json_object_is_type(a, json_type_string))
			return fail(c, key, "expected a string, got %s",
				    prof_json_type_name(a));
		if (!artifact_valid(json_object_get_string(a)))
			return fail(c, key, "%s",
				    "not a path inside the run folder "
				    "(relative, no '..', no leading '-', no "
				    "control characters)");
	}
rest:
	if (json_object_object_get_ex(o, "memory", NULL) &&
	    check_metrics(c, o, "memory", 1))
		return -1;
	if (check_shared(c, o) || check_cpu(c, o))
		return -1;
	/* An instruction sample that succeeded has its count; an error
	 * sample may say null. */
	v = NULL;
	json_object_object_get_ex(o, "instructions", &v);
	if ((v || (prof_sample_is(o, "phase", "instructions") && !is_error)) &&
	    want_int(c, o, "instructions"))
		return -1;
	return 0;
}

static int
not_object(struct json_object *o, const char *prefix, struct prof_err *err)
{
	return prof_err_path(err, prefix && prefix[0] ? prefix : ".",
			     "expected a sample object, got %s",
			     prof_json_type_name(o));
}

/* A schema-1 sample's segment is the key of its own env (env.h). */
static int
want_keyed(struct ctx *c, struct json_object *o, struct json_object *env)
{
	char why[400];
	int rc = prof_env_segment_check(env, prof_json_str(o, "segment"), why,
					sizeof(why));

	if (rc < 0)
		return fail(c, "segment", "%s", "out of memory");
	return rc ? fail(c, "segment", "%s", why) : 0;
}

int
prof_sample_check(struct json_object *o, const char *prefix,
		  struct prof_err *err)
{
	struct ctx cc = {prefix ? prefix : "", err, 0, 0}, *c = &cc;
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object))
		return not_object(o, prefix, err);
	if (check_schema_version(c, o) || check_workload(c, o))
		return -1;
	GET(v, "env");
	if (!json_object_is_type(v, json_type_object))
		return fail(c, "env", "expected an object, got %s",
			    prof_json_type_name(v));
	if (want_string(c, o, "segment", 0, 1) || want_keyed(c, o, v))
		return -1;
	return check_common(c, o);
}

int
prof_sample_check2(struct json_object *o, const char *prefix,
		   struct prof_err *err)
{
	struct ctx cc = {prefix ? prefix : "", err, 1, 0}, *c = &cc;

	if (!json_object_is_type(o, json_type_object))
		return not_object(o, prefix, err);
	if (check_workload(c, o) || want_string(c, o, "env_id", 0, 1) ||
	    want_string(c, o, "segment_id", 0, 1))
		return -1;
	return check_common(c, o);
}

const char *const prof_group_keys[] = {
	"workload",	    "workload_version", "category",
	"fixture",	    "fixture_checksum", "warning_floor_ms",
	"count_threshold_pct", "backend",	"env_id",
	"segment_id",	    "order_seed",	"shard",
	"threads",	    "time_threshold_pct", NULL};

int
prof_group_key(const char *key)
{
	/* Asked for every field of every sample written: by first letter,
	 * so a sample's own fields cost one or two compares. */
	switch (key[0]) {
	case 'w':
		return !strcmp(key, "workload") ||
		       !strcmp(key, "workload_version") ||
		       !strcmp(key, "warning_floor_ms");
	case 'c':
		return !strcmp(key, "category") ||
		       !strcmp(key, "count_threshold_pct");
	case 'f':
		return !strcmp(key, "fixture") ||
		       !strcmp(key, "fixture_checksum");
	case 'b':
		return !strcmp(key, "backend");
	case 'e':
		return !strcmp(key, "env_id");
	case 's':
		return !strcmp(key, "segment_id") || !strcmp(key, "shard");
	case 'o':
		return !strcmp(key, "order_seed");
	case 't':
		return !strcmp(key, "threads") ||
		       !strcmp(key, "time_threshold_pct");
	default:
		return 0;
	}
}

int
prof_group_check(struct json_object *o, const char *prefix,
		 struct prof_err *err)
{
	struct ctx cc = {prefix ? prefix : "", err, 1, 0}, *c = &cc;

	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, prefix && prefix[0] ? prefix : ".",
				     "expected a group object, got %s",
				     prof_json_type_name(o));
	json_object_object_foreach(o, key, v)
	{
		(void)v;
		if (!prof_group_key(key))
			return fail(c, key, "%s",
				    "not a field a group holds (it belongs "
				    "in each sample)");
	}
	if (check_workload(c, o) || want_string(c, o, "env_id", 0, 1) ||
	    want_string(c, o, "segment_id", 0, 1))
		return -1;
	return check_shared(c, o);
}

/* The static copy of a group key (a key that outlives every sample). */
static const char *
group_key_const(const char *key)
{
	size_t i;

	/* Each key of each group joined: the first letter first. */
	for (i = 0; prof_group_keys[i]; i++)
		if (key[0] == prof_group_keys[i][0] &&
		    !strcmp(key, prof_group_keys[i]))
			return prof_group_keys[i];
	return NULL;
}

int
prof_sample_join(struct json_object *group, struct json_object *s,
		 const char *prefix, struct prof_err *err)
{
	struct ctx cc = {prefix ? prefix : "", err, 1, 0};
	char path[256];

	/* Every sample read goes through here: its own keys are asked
	 * (by first letter), the group's only when one could clash. */
	json_object_object_foreach(s, k, v)
	{
		(void)v;
		if (!prof_group_key(k) ||
		    !json_object_object_get_ex(group, k, NULL))
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix ? prefix : "",
			 k);
		return prof_err_path(err, path,
				     "also in its group (.groups.%s)",
				     prof_json_str(s, "group_id"));
	}
	if (check_times(&cc, s, group) < 0)
		return -1;
	json_object_object_del(s, "group_id");
	json_object_object_foreach(group, gk, gv)
	{
		const char *ck = group_key_const(gk);

		/* A checked group holds group keys only; theirs are static,
		 * so the sample need not copy them. */
		json_object_object_add_ex(s, ck ? ck : gk, json_object_get(gv),
					  JSON_C_OBJECT_ADD_KEY_IS_NEW |
						  (ck ? JSON_C_OBJECT_KEY_IS_CONSTANT :
							0));
	}
	return 0;
}

int
prof_sample_check_own(struct json_object *o, const char *prefix,
		      struct prof_err *err)
{
	struct ctx cc = {prefix ? prefix : "", err, 1, 1}, *c = &cc;

	if (!json_object_is_type(o, json_type_object))
		return not_object(o, prefix, err);
	return check_common(c, o);
}

/* A member of a top level that is being read: with final, a missing
 * member is an error; without, only a present one is checked. */
static int
head_string(struct ctx *c, struct json_object *o, const char *key,
	    int nonempty, int final)
{
	if (!final && !json_object_object_get_ex(o, key, NULL))
		return 0;
	return want_string(c, o, key, 0, nonempty);
}

int
prof_results_check_head(struct json_object *o, int final,
			struct prof_err *err)
{
	struct ctx cc = {"", err, 0, 0}, *c = &cc;
	struct json_object *v = NULL, *run = NULL;

	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, ".",
				     "expected a results object, got %s",
				     prof_json_type_name(o));
	if (head_string(c, o, "schema", 1, final))
		return -1;
	if (json_object_object_get_ex(o, "schema", NULL) &&
	    strcmp(prof_json_str(o, "schema"), PROF_SCHEMA) != 0)
		return fail(c, "schema", "expected \"%s\"", PROF_SCHEMA);
	if (final || json_object_object_get_ex(o, "schema_version", NULL)) {
		GET(v, "schema_version");
		if (!json_object_is_type(v, json_type_int))
			return fail(c, "schema_version",
				    "expected an integer, got %s",
				    prof_json_type_name(v));
		if (json_object_get_int64(v) != PROF_SCHEMA_V1 &&
		    json_object_get_int64(v) != PROF_SCHEMA_VERSION) {
			char buf[96];

			snprintf(buf, sizeof(buf),
				 "unknown schema version %lld (this prof "
				 "reads %d and %d)",
				 (long long)json_object_get_int64(v),
				 PROF_SCHEMA_V1, PROF_SCHEMA_VERSION);
			return fail(c, "schema_version", "%s", buf);
		}
	}
	if (head_string(c, o, "run_id", 1, final) ||
	    head_string(c, o, "timestamp_utc", 1, final) ||
	    (json_object_object_get_ex(o, "timestamp_utc", NULL) &&
	     want_timestamp(c, o, "timestamp_utc")) ||
	    head_string(c, o, "command", 0, final) ||
	    head_string(c, o, "commit", 1, final) ||
	    (json_object_object_get_ex(o, "commit", NULL) &&
	     want_commit(c, o)) ||
	    (json_object_object_get_ex(o, "run_id", NULL) &&
	     want_id(c, o, "run_id")))
		return -1;
	if (json_object_object_get_ex(o, "commit_time", &v) && v) {
		char why[160];

		if (!json_object_is_type(v, json_type_string))
			return fail(c, "commit_time", "expected a string, got %s",
				    prof_json_type_name(v));
		if (!prof_commit_time_valid(json_object_get_string(v), NULL,
					    why, sizeof(why)))
			return fail(c, "commit_time", "%s", why);
	}
	if (json_object_object_get_ex(o, "parents", &v) && v) {
		char why[160];
		size_t i;

		if (!json_object_is_type(v, json_type_array))
			return fail(c, "parents", "expected an array, got %s",
				    prof_json_type_name(v));
		for (i = 0; i < json_object_array_length(v); i++) {
			struct json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_string) ||
			    !prof_parent_valid(json_object_get_string(e), why,
					       sizeof(why)))
			{
				char msg[200];

				snprintf(msg, sizeof(msg), "element %zu: %s",
					 i,
					 json_object_is_type(e,
							     json_type_string) ?
						 why :
						 "not a string");
				return fail(c, "parents", "%s", msg);
			}
		}
	}
	if (!json_object_object_get_ex(o, "run", &run) || !run)
		return 0;
	if (!json_object_is_type(run, json_type_object))
		return fail(c, "run", "expected an object, got %s",
			    prof_json_type_name(run));
	cc.prefix = ".run";
	if ((json_object_object_get_ex(run, "mode", NULL) &&
	     want_string(c, run, "mode", 1, 1)) ||
	    (json_object_object_get_ex(run, "shard", NULL) &&
	     want_string(c, run, "shard", 1, 1)))
		return -1;
	if (json_object_object_get_ex(run, "options", &v) && v &&
	    !json_object_is_type(v, json_type_object))
		return fail(c, "options", "expected an object, got %s",
			    prof_json_type_name(v));
	return 0;
}

const char *
prof_sample_str(struct json_object *s, const char *key)
{
	return prof_json_str(s, key);
}

double
prof_sample_num(struct json_object *s, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(s, key, &v))
		return NAN;
	if (!prof_json_is_number(v))
		return NAN;
	return prof_json_number(v);
}

int
prof_sample_is(struct json_object *s, const char *key, const char *value)
{
	const char *v = prof_json_str(s, key);

	return v && !strcmp(v, value);
}

int
prof_sample_id(const char *text, char id[PROF_ID_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	/* Plain SHA-256 of the text, so `sha256sum` gives the same id. */
	if (!EVP_Digest(text, strlen(text), md, &n, EVP_sha256(), NULL) ||
	    n < (PROF_ID_SIZE - 1) / 2)
		return -1;
	for (i = 0; i < (PROF_ID_SIZE - 1) / 2; i++) {
		id[2 * i] = digits[md[i] >> 4];
		id[2 * i + 1] = digits[md[i] & 15];
	}
	id[PROF_ID_SIZE - 1] = '\0';
	return 0;
}

int
prof_sample_json_id(struct json_object *o, char id[PROF_ID_SIZE])
{
	char *text = prof_json_canonical(o);
	int rc;

	if (!text)
		return -1;
	rc = prof_sample_id(text, id);
	free(text);
	return rc;
}
