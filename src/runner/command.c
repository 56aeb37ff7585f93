/* command.c: a command as a workload, one fresh process per sample. */
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

#include "kit/page.h"
#include "runner-int.h"

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
			       json_object_new_int64(cmdsample_profile_samples(prof_path)));
	json_object_array_add(arts, json_object_new_string(prof_name));
	json_object_array_add(arts, json_object_new_string(trace_name));
	return 0;
}

/* A command's calls: its fixture, the profile phase's environment and
 * file, the durations so far. */
struct command_calls {
	char fixture_sum[PROF_SUM_HEX];
	char preload_env[PATH_MAX + 96], prof_env[PATH_MAX + 600];
	char prof_name[PATH_MAX], prof_path[PATH_MAX + 512];
	double *dur;
	size_t n_dur;
	int warned_strays;
};

/* The sample of a call that ran: its outcome, its profile (the profile
 * phase), its duration kept. NULL (said) on a failure. */
static struct json_object *
command_result(struct opts *o, struct run_state *r, struct command_calls *cc,
	       long index, const struct prof_spawn_result *res,
	       const struct cmd_delay *delay, const char *out_sum, double t0)
{
	struct json_object *s;
	char why[1200];

	if (res->strays && !cc->warned_strays++ && !o->quiet)
		cli_say("%s: the command left %d process(es) running when "
			"it exited: killed, and not timed "
			"(metrics.stray_processes)",
			o->name, res->strays);
	s = cmdsample_of_result(o, cc->fixture_sum, index, res, delay);
	cmdsample_outcome(o, res, why, sizeof(why));
	if (!why[0] && o->phase == RUNNER_PROFILE &&
	    command_profile(o, s, cc->prof_name, cc->prof_path, t0, res) < 0) {
		json_object_put(s);
		return NULL;
	}
	if (why[0]) {
		prof_sample_fail(s, why, res->wall_ms);
	} else {
		prof_sample_succeed(s, res->wall_ms, NULL, out_sum);
		cc->dur[cc->n_dur++] = res->wall_ms;
		if (o->phase != RUNNER_TIMING)
			output_note_result(r, s);
	}
	return s;
}

/* Call i (warm-ups first): its sample written, none for a warm-up. 0; 1
 * when interrupted (no profile left of it); -1 (said) on a failure. */
static int
command_call(struct opts *o, struct run_state *r, struct command_calls *cc,
	     long i)
{
	char *set[4] = {NULL};
	struct prof_spawn_result res;
	struct cmd_delay delay = {0};
	struct json_object *s;
	long index = i - (long)o->warmup;
	char out_hex[PROF_SUM_HEX];
	const char *out_sum;
	double t0;
	int rc;

	if (o->phase == RUNNER_PROFILE) {
		snprintf(cc->prof_env, sizeof(cc->prof_env),
			 "PROF_CPUPROFILE=%s", cc->prof_path);
		set[0] = cc->preload_env;
		set[1] = cc->prof_env;
	}
	t0 = prof_now_ms();
	rc = cmdsample_timed(o, o->argv, set, NULL, &delay, &res, out_hex,
			     &out_sum);
	/* Interrupted: no sample for this run, and no profile of it (an
	 * empty or a cut .prof). */
	if (rc > 0 && o->phase == RUNNER_PROFILE)
		unlink(cc->prof_path);
	if (rc != 0)
		return rc;
	if (index < 0) {
		prof_spawn_free(&res);
		return 0;	/* warmup: no sample */
	}
	s = command_result(o, r, cc, index, &res, &delay, out_sum, t0);
	prof_spawn_free(&res);
	if (!s || output_put_sample(r, s, o->output) < 0)
		return -1;
	return 0;
}

/* The closing line of a command's run. */
static void
command_say(const struct opts *o, const struct run_state *r,
	    const struct command_calls *cc)
{
	struct prof_stats st;
	char med[32], p90[32];

	prof_stats_compute(cc->dur, cc->n_dur, &st);
	prof_page_time(med, sizeof(med), st.median, 0);
	prof_page_time(p90, sizeof(p90), st.p90, 0);
	if (o->quiet)
		return;
	if (o->phase != RUNNER_TIMING)
		cli_say("%s: %s, %ld error(s)", o->name,
			cc->n_dur ? r->note : "no result", r->errors);
	else
		cli_say("%s: median %s, p90 %s (n=%zu), %ld error(s)", o->name,
			med, p90, st.n, r->errors);
}

/*
 * A command as a workload: one fresh process per sample, no shell, stdout
 * thrown away. Timing: wall time, user and system CPU and max RSS from
 * wait4. Memory: the allocation interposer on the whole process tree.
 * Profile: gperftools on the command itself, not its children.
 */
int
command_run(struct opts *o)
{
	struct prof_afile af = {0};
	struct run_state r = {0};
	struct command_calls cc = {0};
	long total = (long)(o->warmup + o->repeat), i;
	int ok = 0, rc = PROF_EXIT_FAILURE, called = 0;
	struct calibrate_run *cal = NULL;

	cc.dur = calloc((size_t)o->repeat + 1, sizeof(*cc.dur));
	cmdsample_fixture_sum(o->argv, cc.fixture_sum);
	r.o = o;
	r.time_threshold_pct = output_time_threshold(o, NULL, 0);
	if (!cc.dur || output_open(o, &af, &r.out) < 0)
		goto out;
	if (o->phase == RUNNER_MEMORY) {
		/* prof-mem -- CMD: the memory runs only. */
		if (cmdsample_heap(o, &r, cc.fixture_sum, (long)o->repeat,
				   NULL) < 0)
			goto out;
		cc.n_dur = r.samples - r.errors;
		goto done;
	}
	if (o->phase == RUNNER_TIMING)
		cal = calibrate_begin(r.out, NULL);
	snprintf(cc.preload_env, sizeof(cc.preload_env), "LD_PRELOAD=%s",
		 o->preload);
	snprintf(cc.prof_name, sizeof(cc.prof_name), "%s.prof", o->name);
	snprintf(cc.prof_path, sizeof(cc.prof_path), "%s/%s", o->artifacts,
		 cc.prof_name);
	for (i = 0; i < total && !signals_interrupted && called == 0; i++)
		called = command_call(o, &r, &cc, i);
	if (called < 0)
		goto out;
	if (signals_interrupted) {
		output_say_interrupted(o, &r);
		goto out;
	}
	if (calibrate_end(cal, r.out, NULL) < 0) {
		cli_say("cannot write the samples to '%s'", o->output);
		goto out;
	}
	/* --memory: the heap numbers, from runs of their own after the
	 * timed ones, never inside them. */
	if (o->memory && cmdsample_heap(o, &r, cc.fixture_sum,
				      COMMAND_MEMORY_RUNS, NULL) < 0)
		goto out;
done:
	if (signals_interrupted) {
		output_say_interrupted(o, &r);
		goto out;
	}
	ok = 1;
out:
	calibrate_free(cal);
	if (output_end(o, &af, &r, ok)) {
		command_say(o, &r, &cc);
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
	}
	free(cc.dur);
	return rc;
}
