/* runview.h: a results file of schema 1 or 2, streamed once into its rows
 * and top level, in memory bounded by the rows. */
#ifndef PROF_RUNVIEW_H
#define PROF_RUNVIEW_H

#include <stddef.h>

#include "base/err.h"
#include "base/htab.h"
#include "base/stats.h"
#include "model/contend.h"
#include "verdict/table.h"

struct json_object;
struct prof_stream;

/*
 * A row: one workload x backend x segment, as prof-diff groups them
 * (timing and browser samples; the aggregated ones are warm successes),
 * with the CPU time and contended marks of those samples (contend.h),
 * plus what other phases say of the same workload x backend x segment:
 * the instruction counts of successful "instructions" samples with an
 * integer "instructions" field and the row's count of them
 * (prof_stats_count_index()), the largest memory
 * peaks of memory samples, and the artifacts every sample of the row
 * names, in the samples' order.
 */
struct prof_runrow {
	const char *workload;
	const char *backend;
	const char *category;
	const char *fixture;		/* its first sample's; NULL: none */
	const char *segment;		/* the key string */
	char segment_id[17];		/* of the key: prof_sample_id() */
	long long version;		/* workload_version */
	double *v;			/* aggregated durations, ms */
	size_t n;
	struct prof_stats st;		/* of v; zeros when n == 0 */
	/* Of the aggregated samples (contend.h): their CPU times, marks
	 * and threads, and the CPU times' statistics (cpu_st.n == 0: no
	 * sample says). */
	struct prof_cpu_row cpu;
	struct prof_stats cpu_st;
	long errors;			/* error samples of any phase */
	long long instructions;		/* -1: not counted */
	long long *counts;		/* those counts, ascending */
	size_t n_counts;
	double host_peak_bytes;		/* NAN: no memory sample */
	double rss_peak_bytes;
	double device_peak_bytes;
	/* The values memory rows judge of each metric (prof_cmp_metrics[],
	 * prof_cmp_mem_value(): memory samples, a command's timing
	 * samples), in the samples' order, and their statistics
	 * (mem_st[m].n == 0: none; [0] unused). */
	double *mem[PROF_CMP_MEM_N];
	size_t n_mem[PROF_CMP_MEM_N];
	struct prof_stats mem_st[PROF_CMP_MEM_N];
	char **artifacts;		/* every sample's, in order */
	size_t n_artifacts;
	size_t first;			/* index of its first sample */
};

/*
 * A row in brief, as prof_runview_load_brief() makes them: what a reader
 * of every row of a large run needs (a report's tables, a page's tally of
 * its blocks), without the samples' values a struct prof_runrow keeps;
 * 96 bytes a row, and 16 a CPU time while the file is walked.
 * The strings are the view's, one copy of each.
 */
struct prof_runbrief {
	const char *workload;
	const char *backend;
	const char *segment;		/* the key string */
	size_t first;			/* index of its first sample */
	long errors;			/* error samples of any phase */
	unsigned n;			/* aggregated samples */
	unsigned n_counts;		/* instruction counts */
	/* Of the aggregated samples (contend.h): how many said their CPU
	 * time, how many were contended, and the CPU times' median (NAN:
	 * none said). */
	unsigned cpu_n, contended;
	double cpu_median;
	double host_peak_bytes;		/* NAN: no memory sample */
	double rss_peak_bytes;
	double device_peak_bytes;
	unsigned char mem;		/* bit m: a value of metric m */
};

struct prof_pool;

/*
 * A view never holds the samples: prof_runview_load() streams the file
 * through stream.h once and keeps the rows, the top level without the
 * samples, the env of the first sample, the sample count and a digest.
 * A consumer that needs each sample (a CSV line per sample) walks the file
 * again with prof_runview_each().
 *
 * Ownership: everything a view hands out (rows, strings, the env) is
 * borrowed from it and lives until prof_runview_free().
 */
struct prof_runview {
	struct prof_stream *st;		/* the reader, its id tables */
	char *path;			/* as given; "-" is stdin */
	char *spool;			/* stdin's copy, to walk again */
	struct json_object *meta;	/* the top level without samples */
	int schema_version;		/* 1 or 2 */
	size_t count;			/* samples */
	char first_env[17];		/* env id of the first sample */
	struct prof_runrow *rows;	/* sorted once the walk is done */
	struct prof_runacc *acc;	/* per row, while walking */
	size_t n_rows, cap_rows;
	struct prof_htab index;		/* by workload, backend, id */
	/* "v2:" and SHA-256 of the samples and the top level; see
	 * prof_runview_load() and history/backend.h. */
	char digest[72];
	/* Loaded in brief: the rows in brief (sorted as rows are; rows is
	 * then empty) and the strings they point to. */
	struct prof_runbrief *briefs;
	size_t n_briefs;
	struct prof_pool *pool;
	/* The sides of an interleaved A/B (prof-time --against) that its
	 * samples are of, PROF_RUNVIEW_AB_*: 0 for a run of its own. */
	unsigned ab_sides;
};

#define PROF_RUNVIEW_AB_CURRENT 1u	/* "ab": {"side": "current"} */
#define PROF_RUNVIEW_AB_REFERENCE 2u	/* "ab": {"side": "reference"} */

/*
 * Read and check a results file ("-" is stdin) of schema version 1 or 2
 * and build its rows. Errors name the file and the JSON path
 * (".samples[3].segment_id: no such id in .segments") or the line and
 * column. With again set, stdin is also copied to a temporary file so
 * that prof_runview_each() can walk it a second time. Returns 0, or -1
 * with err filled; free v with prof_runview_free() either way.
 *
 * The digest is "v2:" and the SHA-256 of the canonical text
 * (prof_json_canonical()) of each sample as the reader hands it out
 * (whole, in the schema-2 form, without the fields schema 2 leaves out
 * when null or empty), each followed by a NUL byte, and then of the top
 * level without samples and schema_version, with the env and segment
 * tables: the same run gives the same digest whatever its schema,
 * grouping or key order, and a run changed anywhere gives another.
 */
int prof_runview_load(struct prof_runview *v, const char *path, int again,
		      struct prof_err *err);

/*
 * Called with each sample of a results file, as prof_runview_each()
 * does, while it is loaded (prof_runview_load_only(),
 * prof_runview_load_brief()): the load and a consumer's own pass in one
 * read. fn's error stops the load.
 */
typedef int (*prof_runview_fn)(void *arg, struct json_object *s,
			       struct prof_err *err);

/*
 * prof_runview_load() that builds only the rows of the workloads and
 * backends keep says yes to (keep NULL: all); the count, the digest and
 * fn see every sample. A page that draws a few rows of a large baseline
 * holds those rows only.
 */
typedef int (*prof_runview_keep_fn)(void *arg, const char *workload,
				    const char *backend);
int prof_runview_load_only(struct prof_runview *v, const char *path,
			   prof_runview_keep_fn keep, void *keep_arg,
			   prof_runview_fn fn, void *arg,
			   struct prof_err *err);

/*
 * prof_runview_load() that makes the rows in brief (struct
 * prof_runbrief, prof_runview_briefs()) and no struct prof_runrow: a
 * report of a run of 200,000 rows holds 20 MB of rows, not 200. The
 * count, the digest and the top level are as prof_runview_load()'s, and
 * fn sees every sample. A reader that then wants some rows whole loads
 * them again from the file (prof_runview_load_only()).
 */
int prof_runview_load_brief(struct prof_runview *v, const char *path,
			    prof_runview_fn fn, void *arg,
			    struct prof_err *err);

/* The rows in brief of a view prof_runview_load_brief() loaded, sorted
 * as prof_runview_rows() sorts rows (borrowed). Returns their number. */
size_t prof_runview_briefs(const struct prof_runview *v,
			   const struct prof_runbrief **rows);

/* The index of the brief row of workload w, backend b and segment key
 * seg (a binary search), or -1. */
long prof_runview_brief(const struct prof_runview *v, const char *w,
			const char *b, const char *seg);

/* The file the view was loaded from, as given. */
const char *prof_runview_path(const struct prof_runview *v);

void prof_runview_free(struct prof_runview *v);

size_t prof_runview_count(const struct prof_runview *v);

/* A top-level string of the document (run_id, commit, ...), or "". */
const char *prof_runview_str(const struct prof_runview *v, const char *key);

/* The run's commit_time as the file gave it, and in utc (21 bytes) the
 * same moment in UTC; NULL when the file has none (an older file). */
const char *prof_runview_commit_time(const struct prof_runview *v,
				     char *utc);

/* The run's parents, space-separated, into out: 1, or 0 when the file
 * has no parents array (an older file). */
int prof_runview_parents(const struct prof_runview *v, char *out, size_t n);

/* The env of the first sample; NULL when there are no samples. */
struct json_object *prof_runview_env(const struct prof_runview *v);

/* The segment key of a segment id of the file, or "". */
const char *prof_runview_segment(const struct prof_runview *v,
				 const char *segment_id);

/*
 * The rows, sorted by workload, backend and segment key (borrowed).
 * Returns their number.
 */
size_t prof_runview_rows(const struct prof_runview *v,
			 const struct prof_runrow **rows);

/* Whether sample s is one prof_runview_load() aggregates into its row's
 * v: a warm timing or browser sample that succeeded with a time. */
int prof_runview_aggregated(struct json_object *s);

/*
 * Walk a loaded view's file again and call fn with each sample, whole and
 * in the schema-2 form (segment_id, env_id; prof_runview_segment() names
 * the key), as stream.h hands them out. Stdin can be walked again only
 * when it was loaded with again set. Returns 0, or -1 with err filled
 * (fn's own error, or the file's if it changed in between).
 */
int prof_runview_each(struct prof_runview *v, prof_runview_fn fn, void *arg,
		      struct prof_err *err);

/*
 * What a comparisons document (prof-diff's, prof_cmp_json()) says of each
 * row: the status and reason of the comparison of its timing (or browser)
 * samples and of its instruction counts, NULL where there is none.
 * Instruction rows have a segment of their own (it keys valgrind), so a
 * row usually has one of the two. The strings are borrowed from the
 * document.
 */
struct prof_runverdict {
	const char *status;		/* the timing or browser comparison */
	const char *reason;
	double threshold_pct;		/* its time threshold, %; 0: none */
	const char *count_status;	/* the instruction-count comparison */
	const char *count_reason;
	/* the memory row of each metric (enum prof_cmp_mem) */
	const char *mem_status[PROF_CMP_MEM_N];
	const char *mem_reason[PROF_CMP_MEM_N];
};

/*
 * Fill out[i] for rows[i] of v (prof_runview_rows()) from a comparisons
 * document: it is checked as a report checks it (prof_cmp_check()), must
 * be of v's run (every run_id that of the results), and every comparison
 * must be of a row of v, once. Errors name the JSON path:
 * "[0].run_id: a comparison of run 'a', not of the results' run 'b'",
 * "[3]: no such row in the results (w, cpu)". Rows no comparison names
 * keep NULLs. Returns 0, or -1 with err filled (the
 * caller adds the file name).
 */
int prof_runview_verdicts(const struct prof_runview *v,
			  struct json_object *comparisons,
			  struct prof_runverdict *out, struct prof_err *err);

/*
 * The verdicts a file prof-history export-runs wrote keeps for its rows
 * (.history.rows: [{workload, backend, segment_id, status, reason, and
 * KEY_status, KEY_reason of each memory metric}]), as
 * prof_runview_verdicts() gives comparisons' (the time verdict of each
 * row named). Returns 1 with out filled, 0 when the file keeps none (out
 * untouched), -1 with err (".history.rows[2]: no such row in the
 * results (w, cpu)"; the caller adds the file name).
 */
int prof_runview_kept_verdicts(const struct prof_runview *v,
			       struct prof_runverdict *out,
			       struct prof_err *err);

/* The index of the row of workload w, backend b and segment key seg
 * (a binary search of the sorted rows), or -1. */
long prof_runview_row(const struct prof_runview *v, const char *w,
		      const char *b, const char *seg);

/*
 * The row that holds the instruction count of row i (sorted, as
 * prof_runview_rows() hands them out): i itself when it is counted, else
 * the counted row of the same workload and backend with no time samples
 * whose segment key differs from row i's only in the count keys
 * (prof_env_segment_count_pair(): prof-count's samples key valgrind's
 * version, so a make profile-quick COUNTS=1 run has its counts in rows
 * of their own); -1 when there is none. Every export of a time row
 * carries that row's count.
 */
long prof_runview_count_row(const struct prof_runview *v, size_t i);

/* The rows of row i's workload and backend in rows[0..n) sorted as a
 * view's are (they lie together): [*from, *to), i among them. */
void prof_runrow_span(const struct prof_runrow *rows, size_t n, size_t i,
		      size_t *from, size_t *to);

#endif /* PROF_RUNVIEW_H */
