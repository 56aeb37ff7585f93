/* prof-time: run workloads (or any command) in fresh workers; emit samples. */
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
#include "env.h"
#include "json.h"
#include "sample.h"
#include "spawn.h"
#include "stats.h"
#include "sum.h"

static const char usage_text[] =
	"usage: prof-time quick|full [options]\n"
	"       prof-time diagnose ID [options]\n"
	"       prof-time --list [--workloads BIN]...\n"
	"       prof-time --name ID [command options] -- CMD [ARG...]\n"
	"\n"
	"Run registered workloads, each workload x backend in a fresh worker\n"
	"process, and write one timing sample per call as a JSON line.\n"
	"\n"
	"modes:\n"
	"  quick          quick-tagged workloads; warmup 1, repeat 3, backend cpu\n"
	"  full           every workload; warmup 2, repeat 10, backend all, plus a\n"
	"                 cold sample for the first workload of each cold group\n"
	"  diagnose ID    that workload only; warmup 1, repeat 5, backend auto\n"
	"\n"
	"options:\n"
	"  --workloads BIN        a workload binary (repeatable; default: the\n"
	"                         prof-workloads beside this program)\n"
	"  --repeat N             timed calls per workload x backend\n"
	"  --warmup N             untimed calls first (they make no samples)\n"
	"  --category C           only this category (repeatable)\n"
	"  --exclude-category C   not this category (repeatable)\n"
	"  --backend B            cpu, gpu (a CUDA device is required), all, auto\n"
	"  --output FILE          write the samples there (default -, stdout)\n"
	"  --timeout SECONDS      per worker process (default 600)\n"
	"  --seed N               seed of the shuffled run order (default: new)\n"
	"  -q, --quiet            no progress on stderr\n"
	"\n"
	"command options (time any command, one process per sample):\n"
	"  --name ID              the workload id of the samples\n"
	"  --category C           its category (default command)\n"
	"  --warmup N, --repeat N runs before timing (default 0), samples (10)\n"
	"  --warning-floor MS     slowdowns under MS are never warnings (5)\n"
	"  --problem-size TEXT    a label that enters the segment key\n"
	"  --expect-exit N        the exit status that counts as success (0)\n"
	"\n"
	"Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad\n"
	"arguments, an unknown workload, a missing workload binary, or\n"
	"--backend gpu without a CUDA device.\n";

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
};

/* The run's state while groups execute. */
struct run {
	struct opts *o;
	FILE *out;
	long errors;
	long samples;
	/* the group being read */
	struct group *g;
	long got;
	double *durations;
	size_t n_dur, cap_dur;
	long lines;
	long bad_lines;
	char first_bad[600];
	char first_error[600];
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

/* Default workload binary: prof-workloads beside this program. */
static const char *
default_bin(void)
{
	static char path[PATH_MAX + 32];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return "prof-workloads";
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/prof-workloads", self);
	return path;
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
	s = prof_sample_new(&m, env_for(g, r->o->backend), "timing", g->kind,
			    index);
	prof_sample_fail(s, reason, -1);
	write_sample(r, s);
	json_object_put(s);
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
		fprintf(stderr, "prof-time: [%d/%d] %s %s%s: error: %s\n", i, n,
			g->w->id, g->backend,
			strcmp(g->kind, "cold") ? "" : " (cold)", error);
		return;
	}
	prof_stats_compute(r->durations, r->n_dur, &st);
	fprintf(stderr, "prof-time: [%d/%d] %s %s%s: median %.3f ms (n=%zu)\n",
		i, n, g->w->id, g->backend,
		strcmp(g->kind, "cold") ? "" : " (cold)", st.median, st.n);
}

/* Run one group in a fresh worker. Returns -1 on an output failure. */
static int
run_group(struct run *r, struct group *g, int i, int n)
{
	char home[PATH_MAX], home_env[PATH_MAX + 8], warm[32], rep[32];
	char *argv[20];
	char *unset[] = {"LD_PRELOAD", "CPUPROFILE", "HEAPPROFILE",
			 "PROF_ALLOC_LOG", NULL};
	char *set[] = {home_env, NULL};
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
	argv[k++] = "timing";
	argv[k++] = "--kind";
	argv[k++] = (char *)g->kind;
	argv[k++] = "--warmup";
	argv[k++] = warm;
	argv[k++] = "--repeat";
	argv[k++] = rep;
	argv[k] = NULL;
	if (prof_tmpdir_new("prof-home", home, sizeof(home), &err) < 0) {
		cli_err(&err);
		return -1;
	}
	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	r->g = g;
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
			if (w->cpu)
				backs[nb++] = "cpu";
			if (w->gpu && b->gpu_ok)
				backs[nb++] = "gpu";
			else if (w->gpu && !w->cpu)
				skipped_gpu_only++;
		} else { /* auto: what production would pick */
			if (w->gpu && b->gpu_ok)
				backs[nb++] = "gpu";
			else if (w->cpu)
				backs[nb++] = "cpu";
			else
				skipped_gpu_only++;
		}
		if (is_full && w->cold_group && w->cold_group[0] &&
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

/* Time a command: one fresh process per sample, no shell. */
static int
cmd_command(struct opts *o)
{
	struct prof_afile af = {0};
	struct run r = {0};
	struct json_object *argj = json_object_new_array();
	char fixture_sum[PROF_SUM_HEX];
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
	for (i = 0; i < total && !interrupted; i++) {
		struct prof_spawn sp = {0};
		struct prof_spawn_result res;
		struct prof_env_in in = {0};
		struct prof_sample_meta m = {0};
		struct json_object *s, *metrics;
		long index = i - (long)o->warmup;
		int success;
		char why[1200];

		sp.argv = o->argv;
		sp.timeout_s = o->timeout_s;
		sp.stdout_fd = PROF_SPAWN_DEVNULL;
		sp.stderr_fd = -1;
		sp.cancel = &interrupted;
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
		success = !res.timed_out && res.exited &&
			  res.exit_code == o->expect_exit;
		if (index < 0) {
			prof_spawn_free(&res);
			continue;	/* warmup: no sample */
		}
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
		s = prof_sample_new(&m, prof_env_collect(&in), "timing", "warm",
				    index);
		metrics = json_object_new_object();
		json_object_object_add(
			metrics, "user_ms",
			prof_json_double((double)res.ru.ru_utime.tv_sec * 1e3 +
					 (double)res.ru.ru_utime.tv_usec / 1e3));
		json_object_object_add(
			metrics, "system_ms",
			prof_json_double((double)res.ru.ru_stime.tv_sec * 1e3 +
					 (double)res.ru.ru_stime.tv_usec / 1e3));
		json_object_object_add(
			metrics, "max_rss_bytes",
			json_object_new_int64((int64_t)res.ru.ru_maxrss * 1024));
		json_object_object_add(metrics, "exit_status",
				       json_object_new_int(res.exited ? res.exit_code :
									-1));
		if (success) {
			prof_sample_succeed(s, res.wall_ms, metrics, NULL);
			dur[n_dur++] = res.wall_ms;
		} else {
			char d[1100];

			json_object_object_add(s, "metrics", metrics);
			if (res.exited && !res.timed_out)
				snprintf(d, sizeof(d),
					 "exited with status %d, expected %lld",
					 res.exit_code, o->expect_exit);
			else
				prof_spawn_describe(&res, o->argv[0], o->timeout_s,
						    d, sizeof(d));
			if (res.exited && !res.timed_out) {
				char last[512];

				prof_last_line(res.stderr_tail, last, sizeof(last));
				if (last[0]) {
					size_t off = strlen(d);

					snprintf(d + off, sizeof(d) - off, ": %s",
						 last);
				}
			}
			prof_sample_fail(s, d, res.wall_ms);
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
		if (!o->quiet)
			cli_say("%s: median %.3f ms, p90 %.3f ms (n=%zu), %ld "
				"error(s)",
				o->name, st.median, st.p90, st.n, r.errors);
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
	}
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
};

int
main(int argc, char **argv)
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
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {0};
	struct sigaction sa = {0};
	long long v;
	int c, list = 0;
	uint64_t mix;

	cli_init(argv[0]);
	o.repeat = o.warmup = -1;
	o.output = "-";
	o.timeout_s = 600;
	o.warning_floor_ms = 5;
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
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-time %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			fputs(usage_text + 0, stderr);
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
		if (!o.name[0])
			return cli_fail("--name: empty workload id");
		if (o.n_cats > 1)
			return cli_fail("--category: a command has one category");
		o.mode = "command";
		o.argv = argv + optind;
		if (o.repeat < 0)
			o.repeat = 10;
		if (o.warmup < 0)
			o.warmup = 0;
		return cmd_command(&o);
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
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
	return cmd_workloads(&o);
}
