/*
 * runpage-int.h: what the files of report.html share: the page being
 * written (struct page: the run in brief, its comparisons, what is drawn
 * and, loaded by load.c, the rows drawn whole, the baseline and the
 * history) and each file's writers.
 * Inside src/report only.
 */
#ifndef PROF_RUNPAGE_INT_H
#define PROF_RUNPAGE_INT_H

#include <stdio.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/htab.h"
#include "model/runview.h"
#include "verdict/read.h"
#include "verdict/view.h"
#include "load.h"
#include "runpage.h"

/* The plots' coordinate boxes (SVG user units; CSS scales them). */
#define PLOT_W 640
#define STRIP_H 96
#define LEFT 84
#define RIGHT 16

struct page {
	const struct prof_runpage_in *in;
	const struct prof_runview *cur;	/* in brief: every row */
	/* What is drawn, loaded (load.h): the rows drawn whole, the
	 * baseline's, their extras, the history. */
	const struct rep_drawn *d;
	const struct prof_runbrief *briefs;
	long n_briefs;
	const struct prof_runrow *rows, *brows;
	long n, bn;
	/* Of every row (tally()): their error samples, and whether some has
	 * instruction counts, some memory. */
	long errors;
	int any_counts, any_memory;
	struct prof_cmpview *cmp;	/* the comparisons, or NULL */
	FILE *fp;
	char prefix[4096];		/* links: run_dir relative to the page */
	/* A page of more than WHOLE_BLOCKS blocks draws the telling ones
	 * (at most WHOLE_BLOCKS) and counts the others by status. */
	int summarise;
	long telling;			/* drawn so far in this pass */
	long drawn, blocks;
	long hidden[10];		/* by status_rank() */
	struct prof_htab drawn_index;	/* workload NUL backend drawn */
};

/*
 * A page a browser opens: past this many workload x backend blocks (a
 * block is a few kB of SVG and numbers), only the errored and changed
 * ones are drawn whole and the rest are counted; every row's numbers are
 * in comparisons.json and summary.md.
 */
#define WHOLE_BLOCKS 2000

/* runpage-rows.c */
void rp_fmt_val(char *buf, size_t n, double v, int counts);
long rp_row_number(const struct page *p, long i);
const struct prof_verdict *rp_cmp_in(struct page *p, int count,
				     const struct prof_runrow *r, long *at);
const struct prof_verdict *rp_comparison_of(struct page *p,
					    const struct prof_runrow *r);
const struct prof_verdict *rp_count_comparison_of(struct page *p,
						  const struct prof_runrow *r);
int rp_memory_comparisons_of(struct page *p, const struct prof_runrow *r,
			     const struct prof_verdict *out[PROF_CMP_MEM_N]);
int rp_has_count(struct page *p, const struct prof_runrow *r);
int rp_has_memory(struct page *p, const struct prof_runrow *r);
int rp_has_time(struct page *p, const struct prof_runrow *r);
const struct prof_runrow *rp_time_baseline_of(struct page *p,
					      const struct prof_runrow *r,
					      const struct prof_verdict *c);
const struct prof_runrow *rp_count_baseline_of(struct page *p,
					       const struct prof_runrow *r,
					       const struct prof_verdict *c);
const char *rp_status_of(const struct prof_runrow *r,
			 const struct prof_verdict *c);
const char *rp_count_status_of(const struct prof_runrow *r,
			       const struct prof_verdict *c);
void rp_badge(FILE *fp, const char *status);

/* runpage-chart.c */
void rp_strip_chart(struct page *p, const struct prof_runrow *r,
		    const struct prof_verdict *c, const struct prof_runrow *b);
void rp_count_chart(struct page *p, const struct prof_runrow *r,
		    const struct prof_verdict *c, const struct prof_runrow *b);
void rp_count_numbers(struct page *p, const struct prof_runrow *r,
		      const struct prof_verdict *c,
		      const struct prof_runrow *b, int errors);
int rp_trend_chart(struct page *p, const struct prof_runrow *r,
		   struct prof_err *err);
void rp_numbers(struct page *p, const struct prof_runrow *r,
		const struct prof_verdict *c, const struct prof_runrow *b);

/* runpage-why.c */
void rp_artifact_links(struct page *p, const struct prof_runrow *r);
int rp_why_section(struct page *p, long i, const struct prof_verdict *c,
		   int explained, struct prof_err *err);
void rp_memory_why(struct page *p, const struct prof_runrow *r);

/* runpage.c */

#endif
