/* plan.c: the workload x backend groups a mode selects, and their
 * shuffled order. */
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

#include "model/shard.h"
#include "runner-int.h"

/* plan_splitmix64: a small, well-mixed generator for the run order. */
uint64_t
plan_splitmix64(uint64_t *s)
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

/* Build the groups for the selected workloads. */
int
plan_groups(struct opts *o, struct workload *all, long n_all,
	    struct workload_binary *bins, struct group **out, int *n_out)
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
	/* PROF_GBENCH_FLAGS refused before anything runs (workers.c). */
	for (k = 0; k < n_all && !all[k].gbench; k++)
		;
	if (k < n_all && workers_gbench_flags(NULL) < 0) {
		free(gs);
		return PROF_EXIT_FAILURE;
	}
	for (k = 0; k < n_all; k++) {
		struct workload *w = &all[k];
		struct workload_binary *b =
		    binaries_find(bins, o->n_bins, w->bin);
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
			binaries_probe(b);
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
		if (is_full && o->phase == RUNNER_TIMING && w->cold_group &&
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

/* Interleave: a slow drift of the machine then hits no workload more than
 * another. The seed is recorded in every sample. */
void
plan_shuffle(struct group *gs, int n, uint64_t seed)
{
	uint64_t st = seed;
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = (int)(plan_splitmix64(&st) % (uint64_t)(i + 1));
		struct group t = gs[i];

		gs[i] = gs[j];
		gs[j] = t;
	}
}

/* Where no workload was planned (n 0): said, -1; else 0. */
int
plan_none(const struct opts *o, int n)
{
	if (n)
		return 0;
	cli_say("no workload matches mode '%s' with these categories and "
		"backend '%s'",
		o->mode, o->backend);
	return -1;
}

/* Keep the groups of shard i of n, in their order (prof_shard_of(), which
 * prof-merge --shards checks the shards by). Returns how many. */
int
plan_keep_shard(struct group *gs, int n, int i, int of)
{
	int k, kept = 0;

	for (k = 0; k < n; k++)
		if (prof_shard_of(gs[k].w->id, of) == i)
			gs[kept++] = gs[k];
	return kept;
}
