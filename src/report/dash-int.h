/*
 * dash-int.h: what the files of prof-dashboard's pages share: the
 * series as the walks of the history read them (struct dash, struct entry)
 * and each file's writers. Inside src/report and prof-dashboard.c only.
 */
#ifndef PROF_DASH_INT_H
#define PROF_DASH_INT_H

#include <stdio.h>

#include <json-c/json.h>

#include "base/err.h"
#include "history/history.h"
#include "kit/page.h"
#include "verdict/verdict.h"
#include "chart.h"

/* Rows of a page's table: the last this many runs. */
#define TABLE_RUNS 50
/* The most bytes of a series' "what differs" words. */
#define DIFFERS_MAX 240
/* What changed recently: a change point among a series' last this many
 * runs; at most this many lines at the top of the index. */
#define RECENT_RUNS 10
#define RECENT_MAX 8

/* What the pages need of the tool's options. */
struct dash_site {
	const char *repo_url;	/* NULL: no links to commits */
	const char *title;
	const char *dir;
};

/*
 * A series as the first walk of the history saw it: its key, its page's
 * file, and the fields of its segment that tell it from the other series
 * of its workload (g0..g1 in the sorted keys: those series).
 */
struct skey {
	char *workload;
	char *backend;
	char *segment_id;
	char *segment;
	char file[32];
	char *differs;		/* "valgrind 3.19.0"; "" when alone */
	size_t g0, g1;
};

/* What the index keeps of a series once its page is written. */
struct entry {
	char *workload;
	char *backend;
	char *segment_id;
	char *segment;
	char file[32];
	const struct skey *key;	/* NULL: not seen by the first walk */
	double *medians;	/* per run, NAN where none */
	long long *instructions;
	size_t n;
	int timed;		/* any median: a series of times */
	int counted;		/* any instruction count */
	unsigned memory;	/* bit m: some run measured memory metric m */
	double *heap;		/* the heap peak per run, NAN where none */
	int mem_changed;	/* memory only: the last change is of the
				 * metric mem_metric (change, change_pct) */
	int mem_metric;
	int count_changed;	/* counts only: the last run's count differs
				 * from one before (change, change_pct) */
	size_t *cuts;		/* change points, as run indexes */
	long ncuts;
	double last_median;
	long long last_n, last_errors, last_instructions;
	int last_memory;	/* the last run measured some memory metric */
	char last_run[128];
	char last_status[32];	/* "": none stored */
	char *last_reason;	/* NULL: none */
	/* The last run's verdicts of its memory metrics (NULL: none). */
	char *last_mem_status[PROF_CMP_MEM_N];
	char *last_mem_reason[PROF_CMP_MEM_N];
	char change[256];	/* the last change point, in words */
	double change_pct;	/* NAN: none */
	size_t change_at;	/* the run after the last change; n: none */
};

struct dash {
	const struct dash_site *o;
	/* the series being read */
	char *workload, *backend, *segment_id, *segment;
	struct chart_run *pts;	/* its runs, oldest first */
	size_t n, cap;
	/* the index */
	struct entry *entries;
	size_t n_entries, cap_entries;
	/* every series, from the first walk, sorted */
	struct skey *keys;
	size_t n_keys, cap_keys;
	char last_run[128];	/* the history's latest run */
	size_t runs;
	int any_memory;		/* some series measured memory */
};

/* dash-page.c */
const char *dash_ms(double v, char buf[32]);
const char *dash_count(long long v, char buf[32]);
void dash_head(FILE *fp, const char *title);
/* dash_head() in two: up to the title's text, which the caller writes
 * (escaped), and from its end. */
void dash_head_start(FILE *fp);
void dash_head_end(FILE *fp);
int dash_csp_init(void);
const char *dash_verdict_class(const char *status);
void dash_verdict(FILE *fp, const char *status);
void dash_status_cell(FILE *fp, const struct entry *e,
		      const char *history_last);
void dash_change_words(FILE *fp, const struct entry *e);
const char *dash_field_text(struct json_object *v);
void dash_segment_words(FILE *fp, const char *backend, const char *segment,
			const char *segment_id);

/* dash-series.c */
int dash_field_differs(const struct skey *k, struct json_object **segs,
		       size_t i, const char *f);
/* Entry e's series page, into fp (dash-walk.c opens it). */
void dash_series_page(FILE *fp, struct dash *d, struct entry *e);

/* dash-steps.c */
/*
 * The change points of a series' values, one a run: memory metric m, or
 * the medians where m is 0; the runs with a finite value only, the last
 * PROF_STEPS_MAX_RUNS of them fitted (prof_steps_fit()).
 */
struct dash_steps {
	size_t *idx;		/* the run of each value kept */
	double *x;		/* the values kept */
	size_t *cuts;		/* the change points, as indexes from off */
	size_t k, off;		/* values kept; the first one fitted */
	long nc;		/* change points; -1: out of memory */
};
/* 0, or -1 out of memory; free s with dash_steps_free() either way. */
int dash_steps_fit(const struct dash *d, int m, struct dash_steps *s);
void dash_steps_free(struct dash_steps *s);

/* dash-walk.c */
int dash_on_key(void *arg, const struct prof_history_point *p,
		struct prof_err *err);
int dash_find_differs(struct dash *d, struct prof_err *err);
int dash_flush_series(struct dash *d, struct prof_err *err);
int dash_on_point(void *arg, const struct prof_history_point *p,
		  struct prof_err *err);
/* The index page, index.html in the dashboard's folder, whole or not at
 * all (the series pages are written as the walk ends each). */
int dash_write_index(struct dash *d, struct prof_err *err);
void dash_free_dash(struct dash *d);

/* dash-index.c */
/* The index, into fp (dash-walk.c opens it): 0, or -1 with err. */
int dash_index_page(FILE *fp, struct dash *d, struct prof_err *err);

#endif
