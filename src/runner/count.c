/* count.c: prof-count of a command: its whole process tree under
 * callgrind, in the fixed environment, one fresh run per sample. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/callgrind.h"
#include "verdict/channels.h"
#include "runner-int.h"

/* The sample of one counted run of a command, before its outcome. */
static struct json_object *
count_sample(struct opts *o, const char *fixture_sum, long index,
	     const struct prof_spawn_result *res)
{
	struct json_object *s, *metrics;

	s = cmdsample_base(o, fixture_sum, index, o->count->version);
	metrics = json_object_new_object();
	json_object_object_add(
		metrics, "exit_status",
		json_object_new_int(res->exited ? res->exit_code : -1));
	json_object_object_add(s, "metrics", metrics);
	json_object_object_add(s, "instructions", NULL);
	json_object_object_add(s, "count_threshold_pct",
			       prof_json_double(o->threshold_pct));
	return s;
}

/*
 * The working directory as the command sees it: PWD names base/cwd, a
 * link to where we are. Shells take PWD when it names their directory,
 * and never call getcwd(), whose answer is as long as the real path: so
 * the count is the same from any folder. A program that calls getcwd()
 * itself still sees the real path.
 */
static int
link_cwd(struct valgrind_setup *c)
{
	char here[PATH_MAX];

	if (!getcwd(here, sizeof(here))) {
		cli_say("cannot read the working directory: %s",
			strerror(errno));
		return -1;
	}
	unlink(c->cwd);
	if (symlink(here, c->cwd) < 0) {
		cli_say("cannot link '%s': %s", c->cwd, strerror(errno));
		return -1;
	}
	snprintf(c->cwd_env, sizeof(c->cwd_env), "PWD=%s", c->cwd);
	return 0;
}

/* The command line of a counted run: the command under callgrind, its
 * dumps in a fresh folder. NULL (said) on a failure. */
static char **
count_argv(struct opts *o, struct valgrind_setup *c)
{
	char **argv;

	if (valgrind_argv_begin(c, "callgrind.out.%p") < 0)
		return NULL;
	argv_add(&c->argv, "--trace-children=yes");
	argv_add(&c->argv, "--dump-before=execve");
	argv_add(&c->argv, c->out_opt);
	argv_add(&c->argv, c->program);
	argv_add_all(&c->argv, o->argv + 1);
	argv = argv_done(&c->argv);
	if (!argv) {
		cli_say("out of memory");
		valgrind_worker_end(o);
	}
	return argv;
}

/* The counted run's sample: its dumps summed, or the reason it failed;
 * the count kept in counts. */
static struct json_object *
count_result(struct opts *o, struct valgrind_setup *c,
	     const char *fixture_sum, long index,
	     const struct prof_spawn_result *res, const char *out_sum,
	     double *counts, size_t *n_counts)
{
	struct json_object *s = count_sample(o, fixture_sum, index, res);
	struct prof_err err = {0};
	long long ir = 0;
	int files = 0, pids = 0;
	char why[1400], buf[1024];

	cmdsample_outcome(o, res, why, sizeof(why));
	if (!why[0] &&
	    prof_callgrind_sum(c->dumps, "callgrind.out.", &ir, &files, &pids,
			       &err) < 0)
		snprintf(why, sizeof(why), "callgrind: %s",
			 prof_err_str(&err, buf, sizeof(buf)));
	valgrind_worker_end(o);
	if (why[0]) {
		prof_sample_fail(s, why, res->wall_ms);
	} else {
		struct json_object *m = json_object_object_get(s, "metrics");

		prof_sample_succeed(s, res->wall_ms, NULL, out_sum);
		json_object_object_add(s, "instructions",
				       json_object_new_int64(ir));
		json_object_object_add(m, "processes",
				       json_object_new_int(pids));
		json_object_object_add(m, "callgrind_dumps",
				       json_object_new_int(files));
		counts[(*n_counts)++] = (double)ir;
	}
	return s;
}

/* Counted call i (warm-ups first): its sample written, none for a
 * warm-up. 0; 1 when interrupted; -1 (said) on a failure. */
static int
count_call(struct opts *o, struct run_state *r, const char *fixture_sum,
	   long i, double *counts, size_t *n_counts)
{
	struct valgrind_setup *c = o->count;
	struct prof_spawn sp = {0};
	struct prof_spawn_result res;
	struct json_object *s;
	long index = i - (long)o->warmup;
	char out_hex[PROF_SUM_HEX];
	const char *out_sum;
	struct prof_sum osum;
	int rc;

	sp.argv = count_argv(o, c);
	if (!sp.argv)
		return -1;
	sp.env_set = c->env;
	sp.env_clear = 1;
	sp.no_aslr = 1;
	sp.timeout_s = o->timeout_s;
	sp.stderr_fd = -1;
	sp.cancel = &signals_interrupted;
	if (cmdsample_stdout(o, &sp, &osum) < 0) {
		cli_say("out of memory");
		valgrind_worker_end(o);
		return -1;
	}
	rc = cmdsample_run(o, &sp, &osum, c->valgrind, NULL, &res, out_hex,
			   &out_sum);
	if (rc != 0 || index < 0) {
		if (rc == 0)
			prof_spawn_free(&res);	/* warmup: no sample */
		valgrind_worker_end(o);
		return rc;
	}
	s = count_result(o, c, fixture_sum, index, &res, out_sum, counts,
			 n_counts);
	prof_spawn_free(&res);
	return output_put_sample(r, s, o->output) < 0 ? -1 : 0;
}

/*
 * A command counted: the whole process tree under callgrind
 * (--trace-children=yes), one dump per process at its exit and one before
 * each execve (a process that replaces itself keeps what it did before),
 * all summed. Fixed environment, fixed HOME, PWD as link_cwd() says, no
 * address-space randomization.
 */
int
count_run(struct opts *o)
{
	struct valgrind_setup *c = o->count;
	struct prof_afile af = {0};
	struct run_state r = {0};
	char fixture_sum[PROF_SUM_HEX];
	char *extra[VALGRIND_MAX_ENV];
	long total = (long)(o->warmup + o->repeat), i;
	int ok = 0, rc = PROF_EXIT_FAILURE, k, n_extra = 0, called = 0;
	double *counts = calloc((size_t)o->repeat + 1, sizeof(*counts));
	size_t n_counts = 0;

	cmdsample_fixture_sum(o->argv, fixture_sum);
	r.o = o;
	if (!counts || link_cwd(c) < 0 || output_open(o, &af, &r.out) < 0)
		goto out;
	extra[n_extra++] = c->cwd_env;
	for (k = 0; k < o->n_env && n_extra < VALGRIND_MAX_ENV - 8; k++)
		extra[n_extra++] = o->env[k];
	valgrind_fixed_env(c, extra, n_extra);
	for (i = 0; i < total && !signals_interrupted && called == 0; i++)
		called = count_call(o, &r, fixture_sum, i, counts, &n_counts);
	if (called < 0)
		goto out;
	/* --memory: the heap numbers and RSS of runs of their own, outside
	 * valgrind (whose allocator and pages they would be) and in the
	 * same fixed environment; the interposer is never counted. */
	if (!signals_interrupted && o->memory &&
	    cmdsample_heap(o, &r, fixture_sum, COMMAND_MEMORY_RUNS, c) < 0)
		goto out;
	if (signals_interrupted) {
		output_say_interrupted(o, &r);
		goto out;
	}
	ok = 1;
out:
	if (output_end(o, &af, &r, ok)) {
		struct prof_stats st;
		char cnt[32];

		prof_stats_counts(counts, n_counts, &st);
		prof_fmt_count(cnt, sizeof(cnt), llround(st.median), 0);
		if (!o->quiet)
			cli_say("%s: median %s instructions (n=%zu), %ld "
				"error(s)",
				o->name, cnt, st.n, r.errors);
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
	}
	free(counts);
	return rc;
}
