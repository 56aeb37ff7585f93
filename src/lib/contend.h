/* contend.h: whether a timed call had its core, from its CPU time and
 * context switches (the rule every sample writer and reader shares). */
#ifndef PROF_CONTEND_H
#define PROF_CONTEND_H

#include <stddef.h>

#include "stats.h"

struct json_object;

/*
 * Under load a call's wall time is a mixture: the call with a core to
 * itself, and the call that waited for one. A timing sample says which it
 * was beside duration_ms (see sample.h):
 *
 *   cpu_ms                the CPU time (user + system) of the measured
 *                         call: the worker thread's, the worker process's
 *                         for a workload that runs threads, a command's
 *                         own and its reaped children's (wait4);
 *   involuntary_switches  the times the scheduler took a core from it;
 *   threads               how many threads the call may run at once: 1,
 *                         or more for a workload whose descriptor says so
 *                         (.threads) and for a command (the online CPUs:
 *                         a command may start any number of processes),
 *                         so that CPU time above wall time is read as
 *                         parallelism;
 *   contended             this rule, applied by the writer.
 *
 * The rule, prof_sample_contended(): contended when
 *
 *   wall_ms > cpu_ms * 1.05 + 0.1
 *
 * that is, the call's threads together ran for less than its wall time
 * by more than 5% of their CPU time and 0.1 ms: for a part of the call
 * none of them was running. On one thread, that is the time it waited
 * for a core (or slept, or blocked on I/O); threads that take turns (a
 * client and its server) show the same. Threads that run at once have CPU time up to threads x wall and
 * can have shared a core without it showing: their mark can miss
 * contention, never invent it. Involuntary switches are recorded, not
 * judged: a switch that cost nothing (the thread moved to an idle core at
 * once) does not move the time, and threads that hand work to each other
 * switch on every hand-off.
 *
 * threads == 0 (only as an argument): the call waits for work not on its
 * threads by design (a GPU call, for the device), so CPU time says
 * nothing: contended when involuntary_switches > 0.
 *
 * Measured on a 2-core machine with test/bench/contend.sh (prof-time
 * full, 20 calls of each of the 9 quick-sized workloads and of `true`),
 * at load 10 from other jobs and then beside a busy loop on each core:
 * the 360 workload samples' wall / CPU fall in two clusters, at most 1.02
 * (the call had its core) or above 1.3 (it waited); 10 lay between 1.02
 * and the rule's bound, 2 were contended below 1.3. The CPU medians moved
 * by 12% at most while the wall medians moved up to 6x. Samples with an
 * involuntary switch outnumber the contended ones (svg_dense_circles: 16
 * and 13 of 20): a switch often costs nothing. server.plan_roundtrip (2
 * threads) switched 1 to 3 times in each of 30 calls with wall = CPU at
 * load 5 (prof-time full --category server --repeat 30). A command's wall
 * time holds prof-time's spawn and reaping beside the command's CPU time:
 * `true` is about 0.7 ms of CPU in 0.73 to 0.87 ms, hence the 0.1 ms.
 */
#define PROF_CONTEND_RATIO 1.05
#define PROF_CONTEND_SLACK_MS 0.1

/*
 * 1 when a call of wall_ms that ran cpu_ms on its threads, with
 * involuntary_switches, was contended by the rule above; 0 otherwise,
 * and 0 for values that are not finite or negative (unknown).
 */
int prof_sample_contended(double wall_ms, double cpu_ms,
			  long involuntary_switches, long threads);

/*
 * How far cpu_ms may exceed duration_ms in a sample of threads == 1: the
 * CPU clock and the monotonic clock are read inside one another, but
 * they run at rates that differ by up to a few hundred ppm and are
 * rounded to the nanosecond (a command's rusage to the microsecond). A
 * reader refuses a sample above duration_ms * 1.005 + 0.01.
 */
#define PROF_CPU_TOL_RATIO 1.005
#define PROF_CPU_TOL_MS 0.01

/*
 * Record the call's CPU time, switches and threads in sample s, whose
 * duration_ms is wall_ms, and mark it contended by the rule; rule_threads
 * is what the rule is told (0 for a GPU call, else threads). cpu_ms is
 * rounded to the nanosecond like duration_ms, and clamped to 0.
 */
void prof_sample_set_cpu(struct json_object *s, double wall_ms, double cpu_ms,
			 long involuntary_switches, long threads,
			 long rule_threads);

/*
 * The call's run-queue delay: run_delay_ms, the time its threads were
 * runnable but not running during the timed call (schedstat's second
 * field, summed over the call's threads). 1 and *ms when sample s says
 * it (a finite number >= 0), 0 when not: a file older than the field,
 * a kernel without schedstat ("run_delay": "unavailable"), or a value a
 * checked sample cannot hold. ms may be NULL.
 */
int prof_sample_run_delay(struct json_object *s, double *ms);

/*
 * The code's own time of sample s's call: duration_ms - run_delay_ms
 * (the wall time the load did not add: running, sleeping or blocked),
 * never below 0 (threads that waited side by side can together have
 * waited longer than the call took); duration_ms when the delay is
 * unknown; NAN when s has no duration_ms.
 */
double prof_sample_own_ms(struct json_object *s);

/*
 * How a sample's call was contended, for the A/B looks (compare.h):
 * PROF_CONTEND_NONE (it says contended: false, or nothing: a file older
 * than the fields is unknown, never contended), PROF_CONTEND_WAITED (contended, and the scheduler
 * never took its core: it slept or blocked, which the code may do), or
 * PROF_CONTEND_QUEUED (contended with at least one involuntary switch,
 * or with none recorded: part of its wall time may be the machine's
 * queue, which a busy machine lays on one side's calls more than the
 * other's for a few rounds).
 */
enum prof_contention {
	PROF_CONTEND_NONE = 0,
	PROF_CONTEND_WAITED = 1,
	PROF_CONTEND_QUEUED = 2,
};
enum prof_contention prof_sample_contention(struct json_object *s);

/*
 * What a row's samples say of their calls: the CPU times (ms) of the
 * aggregated samples (those its wall-time statistics come from) that
 * carry one, how many of them were marked contended, and the most threads
 * one said. runview's rows and prof-report's table fill one each, with
 * prof_cpu_row_take() on each aggregated sample, so every page shows the
 * same numbers. Zeroed is empty; the row owns v.
 */
struct prof_cpu_row {
	double *v;
	size_t n, cap;
	size_t contended;
	long threads;			/* 0: no sample says */
};

/* Count aggregated sample s into a. Returns 0, or -1 when out of memory. */
int prof_cpu_row_take(struct prof_cpu_row *a, struct json_object *s);

/* The statistics of a's CPU times (st->n == 0: no sample said one).
 * Returns 0, or -1 when out of memory. */
int prof_cpu_row_stats(const struct prof_cpu_row *a, struct prof_stats *st);

/* "4/12" (contended of the row's n aggregated samples), or "-" when none
 * of them said (a file from before the fields). */
void prof_cpu_row_contended(const struct prof_cpu_row *a, size_t n, char *buf,
			    size_t size);

void prof_cpu_row_free(struct prof_cpu_row *a);

#endif /* PROF_CONTEND_H */
