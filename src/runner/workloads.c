/* workloads.c: the workloads of quick, full and diagnose, each group in
 * its own worker in a shuffled order, the calibration kernel around them;
 * and --list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner-int.h"

/* --list: the workloads of the binaries, one a line. */
int
workloads_list(struct opts *o)
{
	struct workload_binary bins[64];
	struct workload *all = NULL;
	long n, k;

	memset(bins, 0, sizeof(bins));
	n = binaries_load_workloads(o, bins, &all);
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

/*
 * One group, in one fresh worker; in the memory phase in MEMORY_RUNS of
 * them, the samples of each numbered after the last's, each keeping its
 * call index in its worker ("call"): the exact metrics of one call index
 * must then agree on every run, or prof-diff says they are not
 * deterministic (compare.h).
 */
#define MEMORY_RUNS 2

static int
run_runs(struct run_state *r, struct group *g, int i, int n)
{
	long k, runs = r->o->phase != RUNNER_MEMORY ? 1 : MEMORY_RUNS;
	int rc = 0;

	for (k = 0; k < runs && !rc && !signals_interrupted; k++) {
		r->index_base = k * g->repeat;
		rc = workers_run_group(r, g, i, n);
	}
	r->index_base = 0;
	return rc;
}

/* diagnose ID: ID is one of the workloads. 0, or -1 (said). */
static int
diagnose_known(const struct opts *o, const struct workload *all, long n_all)
{
	long k;

	if (strcmp(o->mode, "diagnose"))
		return 0;
	for (k = 0; k < n_all; k++)
		if (!strcmp(all[k].id, o->diagnose_id))
			return 0;
	cli_say("unknown workload '%s'", o->diagnose_id);
	return -1;
}

/* --shard: the shard's groups; then all in a seeded order. Returns how
 * many are left. */
static int
groups_order(const struct opts *o, struct group *gs, int n)
{
	if (o->shard_n) {
		int before = n;

		n = plan_keep_shard(gs, n, o->shard_i, o->shard_n);
		if (!o->quiet)
			cli_say("shard %d/%d: %d of %d group(s)", o->shard_i,
				o->shard_n, n, before);
	}
	plan_shuffle(gs, n, o->seed);
	if (!o->quiet)
		cli_say("%s: %d group(s), order seed %llu", o->mode, n,
			(unsigned long long)o->seed);
	return n;
}

/*
 * The groups run in turn into r's output (opened), the calibration
 * kernel around them (a lost shard: each group one error sample). 1 when
 * all ran and were written; 0 (said) when interrupted or on a failure.
 */
static int
groups_run(struct opts *o, struct run_state *r, struct group *gs, int n)
{
	struct calibrate_run *cal = NULL;
	int i, ok = 0;

	/* The machine-drift guard: the calibration kernel at the start,
	 * between groups and at the end, never inside a worker. */
	if (o->phase == RUNNER_TIMING && n > 0 && !workers_shard_lost(o))
		cal = calibrate_begin(r->out, NULL);
	for (i = 0; i < n && !signals_interrupted; i++)
		if (workers_shard_lost(o) ?
			    workers_lose_group(r, &gs[i], i + 1, n,
					       workers_shard_lost(o)) < 0 :
			    (i && calibrate_point(cal, "between", r->out,
						  NULL) < 0) ||
				    run_runs(r, &gs[i], i + 1, n) < 0)
			break;
	if (i == n && calibrate_end(cal, r->out, NULL) < 0)
		i--;
	calibrate_free(cal);
	if (signals_interrupted) {
		output_say_interrupted(o, r);
	} else if (i < n) {
		cli_say("cannot write the samples to '%s'", o->output);
	} else {
		ok = 1;
	}
	if (ok && o->shard_n && !r->samples && output_write_run(r) < 0)
		ok = 0;
	return ok;
}

int
workloads_run(struct opts *o)
{
	struct workload_binary bins[64];
	struct workload *all = NULL;
	struct group *gs = NULL;
	struct run_state r = {0};
	struct prof_afile af = {0};
	long n_all, k;
	int n = 0, i, rc = PROF_EXIT_FAILURE, ok = 0;

	memset(bins, 0, sizeof(bins));
	n_all = binaries_load_workloads(o, bins, &all);
	if (n_all < 0)
		return PROF_EXIT_FAILURE;
	if (diagnose_known(o, all, n_all) < 0)
		goto out;
	if (!strcmp(o->backend, "gpu") && !workers_shard_lost(o) &&
	    binaries_require_gpu(o, bins))
		goto out;
	if (plan_groups(o, all, n_all, bins, &gs, &n))
		goto out;
	if (n == 0 && o->count && !strcmp(o->mode, "diagnose")) {
		/* make diagnose of a GPU-only workload: its other phases
		 * run; this one has nothing to count, and says so. */
		cli_say("'%s' has no CPU path: no instruction counts",
			o->diagnose_id);
		if (output_open(o, &af, &r.out) == 0 &&
		    output_close(o, &af, r.out, 1) == 0)
			rc = PROF_EXIT_OK;
		goto out;
	}
	if (plan_none(o, n) < 0)
		goto out;
	n = groups_order(o, gs, n);
	r.o = o;
	r.cap_dur = 1;
	for (i = 0; i < n; i++)
		if ((size_t)gs[i].repeat > r.cap_dur)
			r.cap_dur = (size_t)gs[i].repeat;
	r.durations = calloc(r.cap_dur, sizeof(*r.durations));
	if (!r.durations || output_open(o, &af, &r.out) < 0)
		goto out;
	ok = groups_run(o, &r, gs, n);
	prof_lines_free(&r.out_lines);
	if (output_close(o, &af, r.out, ok) < 0)
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
