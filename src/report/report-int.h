/*
 * report-int.h: what the files of prof-report's summary share: the run
 * as the summary reads it (struct report), loaded by load.c (load.h), and
 * each file's writers. Inside src/report only.
 */
#ifndef PROF_REPORT_INT_H
#define PROF_REPORT_INT_H

#include <stdio.h>

#include <json-c/json.h>

#include "base/htab.h"
#include "base/json.h"
#include "verdict/read.h"
#include "verdict/view.h"
#include "verdict/verdict.h"
#include "model/runview.h"
#include "load.h"
#include "md.h"

/* The lines of a CPU profile that the summary shows. */
#define TOP_FUNCTIONS 20

/* A .prof artifact of a profile sample. */
struct profile {
	char *workload;
	char *backend;
	char *binary;		/* metrics.binary; NULL: none */
	char *artifact;
	/* Read before the summary is written (rep_load_profiles()): the
	 * lines it shows of pprof's listing, from its "Total:" line, or
	 * why there are none. */
	char **shown;
	size_t n_shown, cap_shown;
	char *why;		/* NULL: read */
};

/*
 * What the summary needs of the run: its rows and top level from
 * lib/runview (the memory peaks, CPU times and counts of each row), the
 * comparisons (prof-diff's, or made here when none are given) through
 * lib/cmpview, which keeps them as text, and, from one pass over the
 * samples while the view is loaded, the environments in the order the
 * samples name them and the profiles; the error and artifact lines go to
 * temporary files, so memory never holds the samples.
 */
struct report {
	struct prof_runview view;
	struct json_object *meta;	/* the results' top level (borrowed) */
	struct prof_cmpview rows;	/* comparison objects */
	struct prof_cmpview mem_rows;	/* the memory rows, apart */
	int judged;			/* rows come from prof-diff */
	int keys_apart;			/* keys in a walk of their own */
	struct prof_cmp cmp;		/* the results' rows, when not judged */
	struct prof_cmp_rows keys;	/* their keys, to check comparisons */
	unsigned char *mem_used;	/* per view row: a table row showed it */
	char **envs;			/* env ids, first seen first */
	size_t n_envs, cap_envs;
	struct prof_htab env_index;
	struct profile *profiles;
	size_t n_profiles, cap_profiles;
	FILE *errors_md, *artifacts_md;
	long errors, artifacts;
	/* Samples whose output was not checksummed, and the first one's
	 * reason (checksum_reason: a Google Benchmark sample's). */
	long unchecked;
	char unchecked_why[200];
	const char *run_dir;
	const char *pprof;
	FILE *md;
	/* What report.html draws (--html; rep_load_drawn()), loaded once
	 * the summary is written. */
	struct rep_drawn drawn;
};

/* A field in a code span in a table cell. */
#define CELL_CODE (PROF_MD_CODE | PROF_MD_CELL)

/* A field of o, or dflt where it is missing or empty: of the JSON that
 * is not a comparison row (an environment, a segment key). */
static inline const char *
str_or(struct json_object *o, const char *key, const char *dflt)
{
	const char *s = prof_json_str(o, key);

	return s && s[0] ? s : dflt;
}

/* load.c */
int rep_load_comparisons(struct report *r, const char *comparisons);
void rep_drop_cmp(struct report *r);
int rep_load_results(struct report *r, const char *path, int judged);
void rep_report_free(struct report *r);

/* rows.c: each of a comparison row's cells from its verdict (verdict/
 * read.h), as the view hands it out (prof_cmpview_verdict()). */
void rep_ratio_cells(const struct prof_verdict *v, char *ratio, size_t nr,
		     char *p, size_t np);
double rep_row_pct(const struct prof_verdict *v);
int rep_is_count_row(const struct prof_verdict *v);
void rep_count_cells(struct report *r, const struct prof_verdict *c,
		     char *count, size_t nc, char *pct, size_t np,
		     const char **status);
int rep_has_counts(struct report *r);
const struct prof_verdict *rep_count_row_of(struct report *r,
					    const struct prof_verdict *v);
int rep_has_time_row(struct report *r, const struct prof_verdict *c);
void rep_peaks(struct report *r, size_t from, size_t to, double *host,
	       double *gpu);
void rep_memory_of(struct report *r, const struct prof_verdict *v,
		   double *host, double *gpu);
int rep_has_memory(const struct prof_runbrief *row);
void rep_cpu_cells(struct report *r, const struct prof_verdict *v, char *cpu,
		   size_t nc, char *cont, size_t nn);
int rep_row_unsettled(const struct prof_verdict *v);
int rep_row_contended(const struct prof_verdict *v, long *k, long *n);
const char *rep_short_file(const char *f);

/* summary.c */
void rep_write_header(struct report *r);
void rep_settle_command(struct report *r, long repeat, long max, char *buf,
			size_t n);
long rep_unsettled_budget(struct report *r, long *repeat, long *max);
void rep_write_table(struct report *r);
void rep_copy_spool(FILE *from, FILE *to);
void rep_write_segments(struct report *r);
void rep_write_errors(struct report *r);
void rep_write_opening(struct report *r, const char *const *notes, int n_notes);
void rep_first_run_hint(FILE *fp, int md, const char *baseline,
			const char *results, struct json_object *meta);
int rep_write_summary(const char *output, FILE *text, struct prof_err *err);

/* memory.c */
int rep_any_memory(struct report *r);
void rep_write_memory_rows(struct report *r, int counts);
/* A memory row's cells in a table: its metric ("heap peak (bytes)"), its
 * current median, the baseline's and the delta, digits grouped ("-" where
 * the run is not judged), and its status. */
struct rep_mem_cells {
	char metric[96], cur[32], base[32], delta[32];
	const char *status;
};
/* Memory row i of r with its cells in c; NULL where it cannot be read. */
const struct prof_verdict *rep_mem_row(struct report *r, size_t i,
				       struct rep_mem_cells *c);
void rep_write_memory(struct report *r);

/* pprof.c */
int rep_take_artifacts(struct report *r, struct json_object *s);
/* Each profile's listing read (pprof --text, the top TOP_FUNCTIONS
 * functions kept), or why not, with a warning on stderr; then written
 * from what was read. 0, or -1 out of memory. */
int rep_load_profiles(struct report *r);
void rep_write_profiles(struct report *r);
void rep_write_artifacts(struct report *r);

/* table.c */
void rep_print_table(struct report *r);
void rep_print_memory(struct report *r);
void rep_print_annotations(struct report *r);

#endif
