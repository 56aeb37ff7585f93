/* read.h: the one reader of a comparison object (comparisons.json's rows,
 * as verdict/write.c writes them) into a typed verdict, so that a reader
 * takes its fields from a struct, never by key. */
#ifndef PROF_VERDICT_READ_H
#define PROF_VERDICT_READ_H

#include "verdict/table.h"

struct json_object;

/* Which channel a comparison judges ("phase"). */
enum prof_verdict_phase {
	PROF_VERDICT_TIME = 0,		/* "timing" (browser rows too) */
	PROF_VERDICT_COUNT,		/* "instructions" */
	PROF_VERDICT_MEMORY,		/* "memory": see metric */
};

/* One side's statistics: NAN where the comparison has null; n 0. */
struct prof_verdict_side {
	long long n;
	double min, median, p90, max;
	long long workload_version;
	const char *fixture_checksum;	/* NULL: null */
	const char *output_checksum;
	const char *output_other;	/* output_checksum_other */
};

/*
 * A comparison, its strings borrowed from the object it was read from
 * (valid while that lives). Numbers that are null are NAN; strings that
 * are null or absent NULL.
 */
struct prof_verdict {
	const char *run_id;
	const char *workload, *backend, *category, *segment;
	enum prof_verdict_phase phase;
	enum prof_cmp_mem metric;	/* a memory row's; else NONE */
	enum prof_cmp_status status;
	const char *status_name;	/* the file's words for status */
	const char *reason;
	double delta_ms, delta_pct, ratio, p_value;
	double threshold_pct;		/* NAN where the row has none */
	double delta;			/* a memory row's, in its unit */
	double floor;			/* a memory row's, in its unit */
	const char *judged_on;		/* a time row's, or NULL */
	const char *drift;		/* the machine-drift note, or NULL */
	long long above, below, needed;	/* -1 where null */
	struct prof_verdict_side cur, base;
};

/*
 * Read comparison o (checked: prof_cmp_check_one()) into *v. Returns 0,
 * or -1 where o is not an object or names a phase, metric or status
 * that prof-diff does not write (*v then holds what was read).
 */
int prof_verdict_read(struct json_object *o, struct prof_verdict *v);

/* The same, of the row's key alone (run_id, workload, backend, category,
 * segment, phase and metric; the rest zeros): what an index of the rows
 * reads. */
int prof_verdict_read_key(struct json_object *o, struct prof_verdict *v);

#endif /* PROF_VERDICT_READ_H */
