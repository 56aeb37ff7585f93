/* runner.c: what prof-time, prof-mem and prof-trace share: reading the
 * workload binaries, choosing workload x backend groups by mode, category
 * and backend, running each group in a fresh worker process, and timing
 * commands. Each tool is this with one phase and its own usage text. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "afile.h"
#include "cli.h"
#include "runner.h"
#include "env.h"
#include "json.h"
#include "sample.h"
#include "spawn.h"
#include "stats.h"
#include "sum.h"
#include "trace.h"

/* A workload as a binary's --list describes it. */
struct wl {
	const char *bin;
	struct json_object *desc;	/* owned */
	const char *id;
	const char *category;
	const char *cold_group;
	int quick;
	int cpu, gpu;
};

struct bin {
	const char *path;
	int probed;
	int gpu_ok;
	struct json_object *probe;	/* owned; .gpu */
	char gpu_why[512];
};

struct group {
	struct wl *w;
	struct bin *b;
	const char *backend;	/* cpu, gpu */
	const char *kind;	/* warm, cold */
	long warmup;
	long repeat;
};

struct opts {
	const struct runner_tool *tool;
	const char *phase;	/* timing, memory, profile */
	const char *mode;	/* quick, full, diagnose, command, list */
	const char *diagnose_id;
	const char *bins[64];
	int n_bins;
	long long repeat, warmup;
	const char *cats[64];
	int n_cats;
	const char *excl[64];
	int n_excl;
	const char *backend;
	const char *output;
	double timeout_s;
	unsigned long long seed;
	int has_seed;
	int quiet;
	/* command mode */
	const char *name;
	double warning_floor_ms;
	const char *problem_size;
	long long expect_exit;
	char **argv;
	/* memory and profile phases */
	const char *artifacts;
	double min_seconds;
	char preload[PATH_MAX + 64];
};

/* The run's state while groups execute. */
struct run {
	struct opts *o;
	FILE *out;
	long errors;
	long samples;
	/* the group being read */
	long got;
	double *durations;
	size_t n_dur, cap_dur;
	long lines;
	long bad_lines;
	char first_bad[600];
	char first_error[600];
	char note[600];
};

static volatile int interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* splitmix64: a small, well-mixed generator for the run order. */
static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
in_list(const char *s, const char *const *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

/* A file beside this program: its workload binary, its preload libraries. */
static const char *
beside_me(const char *name, char *path, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0) {
		snprintf(path, n, "%s", name);
		return path;
	}
	self[len] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, n, "%s/%s", self, name);
	return path;
}

static const char *
default_bin(void)
{
	static char path[PATH_MAX + 32];

	return beside_me("prof-workloads", path, sizeof(path));
}

struct collect {
	struct json_object *arr;
	struct prof_err err;
	const char *name;
	int line;
	int bad;
};

static int
collect_line(void *arg, char *line, size_t len, int complete)
{
	struct collect *c = arg;
	struct json_object *o;

	c->line++;
	if (c->bad)
		return 0;
	o = prof_json_parse(line, len, c->name, c->line, &c->err);
	if (!o) {
		c->bad = 1;
		return 0;
	}
	json_object_array_add(c->arr, o);
	(void)complete;
	return 0;
}

/*
 * Run "bin flag" and return its JSON lines as an array, or NULL after
 * printing why (exit 2 territory).
 */
static struct json_object *
ask_bin(const char *bin, const char *flag)
{
	char *argv[] = {(char *)bin, (char *)flag, NULL};
	struct collect c = {.arr = json_object_new_array(), .name = bin};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 60,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = collect_line,
		.arg = &c,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	char why[1024];

	if (access(bin, X_OK) != 0 && strchr(bin, '/')) {
		cli_say("workload binary '%s': %s%s", bin, strerror(errno),
			errno == ENOENT ? " (run make to build it, or pass "
					  "--workloads BIN)" :
					  "");
		json_object_put(c.arr);
		return NULL;
	}
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		cli_err(&err);
		json_object_put(c.arr);
		return NULL;
	}
	if (!prof_spawn_ok(&res)) {
		prof_spawn_describe(&res, bin, sp.timeout_s, why, sizeof(why));
		cli_say("workload binary '%s' %s failed: %s", bin, flag, why);
		prof_spawn_free(&res);
		json_object_put(c.arr);
		return NULL;
	}
	prof_spawn_free(&res);
	if (c.bad) {
		cli_say("workload binary '%s' %s wrote bad JSON: %s", bin, flag,
			prof_err_str(&c.err, why, sizeof(why)));
		json_object_put(c.arr);
		return NULL;
	}
	return c.arr;
}

static int
has_backend(struct json_object *desc, const char *b)
{
	struct json_object *a;
	size_t i;

	if (!json_object_object_get_ex(desc, "backends", &a))
		return 0;
	for (i = 0; i < json_object_array_length(a); i++)
		if (!strcmp(json_object_get_string(
				    json_object_array_get_idx(a, i)),
			    b))
			return 1;
	return 0;
}

/* Read every binary's list. Returns the count, or -1 after a message. */
static long
load_workloads(struct opts *o, struct bin *bins, struct wl **out)
{
	struct wl *all = NULL;
	long n = 0;
	int b;
	size_t i;

	for (b = 0; b < o->n_bins; b++) {
		struct json_object *arr = ask_bin(o->bins[b], "--list");

		bins[b].path = o->bins[b];
		if (!arr)
			goto fail;
		for (i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *d = json_object_array_get_idx(arr, i);
			struct wl *w;
			struct json_object *q;
			long k;

			if (!prof_json_str(d, "id") || !prof_json_str(d, "category")) {
				cli_say("workload binary '%s' --list: entry %zu has "
					"no id or category",
					o->bins[b], i + 1);
				json_object_put(arr);
				goto fail;
			}
			for (k = 0; k < n; k++)
				if (!strcmp(all[k].id, prof_json_str(d, "id"))) {
					cli_say("workload '%s' is in both '%s' and '%s'",
						all[k].id, all[k].bin, o->bins[b]);
					json_object_put(arr);
					goto fail;
				}
			w = realloc(all, (size_t)(n + 1) * sizeof(*all));
			if (!w) {
				json_object_put(arr);
				goto fail;
			}
			all = w;
			w = &all[n++];
			memset(w, 0, sizeof(*w));
			w->bin = o->bins[b];
			w->desc = json_object_get(d);
			w->id = prof_json_str(d, "id");
			w->category = prof_json_str(d, "category");
			w->cold_group = prof_json_str(d, "cold_group");
			w->quick = json_object_object_get_ex(d, "quick", &q) &&
				   json_object_get_boolean(q);
			w->cpu = has_backend(d, "cpu");
			w->gpu = has_backend(d, "gpu");
		}
		json_object_put(arr);
	}
	*out = all;
	return n;
fail:
	while (n > 0)
		json_object_put(all[--n].desc);
	free(all);
	return -1;
}

/* Ask a binary once whether it has a usable GPU. */
static void
probe_bin(struct bin *b)
{
	struct json_object *arr, *g = NULL, *av;

	if (b->probed)
		return;
	b->probed = 1;
	arr = ask_bin(b->path, "--probe");
	if (!arr || json_object_array_length(arr) < 1) {
		snprintf(b->gpu_why, sizeof(b->gpu_why),
			 "'%s' --probe did not answer", b->path);
		json_object_put(arr);
		return;
	}
	b->probe = json_object_get(json_object_array_get_idx(arr, 0));
	json_object_put(arr);
	if (json_object_object_get_ex(b->probe, "gpu", &g) &&
	    json_object_object_get_ex(g, "available", &av) &&
	    json_object_get_boolean(av)) {
		b->gpu_ok = 1;
		return;
	}
	snprintf(b->gpu_why, sizeof(b->gpu_why), "%s",
		 g && prof_json_str(g, "reason") ? prof_json_str(g, "reason") :
						   "unknown reason");
}

static struct bin *
bin_of(struct bin *bins, int n, const char *path)
{
	int i;

	for (i = 0; i < n; i++)
		if (bins[i].path == path)
			return &bins[i];
	return NULL;
}

/* The environment of a sample prof-time writes itself (errors). */
static struct json_object *
env_for(struct group *g, const char *requested)
{
	struct json_object *build = NULL, *gpu = NULL;
	struct prof_env_in in = {0};
	int on_gpu = !strcmp(g->backend, "gpu") && g->b && g->b->gpu_ok;

	json_object_object_get_ex(g->w->desc, "build", &build);
	in.compiler = prof_json_str(build, "compiler");
	in.compiler_version = prof_json_str(build, "compiler_version");
	in.cflags = prof_json_str(build, "cflags");
	in.backend_requested = requested;
	in.backend = g->backend;
	in.dtype = prof_json_str(g->w->desc, "dtype");
	in.problem_size = prof_json_str(g->w->desc, "problem_size");
	in.tile = prof_json_str(g->w->desc, "tile");
	if (on_gpu && json_object_object_get_ex(g->b->probe, "gpu", &gpu)) {
		struct json_object *v;

		in.device = prof_json_str(gpu, "name");
		in.device_cc = prof_json_str(gpu, "cc");
		if (json_object_object_get_ex(gpu, "sms", &v))
			in.device_sms = json_object_get_int(v);
		if (json_object_object_get_ex(gpu, "memory_bytes", &v))
			in.device_memory_bytes = json_object_get_int64(v);
		in.cuda_driver = prof_json_str(gpu, "driver");
		in.cuda_runtime = prof_json_str(gpu, "runtime");
	}
	return prof_env_collect(&in);
}

static int
write_sample(struct run *r, struct json_object *s)
{
	const char *text;

	json_object_object_add(s, "order_seed",
			       json_object_new_int64((int64_t)r->o->seed));
	text = json_object_to_json_string_ext(
		s, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (fputs(text, r->out) == EOF || fputc('\n', r->out) == EOF)
		return -1;
	if (r->out == stdout)
		fflush(stdout);
	r->samples++;
	if (prof_sample_is(s, "outcome", "error")) {
		if (!r->first_error[0])
			snprintf(r->first_error, sizeof(r->first_error), "%s",
				 prof_sample_str(s, "reason"));
		r->errors++;
	}
	return 0;
}

static void
error_sample(struct run *r, struct group *g, long index, const char *reason)
{
	struct json_object *build = NULL, *s;
	struct prof_sample_meta m = {0};

	json_object_object_get_ex(g->w->desc, "build", &build);
	m.workload = g->w->id;
	m.version = json_object_get_int64(
		json_object_object_get(g->w->desc, "version"));
	m.category = g->w->category;
	m.fixture = prof_json_str(g->w->desc, "fixture");
	m.warning_floor_ms = prof_json_number(
		json_object_object_get(g->w->desc, "warning_floor_ms"));
	m.backend = g->backend;
	s = prof_sample_new(&m, env_for(g, r->o->backend), r->o->phase, g->kind,
			    index);
	prof_sample_fail(s, reason, -1);
	write_sample(r, s);
	json_object_put(s);
}

/* What the progress line says of a memory or profile sample. */
static void
note_result(struct run *r, struct json_object *s)
{
	struct json_object *m = NULL, *v = NULL;

	r->note[0] = '\0';
	if (!strcmp(r->o->phase, "memory") &&
	    json_object_object_get_ex(s, "memory", &m)) {
		double peak = prof_json_number(
			json_object_object_get(m, "host_peak_bytes"));
		double rss = prof_json_number(
			json_object_object_get(m, "rss_peak_bytes"));

		snprintf(r->note, sizeof(r->note),
			 "host heap peak %.2f MiB, RSS peak %.2f MiB",
			 peak / 1048576.0, rss / 1048576.0);
		if (json_object_object_get_ex(m, "device_peak_allocated_bytes",
					      &v) && v)
			snprintf(r->note + strlen(r->note),
				 sizeof(r->note) - strlen(r->note),
				 ", device peak %.2f MiB",
				 prof_json_number(v) / 1048576.0);
	} else if (!strcmp(r->o->phase, "profile") &&
		   json_object_object_get_ex(s, "metrics", &m)) {
		snprintf(r->note, sizeof(r->note),
			 "%.0f calls, %.0f profile samples, %s",
			 prof_json_number(json_object_object_get(m, "calls")),
			 prof_json_number(
				 json_object_object_get(m, "profile_samples")),
			 json_object_get_string(json_object_array_get_idx(
				 json_object_object_get(s, "artifacts"), 0)));
	}
}

/* A line from a worker: it must be a sample of this group. */
static int
worker_line(void *arg, char *line, size_t len, int complete)
{
	struct run *r = arg;
	struct prof_err err = {0};
	struct json_object *s;
	char buf[512];

	if (!complete)
		return 0;	/* cut off by a crash; the crash is reported */
	r->lines++;
	s = prof_json_parse(line, len, "worker stdout", (int)r->lines, &err);
	if (s && prof_sample_check(s, "", &err) < 0) {
		json_object_put(s);
		s = NULL;
	}
	if (!s) {
		if (!r->bad_lines++)
			snprintf(r->first_bad, sizeof(r->first_bad), "%s",
				 prof_err_str(&err, buf, sizeof(buf)));
		return 0;
	}
	if (prof_sample_is(s, "outcome", "success") && r->n_dur < r->cap_dur)
		r->durations[r->n_dur++] = prof_sample_num(s, "duration_ms");
	if (prof_sample_is(s, "outcome", "success"))
		note_result(r, s);
	r->got++;
	if (write_sample(r, s) < 0) {
		json_object_put(s);
		return 1;
	}
	json_object_put(s);
	return 0;
}

static void
progress(struct run *r, int i, int n, struct group *g, const char *error)
{
	struct prof_stats st;

	if (r->o->quiet)
		return;
	if (error) {
		fprintf(stderr, "%s: [%d/%d] %s %s%s: error: %s\n", cli_name, i,
			n, g->w->id, g->backend,
			strcmp(g->kind, "cold") ? "" : " (cold)", error);
		return;
	}
	if (strcmp(r->o->phase, "timing")) {
		fprintf(stderr, "%s: [%d/%d] %s %s: %s\n", cli_name, i, n,
			g->w->id, g->backend, r->note);
		return;
	}
	prof_stats_compute(r->durations, r->n_dur, &st);
	fprintf(stderr, "%s: [%d/%d] %s %s%s: median %.3f ms (n=%zu)\n",
		cli_name, i, n, g->w->id, g->backend,
		strcmp(g->kind, "cold") ? "" : " (cold)", st.median, st.n);
}

/* Run one group in a fresh worker. Returns -1 on an output failure. */
static int
run_group(struct run *r, struct group *g, int i, int n)
{
	char home[PATH_MAX], home_env[PATH_MAX + 8], warm[32], rep[32];
	char secs[32], preload_env[PATH_MAX + 96];
	char *argv[24];
	/* Nothing of the other phases leaks into a worker: no profiler, no
	 * interposer unless this is the memory phase. */
	char *unset[] = {"LD_PRELOAD", "CPUPROFILE", "HEAPPROFILE",
			 "PROF_ALLOC_LOG", "PROF_CPUPROFILE", NULL};
	char *set[] = {home_env, NULL, NULL};
	struct prof_spawn sp = {0};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	char why[1400], first_error[1024] = "";
	long errors_before = r->errors;
	int k = 0;

	snprintf(warm, sizeof(warm), "%ld", g->warmup);
	snprintf(rep, sizeof(rep), "%ld", g->repeat);
	argv[k++] = (char *)g->w->bin;
	argv[k++] = "--worker";
	argv[k++] = (char *)g->w->id;
	argv[k++] = "--backend";
	argv[k++] = (char *)g->backend;
	argv[k++] = "--requested";
	argv[k++] = (char *)r->o->backend;
	argv[k++] = "--phase";
	argv[k++] = (char *)r->o->phase;
	argv[k++] = "--kind";
	argv[k++] = (char *)g->kind;
	argv[k++] = "--warmup";
	argv[k++] = warm;
	argv[k++] = "--repeat";
	argv[k++] = rep;
	if (!strcmp(r->o->phase, "profile")) {
		snprintf(secs, sizeof(secs), "%g", r->o->min_seconds);
		argv[k++] = "--artifacts";
		argv[k++] = (char *)r->o->artifacts;
		argv[k++] = "--min-seconds";
		argv[k++] = secs;
	}
	argv[k] = NULL;
	if (!strcmp(r->o->phase, "memory")) {
		snprintf(preload_env, sizeof(preload_env), "LD_PRELOAD=%s",
			 r->o->preload);
		set[1] = preload_env;
	}
	if (prof_tmpdir_new("prof-home", home, sizeof(home), &err) < 0) {
		cli_err(&err);
		return -1;
	}
	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	r->got = 0;
	r->n_dur = 0;
	r->bad_lines = 0;
	r->lines = 0;
	r->first_error[0] = '\0';
	sp.argv = argv;
	sp.env_set = set;
	sp.env_unset = unset;
	sp.timeout_s = r->o->timeout_s;
	sp.stdout_fd = PROF_SPAWN_PIPE;
	sp.on_line = worker_line;
	sp.arg = r;
	sp.stderr_fd = -1;
	sp.cancel = &interrupted;
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_tmpdir_remove(home);
		cli_err(&err);
		return -1;
	}
	prof_tmpdir_remove(home);
	if (res.stopped_by_caller) {
		prof_spawn_free(&res);
		return -1;
	}
	if (r->bad_lines) {
		snprintf(why, sizeof(why),
			 "worker wrote %ld line(s) that are not samples; first: %s",
			 r->bad_lines, r->first_bad);
		error_sample(r, g, r->got, why);
	}
	if (!prof_spawn_ok(&res)) {
		char d[1200];

		prof_spawn_describe(&res, g->w->bin, sp.timeout_s, d, sizeof(d));
		snprintf(why, sizeof(why), "worker %s", d);
		error_sample(r, g, r->got, why);
	} else if (!r->bad_lines && r->got < g->repeat && r->errors == errors_before) {
		snprintf(why, sizeof(why),
			 "worker exited after %ld of %ld samples", r->got,
			 g->repeat);
		error_sample(r, g, r->got, why);
	}
	prof_spawn_free(&res);
	if (r->errors > errors_before) {
		snprintf(first_error, sizeof(first_error), "%ld sample(s): %s",
			 r->errors - errors_before, r->first_error);
		progress(r, i, n, g, first_error);
	} else {
		progress(r, i, n, g, NULL);
	}
	return 0;
}

/* Build the groups for the selected workloads. */
static int
plan(struct opts *o, struct wl *all, long n_all, struct bin *bins,
     struct group **out, int *n_out)
{
	struct group *gs = calloc((size_t)(n_all * 3 + 1), sizeof(*gs));
	int n = 0, skipped_gpu_only = 0, skipped_cpu_only = 0;
	const char *no_gpu_why = NULL;
	const char *cold_seen[256];
	int n_cold = 0;
	long k;
	long warmup = o->warmup, repeat = o->repeat;
	int is_full = !strcmp(o->mode, "full");

	if (!gs)
		return cli_fail("out of memory");
	for (k = 0; k < n_all; k++) {
		struct wl *w = &all[k];
		struct bin *b = bin_of(bins, o->n_bins, w->bin);
		const char *backs[2];
		int nb = 0, j;
		int want_cold = 0;

		if (!strcmp(o->mode, "diagnose")) {
			if (strcmp(w->id, o->diagnose_id))
				continue;
		} else {
			if (!strcmp(o->mode, "quick") && !w->quick)
				continue;
			if (o->n_cats && !in_list(w->category, o->cats, o->n_cats))
				continue;
			if (in_list(w->category, o->excl, o->n_excl))
				continue;
		}
		if (w->gpu && strcmp(o->backend, "cpu"))
			probe_bin(b);
		if (!strcmp(o->backend, "cpu")) {
			if (w->cpu)
				backs[nb++] = "cpu";
			else
				skipped_gpu_only++;
		} else if (!strcmp(o->backend, "gpu")) {
			if (w->gpu)
				backs[nb++] = "gpu";
			else
				skipped_cpu_only++;
		} else if (!strcmp(o->backend, "all")) {
			if (w->gpu && !b->gpu_ok && w->cpu && !no_gpu_why)
				no_gpu_why = b->gpu_why;
			if (w->cpu)
				backs[nb++] = "cpu";
			if (w->gpu && b->gpu_ok)
				backs[nb++] = "gpu";
			else if (w->gpu && !w->cpu)
				skipped_gpu_only++;
		} else { /* auto: what production would pick */
			if (w->gpu && !b->gpu_ok && w->cpu && !no_gpu_why)
				no_gpu_why = b->gpu_why;
			if (w->gpu && b->gpu_ok)
				backs[nb++] = "gpu";
			else if (w->cpu)
				backs[nb++] = "cpu";
			else
				skipped_gpu_only++;
		}
		if (is_full && !strcmp(o->phase, "timing") && w->cold_group &&
		    w->cold_group[0] &&
		    !in_list(w->cold_group, cold_seen, n_cold) && nb &&
		    n_cold < 256) {
			cold_seen[n_cold++] = w->cold_group;
			want_cold = 1;
		}
		for (j = 0; j < nb; j++) {
			gs[n++] = (struct group){w, b, backs[j], "warm", warmup,
						 repeat};
			if (want_cold)
				gs[n++] = (struct group){w, b, backs[j], "cold", 0,
							 1};
		}
	}
	if (!o->quiet && no_gpu_why)
		cli_say("no CUDA device found (%s): running the CPU path only",
			no_gpu_why);
	if (!o->quiet && skipped_cpu_only)
		cli_say("skipping %d workload(s) with no GPU path (--backend gpu)",
			skipped_cpu_only);
	if (!o->quiet && skipped_gpu_only)
		cli_say("skipping %d GPU-only workload(s): %s", skipped_gpu_only,
			!strcmp(o->backend, "cpu") ? "--backend cpu" :
						     "no CUDA device found");
	*out = gs;
	*n_out = n;
	return 0;
}

/* --backend gpu needs a device in some binary: exit 2 otherwise. */
static int
require_gpu(struct opts *o, struct bin *bins)
{
	const char *why = NULL;
	int i;

	for (i = 0; i < o->n_bins; i++) {
		probe_bin(&bins[i]);
		if (bins[i].gpu_ok)
			return 0;
		/* Prefer the reason of a binary that has a GPU backend. */
		if (!why || strstr(why, "without a GPU backend"))
			why = bins[i].gpu_why;
	}
	return cli_fail("--backend gpu: no CUDA device found: %s",
			why ? why : "no workload binary");
}

static int
cmd_list(struct opts *o)
{
	struct bin bins[64];
	struct wl *all = NULL;
	long n, k;

	memset(bins, 0, sizeof(bins));
	n = load_workloads(o, bins, &all);
	if (n < 0)
		return PROF_EXIT_FAILURE;
	for (k = 0; k < n; k++) {
		printf("%-36s %-10s %-8s%s\n", all[k].id, all[k].category,
		       all[k].cpu && all[k].gpu ? "cpu,gpu" :
		       all[k].gpu		? "gpu" :
						  "cpu",
		       all[k].quick ? " quick" : "");
		json_object_put(all[k].desc);
	}
	free(all);
	return cli_finish(PROF_EXIT_OK);
}

static int
open_output(struct opts *o, struct prof_afile *af, FILE **fp)
{
	struct prof_err err = {0};

	if (!strcmp(o->output, "-")) {
		*fp = stdout;
		return 0;
	}
	*fp = prof_afile_open(af, o->output, &err);
	if (!*fp) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

static int
close_output(struct opts *o, struct prof_afile *af, FILE *fp, int ok)
{
	struct prof_err err = {0};

	if (fp == stdout)
		return cli_finish(0) == 0 ? 0 : -1;
	if (!ok) {
		prof_afile_abort(af);
		return 0;
	}
	if (prof_afile_commit(af, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

static int
cmd_workloads(struct opts *o)
{
	struct bin bins[64];
	struct wl *all = NULL;
	struct group *gs = NULL;
	struct run r = {0};
	struct prof_afile af = {0};
	long n_all, k;
	int n = 0, i, rc = PROF_EXIT_FAILURE, ok = 0;
	uint64_t st;

	memset(bins, 0, sizeof(bins));
	n_all = load_workloads(o, bins, &all);
	if (n_all < 0)
		return PROF_EXIT_FAILURE;
	if (!strcmp(o->mode, "diagnose")) {
		for (k = 0; k < n_all; k++)
			if (!strcmp(all[k].id, o->diagnose_id))
				break;
		if (k == n_all) {
			cli_say("unknown workload '%s'", o->diagnose_id);
			goto out;
		}
	}
	if (!strcmp(o->backend, "gpu") && require_gpu(o, bins))
		goto out;
	if (plan(o, all, n_all, bins, &gs, &n))
		goto out;
	if (n == 0) {
		cli_say("no workload matches mode '%s' with these categories "
			"and backend '%s'",
			o->mode, o->backend);
		goto out;
	}
	/* Interleave: a slow drift of the machine then hits no workload
	 * more than another. The seed is recorded in every sample. */
	st = o->seed;
	for (i = n - 1; i > 0; i--) {
		int j = (int)(splitmix64(&st) % (uint64_t)(i + 1));
		struct group t = gs[i];

		gs[i] = gs[j];
		gs[j] = t;
	}
	if (!o->quiet)
		cli_say("%s: %d group(s), order seed %llu", o->mode, n,
			(unsigned long long)o->seed);
	r.o = o;
	r.cap_dur = 1;
	for (i = 0; i < n; i++)
		if ((size_t)gs[i].repeat > r.cap_dur)
			r.cap_dur = (size_t)gs[i].repeat;
	r.durations = calloc(r.cap_dur, sizeof(*r.durations));
	if (!r.durations || open_output(o, &af, &r.out) < 0)
		goto out;
	for (i = 0; i < n && !interrupted; i++)
		if (run_group(&r, &gs[i], i + 1, n) < 0)
			break;
	if (interrupted) {
		cli_say("interrupted; no output written");
	} else if (i < n) {
		cli_say("cannot write the samples to '%s'", o->output);
	} else {
		ok = 1;
	}
	if (close_output(o, &af, r.out, ok) < 0)
		ok = 0;
	if (ok) {
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
		if (!o->quiet)
			cli_say("%ld sample(s), %ld error(s)", r.samples,
				r.errors);
	}
out:
	free(r.durations);
	free(gs);
	for (k = 0; k < n_all; k++)
		json_object_put(all[k].desc);
	free(all);
	for (i = 0; i < o->n_bins; i++)
		json_object_put(bins[i].probe);
	return rc;
}

/* The path a command runs from: itself with a slash, else found in PATH. */
static void
resolve_program(const char *prog, char *out, size_t n)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	snprintf(out, n, "%s", prog);
	if (strchr(prog, '/')) {
		if (!realpath(prog, cand))
			return;
		snprintf(out, n, "%s", cand);
		return;
	}
	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, path, prog);
		if (access(cand, X_OK) == 0) {
			snprintf(out, n, "%s", cand);
			return;
		}
		path += len;
		if (*path == ':')
			path++;
	}
}

/*
 * Samples in a gperftools CPU profile: the file is machine words, a
 * five-word header, then records (count, depth, pcs...) up to the trailer
 * (0, 1, 0). Returns -1 when the file is not one.
 */
static long long
cpuprofile_samples(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uintptr_t h[5], rec[2], pc;
	long long total = 0;
	uintptr_t i;

	if (!fp)
		return -1;
	if (fread(h, sizeof(h[0]), 5, fp) != 5 || h[0] != 0 || h[1] != 3) {
		fclose(fp);
		return -1;
	}
	while (fread(rec, sizeof(rec[0]), 2, fp) == 2) {
		if (rec[0] == 0 && rec[1] == 1)
			break;
		total += (long long)rec[0];
		for (i = 0; i < rec[1]; i++)
			if (fread(&pc, sizeof(pc), 1, fp) != 1)
				break;
	}
	fclose(fp);
	return total;
}

static double
tv_ms(struct timeval tv)
{
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

/* The sample of one run of a command, before its outcome is set. */
static struct json_object *
command_sample(struct opts *o, const char *fixture_sum, long index,
	       const struct prof_spawn_result *res)
{
	struct prof_env_in in = {0};
	struct prof_sample_meta m = {0};
	struct json_object *s, *metrics;

	in.backend_requested = "cpu";
	in.backend = "cpu";
	in.problem_size = o->problem_size ? o->problem_size : "none";
	in.dtype = "none";
	in.tile = "none";
	m.workload = o->name;
	m.version = 1;
	m.category = o->cats[0] ? o->cats[0] : "command";
	m.fixture = "command";
	m.fixture_checksum = fixture_sum;
	m.warning_floor_ms = o->warning_floor_ms;
	m.backend = "cpu";
	s = prof_sample_new(&m, prof_env_collect(&in), o->phase, "warm", index);
	metrics = json_object_new_object();
	json_object_object_add(metrics, "user_ms",
			       prof_json_double(tv_ms(res->ru.ru_utime)));
	json_object_object_add(metrics, "system_ms",
			       prof_json_double(tv_ms(res->ru.ru_stime)));
	json_object_object_add(
		metrics, "max_rss_bytes",
		json_object_new_int64((int64_t)res->ru.ru_maxrss * 1024));
	json_object_object_add(
		metrics, "exit_status",
		json_object_new_int(res->exited ? res->exit_code : -1));
	json_object_object_add(s, "metrics", metrics);
	return s;
}

/* Why a run of a command failed, or "" when it succeeded. */
static void
command_outcome(struct opts *o, const struct prof_spawn_result *res,
		char *why, size_t n)
{
	char last[512];
	size_t off;

	why[0] = '\0';
	if (!res->timed_out && res->exited && res->exit_code == o->expect_exit)
		return;
	if (!res->exited || res->timed_out) {
		prof_spawn_describe(res, o->argv[0], o->timeout_s, why, n);
		return;
	}
	snprintf(why, n, "exited with status %d, expected %lld",
		 res->exit_code, o->expect_exit);
	prof_last_line(res->stderr_tail, last, sizeof(last));
	off = strlen(why);
	if (last[0] && off < n)
		snprintf(why + off, n - off, ": %s", last);
}

static int
keep_record(void *procs, struct json_object *record, struct prof_err *err)
{
	(void)err;
	json_object_array_add(procs, record);
	return 0;
}

/*
 * The memory sample of a command: every process of the tree appended a
 * line to the log (libprof-alloc.so's destructor). The sample keeps them
 * all under "processes" and sums them up under "memory".
 */
static void
command_memory(struct json_object *s, const char *log,
	       const struct prof_spawn_result *res)
{
	struct json_object *procs = json_object_new_array(), *m, *p;
	long long top = 0, sum = 0, allocs = 0;
	char *buf = NULL;
	size_t len = 0, i;
	struct prof_err err = {0};

	/* One write per line (O_APPEND): no line is torn. */
	if (prof_json_read_file(log, &buf, &len, &err) == 0)
		prof_json_lines(buf, len, log, keep_record, procs, &err);
	free(buf);
	for (i = 0; i < json_object_array_length(procs); i++) {
		long long peak;

		p = json_object_array_get_idx(procs, i);
		peak = (long long)prof_json_number(
			json_object_object_get(p, "host_peak_bytes"));
		top = peak > top ? peak : top;
		sum += peak;
		allocs += (long long)prof_json_number(
			json_object_object_get(p, "host_allocs"));
	}
	m = json_object_new_object();
	json_object_object_add(m, "host_peak_bytes", json_object_new_int64(top));
	json_object_object_add(m, "host_peak_sum_bytes",
			       json_object_new_int64(sum));
	json_object_object_add(m, "host_allocs", json_object_new_int64(allocs));
	json_object_object_add(
		m, "processes",
		json_object_new_int64((int64_t)json_object_array_length(procs)));
	json_object_object_add(
		m, "rss_peak_bytes",
		json_object_new_int64((int64_t)res->ru.ru_maxrss * 1024));
	json_object_object_add(s, "memory", m);
	json_object_object_add(s, "processes", procs);
}

/* A command's profile: the .prof, a trace with the run, the sample. */
static int
command_profile(struct opts *o, struct json_object *s, const char *prof_name,
		const char *prof_path, double t0, const struct prof_spawn_result *res)
{
	char trace_name[PATH_MAX], trace_path[PATH_MAX + 512];
	char program[PATH_MAX];
	struct prof_trace *t = prof_trace_new(o->name, res->pid, 16);
	struct prof_err err = {0};
	struct json_object *metrics = json_object_object_get(s, "metrics");
	struct json_object *arts = json_object_object_get(s, "artifacts");
	int rc;

	resolve_program(o->argv[0], program, sizeof(program));
	snprintf(trace_name, sizeof(trace_name), "%s.trace.json", o->name);
	snprintf(trace_path, sizeof(trace_path), "%s/%s", o->artifacts,
		 trace_name);
	prof_trace_complete(t, o->argv[0], "command", t0, t0 + res->wall_ms);
	rc = prof_trace_write(t, trace_path, &err);
	prof_trace_free(t);
	if (rc < 0) {
		cli_err(&err);
		return -1;
	}
	json_object_object_add(metrics, "binary", json_object_new_string(program));
	json_object_object_add(metrics, "calls", json_object_new_int(1));
	json_object_object_add(metrics, "profile_samples",
			       json_object_new_int64(cpuprofile_samples(prof_path)));
	json_object_array_add(arts, json_object_new_string(prof_name));
	json_object_array_add(arts, json_object_new_string(trace_name));
	return 0;
}

/*
 * A command as a workload: one fresh process per sample, no shell, stdout
 * thrown away. Timing: wall time, user and system CPU and max RSS from
 * wait4. Memory: the allocation interposer on the whole process tree.
 * Profile: gperftools on the command itself, not its children.
 */
static int
cmd_command(struct opts *o)
{
	struct prof_afile af = {0};
	struct run r = {0};
	struct json_object *argj = json_object_new_array();
	char fixture_sum[PROF_SUM_HEX], tmp[PATH_MAX] = "";
	char log[PATH_MAX + 16], log_env[PATH_MAX + 32];
	char preload_env[PATH_MAX + 96], prof_env[PATH_MAX + 600];
	char prof_name[PATH_MAX], prof_path[PATH_MAX + 512];
	struct prof_err err = {0};
	long total = (long)(o->warmup + o->repeat), i;
	int ok = 0, rc = PROF_EXIT_FAILURE;
	double *dur = calloc((size_t)o->repeat + 1, sizeof(*dur));
	size_t n_dur = 0;

	for (i = 0; o->argv[i]; i++)
		json_object_array_add(argj, json_object_new_string(o->argv[i]));
	prof_sum_json(argj, fixture_sum);
	json_object_put(argj);
	r.o = o;
	if (!dur || open_output(o, &af, &r.out) < 0)
		goto out;
	if (strcmp(o->phase, "timing") &&
	    prof_tmpdir_new("prof-cmd", tmp, sizeof(tmp), &err) < 0) {
		cli_err(&err);
		goto out;
	}
	snprintf(preload_env, sizeof(preload_env), "LD_PRELOAD=%s", o->preload);
	snprintf(prof_name, sizeof(prof_name), "%s.prof", o->name);
	snprintf(prof_path, sizeof(prof_path), "%s/%s", o->artifacts, prof_name);
	for (i = 0; i < total && !interrupted; i++) {
		char *set[4] = {NULL};
		char *unset[] = {"LD_PRELOAD", "PROF_ALLOC_LOG",
				 "PROF_CPUPROFILE", "CPUPROFILE", NULL};
		struct prof_spawn sp = {0};
		struct prof_spawn_result res;
		struct json_object *s;
		long index = i - (long)o->warmup;
		char why[1200];
		double t0;

		if (!strcmp(o->phase, "memory")) {
			snprintf(log, sizeof(log), "%s/alloc.%ld.jsonl", tmp, i);
			snprintf(log_env, sizeof(log_env), "PROF_ALLOC_LOG=%s", log);
			set[0] = preload_env;
			set[1] = log_env;
		} else if (!strcmp(o->phase, "profile")) {
			snprintf(prof_env, sizeof(prof_env), "PROF_CPUPROFILE=%s",
				 prof_path);
			set[0] = preload_env;
			set[1] = prof_env;
		}
		sp.argv = o->argv;
		sp.env_set = set;
		sp.env_unset = unset;
		sp.timeout_s = o->timeout_s;
		sp.stdout_fd = PROF_SPAWN_DEVNULL;
		sp.stderr_fd = -1;
		sp.cancel = &interrupted;
		t0 = prof_now_ms();
		if (prof_spawn_run(&sp, &res, &err) < 0) {
			cli_err(&err);
			goto out;
		}
		if (res.exec_errno) {
			prof_spawn_describe(&res, o->argv[0], o->timeout_s, why,
					    sizeof(why));
			cli_say("%s", why);
			prof_spawn_free(&res);
			goto out;
		}
		if (index < 0) {
			prof_spawn_free(&res);
			continue;	/* warmup: no sample */
		}
		s = command_sample(o, fixture_sum, index, &res);
		command_outcome(o, &res, why, sizeof(why));
		if (!strcmp(o->phase, "memory"))
			command_memory(s, log, &res);
		if (!why[0] && !strcmp(o->phase, "profile") &&
		    command_profile(o, s, prof_name, prof_path, t0, &res) < 0) {
			json_object_put(s);
			prof_spawn_free(&res);
			goto out;
		}
		if (why[0]) {
			prof_sample_fail(s, why, res.wall_ms);
		} else {
			prof_sample_succeed(s, res.wall_ms, NULL, NULL);
			dur[n_dur++] = res.wall_ms;
			if (strcmp(o->phase, "timing"))
				note_result(&r, s);
		}
		prof_spawn_free(&res);
		if (write_sample(&r, s) < 0) {
			json_object_put(s);
			cli_say("cannot write the samples to '%s'", o->output);
			goto out;
		}
		json_object_put(s);
	}
	if (interrupted) {
		cli_say("interrupted; no output written");
		goto out;
	}
	ok = 1;
out:
	if (close_output(o, &af, r.out ? r.out : stdout, ok) < 0)
		ok = 0;
	if (ok) {
		struct prof_stats st;

		prof_stats_compute(dur, n_dur, &st);
		if (o->quiet)
			;
		else if (strcmp(o->phase, "timing"))
			cli_say("%s: %s, %ld error(s)", o->name,
				n_dur ? r.note : "no result", r.errors);
		else
			cli_say("%s: median %.3f ms, p90 %.3f ms (n=%zu), %ld "
				"error(s)",
				o->name, st.median, st.p90, st.n, r.errors);
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
	}
	if (tmp[0])
		prof_tmpdir_remove(tmp);
	free(dur);
	return rc;
}

enum {
	OPT_WORKLOADS = 256,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_CATEGORY,
	OPT_EXCLUDE,
	OPT_BACKEND,
	OPT_OUTPUT,
	OPT_TIMEOUT,
	OPT_SEED,
	OPT_NAME,
	OPT_FLOOR,
	OPT_PSIZE,
	OPT_EXPECT,
	OPT_LIST,
	OPT_VERSION,
	OPT_ARTIFACTS,
	OPT_MIN_SECONDS,
};

/* Where a profile's files go: --artifacts, else beside --output. */
static int
artifacts_dir(struct opts *o)
{
	static char dir[PATH_MAX];
	struct prof_err err = {0};
	const char *slash;

	if (!o->artifacts) {
		slash = strrchr(o->output, '/');
		if (strcmp(o->output, "-") && slash)
			snprintf(dir, sizeof(dir), "%.*s",
				 (int)(slash - o->output), o->output);
		else
			snprintf(dir, sizeof(dir), ".");
		o->artifacts = dir;
	}
	if (prof_mkdirs(o->artifacts, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

int
runner_main(const struct runner_tool *tool, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"workloads", required_argument, NULL, OPT_WORKLOADS},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"warmup", required_argument, NULL, OPT_WARMUP},
		{"category", required_argument, NULL, OPT_CATEGORY},
		{"exclude-category", required_argument, NULL, OPT_EXCLUDE},
		{"backend", required_argument, NULL, OPT_BACKEND},
		{"output", required_argument, NULL, OPT_OUTPUT},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"seed", required_argument, NULL, OPT_SEED},
		{"name", required_argument, NULL, OPT_NAME},
		{"warning-floor", required_argument, NULL, OPT_FLOOR},
		{"problem-size", required_argument, NULL, OPT_PSIZE},
		{"expect-exit", required_argument, NULL, OPT_EXPECT},
		{"list", no_argument, NULL, OPT_LIST},
		{"artifacts", required_argument, NULL, OPT_ARTIFACTS},
		{"min-seconds", required_argument, NULL, OPT_MIN_SECONDS},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {0};
	struct sigaction sa = {0};
	long long v;
	int c, list = 0;
	int timing = tool->phase == RUNNER_TIMING;
	int profile = tool->phase == RUNNER_PROFILE;
	uint64_t mix;

	cli_init(argv[0]);
	o.tool = tool;
	o.phase = timing ? "timing" : profile ? "profile" : "memory";
	o.repeat = o.warmup = -1;
	o.output = "-";
	o.timeout_s = 600;
	o.warning_floor_ms = 5;
	o.min_seconds = 2;
	while ((c = getopt_long(argc, argv, "qho:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_WORKLOADS:
			if (o.n_bins == 64)
				return cli_fail("--workloads: at most 64");
			o.bins[o.n_bins++] = optarg;
			break;
		case OPT_REPEAT:
			if (cli_number("--repeat", optarg, 1, 1000000, &o.repeat))
				return PROF_EXIT_FAILURE;
			break;
		case OPT_WARMUP:
			if (cli_number("--warmup", optarg, 0, 1000000, &o.warmup))
				return PROF_EXIT_FAILURE;
			break;
		case OPT_CATEGORY:
			if (o.n_cats == 63)
				return cli_fail("--category: at most 63");
			o.cats[o.n_cats++] = optarg;
			break;
		case OPT_EXCLUDE:
			if (o.n_excl == 64)
				return cli_fail("--exclude-category: at most 64");
			o.excl[o.n_excl++] = optarg;
			break;
		case OPT_BACKEND:
			if (strcmp(optarg, "cpu") && strcmp(optarg, "gpu") &&
			    strcmp(optarg, "all") && strcmp(optarg, "auto"))
				return cli_fail("--backend: '%s' is not one of "
						"cpu, gpu, all, auto",
						optarg);
			o.backend = optarg;
			break;
		case 'o':
		case OPT_OUTPUT:
			o.output = optarg;
			break;
		case OPT_TIMEOUT:
			if (cli_real("--timeout", optarg, &o.timeout_s))
				return PROF_EXIT_FAILURE;
			if (o.timeout_s <= 0)
				return cli_fail("--timeout: must be more than 0");
			break;
		case OPT_SEED:
			/* 2^53: every JSON reader keeps it exact. */
			if (cli_number("--seed", optarg, 0, (1LL << 53) - 1, &v))
				return PROF_EXIT_FAILURE;
			o.seed = (unsigned long long)v;
			o.has_seed = 1;
			break;
		case OPT_NAME:
			o.name = optarg;
			break;
		case OPT_FLOOR:
			if (cli_real("--warning-floor", optarg,
				     &o.warning_floor_ms))
				return PROF_EXIT_FAILURE;
			break;
		case OPT_PSIZE:
			o.problem_size = optarg;
			break;
		case OPT_EXPECT:
			if (cli_number("--expect-exit", optarg, 0, 255,
				       &o.expect_exit))
				return PROF_EXIT_FAILURE;
			break;
		case OPT_LIST:
			list = 1;
			break;
		case OPT_ARTIFACTS:
			if (!profile)
				return cli_fail("--artifacts: only prof-trace "
						"writes artifacts");
			o.artifacts = optarg;
			break;
		case OPT_MIN_SECONDS:
			if (!profile)
				return cli_fail("--min-seconds: only for prof-trace");
			if (cli_real("--min-seconds", optarg, &o.min_seconds))
				return PROF_EXIT_FAILURE;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			fputs(tool->usage, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("%s %s\n", cli_name, PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			fputs(tool->usage, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (!o.n_bins) {
		const char *env = getenv("PROF_WORKLOADS");

		o.bins[o.n_bins++] = env && env[0] ? env : default_bin();
	}
	if (!o.has_seed) {
		mix = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		o.seed = splitmix64(&mix) & ((1ULL << 53) - 1);
	}
	if (!timing) {
		beside_me(profile ? "libprof-cpuprofile.so" : "libprof-alloc.so",
			  o.preload, sizeof(o.preload));
		if (access(o.preload, R_OK) != 0)
			return cli_fail("'%s' is missing (run make to build it)",
					o.preload);
	}
	if (profile && artifacts_dir(&o) < 0)
		return PROF_EXIT_FAILURE;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (list) {
		if (optind != argc)
			return cli_fail("--list takes no mode");
		return cmd_list(&o);
	}
	if (o.name) {
		if (optind >= argc)
			return cli_fail("--name needs a command after '--'");
		if (!o.name[0] || strchr(o.name, '/'))
			return cli_fail("--name: '%s' is not a workload id", o.name);
		if (o.n_cats > 1)
			return cli_fail("--category: a command has one category");
		o.mode = "command";
		o.argv = argv + optind;
		if (o.repeat < 0)
			o.repeat = timing ? 10 : 1;
		if (o.warmup < 0)
			o.warmup = 0;
		return cmd_command(&o);
	}
	if (optind >= argc) {
		fputs(tool->usage, stderr);
		return PROF_EXIT_FAILURE;
	}
	o.mode = argv[optind++];
	if (!strcmp(o.mode, "quick")) {
		if (o.warmup < 0)
			o.warmup = 1;
		if (o.repeat < 0)
			o.repeat = 3;
		if (!o.backend)
			o.backend = "cpu";
	} else if (!strcmp(o.mode, "full")) {
		if (o.warmup < 0)
			o.warmup = 2;
		if (o.repeat < 0)
			o.repeat = 10;
		if (!o.backend)
			o.backend = "all";
	} else if (!strcmp(o.mode, "diagnose")) {
		if (optind >= argc)
			return cli_fail("diagnose needs a workload id");
		o.diagnose_id = argv[optind++];
		if (o.warmup < 0)
			o.warmup = 1;
		if (o.repeat < 0)
			o.repeat = 5;
		if (!o.backend)
			o.backend = "auto";
	} else {
		return cli_fail("unknown mode '%s' (quick, full, diagnose ID, or "
				"--name ID -- CMD)",
				o.mode);
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	/* One measured call per workload in the memory phase, straight after
	 * prepare(); the profile phase covers min_seconds after one warmup. */
	if (tool->phase == RUNNER_MEMORY) {
		o.warmup = 0;
		o.repeat = 1;
	} else if (profile) {
		o.warmup = 1;
		o.repeat = 1;
	}
	return cmd_workloads(&o);
}
