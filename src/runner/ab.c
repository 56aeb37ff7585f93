/* ab.c: interleaved A/B: the current and a reference build, or two
 * commands, timed alternately in one run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/page.h"
#include "model/contend.h"
#include "model/shard.h"
#include "verdict/verdict.h"
#include "runner-int.h"

/* One side of an A/B run: its binaries, workloads, groups and output. */
struct side {
	const char *name;	/* "current", "reference" */
	struct opts o;
	struct workload_binary bins[64];
	struct workload *all;
	long n_all;
	struct group *gs;
	int n;
	struct run_state r;
	struct prof_afile af;
	int opened;
};

/* A workload x backend x kind on one side or both (a, b). */
struct unit {
	struct group *a;	/* current; NULL: only in the reference */
	struct group *b;	/* reference; NULL: only in the current */
};

/* A side's calls and stdout lines (sides_begin()). */
static void
side_runs_free(struct side *s)
{
	free(s->r.durations);
	free(s->r.contended);
	free(s->r.cpu);
	free(s->r.own);
	prof_lines_free(&s->r.out_lines);
}

static void
side_free(struct side *s)
{
	long k;
	int i;

	free(s->gs);
	for (k = 0; k < s->n_all; k++)
		json_object_put(s->all[k].desc);
	free(s->all);
	for (i = 0; i < s->o.n_bins; i++)
		json_object_put(s->bins[i].probe);
	side_runs_free(s);
}

static int
same_group(const struct group *x, const struct group *y)
{
	return !strcmp(x->w->id, y->w->id) && !strcmp(x->backend, y->backend) &&
	       !strcmp(x->kind, y->kind);
}

/* Pair the two sides' groups; each group is in exactly one unit. */
static struct unit *
pair_units(struct side *a, struct side *b, int *n_out)
{
	struct unit *u = calloc((size_t)(a->n + b->n + 1), sizeof(*u));
	char *used = calloc((size_t)b->n + 1, 1);
	int n = 0, i, j;

	if (!u || !used) {
		free(u);
		free(used);
		return NULL;
	}
	for (i = 0; i < a->n; i++) {
		u[n].a = &a->gs[i];
		for (j = 0; j < b->n; j++)
			if (!used[j] && same_group(&a->gs[i], &b->gs[j])) {
				used[j] = 1;
				u[n].b = &b->gs[j];
				break;
			}
		n++;
	}
	for (j = 0; j < b->n; j++)
		if (!used[j])
			u[n++].b = &b->gs[j];
	free(used);
	*n_out = n;
	return u;
}

/* Run one batch of a side: group g with `size` timed calls. Returns -1 on
 * an output failure; *failed is set when the batch errored. */
static int
run_batch(struct side *s, const struct group *g, long size, long base,
	  long slot, int i, int n, int *failed, char *why, size_t why_n)
{
	struct group one = *g;
	long before = s->r.errors;

	one.repeat = size;
	s->r.index_base = base;
	s->r.ab_slot = slot;
	if (workers_run_group(&s->r, &one, i, n) < 0)
		return -1;
	if (s->r.errors > before) {
		*failed = 1;
		if (!why[0])
			snprintf(why, why_n, "%s side: %s", s->name,
				 s->r.first_error);
	}
	return 0;
}

static const struct prof_cmp_calls *calls_of(struct prof_cmp_calls *c,
					    const struct run_state *r,
					    size_t n);

/*
 * A unit's change as summary.md and comparisons.json give it: the
 * medians of the samples its last look judged and their ratio
 * (prof_cmp_seq_judged(), prof-diff's own), formatted as the table
 * formats them (prof_page_time(), prof_page_ratio_pct()), and which
 * samples and which time those were, into buf: "median 3.100 ms,
 * reference 2.600 ms (+19.2% judged on 5/9 uncontended)", "... (+4.1%
 * judged on own time, all)", "... (+30.0% judged on CPU time)". The
 * medians are those the percentage is of (of the own or the CPU times
 * where those were judged), so that their order never contradicts its
 * sign; where no look judged, the sides' medians of all calls (sa, sb).
 */
static void
judged_change(const struct prof_cmp_seq *q, const struct side *a,
	      const struct side *b, const struct group *g,
	      const struct prof_stats *sa, const struct prof_stats *sb,
	      char *buf, size_t n)
{
	double floor_ms = prof_json_number(
		json_object_object_get(g->w->desc, "warning_floor_ms"));
	size_t k = a->r.n_dur < b->r.n_dur ? a->r.n_dur : b->r.n_dur;
	struct prof_cmp_calls ca, cb;
	struct prof_cmp_look l;
	char pct[32], on[64], c[32], r[32];
	double ratio, cm, bm;

	if (prof_cmp_seq_judged(q, calls_of(&ca, &a->r, k),
				calls_of(&cb, &b->r, k), k, floor_ms, &l,
				&ratio, &cm, &bm) < 0 ||
	    !isfinite(ratio)) {
		prof_page_time(c, sizeof(c), sa->median, 0);
		prof_page_time(r, sizeof(r), sb->median, 0);
		snprintf(buf, n, "median %s, reference %s (-)", c, r);
		return;
	}
	prof_page_ratio_pct(pct, sizeof(pct), ratio);
	prof_page_time(c, sizeof(c), cm, 0);
	prof_page_time(r, sizeof(r), bm, 0);
	if (l.cpu)
		snprintf(on, sizeof(on), "CPU time");
	else if (l.clean)
		snprintf(on, sizeof(on), "%s%zu/%zu uncontended",
			 l.own ? "own time, " : "", l.n_cur, l.n_base);
	else
		snprintf(on, sizeof(on), "%sall", l.own ? "own time, " : "");
	snprintf(buf, n, "median %s, reference %s (%s judged on %s)", c, r,
		 pct, on);
}

/* The progress line of a unit, once its sampling ended; settle says how
 * it ended. */
static void
unit_progress(const struct prof_cmp_seq *q, struct side *a, struct side *b,
	      const struct unit *u, int i, int n, int a_first,
	      const char *why, const char *settle)
{
	const struct group *g = u->a ? u->a : u->b;
	const char *cold = strcmp(g->kind, "cold") ? "" : " (cold)";
	struct prof_stats sa, sb;
	char change[256], ma[32], mb[32];

	if (a->o.quiet)
		return;
	if (why[0]) {
		fprintf(stderr, "%s: [%d/%d] %s %s%s: error: %s\n", cli_name, i,
			n, g->w->id, g->backend, cold, why);
		return;
	}
	prof_stats_compute(a->r.durations, a->r.n_dur, &sa);
	prof_stats_compute(b->r.durations, b->r.n_dur, &sb);
	prof_page_time(ma, sizeof(ma), sa.median, 0);
	prof_page_time(mb, sizeof(mb), sb.median, 0);
	if (!u->b) {
		fprintf(stderr,
			"%s: [%d/%d] %s %s%s: median %s (n=%zu); only in "
			"the current build: new\n",
			cli_name, i, n, g->w->id, g->backend, cold, ma, sa.n);
	} else if (!u->a) {
		fprintf(stderr,
			"%s: [%d/%d] %s %s%s: reference median %s "
			"(n=%zu); only in the reference build: missing from "
			"the current one\n",
			cli_name, i, n, g->w->id, g->backend, cold, mb,
			sb.n);
	} else {
		judged_change(q, a, b, g, &sa, &sb, change, sizeof(change));
		fprintf(stderr,
			"%s: [%d/%d] %s %s%s: %s (n=%zu/%zu, interleaved, %s "
			"first%s%s)\n",
			cli_name, i, n, g->w->id, g->backend, cold, change,
			sa.n, sb.n, a_first ? "current" : "reference",
			settle[0] ? "; " : "", settle);
	}
}

/* The budget of a unit: --max-repeat for a warm group, which repeats
 * --repeat times; a cold group (one call) is never extended. */
static long
unit_budget(const struct opts *o, const struct group *g)
{
	if (g->repeat == o->repeat && o->max_repeat > g->repeat)
		return (long)o->max_repeat;
	return g->repeat;
}

/* A side's first n calls for a look: wall times, contended marks, the
 * CPU times when every one of them ran on one thread and said it, and
 * the own times when every one said its run-queue delay. */
static const struct prof_cmp_calls *
calls_of(struct prof_cmp_calls *c, const struct run_state *r, size_t n)
{
	size_t i;

	c->wall = r->durations;
	c->cont = r->contended;
	c->cpu = r->cpu;
	c->own = r->own;
	for (i = 0; r->cpu && i < n; i++)
		if (!isfinite(r->cpu[i]) || r->cpu[i] < 0)
			c->cpu = NULL;
	for (i = 0; r->own && i < n; i++)
		if (!isfinite(r->own[i]) || r->own[i] < 0)
			c->own = NULL;
	return c;
}

/*
 * Whether a unit of n samples a side is settled (prof_cmp_seq_stop());
 * settle gets the words for the progress line. 1 settled, 0 more, -1 out
 * of memory.
 */
static int
unit_settled(const struct prof_cmp_seq *q, struct side *a, struct side *b,
	     const struct group *g, long n, char *settle, size_t sn)
{
	double floor_ms = prof_json_number(
		json_object_object_get(g->w->desc, "warning_floor_ms"));
	struct prof_cmp_calls ca, cb;
	char why[160];
	int rc;

	if (a->r.n_dur < (size_t)n || b->r.n_dur < (size_t)n)
		return 1;	/* a side errored: no more rounds */
	rc = prof_cmp_seq_stop(q, calls_of(&ca, &a->r, (size_t)n),
			       calls_of(&cb, &b->r, (size_t)n), (size_t)n,
			       floor_ms, why, sizeof(why));
	if (rc == 1 && q->looks > 1)
		snprintf(settle, sn, "settled after %ld rounds: %s", n, why);
	else if (rc == 0 && !prof_cmp_seq_next(q, n))
		snprintf(settle, sn, "not settled after %ld samples a side: %s",
			 n, why);
	return rc;
}

/*
 * One unit. A group on both sides runs in batches of o->batch timed calls,
 * each batch a fresh worker (with its warmup), in ABBA order: batch j of
 * the side that goes first, then the other's, the first side alternating
 * from batch to batch and chosen for batch 0 by the seed; each batch is a
 * round. After --repeat samples a side, and then every few more, the
 * sequential rule looks at the unit: settled, it stops; else more rounds,
 * up to --max-repeat. A group on one side runs there as one worker.
 * Returns -1 on an output failure.
 */
static int
run_unit(struct side *a, struct side *b, const struct unit *u, int i, int n,
	 int a_first)
{
	const struct group *g = u->a ? u->a : u->b;
	long reps = g->repeat, target = reps, done = 0;
	long batch = a->o.batch > 0 ? a->o.batch : 1;
	long j = 0, slot = 0;
	int failed_a = 0, failed_b = 0, t, rc;
	char why[700] = "", settle[200] = "";
	struct prof_cmp_seq q;

	a->r.n_dur = b->r.n_dur = 0;
	prof_cmp_seq_init(&q, reps, unit_budget(&a->o, g));
	/* The threshold the looks settle by, which the samples record and
	 * prof-diff judges by. */
	a->r.time_threshold_pct = b->r.time_threshold_pct =
		output_time_threshold(&a->o, g->w->desc, 1);
	prof_cmp_seq_threshold(&q, a->r.time_threshold_pct);
	a->r.ab_first = b->r.ab_first = q.first;
	a->r.ab_max = b->r.ab_max = q.max;
	if (!u->a || !u->b) {
		struct side *s = u->a ? a : b;

		s->r.ab_round = 1;
		s->r.ab_max = s->r.ab_first;
		if (run_batch(s, g, reps, 0, 0, i, n,
			      u->a ? &failed_a : &failed_b, why,
			      sizeof(why)) < 0)
			return -1;
		unit_progress(&q, a, b, u, i, n, a_first, why, settle);
		return 0;
	}
	while (!signals_interrupted) {
		for (; done < target && !signals_interrupted; j++) {
			long size = target - done < batch ? target - done :
							    batch;
			int first_a = (j % 2 == 0) == (a_first != 0);

			for (t = 0; t < 2; t++) {
				int on_a = t == 0 ? first_a : !first_a;
				struct side *s = on_a ? a : b;
				int *failed = on_a ? &failed_a : &failed_b;

				/* A side that errored stops; the other goes
				 * on. */
				if (*failed)
					continue;
				s->r.ab_round = j + 1;
				if (run_batch(s, on_a ? u->a : u->b, size, done,
					      slot++, i, n, failed, why,
					      sizeof(why)) < 0)
					return -1;
			}
			done += size;
		}
		if (signals_interrupted || failed_a || failed_b)
			break;
		rc = unit_settled(&q, a, b, g, target, settle, sizeof(settle));
		if (rc != 0)
			break;	/* settled (or out of memory: the rule alone) */
		target = prof_cmp_seq_next(&q, target);
		if (!target)
			break;
	}
	unit_progress(&q, a, b, u, i, n, a_first, why, settle);
	return 0;
}

static int
open_side(struct side *s)
{
	s->r.o = &s->o;
	s->r.ab_side = s->name;
	s->r.batch = 1;
	if (output_open(&s->o, &s->af, &s->r.out) < 0)
		return -1;
	s->opened = 1;
	return 0;
}

/* Room on each side for cap calls (their times, contention marks, CPU
 * and own times), then both sides' outputs opened: 0, or -1 (said). The
 * caller frees the room. */
static int
sides_begin(struct side *a, struct side *b, size_t cap)
{
	struct side *s[2] = {a, b};
	int i;

	for (i = 0; i < 2; i++) {
		s[i]->r.cap_dur = cap;
		s[i]->r.durations = calloc(cap, sizeof(double));
		s[i]->r.contended = calloc(cap, 1);
		s[i]->r.cpu = calloc(cap, sizeof(double));
		s[i]->r.own = calloc(cap, sizeof(double));
		if (!s[i]->r.durations || !s[i]->r.contended ||
		    !s[i]->r.cpu || !s[i]->r.own) {
			cli_say("out of memory");
			return -1;
		}
	}
	if (open_side(a) < 0 || open_side(b) < 0)
		return -1;
	return 0;
}

/* Both sides' workloads loaded (the reference planned as the current
 * where it has no side file) and the diagnosed one found on either.
 * Returns -1 (said) on a failure. */
static int
sides_load(struct opts *o, struct side *a, struct side *b)
{
	long k;

	a->name = "current";
	b->name = "reference";
	a->o = *o;
	b->o = *o;
	memcpy(b->o.bins, o->against, sizeof(o->against));
	b->o.n_bins = o->n_against;
	b->o.output = o->against_output;
	b->o.quiet = 1;	/* one set of plan messages is enough */
	a->n_all = binaries_load_workloads(&a->o, a->bins, &a->all);
	if (a->n_all < 0)
		return -1;
	/* A reference without a side file plans as the current side. */
	b->o.like = a->all;
	b->o.n_like = a->n_all;
	b->n_all = binaries_load_workloads(&b->o, b->bins, &b->all);
	if (b->n_all < 0)
		return -1;
	if (strcmp(o->mode, "diagnose"))
		return 0;
	for (k = 0; k < a->n_all; k++)
		if (!strcmp(a->all[k].id, o->diagnose_id))
			return 0;
	for (k = 0; k < b->n_all; k++)
		if (!strcmp(b->all[k].id, o->diagnose_id))
			return 0;
	cli_say("unknown workload '%s' (on both sides)", o->diagnose_id);
	return -1;
}

/* A unit's group: the current side's, else the reference's. */
static const struct group *
unit_group(const struct unit *u)
{
	return u->a ? u->a : u->b;
}

/*
 * --shard: the units of the shard's workloads, each with both its sides
 * (a workload's shard is its id's, prof_shard_of()), so that a row's
 * interleaving is whole in one shard. Then the units in a seeded order,
 * as a plain run shuffles its groups (*st goes on to say which side
 * goes first in each, from the same seed). Returns how many are left.
 */
static int
units_order(const struct opts *o, struct unit *units, int n, uint64_t *st)
{
	int i;

	if (o->shard_n) {
		int before = n, kept = 0;

		for (i = 0; i < n; i++)
			if (prof_shard_of(unit_group(&units[i])->w->id,
					  o->shard_n) == o->shard_i)
				units[kept++] = units[i];
		n = kept;
		if (!o->quiet)
			cli_say("shard %d/%d: %d of %d group(s)", o->shard_i,
				o->shard_n, n, before);
	}
	*st = o->seed;
	for (i = n - 1; i > 0; i--) {
		int j = (int)(plan_splitmix64(st) % (uint64_t)(i + 1));
		struct unit t = units[i];

		units[i] = units[j];
		units[j] = t;
	}
	return n;
}

/*
 * The units run in turn, calibrated between them (a lost shard,
 * workers_shard_lost(): each side of each unit one error sample, none
 * run). 1 when all ran and were written; 0 (said) when interrupted or
 * on a failure.
 */
static int
units_run(struct opts *o, struct side *a, struct side *b,
	  const struct unit *units, int n, uint64_t *st)
{
	struct calibrate_run *cal = NULL;
	size_t cap = 1;
	int i, ok = 0;

	for (i = 0; i < n; i++)
		if ((size_t)unit_budget(o, unit_group(&units[i])) > cap)
			cap = (size_t)unit_budget(o, unit_group(&units[i]));
	if (sides_begin(a, b, cap) < 0)
		return 0;
	if (n > 0 && !workers_shard_lost(o))
		cal = calibrate_begin(a->r.out, b->r.out);
	for (i = 0; i < n && !signals_interrupted; i++) {
		int a_first = (int)(plan_splitmix64(st) & 1);

		if (workers_shard_lost(o)) {
			if ((units[i].a &&
			     workers_lose_group(&a->r, units[i].a, i + 1, n,
						workers_shard_lost(o)) < 0) ||
			    (units[i].b &&
			     workers_lose_group(&b->r, units[i].b, i + 1, n,
						workers_shard_lost(o)) < 0))
				break;
			continue;
		}
		if (i &&
		    calibrate_point(cal, "between", a->r.out, b->r.out) < 0)
			break;
		if (run_unit(a, b, &units[i], i + 1, n, a_first) < 0)
			break;
	}
	if (i == n && !signals_interrupted &&
	    calibrate_end(cal, a->r.out, b->r.out) < 0)
		i--;
	if (signals_interrupted)
		output_say_interrupted(&a->o, &a->r);
	else if (i < n)
		cli_say("cannot write the samples to '%s' or '%s'", o->output,
			o->against_output);
	else
		ok = 1;
	/* A side without a sample in its shard: its run line alone (make
	 * merge-shards looks for every shard on each side). */
	if (ok && o->shard_n &&
	    ((!a->r.samples && output_write_run(&a->r) < 0) ||
	     (!b->r.samples && output_write_run(&b->r) < 0)))
		ok = 0;
	calibrate_free(cal);
	return ok;
}

int
ab_run_workloads(struct opts *o)
{
	struct side *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct unit *units = NULL;
	int n = 0, rc = PROF_EXIT_FAILURE, ok = 0;
	uint64_t st;

	if (!a || !b) {
		free(a);
		free(b);
		return cli_fail("out of memory");
	}
	if (sides_load(o, a, b) < 0)
		goto out;
	if (!strcmp(o->backend, "gpu") && !workers_shard_lost(o) &&
	    binaries_require_gpu(&a->o, a->bins))
		goto out;
	if (plan_groups(&a->o, a->all, a->n_all, a->bins, &a->gs, &a->n) ||
	    plan_groups(&b->o, b->all, b->n_all, b->bins, &b->gs, &b->n))
		goto out;
	units = pair_units(a, b, &n);
	if (!units) {
		cli_say("out of memory");
		goto out;
	}
	if (plan_none(o, n) < 0)
		goto out;
	n = units_order(o, units, n, &st);
	if (!o->quiet)
		cli_say("%s: %d group(s) interleaved with the reference, batches "
			"of %lld, order seed %llu",
			o->mode, n, o->batch > 0 ? o->batch : 1,
			(unsigned long long)o->seed);
	ok = units_run(o, a, b, units, n, &st);
out:
	/* Both outputs or neither: the reference's is committed first, so
	 * that a failure there leaves no current samples without it. */
	if (b->opened && output_close(&b->o, &b->af, b->r.out, ok) < 0)
		ok = 0;
	if (a->opened && output_close(&a->o, &a->af, a->r.out, ok) < 0)
		ok = 0;
	if (ok) {
		long errors = a->r.errors + b->r.errors;

		rc = errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
		if (!o->quiet)
			cli_say("%ld + %ld sample(s) (current + reference), "
				"%ld error(s)",
				a->r.samples, b->r.samples, errors);
	}
	free(units);
	side_free(a);
	side_free(b);
	free(a);
	free(b);
	return rc;
}

/*
 * A command A/B's look when a round's samples are in (call *total):
 * settled, or the budget spent, it ends (1, its words in settle); else
 * *total is the next look's call (0).
 */
static int
cmd_look(const struct opts *o, struct side *a, struct side *b,
	 struct prof_cmp_seq *q, long *total, char *settle, size_t len)
{
	struct prof_cmp_calls ca, cb;
	long n = *total - (long)o->warmup;
	char sw[160];
	int set;

	if (a->r.n_dur < (size_t)n || b->r.n_dur < (size_t)n)
		return 1;	/* errors: the rule alone */
	set = prof_cmp_seq_stop(q, calls_of(&ca, &a->r, (size_t)n),
				calls_of(&cb, &b->r, (size_t)n), (size_t)n,
				o->warning_floor_ms, sw, sizeof(sw));
	if (set == 1 && q->looks > 1)
		snprintf(settle, len, "; settled after %ld rounds: %s", n, sw);
	if (set != 0)
		return 1;
	if (!prof_cmp_seq_next(q, n)) {
		snprintf(settle, len,
			 "; not settled after %ld samples a side: %s", n, sw);
		return 1;
	}
	*total = (long)o->warmup + prof_cmp_seq_next(q, n);
	return 0;
}

/* Call i of side s (its turn t of the round): its sample written, none
 * for a warm-up. 0; 1 when interrupted; -1 (said) on a failure. */
static int
cmd_side_call(struct opts *o, struct side *s, const char *fixture_sum,
	      long i, int t)
{
	struct prof_spawn_result res;
	struct cmd_delay delay = {0};
	struct json_object *smp;
	long index = i - (long)o->warmup;
	char out_hex[PROF_SUM_HEX], why[1200];
	const char *out_sum;
	int rc = cmdsample_timed(o, s->o.argv, NULL, s->name, &delay, &res,
				 out_hex, &out_sum);

	if (rc != 0)
		return rc;
	if (index < 0) {
		prof_spawn_free(&res);
		return 0;	/* warmup: no sample */
	}
	smp = cmdsample_of_result(&s->o, fixture_sum, index, &res, &delay);
	cmdsample_outcome(&s->o, &res, why, sizeof(why));
	if (why[0]) {
		prof_sample_fail(smp, why, res.wall_ms);
	} else {
		prof_sample_succeed(smp, res.wall_ms, NULL, out_sum);
		s->r.contended[s->r.n_dur] =
			(unsigned char)prof_sample_contention(smp);
		/* A command may run any number of processes: no CPU time of
		 * one thread; its own time where its delay is known. */
		s->r.cpu[s->r.n_dur] = NAN;
		s->r.own[s->r.n_dur] = prof_cmp_own_ms(smp);
		/* As written: prof-diff's looks see these. */
		s->r.durations[s->r.n_dur++] =
			prof_sample_num(smp, "duration_ms");
	}
	prof_spawn_free(&res);
	s->r.ab_slot = 2 * i + t;
	s->r.ab_round = index + 1;
	return output_put_sample(&s->r, smp, s->o.output) < 0 ? -1 : 0;
}

/* --shard: a command is one workload, run in its id's shard; the other
 * shards write each side's run line alone. 1 where this shard is not
 * the command's (its lines written), 0 where it is, -1 on a failure. */
static int
cmd_other_shard(const struct opts *o, struct side *a, struct side *b)
{
	if (!o->shard_n || prof_shard_of(o->name, o->shard_n) == o->shard_i)
		return 0;
	if (!o->quiet)
		cli_say("shard %d/%d: 0 of 1 group(s) ('%s' is in shard "
			"%d/%d)",
			o->shard_i, o->shard_n, o->name,
			prof_shard_of(o->name, o->shard_n), o->shard_n);
	if (output_write_run(&a->r) < 0 || output_write_run(&b->r) < 0)
		return -1;
	return 1;
}

/* Both sides' outputs closed (committed where ok), the closing line
 * said; the exit code. */
static int
cmd_ab_end(const struct opts *o, struct side *a, struct side *b, int ok,
	   int empty, const char *settle)
{
	struct prof_stats sa, sb;
	char ma[32], mb[32];

	if (b->opened && output_close(&b->o, &b->af, b->r.out, ok) < 0)
		ok = 0;
	if (a->opened && output_close(&a->o, &a->af, a->r.out, ok) < 0)
		ok = 0;
	if (!ok)
		return PROF_EXIT_FAILURE;
	prof_stats_compute(a->r.durations, a->r.n_dur, &sa);
	prof_stats_compute(b->r.durations, b->r.n_dur, &sb);
	prof_page_time(ma, sizeof(ma), sa.median, 0);
	prof_page_time(mb, sizeof(mb), sb.median, 0);
	if (!o->quiet && !empty)
		cli_say("%s: median %s, reference %s (n=%zu/%zu, "
			"interleaved%s), %ld error(s)",
			o->name, ma, mb, sa.n, sb.n, settle,
			a->r.errors + b->r.errors);
	return a->r.errors + b->r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
}

/*
 * Two commands interleaved: the command after -- (current) and
 * --against-command (reference), one fresh process per call, alternating
 * in ABBA order by call, warmups included; the reference's samples carry
 * the current command's workload id and fixture checksum, so that they
 * compare row for row.
 */
int
ab_run_command(struct opts *o)
{
	struct side *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char fixture_sum[PROF_SUM_HEX], why[1200], settle[240] = "";
	char **ref_argv = NULL;
	struct calibrate_run *cal = NULL;
	long total = (long)(o->warmup + o->repeat), i;
	int ok = 0, rc = PROF_EXIT_FAILURE, t, a_first, empty = 0;
	uint64_t st = o->seed;
	struct prof_cmp_seq q;

	if (!a || !b) {
		cli_say("out of memory");
		goto out;
	}
	ref_argv = cmdsample_split_words(o->against_command, why, sizeof(why));
	if (!ref_argv) {
		cli_say("--against-command: %s", why);
		goto out;
	}
	cmdsample_fixture_sum(o->argv, fixture_sum);
	a->name = "current";
	b->name = "reference";
	a->o = *o;
	b->o = *o;
	b->o.output = o->against_output;
	b->o.argv = ref_argv;
	prof_cmp_seq_init(&q, (long)o->repeat, (long)o->max_repeat);
	a->r.time_threshold_pct = b->r.time_threshold_pct =
		output_time_threshold(o, NULL, 1);
	prof_cmp_seq_threshold(&q, a->r.time_threshold_pct);
	a->r.ab_first = b->r.ab_first = q.first;
	a->r.ab_max = b->r.ab_max = q.max;
	if (sides_begin(a, b, (size_t)q.max + 1) < 0)
		goto out;
	empty = cmd_other_shard(o, a, b);
	if (empty) {
		ok = empty > 0;
		goto out;
	}
	a_first = (int)(plan_splitmix64(&st) & 1);
	if (!o->quiet)
		cli_say("%s: interleaved with '%s', order seed %llu, %s first",
			o->name, o->against_command,
			(unsigned long long)o->seed,
			a_first ? "current" : "reference");
	cal = calibrate_begin(a->r.out, b->r.out);
	for (i = 0; !signals_interrupted; i++) {
		int first_a = (i % 2 == 0) == (a_first != 0);

		/* A look when the round's samples are in: settled, or the
		 * budget spent, it ends; else more rounds. */
		if (i == total &&
		    cmd_look(o, a, b, &q, &total, settle, sizeof(settle)))
			break;
		for (t = 0; t < 2; t++) {
			int called = cmd_side_call(o, (t == 0) == first_a ? a : b,
						   fixture_sum, i, t);

			if (called < 0)
				goto out;
			if (called > 0)
				goto interrupted;
		}
	}
interrupted:
	if (signals_interrupted) {
		output_say_interrupted(&a->o, &a->r);
		goto out;
	}
	if (calibrate_end(cal, a->r.out, b->r.out) < 0) {
		cli_say("cannot write the samples to '%s' or '%s'", o->output,
			o->against_output);
		goto out;
	}
	ok = 1;
out:
	calibrate_free(cal);
	if (a && b)
		rc = cmd_ab_end(o, a, b, ok, empty, settle);
	free(ref_argv);
	if (a)
		side_runs_free(a);
	if (b)
		side_runs_free(b);
	free(a);
	free(b);
	return rc;
}
