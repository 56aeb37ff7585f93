/* workers.c: one workload x backend group in a fresh worker process;
 * its lines become samples, its failures error samples. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "kit/page.h"
#include "model/contend.h"
#include "model/gbench.h"
#include "verdict/channels.h"
#include "verdict/verdict.h"
#include "runner-int.h"

/* The phase's hook after a run (and before the first): its outputs gone. */
static void
hook_end(struct run_state *r)
{
	if (r->o->hook)
		r->o->hook->end(r->o);
}

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
error_sample(struct run_state *r, struct group *g, long index,
	     const char *reason)
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
	s = prof_sample_new(&m,
			    env_for(g, r->o->backend,
				    r->o->hook ? r->o->hook->version(r->o) : NULL),
			    runner_phase_name(r->o->phase), g->kind, index);
	prof_sample_fail(s, reason, -1);
	output_write_sample(r, s);
	json_object_put(s);
}

const char *
workers_shard_lost(const struct opts *o)
{
	const char *why = getenv("PROF_SHARD_LOST");

	return o->shard_n && why && why[0] ? why : NULL;
}

int
workers_lose_group(struct run_state *r, struct group *g, int i, int n,
		   const char *reason)
{
	long before = r->samples;

	error_sample(r, g, 0, reason);
	if (r->samples == before)
		return -1;
	if (!r->o->quiet && !r->batch)
		fprintf(stderr, "%s: [%d/%d] %s %s%s: error: %s\n", cli_name, i,
			n, g->w->id, g->backend,
			strcmp(g->kind, "cold") ? "" : " (cold)", reason);
	return 0;
}

/* The CPU time of a sample's call on one thread; NAN: unknown, or the
 * call ran more threads. */
static double
one_thread_cpu(struct json_object *s)
{
	double threads = prof_sample_num(s, "threads");

	return isnan(threads) || threads == 1 ? prof_sample_num(s, "cpu_ms") :
						NAN;
}

/* A checked sample of the group into the run (s is taken): its duration
 * kept for the progress line. Returns 1 on an output failure, else 0. */
static int
take_sample(struct run_state *r, struct json_object *s)
{
	if (prof_sample_is(s, "outcome", "success") && r->n_dur < r->cap_dur) {
		if (r->contended)
			r->contended[r->n_dur] =
				(unsigned char)prof_sample_contention(s);
		if (r->cpu)
			r->cpu[r->n_dur] = one_thread_cpu(s);
		if (r->own)
			r->own[r->n_dur] = prof_cmp_own_ms(s);
		r->durations[r->n_dur++] = prof_sample_num(
			s, r->o->hook ? r->o->hook->value : "duration_ms");
	}
	if (prof_sample_is(s, "outcome", "success"))
		output_note_result(r, s);
	r->got++;
	if (output_write_sample(r, s) < 0) {
		json_object_put(s);
		return 1;
	}
	json_object_put(s);
	return 0;
}

/* A line from a worker: it must be a sample of this group. */
static int
worker_line(void *arg, char *line, size_t len, int complete)
{
	struct run_state *r = arg;
	struct prof_err err = {0};
	struct json_object *s;
	char buf[512];

	if (!complete)
		return 0;	/* cut off by a crash; the crash is reported */
	r->lines++;
	s = prof_json_parse(line, len, "worker stdout", (int)r->lines, &err);
	if (s && r->o->hook)
		r->o->hook->fill(r->o, s);
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
	return take_sample(r, s);
}

static void
progress(struct run_state *r, int i, int n, struct group *g, const char *error)
{
	struct prof_stats st;
	char c[32];

	if (r->o->quiet)
		return;
	if (error) {
		fprintf(stderr, "%s: [%d/%d] %s %s%s: error: %s\n", cli_name, i,
			n, g->w->id, g->backend,
			strcmp(g->kind, "cold") ? "" : " (cold)", error);
		return;
	}
	if (r->o->hook) {
		char line[128];

		r->o->hook->progress(r->durations, r->n_dur, line,
				     sizeof(line));
		fprintf(stderr, "%s: [%d/%d] %s %s: %s\n", cli_name, i, n,
			g->w->id, g->backend, line);
		return;
	}
	if (r->o->phase != RUNNER_TIMING) {
		fprintf(stderr, "%s: [%d/%d] %s %s: %s\n", cli_name, i, n,
			g->w->id, g->backend, r->note);
		return;
	}
	prof_stats_compute(r->durations, r->n_dur, &st);
	prof_page_time(c, sizeof(c), st.median, 0);
	fprintf(stderr, "%s: [%d/%d] %s %s%s: median %s (n=%zu)\n",
		cli_name, i, n, g->w->id, g->backend,
		strcmp(g->kind, "cold") ? "" : " (cold)", c, st.n);
}

/* A group's progress line once its samples are in: how many errored and
 * the first error when any did (errors_before: the run's errors before
 * the group), else its median. Nothing in a batch. */
static void
group_done(struct run_state *r, int i, int n, struct group *g,
	   long errors_before)
{
	char first_error[1024];

	if (r->batch)
		return;
	if (r->errors > errors_before) {
		snprintf(first_error, sizeof(first_error), "%ld sample(s): %s",
			 r->errors - errors_before, r->first_error);
		progress(r, i, n, g, first_error);
	} else {
		progress(r, i, n, g, NULL);
	}
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

/* stdout of a Google Benchmark run, whole. */
static int
keep_data(void *arg, const char *p, size_t len)
{
	return prof_buf_put(arg, p, len) < 0;
}

/*
 * The flags libbenchmark takes that prof gives each run itself: a run is
 * one benchmark alone (its filter), one or two repetitions, JSON on
 * stdout, each repetition there. One of these in PROF_GBENCH_FLAGS, which
 * comes after prof's and so would win, would make another run than the
 * one asked for.
 */
static const char *const gbench_own[] = {
	"benchmark_filter", "benchmark_repetitions", "benchmark_format",
	"benchmark_list_tests", "benchmark_report_aggregates_only",
	"benchmark_display_aggregates_only", NULL,
};

int
workers_gbench_flags(char ***extra)
{
	const char *flags = getenv("PROF_GBENCH_FLAGS");
	char why[256], **words;
	size_t i, k, len;

	if (extra)
		*extra = NULL;
	if (!flags)
		return 0;
	words = cmdsample_split_words(flags, why, sizeof(why));
	if (!words) {
		cli_say("PROF_GBENCH_FLAGS: %s", why);
		return -1;
	}
	for (i = 0; words[i]; i++)
		for (k = 0; gbench_own[k]; k++) {
			len = strlen(gbench_own[k]);
			if (strncmp(words[i], "--", 2) ||
			    strncmp(words[i] + 2, gbench_own[k], len) ||
			    (words[i][2 + len] && words[i][2 + len] != '='))
				continue;
			cli_say("PROF_GBENCH_FLAGS: '%.200s' would replace "
				"prof's own (each run is one benchmark alone, "
				"by its filter, one or two repetitions in "
				"JSON): choose benchmarks with W= (make) or "
				"--only (prof-time), repetitions with REPEAT= "
				"or --repeat",
				words[i]);
			free(words);
			return -1;
		}
	if (extra)
		*extra = words;
	else
		free(words);
	return 0;
}

/*
 * The sample of one run of a Google Benchmark binary (its JSON output in
 * out, the tail of its stderr in errs) asked for the group's benchmark
 * alone by filter: the last of the want repetitions of that benchmark,
 * as gbench.h reads it, with the group's kind and index, the run's
 * requested backend and the category and warning floor of its
 * description, and what the phase's hook adds (prof-count: an instruction
 * sample of valgrind's version). NULL with why when the binary ran no
 * benchmark (libbenchmark refused the filter, or it matched none: its
 * stderr says), answered for another (prof_gbench_answer()), or gave
 * other than want repetitions.
 */
static struct json_object *
gbench_sample(struct run_state *r, struct group *g, struct prof_buf *out,
	      const char *errs, const char *filter, long index, long want,
	      char *why, size_t n)
{
	struct json_object *doc = NULL, *arr = json_object_new_array();
	struct json_object *env, *s = NULL;
	struct prof_err err = {0};
	char buf[1000];
	int foreign = 0;
	long got;
	size_t k;

	for (k = 0; k < out->len && strchr(" \t\r\n", out->p[k]); k++)
		;
	if (k == out->len) {
		prof_last_line(errs ? errs : "", buf, sizeof(buf));
		snprintf(why, n,
			 "asked for '%.200s' alone (--benchmark_filter=%.300s), "
			 "it ran no benchmark: %s%.300s%s",
			 g->w->gbench, filter, buf[0] ? "libbenchmark said '" :
							"it said nothing on "
							"stderr",
			 buf, buf[0] ? "'" : "");
		goto out;
	}
	doc = prof_json_parse(out->p, out->len, "its output", 1, &err);
	got = doc && arr ? prof_gbench_samples(doc, arr, &foreign, &err) : -1;
	if (got < 0) {
		snprintf(why, n, "its JSON output: %s",
			 prof_err_str(&err, buf, sizeof(buf)));
		goto out;
	}
	if (prof_gbench_answer(arr, g->w->gbench, buf, sizeof(buf)) < 0) {
		snprintf(why, n,
			 "asked for '%.200s' alone (--benchmark_filter=%.300s), "
			 "%.500s",
			 g->w->gbench, filter, buf);
		goto out;
	}
	if (got != want) {
		snprintf(why, n,
			 "its JSON output holds %ld repetitions of '%s', not "
			 "%s",
			 got, g->w->gbench, want == 1 ? "one" : "two");
		goto out;
	}
	s = json_object_get(json_object_array_get_idx(arr, want - 1));
	/* What the binary's side file says of it (binaries.c). */
	json_object_object_add(s, "category",
			       json_object_new_string(g->w->category));
	json_object_object_add(
		s, "warning_floor_ms",
		prof_json_double(prof_json_numf(g->w->desc,
						"warning_floor_ms")));
	json_object_object_add(s, "kind", json_object_new_string(g->kind));
	json_object_object_add(s, "index", json_object_new_int64(index));
	env = json_object_object_get(s, "env");
	json_object_object_add(env, "backend_requested",
			       json_object_new_string(r->o->backend));
	if (r->o->hook)
		r->o->hook->gbench_fill(r->o, s);
out:
	json_object_put(doc);
	json_object_put(arr);
	return s;
}

/*
 * A profile sample of a Google Benchmark run from its timing sample s:
 * the run was the whole binary under gperftools (libprof-cpuprofile.so),
 * its start-up and calibration in the profile beside the loop; calls its
 * iterations, the .prof as its artifact. An error sample when the
 * profile is missing.
 */
static void
gbench_profile(struct group *g, struct json_object *s, const char *path)
{
	struct json_object *m = json_object_object_get(s, "metrics");
	long long samples = cmdsample_profile_samples(path);
	char bin[PATH_MAX], name[PATH_MAX], why[PATH_MAX + 600];

	json_object_object_add(s, "phase", json_object_new_string("profile"));
	if (!prof_sample_is(s, "outcome", "success"))
		return;
	if (samples < 0) {
		snprintf(why, sizeof(why),
			 "no CPU profile in '%s' (gperftools wrote none)", path);
		prof_sample_fail(s, why, prof_sample_num(s, "duration_ms"));
		return;
	}
	if (!realpath(g->w->bin, bin))
		snprintf(bin, sizeof(bin), "%s", g->w->bin);
	snprintf(name, sizeof(name), "%s.prof", g->w->id);
	json_object_object_add(m, "binary", json_object_new_string(bin));
	json_object_object_add(
		m, "calls",
		json_object_new_int64((long long)prof_sample_num(s,
								 "iterations")));
	json_object_object_add(m, "profile_samples",
			       json_object_new_int64(samples));
	json_object_array_add(json_object_object_get(s, "artifacts"),
			      json_object_new_string(name));
}

/* Keep the last line's value of a loops file. */
static int
last_loop(void *arg, struct json_object *v, struct prof_err *err)
{
	struct json_object **last = arg;

	(void)err;
	json_object_put(*last);
	*last = v;
	return 0;
}

/*
 * A memory sample of a Google Benchmark run from its timing sample s (the
 * last of two repetitions): the numbers libprof-gbloop.so wrote for its
 * loop, the last line of the file at path (one a loop), allocations and
 * their bytes per iteration. An error sample when fewer than two loops
 * were measured, or the benchmark ran on more than one thread.
 */
static void
gbench_memory(struct json_object *s, const char *path)
{
	static const char *const keys[] = {
		"host_peak_bytes", "host_live_before_bytes", "host_allocs",
		"host_allocated_bytes", "rss_peak_bytes", NULL,
	};
	struct json_object *last = NULL, *m, *v;
	struct prof_err err = {0};
	double threads = prof_sample_num(s, "threads");
	double iters = prof_sample_num(s, "iterations");
	char *buf = NULL, why[1200], ebuf[1024];
	size_t len = 0, i;
	long loops = -1;

	json_object_object_add(s, "phase", json_object_new_string("memory"));
	if (!prof_sample_is(s, "outcome", "success"))
		return;
	if (prof_json_read_file(path, &buf, &len, &err) == 0)
		loops = prof_json_lines(buf, len, path, last_loop, &last, &err);
	else if (err.reason[0] && access(path, F_OK) != 0)
		loops = 0;
	free(buf);
	if (loops < 0) {
		snprintf(why, sizeof(why), "its loops' memory: %s",
			 prof_err_str(&err, ebuf, sizeof(ebuf)));
		goto failed;
	}
	if (loops < 2) {
		snprintf(why, sizeof(why),
			 "%ld benchmark loop%s measured, expected one for each "
			 "of the 2 repetitions (libbenchmark linked statically? "
			 "Its State::StartKeepRunning() must be called through "
			 "the shared library)",
			 loops, loops == 1 ? "" : "s");
		goto failed;
	}
	if (!isnan(threads) && threads > 1) {
		snprintf(why, sizeof(why),
			 "the memory of a benchmark on %.0f threads is not "
			 "measured (their loops interleave)",
			 threads);
		goto failed;
	}
	m = json_object_new_object();
	for (i = 0; keys[i]; i++) {
		double x = json_object_object_get_ex(last, keys[i], &v) ?
				   prof_json_number(v) :
				   -1;

		/* Counts per iteration; a peak is the loop's. */
		if (iters > 1 && x > 0 && (i == 2 || i == 3))
			x = (double)(long long)(x / iters + 0.5);
		json_object_object_add(m, keys[i],
				       x >= 0 ? json_object_new_int64(
							(long long)x) :
						NULL);
	}
	json_object_object_add(s, "memory", m);
	json_object_object_add(json_object_object_get(s, "metrics"),
			       "rss_peak_reset", json_object_new_int(1));
	json_object_put(last);
	return;
failed:
	json_object_put(last);
	prof_sample_fail(s, why, prof_sample_num(s, "duration_ms"));
}

/* A Google Benchmark group's calls: one command line and environment. */
struct gbench_run {
	char home[PATH_MAX], home_env[PATH_MAX + 8], filter[1100];
	char preload_env[2 * PATH_MAX + 128], prof_env[PATH_MAX + 600];
	char prof_path[PATH_MAX + 512], secs[64], gbloop[PATH_MAX + 32];
	char loops[PATH_MAX + 16], loops_env[PATH_MAX + 40];
	char *set[4], *argv[72];
	char **extra;
	long calls;
	int profiling, memory, twice, no_warmup;
};

/* Nothing of the other phases leaks into a benchmark's run. */
static char *gbench_unset[] = {"LD_PRELOAD", "CPUPROFILE", "HEAPPROFILE",
			       "PROF_ALLOC_LOG", "PROF_CPUPROFILE",
			       "PROF_GBENCH_LOOPS", NULL};

/* The command line of the group's runs, and the profile phase's
 * environment. Returns -1 (said) on a name too long for the filter. */
static int
gbench_argv(struct run_state *r, struct group *g, struct gbench_run *b)
{
	int a = 0, j;

	if (prof_gbench_filter(g->w->gbench, b->filter + 19,
			       sizeof(b->filter) - 19) < 0) {
		cli_say("benchmark '%.200s': its name is too long for a "
			"--benchmark_filter", g->w->gbench);
		return -1;
	}
	memcpy(b->filter, "--benchmark_filter=", 19);
	b->argv[a++] = (char *)g->w->bin;
	b->argv[a++] = b->filter;
	b->argv[a++] = "--benchmark_repetitions=1";
	b->argv[a++] = "--benchmark_format=json";
	for (j = 0; b->extra && b->extra[j] && a < 69; j++)
		b->argv[a++] = b->extra[j];
	if (b->twice) {
		b->argv[a++] = "--benchmark_repetitions=2";
		b->argv[a++] = "--benchmark_min_time=0";
	}
	if (b->profiling) {
		/* Its loop covers --min-seconds, under the profiler. */
		snprintf(b->secs, sizeof(b->secs), "--benchmark_min_time=%g",
			 r->o->min_seconds);
		b->argv[a++] = b->secs;
		snprintf(b->preload_env, sizeof(b->preload_env),
			 "LD_PRELOAD=%s", r->o->preload);
		snprintf(b->prof_path, sizeof(b->prof_path), "%s/%s.prof",
			 r->o->artifacts, g->w->id);
		snprintf(b->prof_env, sizeof(b->prof_env), "PROF_CPUPROFILE=%s",
			 b->prof_path);
		b->set[1] = b->preload_env;
		b->set[2] = b->prof_env;
		b->calls = g->warmup + 1;
	}
	b->argv[a] = NULL;
	return 0;
}

/* The group's HOME, and the memory phase's interposers. Returns -1
 * (said, nothing left) on a failure. */
static int
gbench_home(struct run_state *r, struct group *g, struct gbench_run *b)
{
	struct prof_err err = {0};

	if (prof_tmpdir_new("prof-home", b->home, sizeof(b->home), &err) < 0) {
		cli_err(&err);
		return -1;
	}
	snprintf(b->home_env, sizeof(b->home_env), "HOME=%s", b->home);
	b->set[0] = b->home_env;
	if (!b->memory)
		return 0;
	binaries_beside_me("libprof-gbloop.so", b->gbloop, sizeof(b->gbloop));
	if (access(b->gbloop, R_OK) != 0) {
		prof_tmpdir_remove(b->home);
		cli_say("'%s' is missing (run make to build it)", b->gbloop);
		return -1;
	}
	snprintf(b->preload_env, sizeof(b->preload_env), "LD_PRELOAD=%s:%s",
		 r->o->preload, b->gbloop);
	snprintf(b->loops, sizeof(b->loops), "%s/loops.jsonl", b->home);
	snprintf(b->loops_env, sizeof(b->loops_env), "PROF_GBENCH_LOOPS=%s",
		 b->loops);
	b->set[1] = b->preload_env;
	b->set[2] = b->loops_env;
	b->calls = g->warmup + 1;
	return 0;
}

/* The sample of a call that ran: -1 on an output failure, 1 where it
 * ends the group (an error sample), else 0. */
static int
gbench_take(struct run_state *r, struct group *g, struct gbench_run *b,
	    struct json_object *s, long index, char *why, size_t why_len)
{
	struct prof_err err = {0};
	char first_error[1024] = "";
	long at = index < 0 ? 0 : index;

	if (s && b->profiling)
		gbench_profile(g, s, b->prof_path);
	if (s && b->memory)
		gbench_memory(s, b->loops);
	if (!s) {
		error_sample(r, g, at, why);
		return 1;
	}
	if (index < 0 && prof_sample_is(s, "outcome", "success")) {
		json_object_put(s);	/* a warm-up call */
		return 0;
	}
	if (prof_sample_check(s, "", &err) < 0) {
		json_object_put(s);
		snprintf(why, why_len, "its sample: %s",
			 prof_err_str(&err, first_error, sizeof(first_error)));
		error_sample(r, g, at, why);
		return 1;
	}
	if (take_sample(r, s))
		return -1;
	return index < 0;	/* a warm-up that errored: the sample says */
}

/* Call K of the group (warm-ups first): -1 on a failure or an
 * interruption, 1 where it ends the group, else 0. */
static int
gbench_call(struct run_state *r, struct group *g, struct gbench_run *b,
	    long k)
{
	struct prof_buf out = {0};
	struct prof_spawn sp = {
		.argv = b->argv,
		.env_set = b->set,
		.env_unset = gbench_unset,
		.timeout_s = r->o->timeout_s,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_data = keep_data,
		.arg = &out,
		.stderr_fd = -1,
		.cancel = &signals_interrupted,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	struct json_object *s;
	char why[1400];
	long index = k - g->warmup;

	/* The dumps of the run before (none outside prof-count). */
	hook_end(r);
	if (b->no_warmup && index < 0)
		return 0;
	if (r->o->hook && r->o->hook->gbench_begin(r->o, b->argv, &sp) < 0)
		return -1;
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_buf_free(&out);
		cli_err(&err);
		return -1;
	}
	if (res.stopped_by_caller || res.cancelled) {
		if (b->profiling)
			remove_profile(r->o, g);
		prof_spawn_free(&res);
		prof_buf_free(&out);
		return -1;
	}
	if (!prof_spawn_ok(&res)) {
		char d[1200];

		prof_spawn_describe(&res, g->w->bin, sp.timeout_s, d,
				    sizeof(d));
		snprintf(why, sizeof(why), "benchmark '%s' %s",
			 g->w->gbench, d);
		error_sample(r, g, index < 0 ? 0 : index, why);
		prof_spawn_free(&res);
		prof_buf_free(&out);
		return 1;
	}
	s = gbench_sample(r, g, &out, res.stderr_tail, b->filter + 19,
			  index < 0 ? 0 : index, b->twice ? 2 : 1, why,
			  sizeof(why));
	prof_spawn_free(&res);
	prof_buf_free(&out);
	return gbench_take(r, g, b, s, index, why, sizeof(why));
}

/*
 * A Google Benchmark binary's benchmark: each call (warm-up and repeats,
 * prof's) is one run of the binary's own runner on this benchmark alone,
 * one repetition, JSON out, with PROF_GBENCH_FLAGS after (say
 * --benchmark_min_time=0.05). A crash, a timeout or output without the
 * repetition is an error sample and ends the group; a repetition that
 * called SkipWithError is an error sample. The timing phase, and counted
 * (prof-count): each repeat one run under callgrind of two repetitions
 * of one iteration each (--benchmark_min_time=0 after PROF_GBENCH_FLAGS),
 * the second's loop counted (the hook's gbench_fill); no warm-up runs,
 * the first repetition being the warm-up. The profile phase: one run
 * under gperftools (gbench_profile()). The memory phase: one run as
 * counted, under libprof-alloc.so and libprof-gbloop.so
 * (gbench_memory()).
 */
static int
gbench_group(struct run_state *r, struct group *g, int i, int n)
{
	struct gbench_run b = {0};
	long errors_before = r->errors, k;
	int rc = 0;

	b.calls = g->warmup + g->repeat;
	b.profiling = r->o->phase == RUNNER_PROFILE;
	b.memory = r->o->phase == RUNNER_MEMORY;
	/* Each call a process: prof's warm-up runs would warm nothing
	 * that the next run keeps. */
	/* Counted (the hook), as in the memory phase, two repetitions a
	 * run: the first warms up. */
	b.twice = r->o->hook || b.memory;
	b.no_warmup = b.twice || b.profiling;
	r->got = 0;
	if (!r->batch)
		r->n_dur = 0;
	r->first_error[0] = '\0';
	if (workers_gbench_flags(&b.extra) < 0)
		return -1;
	if (gbench_argv(r, g, &b) < 0 || gbench_home(r, g, &b) < 0) {
		free(b.extra);
		return -1;
	}
	for (k = 0; k < b.calls && rc == 0; k++)
		rc = gbench_call(r, g, &b, k);
	hook_end(r);
	prof_tmpdir_remove(b.home);
	free(b.extra);
	if (rc < 0)
		return -1;
	group_done(r, i, n, g, errors_before);
	return 0;
}

/* A worker's command line and environment. */
struct worker_cmd {
	char home[PATH_MAX], home_env[PATH_MAX + 8], warm[32], rep[32];
	char secs[32], preload_env[PATH_MAX + 96];
	char *argv[24];
	char *set[3];
};

/* Nothing of the other phases leaks into a worker: no profiler, no
 * interposer unless this is the memory phase. */
static char *worker_unset[] = {"LD_PRELOAD", "CPUPROFILE", "HEAPPROFILE",
			       "PROF_ALLOC_LOG", "PROF_CPUPROFILE", NULL};

/* The worker's command line for the group, and its environment but for
 * HOME. */
static void
worker_argv(const struct run_state *r, const struct group *g,
	    struct worker_cmd *c)
{
	int k = 0;

	snprintf(c->warm, sizeof(c->warm), "%ld", g->warmup);
	snprintf(c->rep, sizeof(c->rep), "%ld", g->repeat);
	c->argv[k++] = (char *)g->w->bin;
	c->argv[k++] = "--worker";
	c->argv[k++] = (char *)g->w->id;
	c->argv[k++] = "--backend";
	c->argv[k++] = (char *)g->backend;
	c->argv[k++] = "--requested";
	c->argv[k++] = (char *)r->o->backend;
	c->argv[k++] = "--phase";
	c->argv[k++] = (char *)runner_phase_name(r->o->phase);
	c->argv[k++] = "--kind";
	c->argv[k++] = (char *)g->kind;
	c->argv[k++] = "--warmup";
	c->argv[k++] = c->warm;
	c->argv[k++] = "--repeat";
	c->argv[k++] = c->rep;
	if (r->o->phase == RUNNER_PROFILE) {
		snprintf(c->secs, sizeof(c->secs), "%g", r->o->min_seconds);
		c->argv[k++] = "--artifacts";
		c->argv[k++] = (char *)r->o->artifacts;
		c->argv[k++] = "--min-seconds";
		c->argv[k++] = c->secs;
	}
	c->argv[k] = NULL;
	c->set[0] = c->home_env;
	if (r->o->phase == RUNNER_MEMORY) {
		snprintf(c->preload_env, sizeof(c->preload_env),
			 "LD_PRELOAD=%s", r->o->preload);
		c->set[1] = c->preload_env;
	}
}

/* The error samples of a worker that ran to its end: lines that are no
 * samples, a crash or timeout, or fewer samples than asked for. */
static void
worker_ended(struct run_state *r, struct group *g,
	     const struct prof_spawn *sp, const struct prof_spawn_result *res,
	     long errors_before)
{
	char why[1400];

	if (r->bad_lines) {
		snprintf(why, sizeof(why),
			 "worker wrote %ld line(s) that are not samples; first: %s",
			 r->bad_lines, r->first_bad);
		error_sample(r, g, r->got, why);
	}
	if (!prof_spawn_ok(res)) {
		char d[1200];

		prof_spawn_describe(res, g->w->bin, sp->timeout_s, d, sizeof(d));
		snprintf(why, sizeof(why), "worker %s", d);
		error_sample(r, g, r->got, why);
	} else if (!r->bad_lines && r->got < g->repeat && r->errors == errors_before) {
		snprintf(why, sizeof(why),
			 "worker exited after %ld of %ld samples", r->got,
			 g->repeat);
		error_sample(r, g, r->got, why);
	}
}

/* Run one group in a fresh worker. Returns -1 on an output failure. In
 * batch mode (r->batch) the durations add up and no progress is printed. */
int
workers_run_group(struct run_state *r, struct group *g, int i, int n)
{
	struct worker_cmd c = {0};
	struct prof_spawn sp = {0};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	long errors_before = r->errors;

	/* An A/B side's threshold is its unit's (ab.c). */
	if (!r->ab_side)
		r->time_threshold_pct =
			output_time_threshold(r->o, g->w->desc, 0);
	if (g->w->gbench)
		return gbench_group(r, g, i, n);
	worker_argv(r, g, &c);
	if (prof_tmpdir_new("prof-home", c.home, sizeof(c.home), &err) < 0) {
		cli_err(&err);
		return -1;
	}
	snprintf(c.home_env, sizeof(c.home_env), "HOME=%s", c.home);
	r->got = 0;
	if (!r->batch)
		r->n_dur = 0;
	r->bad_lines = 0;
	r->lines = 0;
	r->first_error[0] = '\0';
	sp.argv = c.argv;
	sp.env_set = c.set;
	sp.env_unset = worker_unset;
	sp.timeout_s = r->o->timeout_s;
	sp.stdout_fd = PROF_SPAWN_PIPE;
	sp.on_line = worker_line;
	sp.arg = r;
	sp.stderr_fd = -1;
	sp.cancel = &signals_interrupted;
	if (r->o->hook && r->o->hook->begin(r->o, c.argv, &sp) < 0) {
		prof_tmpdir_remove(c.home);
		return -1;
	}
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_tmpdir_remove(c.home);
		hook_end(r);
		cli_err(&err);
		return -1;
	}
	prof_tmpdir_remove(c.home);
	hook_end(r);
	if (res.stopped_by_caller || res.cancelled) {
		/* Interrupted: the call in flight is no measurement, and no
		 * sample stands for it; nor for the profile the worker had
		 * begun (gperftools makes it empty at start). */
		if (r->o->phase == RUNNER_PROFILE)
			remove_profile(r->o, g);
		prof_spawn_free(&res);
		return -1;
	}
	worker_ended(r, g, &sp, &res, errors_before);
	prof_spawn_free(&res);
	group_done(r, i, n, g, errors_before);
	return 0;
}
