/* history.c: the run history's facade (history.h): the backend chosen
 * by the address, names checked, run order over the commit graph, change
 * points and the projects' index, the same over either backend; the rest
 * through the backend's operations (backend.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "backend.h"
#include "base/id.h"
#include "base/json.h"
#include "base/utf8.h"
#include "history.h"
#include "order.h"
#include "steps.h"

struct prof_history {
	const struct prof_history_ops *ops;
	struct prof_history_backend *b;
	char path[4096];	/* the address, as given */
	/* The run order, as the reader running now read it (order_of()):
	 * the backend's readers borrow it. */
	struct prof_history_order *order;
};

/* Whether addr names a PostgreSQL history (history.h). */
static int
is_pg(const char *addr)
{
	static const char *const keys[] = {
		"host=", "hostaddr=", "port=", "dbname=", "user=", "service=",
		"sslmode=", "connect_timeout=", "application_name=", NULL};
	const char *const *k;

	if (!strncmp(addr, "postgresql://", 13) ||
	    !strncmp(addr, "postgres://", 11))
		return 1;
	for (k = keys; *k; k++)
		if (!strncmp(addr, *k, strlen(*k)))
			return 1;
	return 0;
}

/*
 * $PROF_PROJECT, when set, checked as --project is (prof_project_valid()),
 * whichever the backend: a name that is no project's is refused, never
 * cut. 0, or -1 with err.
 */
static int
env_project(struct prof_err *err)
{
	const char *env = getenv("PROF_PROJECT");
	char why[128];

	if (!env || !env[0] || prof_project_valid(env, why, sizeof(why)))
		return 0;
	return prof_err_set(err,
			    "PROF_PROJECT: '%.*s%s' is not a project name: %s",
			    (int)prof_utf8_cut(env, strlen(env), 40), env,
			    strlen(env) > 40 ? "..." : "", why);
}

struct prof_history *
prof_history_open(const char *path, int create, struct prof_err *err)
{
	struct prof_history *h;

	if (env_project(err) < 0)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	snprintf(h->path, sizeof(h->path), "%s", path);
	h->ops = is_pg(path) ? &prof_history_pg_ops : &prof_history_sqlite_ops;
	h->b = h->ops->open(path, create, err);
	if (!h->b) {
		free(h);
		return NULL;
	}
	return h;
}

void
prof_history_close(struct prof_history *h)
{
	if (!h)
		return;
	h->ops->close(h->b);
	prof_history_order_free(h->order);
	free(h);
}

int
prof_history_project(struct prof_history *h, const char *project,
		     struct prof_err *err)
{
	char why[128];

	/* ("": no project's name, as outside a git repository) */
	if (project[0] && !prof_project_valid(project, why, sizeof(why)))
		return prof_err_set(err, "--project: '%.*s%s' is not a "
				    "project name: %s",
				    (int)prof_utf8_cut(project, strlen(project),
						       40),
				    project, strlen(project) > 40 ? "..." : "",
				    why);
	return h->ops->project(h->b, project, err);
}

int
prof_history_many_projects(const struct prof_history *h)
{
	return h->ops->many_projects;
}

int
prof_history_prune(struct prof_history *h, const char *before,
		   long long *pruned, struct prof_err *err)
{
	return h->ops->prune(h->b, before, pruned, err);
}

int
prof_history_version(const struct prof_history *h)
{
	return h->ops->version(h->b);
}

int
prof_history_add_judged(struct prof_history *h, const struct prof_runview *v,
			const struct prof_runverdict *verdicts, int *added,
			struct prof_err *err)
{
	return h->ops->add_judged(h->b, v, verdicts, added, err);
}

int
prof_history_file(struct prof_history *h, const char *sha256,
		  const char *run_id, struct prof_err *err)
{
	return h->ops->file(h->b, sha256, run_id, err);
}

int
prof_history_begin(struct prof_history *h, struct prof_err *err)
{
	return h->ops->begin(h->b, err);
}

int
prof_history_commit(struct prof_history *h, struct prof_err *err)
{
	return h->ops->commit(h->b, err);
}

void
prof_history_rollback(struct prof_history *h)
{
	if (h && h->b)
		h->ops->rollback(h->b);
}

void
prof_history_interrupt(struct prof_history *h)
{
	if (h && h->b)
		h->ops->interrupt(h->b);
}

int
prof_history_raced(const struct prof_history *h)
{
	return h && h->ops->raced(h->b);
}

int
prof_history_conflict(const struct prof_history *h)
{
	return h ? h->ops->conflict(h->b) : 0;
}

void
prof_history_backoff(int tries)
{
	struct timespec now, pause;
	unsigned seed;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	seed = (unsigned)now.tv_nsec ^ (unsigned)getpid() * 2654435761u;
	/* 100 ms, 200, 400, 800, each from half of it to one and a half */
	ms = 100.0 * (double)(1u << (tries > 1 ? (tries < 8 ? tries - 1 : 7) :
					 0)) *
	     (0.5 + (double)rand_r(&seed) / ((double)RAND_MAX + 1.0));
	pause.tv_sec = (time_t)(ms / 1000.0);
	pause.tv_nsec = (long)((ms - (double)pause.tv_sec * 1000.0) * 1e6);
	nanosleep(&pause, NULL);
}

/* The runs of project (NULL: the one named) in run order: the backend's
 * commit-time order, put in order over the commit graph (order.h). NULL
 * with err. */
static struct prof_history_order *
sorted_order(struct prof_history *h, const char *project,
	     struct prof_err *err)
{
	struct prof_history_order *o = h->ops->order(h->b, project, err);

	if (o && prof_history_order_sort(o) < 0) {
		prof_history_order_free(o);
		prof_err_set(err, "out of memory");
		return NULL;
	}
	return o;
}

/*
 * The run order of the history (of the project, over PostgreSQL), read
 * again for each reader (another process may have added runs since the
 * last), kept in h->order until the next: the backend's readers borrow
 * it. NULL with err on failure.
 */
static struct prof_history_order *
order_of(struct prof_history *h, struct prof_err *err)
{
	struct prof_history_order *o = sorted_order(h, NULL, err);

	if (!o)
		return NULL;
	prof_history_order_free(h->order);
	h->order = o;
	return o;
}

/* A project of the history: its name, its runs and the timestamp of its
 * last run in run order (null: none). NULL with err on failure. */
static struct json_object *
project_json(struct prof_history *h, const char *name,
	     const struct prof_history_order *o, struct prof_err *err)
{
	struct json_object *p;
	size_t n = prof_history_order_n(o);
	char latest[64] = "";

	if (n && h->ops->timestamp(h->b, prof_history_order_id(o, n - 1),
				   latest, err) < 0)
		return NULL;
	p = json_object_new_object();
	if (!p) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	json_object_object_add(p, "project", json_object_new_string(name));
	json_object_object_add(p, "runs", json_object_new_int64((long long)n));
	json_object_object_add(p, "latest",
			       n ? json_object_new_string(latest) : NULL);
	return p;
}

struct json_object *
prof_history_projects(struct prof_history *h, struct prof_err *err)
{
	struct json_object *names, *a = NULL, *p;
	struct prof_history_order *o = NULL;
	size_t i, n;

	names = h->ops->projects(h->b, err);
	if (!names)
		return NULL;
	a = json_object_new_array();
	if (!a)
		goto oom;
	n = json_object_array_length(names);
	for (i = 0; i < n; i++) {
		const char *name = json_object_get_string(
			json_object_array_get_idx(names, i));

		o = sorted_order(h, name, err);
		if (!o)
			goto fail;
		p = project_json(h, name, o, err);
		if (!p)
			goto fail;
		json_object_array_add(a, p);
		prof_history_order_free(o);
		o = NULL;
	}
	json_object_put(names);
	return a;
oom:
	prof_err_set(err, "out of memory");
fail:
	prof_history_order_free(o);
	json_object_put(names);
	json_object_put(a);
	return NULL;
}

struct json_object *
prof_history_list(struct prof_history *h, struct prof_err *err)
{
	struct prof_history_order *o = order_of(h, err);

	return o ? h->ops->list(h->b, o, err) : NULL;
}

struct json_object *
prof_history_trend(struct prof_history *h, const struct prof_history_filter *f,
		   struct prof_err *err)
{
	struct prof_history_order *o = order_of(h, err);

	return o ? h->ops->trend(h->b, f, 0, o, err) : NULL;
}

int
prof_history_walk(struct prof_history *h, prof_history_fn fn, void *arg,
		  struct prof_err *err)
{
	struct prof_history_order *o = order_of(h, err);

	return o ? h->ops->walk(h->b, o, fn, arg, err) : -1;
}

int
prof_history_export(struct prof_history *h, prof_history_record_fn fn,
		    void *arg, struct prof_err *err)
{
	struct prof_history_order *o = order_of(h, err);

	return o ? h->ops->export(h->b, o, fn, arg, err) : -1;
}

/* The position in run order (from 1) of the first run of commit prefix
 * since; an unknown one is an error naming it. */
static int
since_position(struct prof_history *h, const struct prof_history_order *o,
	       const char *since, long long *pos, struct prof_err *err)
{
	size_t i, n = prof_history_order_n(o), len = strlen(since);

	for (i = 0; i < n; i++)
		if (!strncmp(prof_history_order_commit(o, i), since, len)) {
			*pos = (long long)i + 1;
			return 0;
		}
	return prof_err_at(err, h->path, 0, 0, "no run of commit '%s'", since);
}

/* The key of channel c's value in a trend object: the median of the
 * times, or the memory metric's. */
static const char *
value_key(int c)
{
	return c ? prof_cmp_metrics[c].key : "median";
}

/* A change in %, two decimals: (after / before - 1) x 100. */
static double
pct_of(double before, double after)
{
	return round((after / before - 1) * 1e4) / 100;
}

/* The change points of one series of channel ch (prof_history_channel():
 * its values pts[0..n) of trend objects, with their run positions
 * pos[]), appended to out. */
static int
series_changes(struct json_object **pts, const long long *pos, size_t n,
	       int ch, long long since_pos, struct json_object *out)
{
	char cs[64], cr[64];
	const char *unused, *unused2;
	double *x = malloc((n ? n : 1) * sizeof(*x));
	size_t *cuts = malloc((n ? n : 1) * sizeof(*cuts));
	long nc, k;
	int rc = -1;

	if (!x || !cuts)
		goto out;
	prof_history_channel(NULL, ch, cs, cr, &unused, &unused2);
	for (size_t i = 0; i < n; i++)
		x[i] = prof_json_number(json_object_object_get(pts[i],
							       value_key(ch)));
	nc = prof_steps_fit(x, n, cuts);
	if (nc < 0)
		goto out;
	for (k = 0; k < nc; k++) {
		size_t c = cuts[k];
		size_t lo = k ? cuts[k - 1] : 0;
		size_t hi = k + 1 < nc ? cuts[k + 1] : n;
		double before = prof_steps_median(x + lo, c - lo);
		double after = prof_steps_median(x + c, hi - c);
		struct json_object *b = pts[c - 1], *a = pts[c];
		struct json_object *o;
		char range[256];

		if (pos[c] < since_pos)
			continue;
		o = json_object_new_object();
		if (!o)
			goto out;
		snprintf(range, sizeof(range), "%s..%s",
			 prof_json_str(b, "commit"),
			 prof_json_str(a, "commit"));
#define COPY(p, key) json_object_get(json_object_object_get(p, key))
#define ADD(key, v) json_object_object_add(o, key, v)
		ADD("workload", COPY(a, "workload"));
		ADD("backend", COPY(a, "backend"));
		ADD("segment_id", COPY(a, "segment_id"));
		ADD("commits", json_object_new_string(range));
		ADD("commit_before", COPY(b, "commit"));
		ADD("commit_after", COPY(a, "commit"));
		ADD("run_before", COPY(b, "run_id"));
		ADD("run_after", COPY(a, "run_id"));
		ADD("median_before", prof_json_double(before));
		ADD("median_after", prof_json_double(after));
		ADD("change_pct",
		    before > 0 ? prof_json_double(pct_of(before, after)) :
				 NULL);
		ADD("runs_before", json_object_new_int64((long long)(c - lo)));
		ADD("runs_after", json_object_new_int64((long long)(hi - c)));
		ADD("index", json_object_new_int64((long long)c + 1));
		ADD("status_before", COPY(b, cs));
		ADD("status_after", COPY(a, cs));
		ADD("reason_after", COPY(a, cr));
		ADD("channel", json_object_new_string(ch ? "memory" : "time"));
		ADD("metric",
		    ch ? json_object_new_string(prof_cmp_metrics[ch].key) :
			 NULL);
		ADD("unit", json_object_new_string(
				    ch ? prof_cmp_metrics[ch].unit : "ms"));
#undef ADD
#undef COPY
		json_object_array_add(out, o);
	}
	rc = 0;
out:
	free(x);
	free(cuts);
	return rc;
}

static int
same_series(struct json_object *a, struct json_object *b)
{
	static const char *const keys[] = {"workload", "backend", "segment_id",
					   NULL};
	const char *const *k;

	for (k = keys; *k; k++)
		if (strcmp(prof_json_str(a, *k), prof_json_str(b, *k)))
			return 0;
	return 1;
}

struct json_object *
prof_history_changes(struct prof_history *h,
		     const struct prof_history_filter *f, const char *since,
		     struct prof_err *err)
{
	struct prof_history_order *o = order_of(h, err);
	struct json_object *all = NULL, *out = NULL;
	struct json_object **pts = NULL;
	long long since_pos = 0, *pos = NULL;
	size_t i, n, start, m;

	if (!o || (since && since_position(h, o, since, &since_pos, err) < 0))
		return NULL;
	/* By series, each row with its run's position in run order
	 * (run_rank). */
	all = h->ops->trend(h->b, f, 1, o, err);
	if (!all)
		goto fail;
	n = json_object_array_length(all);
	out = json_object_new_array();
	pts = malloc((n ? n : 1) * sizeof(*pts));
	pos = malloc((n ? n : 1) * sizeof(*pos));
	if (!out || !pts || !pos)
		goto oom;
	for (start = 0; start < n; start = i) {
		struct json_object *first =
			json_object_array_get_idx(all, start);
		size_t end;
		int c;

		for (end = start; end < n; end++)
			if (!same_series(first,
					 json_object_array_get_idx(all, end)))
				break;
		/* The times, then each memory metric: a series each. */
		for (c = 0; c < PROF_HISTORY_CHANNELS; c++) {
			m = 0;
			for (i = start; i < end; i++) {
				struct json_object *p =
					json_object_array_get_idx(all, i);

				/* No value: every sample errored, or the
				 * metric was not measured. */
				if (!prof_json_is_number(json_object_object_get(
					    p, value_key(c))))
					continue;
				pts[m] = p;
				pos[m++] = json_object_get_int64(
					json_object_object_get(p, "run_rank"));
			}
			if (m > PROF_STEPS_MAX_RUNS) {
				memmove(pts, pts + m - PROF_STEPS_MAX_RUNS,
					PROF_STEPS_MAX_RUNS * sizeof(*pts));
				memmove(pos, pos + m - PROF_STEPS_MAX_RUNS,
					PROF_STEPS_MAX_RUNS * sizeof(*pos));
				m = PROF_STEPS_MAX_RUNS;
			}
			if (series_changes(pts, pos, m, c, since_pos, out) < 0)
				goto oom;
		}
		i = end;
	}
	free(pts);
	free(pos);
	json_object_put(all);
	return out;
oom:
	prof_err_set(err, "out of memory");
fail:
	free(pts);
	free(pos);
	json_object_put(all);
	json_object_put(out);
	return NULL;
}
