/* gbench.c: Google Benchmark JSON (--benchmark_out) turned into schema-1
 * timing samples, one per repetition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/env.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/id.h"
#include "base/json.h"
#include "base/pool.h"
#include "base/range.h"
#include "model/contend.h"
#include "model/gbench.h"
#include "model/sample.h"
#include "model/stream.h"

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
 * The environment of a file's samples from its context ctx: this
 * machine's facts when it was written here (its host_name is ours), else
 * those facts null; and the context's own. NULL with err on a bad
 * context.
 */
static struct json_object *
context_env(struct json_object *ctx, int *foreign, struct prof_err *err)
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
	struct json_object *env, *v = NULL;
	const char *host, *type;
	char here[256] = "";
	size_t i;

	if (!json_object_is_type(ctx, json_type_object)) {
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
	/* A time under what a sample holds (PROF_MS_MIN, a picosecond an
	 * iteration: a loop the compiler emptied) is rounded to it, not
	 * refused. */
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
	/* An iteration's time is a loop's mean, finer than the clock's
	 * nanosecond that prof_sample_succeed() keeps of one call: kept as
	 * the file gives it (2.45 ns is 2.45e-06 ms, not 2). */
	json_object_object_add(s, "duration_ms", prof_json_double(real));
	/* A CPU time beyond the real time on one thread is the process's
	 * (MeasureProcessCPUTime): the call used more than one core. */
	if (threads == 1 &&
	    cpu > real * PROF_CPU_TOL_RATIO + PROF_CPU_TOL_MS)
		threads = cpus > 1 ? cpus : 2;
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

/*
 * A reader of one file's entries, one at a time, in memory bounded by
 * what it must remember of the entries before: each id's benchmark name
 * and next index (a name clash, an entry without repetition_index), the
 * run names of the repetitions (an aggregate is theirs), and the
 * aggregates that came before any repetition of theirs (none in a file
 * libbenchmark wrote: it writes a benchmark's statistics after its
 * repetitions).
 */
struct gb_slot {
	const char *name;		/* in names */
	long long next;
};

struct gb_pend {
	char *run, *name, *agg;
	long at;
};

struct gb {
	struct json_object *env;	/* NULL: no context yet */
	long cpus;
	int foreign;
	char host[256];
	/* Each id's benchmark: the id's hash (prof_pool_hash(), probed
	 * on with prof_pool_next()) -> its slot. */
	struct prof_htab64 ids;
	struct gb_slot *slots;
	size_t n_slots, cap_slots;
	/* The benchmarks' names, and the run names of repetitions that
	 * are not their own name (libbenchmark gives a repetition its
	 * name as run_name). */
	struct prof_pool names, runs;
	struct gb_pend *pend;
	size_t n_pend, cap_pend;
	long count;			/* samples handed out */
	long entries;			/* entries read */
	int saw_list;			/* .benchmarks was there */
	/* A stream's: where its samples go. */
	int (*fn)(void *arg, struct json_object *s, long entry,
		  struct prof_err *err);
	void *arg;
	int pass;	/* 0 one walk; 1 the context only; 2 the entries */
	int late;	/* an entry came before the context */
};

static void
gb_free(struct gb *g)
{
	size_t i;

	json_object_put(g->env);
	free(g->slots);
	for (i = 0; i < g->n_pend; i++) {
		free(g->pend[i].run);
		free(g->pend[i].name);
		free(g->pend[i].agg);
	}
	free(g->pend);
	prof_htab64_free(&g->ids);
	prof_pool_free(&g->names);
	prof_pool_free(&g->runs);
}

/* The slot of id, or -1; *key the key where it is, or where it goes. */
static long
gb_find(const struct gb *g, const char *id, uint64_t *key)
{
	char other[PROF_ID_MAX + 1];
	int64_t slot;

	*key = prof_pool_hash(id, strlen(id), PROF_POOL_FNV);
	while (prof_htab64_get(&g->ids, *key, &slot)) {
		if (prof_gbench_id(g->slots[slot].name, other, sizeof(other),
				   NULL, 0) == 0 &&
		    !strcmp(other, id))
			return (long)slot;
		*key = prof_pool_next(*key);
	}
	return -1;
}

/* Whether a repetition of run name run was read. */
static int
gb_run_seen(const struct gb *g, const char *run)
{
	char id[PROF_ID_MAX + 1];
	uint64_t key;
	long slot;

	if (prof_pool_find(&g->runs, run))
		return 1;
	if (prof_gbench_id(run, id, sizeof(id), NULL, 0) < 0)
		return 0;
	slot = gb_find(g, id, &key);
	return slot >= 0 && !strcmp(g->slots[slot].name, run);
}

static int
gb_context(struct gb *g, struct json_object *ctx, struct prof_err *err)
{
	const char *host = prof_json_str(ctx, "host_name");
	double cpus;

	json_object_put(g->env);
	g->env = context_env(ctx, &g->foreign, err);
	if (!g->env)
		return -1;
	snprintf(g->host, sizeof(g->host), "%s", host ? host : "unknown");
	/* cpu_count is null for a file of another host without num_cpus. */
	cpus = prof_json_numf(g->env, "cpu_count");
	g->cpus = cpus >= 1 && cpus <= 1e6 ? (long)cpus : 0;
	return 0;
}

/* The message of an aggregate without its repetitions. */
static int
gb_lone_aggregate(const struct gb_pend *p, struct prof_err *err)
{
	char path[96];

	snprintf(path, sizeof(path), ".benchmarks[%ld].run_type", p->at);
	return prof_err_path(err, path,
			     "'%.200s' is an aggregate (%.40s) without its "
			     "repetitions: prof needs each repetition (run "
			     "without --benchmark_report_aggregates_only)",
			     p->name, p->agg);
}

/*
 * Entry b, the i-th of .benchmarks: a repetition's sample handed to
 * g->fn, or an aggregate passed over (or remembered, when none of its
 * repetitions came before it). 0, or -1 with err.
 */
static int
gb_entry(struct gb *g, struct json_object *b, long i, struct prof_err *err)
{
	const char *name = prof_json_str(b, "name");
	const char *type = prof_json_str(b, "run_type");
	const char *run = prof_json_str(b, "run_name");
	struct json_object *s, *v = NULL;
	char at[64], path[96], id[PROF_ID_MAX + 1], why[160];
	long long index;
	uint64_t key;
	long slot;

	g->entries++;
	snprintf(at, sizeof(at), ".benchmarks[%ld]", i);
	if (!json_object_is_type(b, json_type_object))
		return prof_err_path(err, at, "expected an object, got %s",
				     prof_json_type_name(b));
	/* A repetition's run name, when it is not its name (gb_run_seen()
	 * finds those by the slot). */
	if (type && !strcmp(type, "iteration") && run &&
	    (!name || strcmp(run, name)) && !prof_pool_str(&g->runs, run))
		return prof_err_set(err, "out of memory");
	if (type && !strcmp(type, "aggregate")) {
		/* Big-O fits and the statistics of repetitions are theirs;
		 * a statistic alone is not a sample. */
		struct gb_pend *p;
		const char *agg = prof_json_str(b, "aggregate_name");

		if (run && gb_run_seen(g, run))
			return 0;
		if (!run) {
			/* No repetition can be its. */
			struct gb_pend lone = {
				.name = (char *)(name ? name : "?"),
				.agg = (char *)(agg ? agg : "?"),
				.at = i,
			};

			return gb_lone_aggregate(&lone, err);
		}
		if (PROF_GROW(g->pend, g->n_pend + 1, g->cap_pend) < 0)
			return prof_err_set(err, "out of memory");
		p = &g->pend[g->n_pend];
		p->run = strdup(run);
		p->name = strdup(name ? name : "?");
		p->agg = strdup(agg ? agg : "?");
		p->at = i;
		g->n_pend++;
		if (!p->run || !p->name || !p->agg)
			return prof_err_set(err, "out of memory");
		return 0;
	}
	if (type && strcmp(type, "iteration")) {
		snprintf(path, sizeof(path), "%s.run_type", at);
		return prof_err_path(err, path,
				     "expected iteration or aggregate");
	}
	snprintf(path, sizeof(path), "%s.name", at);
	if (!name)
		return prof_err_path(err, path, "expected a string");
	if (prof_gbench_id(name, id, sizeof(id), why, sizeof(why)) < 0)
		return prof_err_path(err, path, "'%.200s': %s", name, why);
	slot = gb_find(g, id, &key);
	if (slot >= 0 && strcmp(g->slots[slot].name, name))
		return prof_err_path(err, path,
				     "'%.200s' and '%.200s' are both workload "
				     "'%s': rename one",
				     g->slots[slot].name, name, id);
	if (slot < 0) {
		if (PROF_GROW(g->slots, g->n_slots + 1, g->cap_slots) < 0)
			return prof_err_set(err, "out of memory");
		g->slots[g->n_slots].name = prof_pool_str(&g->names, name);
		g->slots[g->n_slots].next = 0;
		if (!g->slots[g->n_slots].name ||
		    prof_htab64_put(&g->ids, key, (int64_t)g->n_slots) < 0)
			return prof_err_set(err, "out of memory");
		slot = (long)g->n_slots++;
	}
	if (json_object_object_get_ex(b, "repetition_index", &v)) {
		double k;

		if (entry_num(b, at, "repetition_index", 1, 0, 0, 1e12, &k,
			      err) < 0)
			return -1;
		index = (long long)k;
	} else {
		index = g->slots[slot].next;
	}
	g->slots[slot].next = index + 1;
	s = entry_sample(b, at, name, id, index, g->env, g->cpus, err);
	if (!s)
		return -1;
	if (prof_sample_check(s, "", err) < 0 || g->fn(g->arg, s, i, err) < 0) {
		json_object_put(s);
		return -1;
	}
	json_object_put(s);
	g->count++;
	return 0;
}

/* The checks once every entry was read. */
static int
gb_finish(struct gb *g, struct prof_err *err)
{
	size_t i;

	if (!g->saw_list)
		return prof_err_path(err, ".benchmarks",
				     "expected an array, got nothing");
	if (!g->env)
		return prof_err_path(err, ".context",
				     "expected the context object of Google "
				     "Benchmark's JSON output, got nothing");
	if (!g->entries)
		return prof_err_path(err, ".benchmarks", "no benchmarks");
	for (i = 0; i < g->n_pend; i++)
		if (!gb_run_seen(g, g->pend[i].run))
			return gb_lone_aggregate(&g->pend[i], err);
	return 0;
}

/* A member of the top level: the context, or a list that is none. */
static int
gb_member(void *arg, const char *key, struct json_object *v,
	  struct prof_err *err)
{
	struct gb *g = arg;

	if (!strcmp(key, "benchmarks")) {
		g->saw_list = 1;
		return prof_err_path(err, ".benchmarks",
				     "expected an array, got %s",
				     prof_json_type_name(v));
	}
	if (strcmp(key, "context") || g->pass == 2)
		return 0;
	return gb_context(g, v, err);
}

static int
gb_elem(void *arg, struct json_object *b, long i, struct prof_err *err)
{
	struct gb *g = arg;

	g->saw_list = 1;
	if (g->pass == 1)
		return 0;
	if (!g->env) {
		/* The context comes after the list (keys sorted, jq -S):
		 * read it first, then the list again. */
		g->late = 1;
		return 1;
	}
	return gb_entry(g, b, i, err);
}

long
prof_gbench_stream(struct prof_stream *st, const char *path,
		   prof_gbench_fn fn, void *arg, int *foreign, char *host,
		   size_t host_n, struct prof_err *err)
{
	static const char what[] = "Google Benchmark's JSON output "
				   "{context, benchmarks}";
	struct gb g = {.fn = fn, .arg = arg};
	long n;

	*foreign = 0;
	n = prof_stream_object(st, path, what, "benchmarks", gb_member,
			       gb_elem, &g, err);
	if (n == -2 && g.late) {
		if (!strcmp(path, "-")) {
			prof_err_path(err, ".context",
				      "after .benchmarks, which stdin cannot "
				      "give twice (give the file by name, or "
				      "the context first, as libbenchmark "
				      "writes it)");
			prof_err_file(err, "<stdin>");
			n = -1;
			goto out;
		}
		g.pass = 1;
		g.saw_list = 0;
		n = prof_stream_object(st, path, what, "benchmarks",
				       gb_member, gb_elem, &g, err);
		if (n >= 0 && g.env) {
			g.pass = 2;
			n = prof_stream_object(st, path, what, "benchmarks",
					       gb_member, gb_elem, &g, err);
		}
	}
	if (n >= 0 && gb_finish(&g, err) < 0) {
		prof_err_file(err, strcmp(path, "-") ? path : "<stdin>");
		n = -1;
	}
out:
	if (n >= 0) {
		*foreign = g.foreign;
		if (host)
			snprintf(host, host_n, "%s", g.host);
		n = g.count;
	} else {
		n = -1;
	}
	gb_free(&g);
	return n;
}

/* A sample of prof_gbench_samples(): into the caller's array. */
static int
gb_keep(void *arg, struct json_object *s, long entry, struct prof_err *err)
{
	(void)entry;
	if (json_object_array_add(arg, json_object_get(s)) < 0) {
		json_object_put(s);
		return prof_err_set(err, "out of memory");
	}
	return 0;
}

long
prof_gbench_samples(struct json_object *doc, struct json_object *arr,
		    int *foreign, struct prof_err *err)
{
	struct gb g = {.fn = gb_keep, .arg = arr};
	struct json_object *list = NULL, *ctx = NULL;
	long n = -1;
	size_t i;

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
	g.saw_list = 1;
	json_object_object_get_ex(doc, "context", &ctx);
	if (gb_context(&g, ctx, err) < 0)
		goto out;
	for (i = 0; i < json_object_array_length(list); i++)
		if (gb_entry(&g, json_object_array_get_idx(list, i), (long)i,
			     err) < 0)
			goto out;
	if (gb_finish(&g, err) < 0)
		goto out;
	*foreign = g.foreign;
	n = g.count;
out:
	gb_free(&g);
	return n;
}

int
prof_gbench_filter(const char *name, char *out, size_t n)
{
	size_t off = 0;
	const char *p;

	if (n < 3)
		return -1;
	out[off++] = '^';
	for (p = name; *p; p++) {
		/* Four bytes at most for one of the name's. */
		if (off + 5 > n)
			return -1;
		if (*p == '\\' || *p == '^') {
			out[off++] = '\\';
			out[off++] = *p;
		} else if (strchr(".[]{}()|?*+$", *p)) {
			out[off++] = '[';
			out[off++] = *p;
			out[off++] = ']';
		} else {
			out[off++] = *p;
		}
	}
	out[off++] = '$';
	out[off] = '\0';
	return 0;
}

int
prof_gbench_answer(struct json_object *samples, const char *asked, char *why,
		   size_t n)
{
	struct json_object *names = json_object_new_array();
	size_t i, k, len = json_object_array_length(samples), off;
	int other = 0, rc = 0;

	if (!names) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	for (i = 0; i < len; i++) {
		const char *f = prof_json_str(
			json_object_array_get_idx(samples, i), "fixture");

		if (!f)
			continue;
		other |= strcmp(f, asked) != 0;
		for (k = 0; k < json_object_array_length(names); k++)
			if (!strcmp(json_object_get_string(
					    json_object_array_get_idx(names, k)),
				    f))
				break;
		if (k == json_object_array_length(names))
			json_object_array_add(names, json_object_new_string(f));
	}
	k = json_object_array_length(names);
	if (!other)
		goto out;
	rc = -1;
	if (k == 1) {
		snprintf(why, n, "it answered for '%.200s'",
			 json_object_get_string(
				 json_object_array_get_idx(names, 0)));
		goto out;
	}
	off = (size_t)snprintf(why, n, "it answered for %zu benchmarks: ", k);
	for (i = 0; i < k && i < 5 && off < n; i++)
		off += (size_t)snprintf(why + off, n - off, "%s'%.100s'",
					i ? ", " : "",
					json_object_get_string(
						json_object_array_get_idx(names,
									  i)));
	if (k > 5 && off < n)
		snprintf(why + off, n - off, ", ...");
out:
	json_object_put(names);
	return rc;
}
