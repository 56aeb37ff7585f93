/*
 * report-int.h: what the files of prof-report's summary share: the
 * writers of summary.md, the compact table and the annotations, each
 * given the run as the summary reads it (struct report, loaded by load.c
 * and pprof.c: load.h). Inside src/report only.
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
/* Each profile's listing, written from what rep_load_profiles() read
 * (load.h). */
void rep_write_profiles(struct report *r);
void rep_write_artifacts(struct report *r);

/* table.c */
void rep_print_table(struct report *r);
void rep_print_memory(struct report *r);
void rep_print_annotations(struct report *r);

#endif
