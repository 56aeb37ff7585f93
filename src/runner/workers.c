/* workers.c: one workload x backend group in a fresh worker process;
 * its lines become samples, its failures error samples. */
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

#include "contend.h"
#include "runner-int.h"

/* The environment of a sample prof-time writes itself (errors). */
static struct json_object *
env_for(struct group *g, const char *requested, const char *valgrind)
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
	in.valgrind = valgrind;
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
	s = prof_sample_new(&m, env_for(g, r->o->backend, count_version(r->o)),
			    r->o->phase, g->kind, index);
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
	if (s && r->o->count)
		count_fill(r->o, s);
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
	if (prof_sample_is(s, "outcome", "success") && r->n_dur < r->cap_dur) {
		if (r->contended)
			r->contended[r->n_dur] =
				(unsigned char)prof_sample_is_contended(s);
		r->durations[r->n_dur++] = prof_sample_num(
			s, r->o->count ? "instructions" : "duration_ms");
	}
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
	prof_stats_compute(r->durations, r->n_dur, &st);
	if (r->o->count) {
		fprintf(stderr, "%s: [%d/%d] %s %s: median %.0f instructions "
				"(n=%zu)\n",
			cli_name, i, n, g->w->id, g->backend, st.median, st.n);
		return;
	}
	if (strcmp(r->o->phase, "timing")) {
		fprintf(stderr, "%s: [%d/%d] %s %s: %s\n", cli_name, i, n,
			g->w->id, g->backend, r->note);
		return;
	}
	fprintf(stderr, "%s: [%d/%d] %s %s%s: median %.3f ms (n=%zu)\n",
		cli_name, i, n, g->w->id, g->backend,
		strcmp(g->kind, "cold") ? "" : " (cold)", st.median, st.n);
}

/* Remove the .prof of an interrupted group: "<artifacts>/<id>[.gpu].prof",
 * as the worker names it (src/harness/phases.c). */
static void
remove_profile(const struct opts *o, const struct group *g)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s%s.prof", o->artifacts,
		     g->w->id, strcmp(g->backend, "cpu") ? ".gpu" : "") <
	    (int)sizeof(path))
		unlink(path);
}

/* Run one group in a fresh worker. Returns -1 on an output failure. In
 * batch mode (r->batch) the durations add up and no progress is printed. */
int
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
	if (!r->batch)
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
	sp.cancel = &runner_interrupted;
	if (r->o->count && count_worker_begin(r->o, argv, &sp) < 0) {
		prof_tmpdir_remove(home);
		return -1;
	}
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_tmpdir_remove(home);
		count_worker_end(r->o);
		cli_err(&err);
		return -1;
	}
	prof_tmpdir_remove(home);
	count_worker_end(r->o);
	if (res.stopped_by_caller || res.cancelled) {
		/* Interrupted: the call in flight is no measurement, and no
		 * sample stands for it; nor for the profile the worker had
		 * begun (gperftools makes it empty at start). */
		if (!strcmp(r->o->phase, "profile"))
			remove_profile(r->o, g);
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
	if (r->batch)
		return 0;
	if (r->errors > errors_before) {
		snprintf(first_error, sizeof(first_error), "%ld sample(s): %s",
			 r->errors - errors_before, r->first_error);
		progress(r, i, n, g, first_error);
	} else {
		progress(r, i, n, g, NULL);
	}
	return 0;
}
