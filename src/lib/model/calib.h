/* calib.h: the machine-drift guard: a fixed calibration kernel measured
 * around the workloads, the machine's state, and drift between two runs. */
#ifndef PROF_CALIB_H
#define PROF_CALIB_H

#include <stddef.h>

#include "base/err.h"

struct json_object;

/*
 * A run measures the same small kernel (an integer loop and a memory-bound
 * pointer chase, a few milliseconds, never inside a workload's clock) at
 * its start, between groups and at its end. A machine that runs the kernel
 * slower than it did for the baseline runs the workloads slower too, so
 * timing verdicts are then flagged, never changed.
 *
 * In a sample stream each measurement is one line (JSON lines, beside the
 * samples; no sample has a "record" key):
 *   {"record":"calibration","kernel":"prof-calib-1","at":"start",
 *    "int_ms":1.9,"mem_ms":2.2,"ms":4.1}
 * and the run's machine state one line at its end:
 *   {"record":"machine","load_avg":[0.5,0.4,0.3],"steal_pct":0.0,
 *    "governor":"performance","aslr":2}
 * load_avg is /proc/loadavg at the start, steal_pct the share of CPU time
 * stolen by the hypervisor over the run (/proc/stat), governor cpu0's
 * cpufreq governor, aslr /proc/sys/kernel/randomize_va_space; each is null
 * where the machine does not say. Where the kernel has pressure stall
 * information (/proc/pressure/cpu, under prof_proc_root() of contend.h),
 * the record also holds the machine's CPU pressure at the run's start and
 * end, and over the run:
 *   "cpu_pressure": {"start": {"some_avg10": 2.5, "some_total_us": N},
 *                    "end": {...}, "some_pct": 3.1}
 * some_avg10 is the share (%) of the last 10 s in which some runnable
 * task waited for a core, some_total_us the whole such time since boot,
 * and some_pct the share of the run's wall time that some task waited
 * (the totals' difference over the time between the two reads); null
 * without PSI. An older record has no cpu_pressure, and an older reader
 * passes over it.
 *
 * prof-merge lifts them into the results' top level:
 *   "calibration": {"kernel", "points": [{at, int_ms, mem_ms, ms}...],
 *                   "n", "min_ms", "median_ms", "max_ms", "spread_pct",
 *                   "machine": {...} or null}
 * (the machine's cpu_pressure among the rest)
 * spread_pct = (max_ms - min_ms) / median_ms x 100.
 *
 * A merge of shards (prof-merge --shards) ran on as many machines: each
 * shard's calibration is kept under its shard instead,
 *   "shard_calibrations": {"1/4": {calibration} or null, ...}
 * and drift is judged shard by shard (prof_calib_drift_shards()).
 */

/* The kernel's name; calibrations of other kernels are not compared. */
#define PROF_CALIB_KERNEL "prof-calib-1"

/* Drift beyond this fraction (either way), or a spread above it, is noted. */
#define PROF_CALIB_DRIFT 0.10

/* The kernel's state between points (its memory is mapped per point). */
struct prof_calib {
	int ready;
	unsigned pos;	/* where the pointer chase stopped */
};

/* The machine at the start of a run. */
struct prof_calib_machine {
	double load[3];
	int has_load;
	unsigned long long steal, total;	/* /proc/stat jiffies */
	int has_stat;
	double psi_avg10;			/* /proc/pressure/cpu */
	unsigned long long psi_total_us;
	double psi_at_ms;			/* when it was read */
	int has_psi;
};

/* Make c ready for a run. Returns 0, or -1 with err. */
int prof_calib_init(struct prof_calib *c, struct prof_err *err);

/* Done with c; c may be all zeros. */
void prof_calib_free(struct prof_calib *c);

/*
 * Measure the kernel once (each loop five times, the fastest kept) and
 * return its record line object, at = "start", "between" or "end". It maps
 * 16 MiB for the time of the call and unmaps them. NULL when out of
 * memory.
 */
struct json_object *prof_calib_measure(struct prof_calib *c, const char *at);

/* Read the machine's state at the start of a run. Never fails. */
void prof_calib_machine_start(struct prof_calib_machine *m);

/* The machine record at the end of the run (steal over the run). */
struct json_object *prof_calib_machine_json(const struct prof_calib_machine *m);

/*
 * Whether a parsed stream line is a calibration or machine record. A
 * record line is one with a "record" key whose value is "calibration" or
 * "machine"; other records (schema 2 context lines) are not ours.
 */
int prof_calib_is_record(struct json_object *o);

/*
 * Check a calibration or machine record (prof_calib_is_record()) and
 * append it to acc (an array; a reference is taken). A bad record fills
 * err with its path (".int_ms: expected a number") and returns -1.
 */
int prof_calib_take(struct json_object *acc, struct json_object *rec,
		    struct prof_err *err);

/*
 * The results' "calibration" object from the records in acc; NULL when
 * acc holds no calibration point (or when out of memory). Several machine
 * records (several streams of one run): the first one's load and state,
 * the largest steal.
 */
struct json_object *prof_calib_summary(struct json_object *acc);

/*
 * Check a results document's "calibration" (absent or null is fine).
 * Errors name the path: ".calibration.median_ms: expected a number".
 * Returns 0 or -1.
 */
int prof_calib_check(struct json_object *results, struct prof_err *err);

/*
 * Check the member key of a results document (absent or null is fine):
 * an object of calibrations or nulls, each checked as "calibration" is,
 * named by its key (".shard_calibrations.0.median_ms: expected a
 * number"; the key cut to 64 bytes). Returns 0 or -1.
 */
int prof_calib_check_map(struct json_object *results, const char *key,
			 struct prof_err *err);

/* What a run's calibration says about the timing verdicts. */
struct prof_calib_drift {
	int drift;		/* a note is due */
	double ratio;		/* current / baseline median; NAN: unknown */
	double spread_pct;	/* the current run's; NAN: unknown */
	char note[512];		/* the one-line note when drift */
};

/*
 * Compare two checked results documents' calibrations. Drift when both
 * have one of the same kernel and the medians differ by more than 10%, or
 * when the current run's own spread is above 10%. A baseline from the same
 * run (equal run_id: the reference side of `make compare`) saw the same
 * machine: no drift. Fills d; never fails.
 */
void prof_calib_drift(struct json_object *results, struct json_object *baseline,
		      struct prof_calib_drift *d);

/*
 * The drift of each shard of a merge of shards (its shard_calibrations)
 * against the baseline (whose reference is its calibration, or the median
 * of its shards' medians): a new object, shard -> the one-line note
 * ("shard 2/4: machine 23% slower than ..."), holding the shards that
 * drift only. Empty when results is no merge of shards or is the
 * baseline's own run; NULL when out of memory.
 */
struct json_object *prof_calib_drift_shards(struct json_object *results,
					    struct json_object *baseline);

/*
 * Whether the drift guard calls the machine unsteady during a run (its
 * calibration's spread, or a shard's, above PROF_CALIB_DRIFT): 1 and the
 * words into buf ("the machine was unsteady during this run (calibration
 * spread 12%, above 10%)"), for prof-baseline's refusal and the first
 * run's hint; 0 when it does not.
 */
int prof_calib_unsteady(struct json_object *results, char *buf, size_t n);

#endif /* PROF_CALIB_H */
