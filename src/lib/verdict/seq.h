/* seq.h: the sequential rule of adaptive interleaved sampling: when more
 * A/B rounds can no longer change a row's verdict (prof-time --against
 * asks it when to stop, prof-diff what to judge). */
#ifndef PROF_VERDICT_SEQ_H
#define PROF_VERDICT_SEQ_H

#include <stddef.h>

/*
 * One look of the sequential A/B rule (prof_cmp_seq_look()): the interval
 * of the ratio current / reference, which samples it was computed on, and
 * what it says.
 */
enum prof_cmp_look_state {
	PROF_CMP_LOOK_OPEN = 0, /* not settled: the interval holds a rule's
				 * ratio */
	PROF_CMP_LOOK_SLOWER,	/* settled: wholly above 1 + T */
	PROF_CMP_LOOK_FASTER,	/* settled: wholly below 1 / (1 + T) */
	PROF_CMP_LOOK_WITHIN,	/* settled: wholly between them */
	PROF_CMP_LOOK_FLOOR,	/* settled: the change at both ends is under
				 * the floor */
};

struct prof_cmp_look {
	enum prof_cmp_look_state state;
	size_t n;		/* samples a side looked at */
	size_t n_cur, n_base;	/* of them, the ones judged */
	int clean;		/* judged on the uncontended samples only */
	double lo, hi;		/* the ratio's interval; 0 and INFINITY
				 * when too few samples bound it */
	double level;		/* its confidence, 1 - alpha / looks */
	double p;		/* Mann-Whitney p of the judged samples */
	/* Judged on the calls' own time, wall minus run-queue delay
	 * (own: every call of both sides said its delay), not on wall
	 * time. */
	int own;
	/* Settled on CPU time (cpu): the wall-time interval, which holds
	 * a rule's ratio but lies wholly on the same side of 1. */
	int cpu;
	double wall_lo, wall_hi;
	/* Not settled though the wall time's interval settled, because
	 * calls waited in the queue and their CPU time's interval
	 * (cpu_lo, cpu_hi) did not settle the same way. */
	int load_open;
	double cpu_lo, cpu_hi;
};

/*
 * Adaptive interleaved sampling (prof-time --against, --max-repeat): a
 * sequential rule that says when more interleaved rounds can no longer
 * change a row's verdict. After the first `first` samples a side, and
 * then every `step` (half of first, at least 2) up to `max`, the row is
 * looked at: the distribution-free confidence interval of the ratio
 * current / baseline (the Mann-Whitney shift interval of the logarithms,
 * prof_stats_shift_ci()) at level 1 - alpha / looks (Bonferroni: over all
 * looks together the chance that any interval misses the true ratio is at
 * most alpha) is settled when it lies wholly on one side of each of the
 * rule's ratios (above 1 + T, below 1 / (1 + T), or between them: T the
 * row's time threshold, prof_cmp_seq_threshold()), or when the change at
 * both its ends is under the floor. Unsettled rows get more rounds, up to
 * the budget.
 *
 * A look is taken on the uncontended samples of the n a side (the calls
 * that had a core to themselves) when those alone bound the interval on
 * both sides; else on all n, paired round by round: each call against
 * the other side's call of its round, Wilcoxon's signed-rank interval of
 * the log ratios (prof_stats_paired_ci()), so that a load that drifts
 * falls on both calls of a pair (with too few rounds for the pairs to
 * bound it, which depends on n alone, the sides' interval). Under load a
 * call's time is a mixture of the uncontended cost and a slower contended
 * one, in proportions that are the machine's: the uncontended samples are
 * one cluster whatever their number, so moving samples between the
 * clusters cannot move the look; among pairs, a fast call against a slow
 * one is as likely either way round when the code is the same. Where
 * that look did not settle and every call ran on one thread and says
 * its CPU time, the CPU times are looked at the same way: their wall
 * time holds the machine's queue beside the code's cost, their CPU time
 * the cost; the look settles on the CPU time when its interval lies
 * beyond a rule's ratio and the wall time's lies on the same side of 1
 * (both say slower, or both faster). The verdict then judges the CPU
 * times (judged_on "cpu_ms").
 *
 * And the other way round: where a look on all samples (not on the
 * uncontended alone) settled slower or faster on wall time, some of its
 * calls waited in the machine's queue (PROF_CONTEND_QUEUED), and every
 * call says its CPU time, the CPU times' look must settle the same way,
 * or the look is not settled (load_open): a busy machine can lay more of
 * its queue on one side's calls for a few rounds, and move the wall
 * time's interval where the cost of the calls did not move. Calls that
 * waited by sleeping or blocking (PROF_CONTEND_WAITED) are the code's
 * waits, and leave the wall time's look as it is. Where such calls say
 * no CPU time of one thread (a workload on threads of its own, a
 * command, a GPU call), nothing checks the wall time: the look on all
 * samples is then the pairs' alone, never the sides' interval, whatever
 * the number of rounds (open until the pairs bound it).
 *
 * Where every call of both sides says its run-queue delay, the looks
 * take the calls' own time (wall minus delay: prof_sample_own_ms())
 * instead of the wall time: the queue is taken out of each call, what is
 * left is the code's (its sleeps and waits included), and neither the
 * CPU times' checks above nor judge_queue's are asked; the uncontended
 * samples (the calls that did not wait for a core) are still one
 * cluster of their own.
 *
 * The verdict of an interleaved row (prof_cmp_judge()) is then:
 *   warning    the last look settled above 1 + T, AND the seed's rule on
 *              the samples of that look says warning (median ratio,
 *              floor, ceil(0.75 n) above), AND the fastest samples
 *              agree: the ratio of the two minima is above 1 + T too
 *              (under noise that only adds time the minimum is the
 *              robust estimate of a call's cost: Chen and Revels 2016),
 *              where the minima speak for calls that had a core: on the
 *              uncontended samples, on own time, or when no sample of
 *              the row was contended (or none is known to be); among
 *              mostly contended calls the minimum is noise too, and is
 *              not asked
 *   improved   the mirror: settled below 1 / (1 + T), the rule says
 *              improved, the minima's ratio at most 1 / (1 + T)
 *   stable     the last look settled within the threshold (or under the
 *              floor), or beyond it with a change under the floor: the
 *              change is clearly one that does not matter
 *   unsettled  otherwise: the last look did not settle within the budget
 *              ("not settled after N samples a side (p = P): ..."), or it
 *              settled beyond the threshold and the rule or the minima
 *              do not say the same ("not settled: ..."). Never a warning,
 *              never improved, never stable, and no exit code changes.
 */
#define PROF_CMP_SEQ_ALPHA 0.05

struct prof_cmp_seq {
	long first;	/* samples a side before the first look */
	long max;	/* the budget; first when adaptivity is off */
	long step;	/* samples a side between looks */
	int looks;	/* how many looks the budget allows */
	double band;	/* 1 + T: the threshold's ratio */
};

/* The looks of a budget, at the A/B default threshold
 * (PROF_CMP_AB_THRESHOLD). */
void prof_cmp_seq_init(struct prof_cmp_seq *q, long first, long max);

/* The looks' threshold, in % (not more than 0, or not finite: the A/B
 * default). */
void prof_cmp_seq_threshold(struct prof_cmp_seq *q, double pct);

/* The samples a side of the look after n, or 0 when n is the budget. */
long prof_cmp_seq_next(const struct prof_cmp_seq *q, long n);

/*
 * The look at the first n samples a side of cur and base (in round
 * order): their wall times, which were contended, and the CPU times of
 * single-threaded calls. Fills *out. Returns 0, or -1 when out of memory.
 * Pure, and the same in prof-time (to stop) and prof-diff (to judge).
 */
struct prof_cmp_calls {
	const double *wall;		/* duration_ms */
	const unsigned char *cont;	/* enum prof_contention; NULL: none
					 * known */
	const double *cpu; /* cpu_ms of one thread; NULL: unknown */
	const double *own;		/* wall minus run-queue delay; NULL:
					 * some call's delay is unknown */
};

int prof_cmp_seq_look(const struct prof_cmp_seq *q,
		      const struct prof_cmp_calls *cur,
		      const struct prof_cmp_calls *base, size_t n,
		      double floor_ms, struct prof_cmp_look *out);

/*
 * Whether prof-time stops at the look at n samples a side: 1 stop (the
 * look settled, or adaptivity is off), 0 more rounds, -1 out of memory;
 * why gets the look in words. Contention as in prof_cmp_seq_look().
 */
int prof_cmp_seq_stop(const struct prof_cmp_seq *q,
		      const struct prof_cmp_calls *cur,
		      const struct prof_cmp_calls *base, size_t n,
		      double floor_ms, char *why, size_t why_n);

/*
 * The look prof-diff judges an interleaved row of n samples a side on
 * (its looks replayed: the first that settled, or the last), into *l,
 * the medians of the samples that look judged (their wall, own or CPU
 * times: cur_ms and base_ms, NAN where a side has none) and their ratio,
 * which is the row's "ratio" (NAN when there is none): prof-time's
 * progress line prints them, so that its medians never disagree with its
 * percentage. Returns 0, or -1 when out of memory.
 */
int prof_cmp_seq_judged(const struct prof_cmp_seq *q,
			const struct prof_cmp_calls *cur,
			const struct prof_cmp_calls *base, size_t n,
			double floor_ms, struct prof_cmp_look *l,
			double *ratio, double *cur_ms, double *base_ms);

#endif /* PROF_VERDICT_SEQ_H */
