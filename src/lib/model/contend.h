/* contend.h: whether a timed call had its core, from its run-queue delay
 * (or its CPU time and context switches), the rule every sample writer
 * and reader shares, and the kernel's counts it is read from. */
#ifndef PROF_CONTEND_H
#define PROF_CONTEND_H

#include <stddef.h>

#include "base/stats.h"

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
 *   run_delay_ms          how long the call's threads waited for a core:
 *                         Linux's run-queue delay (the second field of
 *                         /proc/PID/task/TID/schedstat: time runnable but
 *                         not running), read right around the call; the
 *                         worker thread's, every thread's of a workload
 *                         that runs threads (each at most the wall time;
 *                         in all at most threads x wall; a thread that
 *                         ends inside the call takes its delay with it),
 *                         a command's own process's threads' as they
 *                         stand at its exit (read before it is reaped);
 *   run_delay             "unavailable" where the kernel keeps no delay
 *                         (no schedstat file, or one that counts no
 *                         slice), run_delay_ms then absent; "partial"
 *                         where run_delay_ms leaves some of the call out:
 *                         a command's child processes and ended threads
 *                         (whose delay Linux does not add to the parent's,
 *                         as it does their CPU time), seen as CPU time
 *                         beyond its process's own (PROF_DELAY_COVER_*),
 *                         and a workload thread that ended inside the
 *                         call;
 *   contended             the rule below, applied by the writer and
 *                         checked by every reader (prof_sample_rule()).
 *
 * The rule, where the delay is known: contended when
 *
 *   run_delay_ms > wall_ms * 0.05 + 0.1
 *
 * that is, the call's threads waited for a core for more than 5% of its
 * wall time and 0.1 ms: the machine, not the code, took that time. A call
 * that slept or blocked waited for no core and is not contended: its
 * time is the code's. Wall time minus the delay is the code's own time
 * (prof_sample_own_ms()). A contended call was queued
 * (PROF_CONTEND_QUEUED); involuntary switches are recorded, not judged.
 *
 * Where the delay is unknown (a kernel without schedstat, a file older
 * than the field: today's rule, prof_sample_contended()), contended when
 *
 *   wall_ms > cpu_ms * 1.05 + 0.1
 *
 * that is, the call's threads together ran for less than its wall time
 * by more than 5% of their CPU time and 0.1 ms: for a part of the call
 * none of them was running. On one thread, that is the time it waited
 * for a core (or slept, or blocked on I/O); threads that take turns (a
 * client and its server) show the same. Threads that run at once have
 * CPU time up to threads x wall and can have shared a core without it
 * showing: their mark can miss contention, never invent it. A switch that
 * cost nothing (the thread moved to an idle core at once) does not move
 * the time, and threads that hand work to each other switch on every
 * hand-off; so here too switches are not judged, but they tell queued
 * (at least one, or none recorded) from waited (none: it slept).
 * threads == 0 (only as an argument): the call waits for work not on its
 * threads by design (a GPU call, for the device), so CPU time says
 * nothing: contended when involuntary_switches > 0. A sample whose delay
 * is partial is contended when either rule says so.
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
 *
 * The delay's rule, measured on the same 2-core machine with
 * test/bench/contend.sh 20 (20 calls of each of the 9 quick-sized
 * workloads and of three commands: true, a shell loop, sleep 0.02), at
 * load 9 to 18 from other jobs: alone (pinned to one core at a real-time
 * priority, so each call had its core), as the machine was, beside a
 * busy loop on each core, and pinned to one core beside a busy loop
 * pinned there. Alone, the one-thread workloads' delays were 0 (medians;
 * svg_dense_circles 10.74 ms wall, 10.71 CPU, 0 delay) and the commands'
 * 0.003 ms; the two-thread server round trips, both threads on the one
 * core, waited for each other 0.4 to 0.5 ms in 14 to 20 ms (2 to 3.5%,
 * the only samples between 1% and 10% of their wall time; 1 of 40 above
 * the bound), and 5 of 240 calls met the real-time throttle (up to 87% of
 * their wall time). Pinned beside the loop, svg_dense_circles took 59.58
 * ms of wall time for 10.19 of CPU and 48.34 of delay, its own time (wall
 * - delay) 10.41 ms; in every condition the one-thread workloads' own
 * time was their CPU time within 1% at the median and 5% in 95 of 100
 * calls (at most 37% more) while their wall time moved up to 10x, and
 * wall - CPU - delay was under 0.1 ms in 519 of 564 calls (the reads
 * cost 0.02 to 0.06 ms). Calls that waited for a core waited far
 * beyond the bound (beside the busy loops the one-thread workloads' and
 * the commands' median delay was 70% to 93% of their wall time, but the
 * sleep's; as the machine was, 56% to 73%, and 10 of 240 calls lay
 * between 1% and 10%, 8 of them true's and the sleep's), so where
 * today's rule and the delay's disagree it is
 * on sleeps: sleep 0.02 is contended in 20 of 20 by today's rule in each
 * condition, by the delay's in 0 alone (0.003 ms) and 15 as the machine
 * was, its own time 21.4 to 22.3 ms in all four (the delay is the wait
 * for a core after it woke). Threads that wait side by side add their
 * delays: the round trips beside the busy loops, up to 1.8 x their wall
 * time. Linux's count is not exact: once, in a test at load 18, sleep
 * 0.05 said 53.5 ms of delay in 70.5 ms of wall time (20.5 ms beside its
 * sleep), none of the 320 sleeps above did; each thread's delay is held
 * to the wall time of its call.
 */
#define PROF_CONTEND_RATIO 1.05
#define PROF_CONTEND_SLACK_MS 0.1
#define PROF_DELAY_SHARE 0.05
#define PROF_DELAY_SLACK_MS 0.1

/*
 * A call's run_delay_ms covers it whole when the CPU time of the threads
 * it was read from is all but this share (and this much) of the call's
 * CPU time (a command's from wait4, its children's included; a workload's
 * process CPU clock, its ended threads' included); else its delay is
 * "partial" (prof_delay_partial()).
 */
#define PROF_DELAY_COVER_RATIO 0.01
#define PROF_DELAY_COVER_MS 0.05

/*
 * 1 when a call of wall_ms that ran cpu_ms on its threads, with
 * involuntary_switches, was contended by today's rule above (the one for
 * an unknown delay); 0 otherwise, and 0 for values that are not finite or
 * negative (unknown).
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
 * Record the call's CPU time, switches, threads and run-queue delay in
 * sample s, whose duration_ms is wall_ms, and mark it contended by the
 * rule (prof_sample_rule(): a GPU call, backend "gpu", is told threads 0).
 * run_delay_ms not finite or negative: the kernel keeps none ("run_delay":
 * "unavailable"); partial: it leaves some of the call out. cpu_ms and
 * run_delay_ms are rounded to the nanosecond like duration_ms; cpu_ms is
 * clamped to 0, run_delay_ms to threads x wall_ms.
 */
void prof_sample_set_cpu(struct json_object *s, double wall_ms, double cpu_ms,
			 long involuntary_switches, long threads,
			 double run_delay_ms, int partial);

/*
 * Whether sample s's own numbers say its call was contended, by the rule
 * above: its duration_ms and cpu_ms (both times iterations, where a loop
 * of calls made them means), involuntary_switches (0 when absent), threads
 * (1 when absent; 0 for backend "gpu"), run_delay_ms and run_delay. A
 * grouped sample's threads and backend may be in group (or NULL). Returns
 * 1 or 0, with *margin how far (ms, or 1 for the GPU's switch count) the
 * call is past the rule's bound (> 0: contended) and *tol how far a sample
 * written to the nanosecond may lie on the wrong side of it; -1 when s
 * says too little to judge (no duration, or no CPU time and no delay).
 */
int prof_sample_rule(struct json_object *s, struct json_object *group,
		     double *margin, double *tol);

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
 * (the wall time the load did not add: running, sleeping or blocked);
 * NAN where the delay is the whole wall time or more (threads that
 * waited side by side, a client and its server, together waited longer
 * than the call took: no thread's own time is left, and such a call is
 * judged on its wall and CPU times as one whose delay is unknown);
 * duration_ms when the delay is unknown; NAN when s has no duration_ms.
 */
double prof_sample_own_ms(struct json_object *s);

/*
 * How a sample's call was contended, for the A/B looks (verdict/verdict.h):
 * PROF_CONTEND_NONE (it says contended: false, or nothing: a file older
 * than the fields is unknown, never contended), PROF_CONTEND_QUEUED
 * (contended, its delay known whole: it waited for a core; or, its delay
 * unknown or partial, contended with at least one involuntary switch or
 * with none recorded: part of its wall time may be the machine's queue,
 * which a busy machine lays on one side's calls more than the other's for
 * a few rounds), or PROF_CONTEND_WAITED (contended by today's rule, its
 * delay unknown or partial, and the scheduler never took its core: it
 * slept or blocked, which the code may do).
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

/*
 * Where the delay is read. Each task's schedstat is "RUN_NS DELAY_NS
 * SLICES": its time on a core, its time runnable and waiting for one, and
 * the slices it ran, since it started. A kernel built without it has no
 * file; one that keeps no count there prints zeros (no slice, though the
 * task ran): both are a kernel that keeps none. Only the reading task's
 * own delay is current; another running task's lags by its last slice.
 */
struct prof_sched {
	long tid;
	unsigned long long run_ns;	/* time on a core */
	unsigned long long delay_ns;	/* time runnable, waiting for one */
	unsigned long long cpu_ns;	/* its CPU clock, current (a task of
					 * this process), else run_ns */
};

/*
 * The folder read in place of /proc for the delay (ROOT/PID/task/TID/
 * schedstat) and the CPU pressure (ROOT/pressure/cpu, calib.h):
 * $PROF_PROC_ROOT when set and not empty, else "/proc". A test hook: a
 * folder without those files is a kernel that keeps neither, one with
 * made-up files a kernel that says what they say.
 */
const char *prof_proc_root(void);

/* Open the calling thread's schedstat for prof_sched_read(): the fd, or
 * -1 when the kernel keeps none. */
int prof_sched_open_self(void);

/* Read the open schedstat fd (from offset 0) into t (its tid left as it
 * is). Returns 0, or -1 when it says no count. */
int prof_sched_read(int fd, struct prof_sched *t);

/*
 * The schedstat of every task of process pid (0: this one, else a child
 * that exited and is not yet reaped, or a live one), at most n into t;
 * *more (may be NULL) set when it had more. Returns how many were read,
 * or -1 when the kernel keeps none (or the process is gone).
 */
long prof_sched_tasks(long pid, struct prof_sched *t, size_t n, int *more);

/*
 * The run-queue delay (ms) of a call between two reads of its tasks, a
 * before and b after: each task of b less its delay in a (all of it when
 * it was not there: it started inside the call), each at most wall_ms.
 * *partial is set when a task of a is not in b (it ended inside the call,
 * its delay gone with it), or when the call's CPU time cpu_ms (the
 * process's, which keeps its ended threads' CPU time) is more than the
 * tasks read ran by their CPU clocks (PROF_DELAY_COVER_*: a thread began
 * and ended inside the call); cpu_ms NAN: not compared.
 */
double prof_sched_delay(const struct prof_sched *a, size_t na,
			const struct prof_sched *b, size_t nb, double wall_ms,
			double cpu_ms, int *partial);

/* Whether a delay read from tasks that ran seen_ms of a call's cpu_ms of
 * CPU time leaves some of it out (PROF_DELAY_COVER_*). */
int prof_delay_partial(double cpu_ms, double seen_ms);

#endif /* PROF_CONTEND_H */
