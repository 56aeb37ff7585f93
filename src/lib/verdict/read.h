/* read.h: the one reader of a comparison object (comparisons.json's rows,
 * as verdict/write.c writes them, with what prof-why adds) into a typed
 * verdict, so that a reader takes its fields from a struct, never by key. */
#ifndef PROF_VERDICT_READ_H
#define PROF_VERDICT_READ_H

#include <stddef.h>

#include "verdict/table.h"

struct json_object;

/* Which channel a comparison judges ("phase"). */
enum prof_verdict_phase {
	PROF_VERDICT_TIME = 0,		/* "timing" (browser rows too) */
	PROF_VERDICT_COUNT,		/* "instructions" */
	PROF_VERDICT_MEMORY,		/* "memory": see metric */
};

/* A memory side's spread: the first call index whose values disagree
 * and their range (known 0: the side's values agreed, or were not
 * checked). */
struct prof_verdict_spread {
	int known;
	long long index;
	double min, max;
};

/* One side's statistics: NAN where the comparison has null; n 0. */
struct prof_verdict_side {
	long long n;
	double min, median, p90, max;
	long long errors;		/* -1: null */
	long long workload_version;	/* -1: null */
	const char *fixture_checksum;	/* NULL: null */
	const char *output_checksum;
	const char *output_other;	/* output_checksum_other */
	/* A time row's: how many of the side's samples were contended
	 * (-1: null, or not a time row) and the share (%) of its wall time
	 * the run-queue delay took (NAN: null). */
	long long contended;
	double queue_pct;
	/* A memory row's: whether its values of each call index agree
	 * (1, 0; -1: null, nothing to check or not an exact metric), and
	 * where they did not. */
	int deterministic;
	struct prof_verdict_spread spread;
};

/* How an interleaved A/B row's sampling ended ("interleaved"; present 0:
 * not an A/B row). Numbers null in the file are NAN. */
struct prof_verdict_ab {
	int present;
	long long repeat, max_repeat;	/* the plan's --repeat, --max-repeat */
	long long samples_a_side;
	long long judged_current, judged_baseline;
	int settled, uncontended_only;
	const char *judged_on;		/* "duration_ms", "own_ms", "cpu_ms" */
	double wall_ratio_low, wall_ratio_high;
	double ratio_low, ratio_high;
	double confidence;
};

/* Which of prof-why's explanations of a row (struct prof_verdict_why). */
enum prof_verdict_why_kind {
	PROF_VERDICT_WHY_COUNT = 0,	/* "functions", "functions_artifacts":
					 * callgrind, instructions */
	PROF_VERDICT_WHY_TIME,		/* "time_functions", "time_artifacts":
					 * CPU profiles, ns per call */
	PROF_VERDICT_WHY_N,
};

/* One function of an explanation (prof-why(1)): NULL strings and -1
 * counts where null; shares NAN where null. */
struct prof_verdict_fn {
	const char *name, *file, *file_before, *state;
	long long self_before, self_after, incl_before, incl_after;
	double share, incl_share;
};

/* An explanation of a row: n functions (read with prof_verdict_fn()),
 * and its files (has_artifacts 0: none). */
struct prof_verdict_why {
	const char *key;		/* the list's key: "functions", ... */
	int present;			/* the row has the functions' list */
	size_t n;
	int has_artifacts;
	const char *before, *after;	/* relative to the comparisons */
	const char *listing;		/* pprof's listing, or NULL */
	const char *unit;		/* "ns per call", or NULL */
	long long total_before, total_after;	/* -1: null */
	struct json_object *fns_;	/* private: the list it reads */
};

/* What a memory site or a memory profile counts, before and after. */
enum prof_verdict_mem_count {
	PROF_VERDICT_BYTES_BEFORE = 0,
	PROF_VERDICT_BYTES_AFTER,
	PROF_VERDICT_ALLOCS_BEFORE,
	PROF_VERDICT_ALLOCS_AFTER,
	PROF_VERDICT_LIVE_BEFORE,	/* the most bytes live at once */
	PROF_VERDICT_LIVE_AFTER,
	PROF_VERDICT_MEM_COUNTS,
};

/* One allocation site of a memory row (prof-why --memory). */
struct prof_verdict_site {
	const char *name, *file, *state;
	long long v[PROF_VERDICT_MEM_COUNTS];	/* -1: null */
	double share;				/* NAN: null */
};

/* A memory row's allocation sites: n of them (prof_verdict_site()), the
 * line that says why there are none (note), and the two files. */
struct prof_verdict_sites {
	size_t n;
	const char *note;		/* "memory_sites_note", or NULL */
	int has_artifacts;
	const char *before, *after;
	const char *by;			/* "bytes", "allocations", "max-live" */
	const char *scope_before, *scope_after;	/* "run", "process" */
	long long total[PROF_VERDICT_MEM_COUNTS];	/* -1: null */
	struct json_object *sites_;	/* private: the list it reads */
};

/*
 * A comparison, its strings borrowed from the object it was read from
 * (valid while that lives). Numbers that are null are NAN; strings that
 * are null or absent NULL; counts that are null -1.
 */
struct prof_verdict {
	const char *run_id;
	const char *workload, *backend, *category, *segment;
	enum prof_verdict_phase phase;
	enum prof_cmp_mem metric;	/* a memory row's; else NONE */
	enum prof_cmp_status status;
	const char *status_name;	/* the file's words for status */
	const char *reason;
	long long workload_version;	/* the current run's; -1: null */
	const char *fixture_checksum;	/* the current run's, or NULL */
	double warning_floor_ms;
	double delta_ms, delta_pct, ratio, p_value;
	double threshold_pct;		/* NAN where the row has none */
	double delta;			/* a memory row's, in its unit */
	double delta_instructions;	/* a count row's */
	double floor;			/* a memory row's, in its unit */
	const char *unit;		/* a memory row's ("bytes", ...) */
	const char *rule;		/* a memory row's: "exact", "ratio" */
	const char *judged_on;		/* a time row's, or NULL */
	const char *drift;		/* the machine-drift note, or NULL */
	long long above, below, needed;	/* -1 where null */
	long long errors;		/* the current run's error samples */
	/* A new row's: the baseline's segments (segment keys) for this
	 * run, read with prof_verdict_baseline_segment(), where the row
	 * lists them (has_baseline_segments; none: the baseline has no
	 * timing sample). */
	int has_baseline_segments;
	size_t n_baseline_segments;
	struct prof_verdict_ab ab;
	struct prof_verdict_side cur, base;
	struct prof_verdict_why why[PROF_VERDICT_WHY_N];
	struct prof_verdict_sites sites;
	struct json_object *segs_;	/* private: baseline_segments */
};

/*
 * Read comparison o (checked: prof_cmp_check_one()) into *v. Returns 0,
 * or -1 where o is not an object or names a phase, metric or status
 * that prof-diff does not write (*v then holds what was read). Nothing is
 * allocated: v is valid while o lives, and needs no freeing.
 */
int prof_verdict_read(struct json_object *o, struct prof_verdict *v);

/* The same, of the row's key alone (run_id, workload, backend, category,
 * segment, phase and metric; the rest zeros): what an index of the rows
 * reads. */
int prof_verdict_read_key(struct json_object *o, struct prof_verdict *v);

/* Function i of explanation kind of v into *f. Returns 0, or -1 when
 * i is out of range. */
int prof_verdict_fn(const struct prof_verdict *v,
		    enum prof_verdict_why_kind kind, size_t i,
		    struct prof_verdict_fn *f);

/* Allocation site i of v into *s. Returns 0, or -1 out of range. */
int prof_verdict_site(const struct prof_verdict *v, size_t i,
		      struct prof_verdict_site *s);

/* A count of a function or site as every page says it: one that is null
 * (-1) as 0. */
long long prof_verdict_count(long long v);

/* The baseline's segment key i of a new row, or NULL out of range. */
const char *prof_verdict_baseline_segment(const struct prof_verdict *v,
					  size_t i);

#endif /* PROF_VERDICT_READ_H */
