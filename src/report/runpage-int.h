/*
 * runpage-int.h: what the files of report.html share: the page being
 * written (struct page: the run in brief, the rows drawn whole, the
 * baseline, the comparisons, the history) and each file's writers.
 * Inside src/report only.
 */
#ifndef PROF_RUNPAGE_INT_H
#define PROF_RUNPAGE_INT_H

#include <stdio.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/htab.h"
#include "history/history.h"
#include "model/runview.h"
#include "verdict/read.h"
#include "verdict/view.h"
#include "runpage.h"

/* The plots' coordinate boxes (SVG user units; CSS scales them). */
#define PLOT_W 640
#define STRIP_H 96
#define LEFT 84
#define RIGHT 16

/*
 * What a row's samples say beyond runview's rows (the walk's callback
 * collects it, keyed by the file's workload, backend and segment id): of
 * its aggregated samples, the code's own time (wall minus run-queue
 * delay, contend.h) of those that said their delay, and how many said it
 * and how many did not.
 */
struct extra {
	char *key;		/* workload NUL backend NUL segment id */
	size_t len;
	double *own;			/* ms, in the samples' order */
	size_t n_own, cap_own;
	size_t no_delay;		/* aggregated samples without one */
	unsigned char *cont;		/* each one's contended mark */
	size_t n_cont, cap_cont;
};

struct extras {
	struct page *p;		/* the summarised page's choice */
	struct extra *e;
	size_t n, cap;
	struct prof_htab index;		/* key -> index in e */
	long *of_row;		/* per row of the view: in e, or -1 */
};

struct page {
	const struct prof_runpage_in *in;
	const struct prof_runview *cur;	/* in brief: every row */
	struct prof_runview whole;	/* the rows drawn, whole */
	struct prof_runview base;
	int has_base, has_whole;
	/* The baseline is the run folder's baseline.json (make compare's
	 * reference side), found, not given: a row draws its samples only
	 * where they are those its comparison was made from. */
	int found_base;
	/* Of the rows drawn and the baseline's (own times, delays). */
	struct extras wx, bx;
	const struct prof_runbrief *briefs;
	long n_briefs;
	const struct prof_runrow *rows, *brows;
	long n, bn;
	/* Of every row (tally()): their error samples, and whether some has
	 * instruction counts, some memory. */
	long errors;
	int any_counts, any_memory;
	struct prof_cmpview *cmp;	/* the comparisons, or NULL */
	struct prof_htab base_index;	/* row key -> index in brows */
	struct prof_history *hist;
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

/*
 * runpage-load.c: what the page reads. rp_page_load() fills p (in, cur
 * and cmp set, and what is drawn chosen: runpage.c's tally()) with the
 * rows drawn whole, the baseline, the history and the links' prefix;
 * rp_page_free() lets it all go (also after a failed load). rp_trend_of(): a row's trend in the history and its change
 * points (prof_history_trend(), prof_history_changes(); put both, also
 * on failure). rp_graphs_of(): the two call graphs of explanation w
 * (relative to the comparisons' folder), demangled and, per_call set,
 * per call; free both, also on failure. Each returns 0, or -1 with err.
 */
struct prof_callgrind_profile;
int rp_page_load(struct page *p, struct prof_err *err);
void rp_page_free(struct page *p);
int rp_trend_of(struct page *p, const struct prof_runrow *r,
		struct json_object **all, struct json_object **changes,
		struct prof_err *err);
int rp_graphs_of(struct page *p, const struct prof_verdict_why *w,
		 int per_call, struct prof_callgrind_profile *before,
		 struct prof_callgrind_profile *after, struct prof_err *err);

/* runpage-rows.c */
void rp_fmt_val(char *buf, size_t n, double v, int counts);
long rp_row_number(const struct page *p, long i);
char *rp_row_key(const char *w, const char *b, const char *s, size_t *len);
int rp_index_rows(struct page *p, struct prof_err *err);
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
int rp_drawn_wb(void *arg, const char *w, const char *b);
int rp_extras_take(void *arg, struct json_object *s, struct prof_err *err);
int rp_extras_map(struct extras *x, const struct prof_runview *v, size_t n,
		  struct prof_err *err);
const struct extra *rp_extra_of(const struct extras *x, long k);
void rp_extras_free(struct extras *x);

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
