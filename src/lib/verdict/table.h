/* table.h: the channels and metrics a row is judged on, and the statuses
 * a verdict takes, with their words: the table every layer reads (the
 * model, the history, the pages, the exports), below the model. */
#ifndef PROF_VERDICT_TABLE_H
#define PROF_VERDICT_TABLE_H

#include <stddef.h>

struct json_object;

/* The statuses of a judged row: see verdict.h for the rules. */
enum prof_cmp_status {
	PROF_CMP_UNJUDGED = 0, /* grouped only; no baseline was asked for */
	PROF_CMP_NEW,
	PROF_CMP_INCOMPARABLE,
	PROF_CMP_STABLE,
	PROF_CMP_WARNING,
	PROF_CMP_IMPROVED,  /* never changes an exit code */
	PROF_CMP_UNSETTLED, /* the evidence did not settle; neither */
};

/* The ratio above which a slower memory median (the RSS peak) may be a
 * warning. */
#define PROF_CMP_RATIO 1.20

/* The time threshold (%) of a row whose samples record none: against a
 * baseline (another day's machine), and interleaved A/B (both builds in
 * one run: see prof-diff(1) for why this default). A threshold is more
 * than 0 and at most PROF_CMP_THRESHOLD_MAX. */
#define PROF_CMP_TIME_THRESHOLD 20.0
#define PROF_CMP_AB_THRESHOLD 5.0
#define PROF_CMP_THRESHOLD_MAX 1000.0

/* A row judged on own time says how much of its wall time the queue took
 * where that is at least this share (%) on either side. */
#define PROF_CMP_QUEUE_NOTE_PCT 1.0

/* The growth of an instruction count (%) above which it is a warning,
 * unless the workload sets its own (count_threshold_pct). */
#define PROF_CMP_COUNT_THRESHOLD 1.0

/* The memory metrics, in the order of their rows; index 0 is none. */
enum prof_cmp_mem {
	PROF_CMP_MEM_NONE = 0,
	PROF_CMP_MEM_PEAK,	/* host_peak_bytes */
	PROF_CMP_MEM_ALLOCS,	/* host_allocs */
	PROF_CMP_MEM_BYTES,	/* host_allocated_bytes */
	PROF_CMP_MEM_RSS,	/* rss_peak_bytes */
	PROF_CMP_MEM_DEVICE,	/* device_peak_allocated_bytes (CUDA) */
	PROF_CMP_MEM_N,
};

/*
 * A memory metric: what a sample calls it, its words and unit, the rule
 * it is judged by (verdict.h), and its names outside comparisons.json. A
 * new metric is one row of prof_cmp_metrics[] (and its enum above); the
 * history stores it in the columns named here.
 */
struct prof_cmp_metric {
	const char *key;	/* in a sample's "memory", a comparison's
				 * "metric", the CSV export's column */
	const char *name;	/* in a reason: "heap peak" */
	const char *more, *less;	/* its growth and fall in words, as
					 * the channels say them: "more
					 * allocations", "fewer allocations" */
	const char *noun;	/* what it amounts to: "allocations" */
	const char *unit;	/* "bytes" or "allocations" */
	int exact;		/* judged exactly; else by ratio */
	double threshold_pct;	/* exact: warning above this growth */
	double floor;		/* the least change judged, in unit */
	const char *history;	/* the history's value column (its status
				 * and reason: key_status, key_reason) */
	const char *bmf;	/* a Bencher measure (prof-export) */
	const char *gbench;	/* a Google Benchmark entry's key: its
				 * memory manager's, where one means the
				 * same (prof-export) */
};

/* Indexed by enum prof_cmp_mem; [0] is all NULL. */
extern const struct prof_cmp_metric prof_cmp_metrics[PROF_CMP_MEM_N];

/* Whether memory rows take metric m of sample s (a successful warm memory
 * sample, or a timing sample with a "memory" of its own, holding m as a
 * number): 1 with *v set, else 0. The one rule of every reader. */
int prof_cmp_mem_value(struct json_object *s, enum prof_cmp_mem m,
		       double *v);

#define PROF_CMP_MEM_THRESHOLD 1.0		/* exact metrics, % */
#define PROF_CMP_MEM_FLOOR_BYTES 4096.0		/* heap peak, bytes */
#define PROF_CMP_MEM_FLOOR_ALLOCS 16.0		/* allocations */
#define PROF_CMP_MEM_FLOOR_RSS 1048576.0	/* RSS peak, bytes */
#define PROF_CMP_MEM_FLOOR_DEVICE 65536.0	/* device peak, bytes */

/* The metric whose key is key, or PROF_CMP_MEM_NONE. */
enum prof_cmp_mem prof_cmp_metric_find(const char *key);

/* "new", "incomparable", "stable", "warning", "improved", "unsettled";
 * "unjudged". */

/* Whether name is one of those names (the statuses a reader takes). */
int prof_cmp_status_known(const char *name);

/* The status whose name is name, into *out: 0, or -1 when it is none. */
int prof_cmp_status_of(const char *name, enum prof_cmp_status *out);

/*
 * The command that would settle an unsettled row, into buf: the run's
 * command cmd (results.json's) with a larger budget. A make compare
 * (whose budget is 4 x REPEAT): a quick one goes MODE=full (40 a side), a
 * full one doubles REPEAT, each with w (" W=ID" or " W=\"ID ID\"": the
 * unsettled rows' workloads, in place of the run's own W, so that it runs
 * those and no other; "" or NULL: the run's selection as it was);
 * prof-time: twice the --max-repeat max. Anything else: what to raise, in
 * words; max 0 (a row judged against a baseline, not interleaved): judge
 * it interleaved, in words. repeat and max are the unsettled rows'
 * largest --repeat and --max-repeat.
 */
void prof_cmp_settle_command(const char *cmd, long repeat, long max,
			     const char *w, char *buf, size_t n);
const char *prof_cmp_status_name(enum prof_cmp_status s);

#endif /* PROF_VERDICT_TABLE_H */
