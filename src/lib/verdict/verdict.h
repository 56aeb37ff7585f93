/* verdict.h: samples grouped into rows, and rows judged against a baseline
 * by the rules of DESIGN.md, with a rank test shown beside them; the
 * comparisons they make (src/lib/verdict/README: which file does what). */
#ifndef PROF_VERDICT_H
#define PROF_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/htab.h"
#include "base/pool.h"
#include "base/stats.h"
#include "verdict/check.h"
#include "verdict/seq.h"
#include "verdict/table.h"

struct json_object;

/*
 * A row is one workload x backend x segment of a results file. Its numbers
 * come only from the aggregated samples: phase timing or browser, kind warm,
 * outcome success (prof_cmp_aggregated()).
 *
 * Judging a row against a baseline gives one status:
 *   new           the baseline has no row for this workload in this segment
 *   incomparable  no baseline file; or the matched row has another workload
 *                 version or fixture checksum; or the output checksums of
 *                 its aggregated samples differ, between the sides or
 *                 between the calls of one side (samples without one are
 *                 not compared); or either side has no aggregated
 *                 sample; or the baseline median is not positive
 *   warning       median ratio > 1 + T AND median delta >= the warning
 *                 floor AND at least ceil(0.75 n) current samples exceed
 *                 the baseline median
 *   improved      the mirror: baseline median >= current median x (1 + T)
 *                 AND -delta >= the warning floor AND at least
 *                 ceil(0.75 n) current samples below the baseline median
 *   stable        otherwise
 *   unsettled     (calls that waited for a core, their run-queue delay
 *                 unknown: see judge_queue in rule.c; and interleaved
 *                 rows, below) the evidence did not settle: never
 *                 warning, improved or stable, and no exit code changes
 * T is the row's time threshold (threshold_pct / 100): the one its
 * current samples record (time_threshold_pct: prof-time
 * --time-threshold, or the workload's descriptor), else the struct
 * prof_cmp's (prof-diff --time-threshold, which overrides it), else
 * PROF_CMP_TIME_THRESHOLD against a baseline and PROF_CMP_AB_THRESHOLD
 * for an interleaved row. The rule is symmetric in the ratio: N% slower
 * is current / baseline = 1 + N/100, N% faster is baseline / current =
 * 1 + N/100, and the reasons say both with the same T ("within the 20%
 * threshold"), never 1 - 1/(1 + T).
 * Where every call of both sides says its run-queue delay
 * (prof_sample_run_delay()), the rule judges the code's own time,
 * duration_ms - run_delay_ms (prof_sample_own_ms()): the wall time the
 * load did not add, sleeping and blocking included; the reason says so
 * where calls waited ("own time (the queue took 12.0% of the current
 * calls' wall time, 0.4% of the baseline's): ..."). Elsewhere the wall
 * time, with judge_queue's check.
 * The two-sided Mann-Whitney U p-value of current against baseline samples
 * is computed beside the rule and never changes the status.
 *
 * Instruction samples (phase instructions, kind warm, success, with their
 * integer count: prof_cmp_counted()) make rows of their own: their segment
 * keys valgrind's version, so they never share a row or a baseline match
 * with time. new and incomparable are decided as above; then, for data
 * that a busy machine cannot move:
 *   warning       the median count grew by more than the row's threshold
 *                 (threshold_pct, default 1%)
 *   improved      it fell by more than the threshold
 *   stable        otherwise
 * with no p-value and no floor.
 *
 * Memory samples (phase memory, kind warm, success) make rows of their own,
 * one per metric of the sample's "memory" object that is a number
 * (prof_cmp_metrics[]): host_peak_bytes (the heap peak of one run(), above
 * what was live when it started), host_allocs (its allocations),
 * host_allocated_bytes (the bytes they asked for, in usable sizes) and
 * rss_peak_bytes (the worker's peak RSS) and, where a GPU session reports
 * it, device_peak_allocated_bytes (the CUDA stream-ordered pool's peak of
 * bytes in use during the call). A timing sample with a "memory"
 * of its own (prof-time -- CMD: the command's RSS peak, from wait4) gives
 * memory rows the same way, beside its time row. A row's value per sample
 * is kept with the sample's call index. new and incomparable are decided as
 * above, except that a baseline value of 0 is a value (a call that allocated
 * nothing). Then, by the metric's rule:
 *   exact (heap peak, allocations, bytes allocated, device peak: what
 *   one single-threaded call does, the same on every run):
 *     warning   the median grew by more than threshold_pct (1%) AND by at
 *               least the floor (4096 bytes, 16 allocations; 64 KiB for
 *               the device peak, whose pool allocates coarser blocks)
 *     improved  it fell by more than threshold_pct AND by at least the
 *               floor
 *     stable    otherwise
 *   ratio (the RSS peak: the kernel's pages, moved by what else runs):
 *   the seed's time rule with bytes, median ratio > 1.20 AND delta >= the
 *   floor (1 MiB) AND ceil(0.75 n) current samples above the baseline
 *   median; improved its mirror.
 * An exact metric is deterministic on a side when all its values of one
 * call index agree (the memory phase runs each workload in two fresh
 * workers; the index is the sample's "call", else its index); one that
 * is not is
 * said so with its spread (the index and the values' range) and judged by
 * the ratio rule with its own floor, never exactly. Every row's sides are
 * checked, new and incomparable ones too; a side where no index has two
 * values has nothing to check ("deterministic" null for it) and is judged
 * exactly, as a count is.
 *
 * Rows are found by hashing (workload, backend, segment), baseline groups
 * by (workload, segment), so grouping and judging are linear in the number
 * of samples; the rows are sorted once. Samples can be given one at a time
 * (prof_cmp_take(), prof_cmp_base_take()), as a stream reader hands them
 * out, with a segment id; the ids are turned into segment keys when the
 * walk is done. A row keeps only its durations and first-seen facts
 * (struct prof_cmp_entry), a baseline group the same; a row is judged
 * when its comparison is made (prof_cmp_row_json()), one at a time, so
 * that memory holds the samples' values and keys, never a judged row a
 * row (its reason, its statistics).
 *
 * Ownership: the strings in rows belong to the struct prof_cmp and live
 * until prof_cmp_free(); it holds no JSON document: take copies what a
 * row keeps.
 */

/* One side of a row: the current run's samples or the baseline's. */
struct prof_cmp_side {
	double *v;			/* aggregated durations, ms, or
					 * instruction counts (owned) */
	size_t n, cap;
	struct prof_stats st;		/* of v; zeros when n == 0 */
	long long version;		/* workload_version */
	const char *fixture_checksum;	/* NULL: unknown */
	const char *fixture;		/* its name; NULL: unknown */
	const char *output_checksum;	/* the first aggregated sample's
					 * checksum; NULL: none said one */
	const char *output_other;	/* another one, when the calls
					 * disagree; else NULL */
	/* An interleaved A/B side (samples with "ab"): the --repeat and
	 * --max-repeat its samples name, the last round, and whether the
	 * values came in round order; ab_first 0: not an A/B side. */
	long ab_first, ab_max, ab_rounds;
	int ab_unordered;
	long errors;			/* error samples of the group */
	/* Per value of v: whether and how that sample was contended
	 * (enum prof_contention: prof_sample_contention()); NULL until
	 * one was. */
	unsigned char *cont;
	size_t contended;		/* how many of v were */
	/* A memory side: the call index of each value of v (NULL until
	 * one was given), and after judging whether the values of each
	 * index agree; when not, the first index that disagrees and the
	 * range of its values. det_checked: some index has two values or
	 * more, so that agreeing says something (one value per index is
	 * not checked: "deterministic" null). */
	long *at;
	size_t cap_at;
	int det_checked;
	int nondet;
	long nd_index;
	double nd_lo, nd_hi;
	/* Per value of v: the call's CPU time, ms, while every sample of the
	 * side said it (cpu_known); else NULL. cpu_multi: some call ran
	 * more than one thread, and its CPU time is theirs together. */
	double *cpu;
	int cpu_known;			/* 1 all so far, -1 one did not */
	int cpu_multi;
	/* Per value of v: the call's own time, duration_ms minus its
	 * run-queue delay (prof_sample_own_ms()), while every sample of the
	 * side said its delay (own_known 1); else NULL. */
	double *own;
	int own_known;
};

struct prof_cmp_row {
	const char *workload;
	const char *backend;
	const char *category;
	const char *segment;
	const char *shard;		/* of a merge of shards; else NULL */
	double warning_floor_ms;	/* the current run's */
	int instructions;		/* a row of instruction counts */
	double threshold_pct;		/* instructions: warning above this;
					 * time: T in % (0 before judging:
					 * the default of the row's path) */
	enum prof_cmp_mem memory;	/* a row of this memory metric */
	double delta;			/* memory (or counts): delta in its
					 * unit; NAN unless judged */
	struct prof_cmp_side cur;
	struct prof_cmp_side base;	/* meaningful when matched */
	int matched;			/* the baseline has this row */
	int base_other_segments;	/* rows of this workload it has */
	enum prof_cmp_status status;
	double delta_ms;		/* NAN unless judged on speed */
	double ratio;			/* NAN unless judged on speed */
	double p_value;			/* NAN unless judged on speed */
	size_t above;			/* current samples > baseline median */
	size_t below;			/* current samples < baseline median */
	size_t needed;			/* ceil(0.75 n) */
	int own;			/* judged on own times (wall minus
					 * run-queue delay) */
	/* An interleaved A/B row (both sides A/B sides of one plan, in
	 * round order; prof_cmp_judge()): how its sampling ended. */
	int ab;				/* judged by the A/B rule */
	struct prof_cmp_look look;	/* its last look */
	char reason[512];
};

/*
 * One side of a row as its samples are taken: what a row of a large run
 * costs until it is written (80 bytes and its values); a judged
 * row (struct prof_cmp_row) is made from it one at a time. The fields are
 * those of struct prof_cmp_side.
 */
struct prof_cmp_more;

struct prof_cmp_taken {
	double *v;			/* owned */
	struct prof_cmp_more *more;	/* NULL until one of its facts came */
	const char *fixture_checksum, *fixture;
	const char *output_checksum, *output_other;
	long long version;
	uint32_t n, cap, contended, errors;
	signed char cpu_known;
	unsigned char cpu_multi;
	signed char own_known;
};

/* What few sides have: contention marks, call indexes, CPU and own times
 * beside the values (each NULL until needed), and the A/B facts. */
struct prof_cmp_more {
	unsigned char *cont;
	long *at;
	double *cpu;			/* while cpu_known is 1 */
	double *own;			/* while own_known is 1 */
	int32_t ab_first, ab_max, ab_rounds;
	unsigned char ab_unordered;
};

/* A row of the current run as taken: its key and facts, and its side. */
struct prof_cmp_entry {
	const char *workload;
	const char *backend;
	const char *category;
	const char *segment;		/* the id, then (closed) the key */
	const char *shard;
	double warning_floor_ms;
	double threshold_pct;
	struct prof_cmp_taken cur;
	unsigned char instructions;
	unsigned char memory;		/* enum prof_cmp_mem */
};

/* A group of baseline samples: one workload in one segment. */
struct prof_cmp_bgroup {
	const char *workload;
	const char *seg;		/* the id it was given under */
	const char *segment;		/* the key, once resolved */
	struct prof_cmp_taken side;
};

struct prof_cmp {
	struct prof_cmp_entry *rows; /* sorted: workload, backend, segment
				      * (prof_cmp_close()) */
	size_t n, cap;
	struct prof_htab64 index;	/* a probe of (workload, backend,
					 * segment id) -> row; freed when
					 * closed */
	struct prof_cmp_bgroup *base;	/* the baseline's groups */
	size_t n_base, cap_base;
	struct prof_htab64 base_index;	/* a probe of (workload, segment
					 * id) -> group; freed when judged */
	int judged;			/* prof_cmp_judge_groups() was */
	int missing;			/* ... with no baseline file */
	const char *missing_name;	/* its name */
	uint32_t *ord;			/* the groups by workload and segment
					 * key, when judged */
	/* The rows moved to a temporary file (prof_cmp_spill()): row k
	 * is the record at [spill_at[k], spill_at[k + 1]). rows is NULL. */
	int spilled;
	int spill_fd;
	uint64_t *spill_at;
	char **pool;			/* the strings the rows point to */
	size_t n_pool, cap_pool;
	char *arena;			/* their blocks (keep()) */
	char *arena_at;
	size_t arena_left;
	const char *run_id;		/* of the results, for comparisons */
	/* Every time row's threshold in % (prof-diff --time-threshold),
	 * over what its samples record; 0: each row's own. */
	double time_threshold_pct;
	struct json_object *base_segments;	/* the baseline's, distinct */
	/* The machine-drift note every row carries ("" none; calib.h). */
	char drift[512];
	/* A merge of shards: shard -> note, for the rows of that shard
	 * (owned; NULL: none). */
	struct json_object *shard_drift;
	/* The row and the baseline group a sample went to last, plus one
	 * (0: none): the next sample is most often of the same. */
	size_t last_row, last_base;
};

/* The run id the comparisons carry (the results' run_id), copied.
 * Returns 0, or -1 when out of memory. */
int prof_cmp_set_run(struct prof_cmp *c, const char *run_id);

/* The segment key of a segment id (NULL: the id is the key itself). */
typedef const char *(*prof_cmp_segment_fn)(void *arg, const char *seg);

/*
 * Count one sample of the current run into its row; seg is its segment id
 * (or key). Samples of other phases are skipped. Returns 0, or -1 with err
 * filled (out of memory).
 */
int prof_cmp_take(struct prof_cmp *c, struct json_object *s, const char *seg,
		  struct prof_err *err);

/* When every current sample is in: segment keys looked up with fn (NULL:
 * the ids were keys), rows sorted (status PROF_CMP_UNJUDGED until judged);
 * a row whose samples all errored has n = 0. No sample is taken after.
 * Returns 0 or -1. */
int prof_cmp_close(struct prof_cmp *c, prof_cmp_segment_fn fn, void *arg,
		   struct prof_err *err);

/*
 * Move the closed rows out of memory into a temporary file (in TMPDIR,
 * unlinked at once), each read back alone as its comparison is made
 * (prof_cmp_row_json()): a reader that reads a baseline next holds its
 * groups, never both sides of every row at once. Where no temporary file
 * can be written whole the rows stay in memory. Returns 0 either way, or
 * -1 when out of memory.
 */
int prof_cmp_spill(struct prof_cmp *c, struct prof_err *err);

/* Count one baseline sample into its group. Returns 0 or -1. */
int prof_cmp_base_take(struct prof_cmp *c, struct json_object *s,
		       const char *seg, struct prof_err *err);

/*
 * When every baseline sample is in: match every closed row with its
 * group (segment keys looked up with fn), so that each row is judged
 * against it when it is asked for. With no baseline file (missing), every
 * row is incomparable, "baseline file 'name' not found" (name copied).
 * Returns 0 or -1.
 */
int prof_cmp_judge_groups(struct prof_cmp *c, prof_cmp_segment_fn fn,
			  void *arg, int missing, const char *name,
			  struct prof_err *err);


/* Whether sample s is one that rows aggregate (see above). */
int prof_cmp_aggregated(struct json_object *s);

/* Whether sample s is an instruction count that rows aggregate. */
int prof_cmp_counted(struct json_object *s);

/*
 * Judge one row whose cur and base sides and matched flag are filled:
 * compute both sides' statistics, then status, reason, delta, ratio,
 * p-value and the sample counts. Pure; exposed for the unit tests.
 * Returns 0, or -1 when out of memory.
 */
int prof_cmp_judge(struct prof_cmp_row *r);

/* The own time a rule judges sample s's call by: duration_ms minus its
 * run-queue delay (prof_sample_own_ms()) where the sample says its whole
 * delay; NAN where the delay is unknown or partial ("run_delay":
 * "partial": some of the call's threads left out), which the rule then
 * judges by wall time, as before the delay was measured. */
double prof_cmp_own_ms(struct json_object *s);

/* Append a duration to a side. Returns 0, or -1 when out of memory. */
int prof_cmp_side_add(struct prof_cmp_side *s, double v);

/* The same, for a sample that was contended (contended: an enum
 * prof_contention, 0 when not) or not, whose single-threaded call ran
 * cpu_ms (NAN: unknown, or more threads). */
int prof_cmp_side_add_marked(struct prof_cmp_side *s, double v,
			     int contended, double cpu_ms);

/* The same, with the call's own time own_ms (duration_ms minus its
 * run-queue delay; NAN: the delay is unknown). */
int prof_cmp_side_add_timed(struct prof_cmp_side *s, double v,
			    int contended, double cpu_ms, double own_ms);

/* The same, for a memory value of call index at. */
int prof_cmp_side_add_at(struct prof_cmp_side *s, double v, long at);

/*
 * The comparison objects: one per row, in a new array. Each has run_id
 * (of the results it was made from), workload,
 * backend, category, segment, workload_version, fixture_checksum,
 * warning_floor_ms, phase ("timing", or "instructions" for a row of
 * counts), status, reason, delta_ms, delta_pct, ratio, p_value (null when
 * unknown), above_baseline_median, below_baseline_median, needed_above
 * (for both: ceil(0.75 n)), errors, drift (the
 * machine-drift note, or null), baseline_segments on a new row (every
 * segment key the baseline has, so that a reader sees why the row is new),
 * and current and baseline objects with n, min, median, p90, max (null
 * when n is 0; counts on an instruction row), workload_version,
 * fixture_checksum, output_checksum (null when no sample had one) and,
 * when the calls of that side disagree, output_checksum_other. A time
 * row also has threshold_pct (the T it was judged by), judged_on
 * ("duration_ms", "own_ms" or "cpu_ms"; null unless judged) and queue_pct
 * ({current, baseline}: the share of each side's wall time its run-queue
 * delay took, null where a side's delay is unknown). An instruction row also
 * has threshold_pct and delta_instructions; its delta_ms, p_value,
 * above_baseline_median, below_baseline_median and needed_above are null. A
 * memory row has phase "memory", metric (its key), unit, rule ("exact" or
 * "ratio": the one it was judged by), threshold_pct (exact) or null, floor (in
 * its unit), delta (the medians' difference, in its unit; null unless judged),
 * deterministic ({current, baseline}: whether each side's values of one
 * call index agree; baseline null when unmatched; null for a metric
 * judged by ratio) and spread (null, or
 * per side null or {index, min, max} of the first index that disagrees);
 * its delta_ms is null, and its p-value and sample counts are those of
 * the ratio rule (null when judged exactly). NULL when out of memory.
 */
struct json_object *prof_cmp_json(const struct prof_cmp *c);

/* Row k of prof_cmp_json(), made alone (a reader that streams the rows).
 * NULL when out of memory. */
struct json_object *prof_cmp_row_json(const struct prof_cmp *c, size_t k);

/*
 * Whether a checked comparisons document holds exactly the rows of a
 * results file, each once, checked one comparison at a time: begin, the
 * results' samples as they stream by (prof_cmp_rows_sample(): the rows
 * prof_cmp_take() would make, as keys only, so that a reader of a large
 * run checks the comparisons without holding the rows' samples), close
 * (their segments named by key, as prof_cmp_close() does), take each
 * comparison ([i]), end (the rows none took), free. Each returns 0, or -1
 * with err naming the offending row ("[3]: the same row as [0] (w, cpu)",
 * "[0]: no such row in the results (w, cpu)") or "." for a row it lacks.
 */
struct prof_cmp_rows {
	/* A hash of the row's pooled workload, backend and segment id and
	 * its class -> names[]: about 100 bytes a row. */
	struct prof_htab64 h;
	struct prof_htab segs; /* segment key -> a row of its id */
	struct prof_pool pool; /* the names' strings, once each */
	struct {
		const char *w, *b;	/* pooled */
		const char *seg;	/* the segment id, pooled */
		int cls;		/* time 0, counts 1, memory 1 + m */
	} *names;
	long *seen;			/* the comparison of each, or -1 */
	size_t n, cap;
};
void prof_cmp_rows_begin(struct prof_cmp_rows *k);
int prof_cmp_rows_sample(struct prof_cmp_rows *k, struct json_object *s,
			 const char *segment_id, struct prof_err *err);
int prof_cmp_rows_close(struct prof_cmp_rows *k, prof_cmp_segment_fn fn,
			void *arg, struct prof_err *err);
int prof_cmp_rows_take(struct prof_cmp_rows *k, struct json_object *o,
		       size_t i, struct prof_err *err);
int prof_cmp_rows_end(struct prof_cmp_rows *k, struct prof_err *err);
void prof_cmp_rows_free(struct prof_cmp_rows *k);

/* Free the rows and drop the references. c may be all zeros. */
void prof_cmp_free(struct prof_cmp *c);

#endif /* PROF_VERDICT_H */
