/* rows.c: the comparison rows as summary.md and the compact table read them:
 * a row's cells, its instruction row, its memory peaks and CPU time
 * (report-int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/page.h"
#include "report-int.h"

/* A number as a cell, in fmt; "-" where it is none. */
static void
num_cell(char *buf, size_t n, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, n, fmt, v);
	else
		snprintf(buf, n, "-");
}

/* A row's ratio (current / baseline median) and p-value, as cells. */
void
rep_ratio_cells(const struct prof_verdict *v, char *ratio, size_t nr,
		char *p, size_t np)
{
	num_cell(ratio, nr, "%.3f", v->ratio);
	num_cell(p, np, "%.2g", v->p_value);
}

/* The percentage change of a row's median, from its ratio. */
double
rep_row_pct(const struct prof_verdict *v)
{
	return isfinite(v->ratio) ? (v->ratio - 1) * 100 : NAN;
}

/* Whether a comparison row holds instruction counts (prof-count). */
int
rep_is_count_row(const struct prof_verdict *v)
{
	return v->phase == PROF_VERDICT_COUNT;
}

/* An instruction row's count (grouped, as on every page: prof_page_count()),
 * its change and its status, as table cells; c NULL: none. */
void
rep_count_cells(struct report *r, const struct prof_verdict *c, char *count,
		size_t nc, char *pct, size_t np, const char **status)
{
	double med = c ? c->cur.median : NAN;
	double d = c ? rep_row_pct(c) : NAN;

	prof_page_count(count, nc, med, 0);
	num_cell(pct, np, "%+.2f%%", d);
	*status = c && r->judged ? c->status_name : "-";
}

/* Whether the run has instruction rows at all. */
int
rep_has_counts(struct report *r)
{
	return prof_cmpview_has_counts(&r->rows);
}

static int view_rows_of(struct report *r, const char *w, const char *b,
			const char *seg, size_t *from, size_t *to);

/*
 * The first comparison (in the document's order) of counts (count set)
 * or of time of the workload and backend of comparison v, in any
 * segment (a count row has a segment of its own): the first of each of
 * the view's rows of them, which lie together. -1: none.
 */
static long
first_of(struct report *r, const struct prof_verdict *v, int count)
{
	const char *w = v->workload;
	const char *b = v->backend;
	const struct prof_runbrief *rows;
	size_t from, to, i;
	long best = -1;

	if (!view_rows_of(r, w, b, v->segment, &from, &to))
		return -1;
	prof_runview_briefs(&r->view, &rows);
	for (i = from; i < to; i++) {
		long k = prof_cmpview_find(&r->rows, w, b, count,
					   rows[i].segment);

		if (k >= 0 && (best < 0 || k < best))
			best = k;
	}
	return best;
}

/* The instruction row of v's workload and backend, or NULL (valid as
 * the view's rows are: verdict/view.h). */
const struct prof_verdict *
rep_count_row_of(struct report *r, const struct prof_verdict *v)
{
	long k = first_of(r, v, 1);

	return k < 0 ? NULL : prof_cmpview_verdict(&r->rows, (size_t)k);
}

/* Whether a time row exists for instruction row c's workload. */
int
rep_has_time_row(struct report *r, const struct prof_verdict *c)
{
	return first_of(r, c, 0) >= 0;
}

/*
 * The view's rows [*from, *to) of workload w on backend b (every segment:
 * they lie together, sorted), found from the row of segment key seg;
 * 0 when there is none.
 */
static int
view_rows_of(struct report *r, const char *w, const char *b, const char *seg,
	     size_t *from, size_t *to)
{
	const struct prof_runbrief *rows;
	size_t n = prof_runview_briefs(&r->view, &rows);
	long k = w && b && seg ? prof_runview_brief(&r->view, w, b, seg) : -1;
	size_t i;

	if (k < 0)
		return 0;
	for (i = (size_t)k; i > 0 && !strcmp(rows[i - 1].workload, w) &&
			    !strcmp(rows[i - 1].backend, b);
	     i--)
		;
	*from = i;
	for (i = (size_t)k + 1; i < n && !strcmp(rows[i].workload, w) &&
				!strcmp(rows[i].backend, b);
	     i++)
		;
	*to = i;
	return 1;
}

/* The largest host and GPU memory peaks of the view's rows [from, to). */
void
rep_peaks(struct report *r, size_t from, size_t to, double *host, double *gpu)
{
	const struct prof_runbrief *rows;
	size_t i;

	prof_runview_briefs(&r->view, &rows);
	*host = *gpu = NAN;
	for (i = from; i < to; i++) {
		if (isfinite(rows[i].host_peak_bytes) &&
		    !(*host >= rows[i].host_peak_bytes))
			*host = rows[i].host_peak_bytes;
		if (isfinite(rows[i].device_peak_bytes) &&
		    !(*gpu >= rows[i].device_peak_bytes))
			*gpu = rows[i].device_peak_bytes;
	}
}

/* The memory peaks of time row v's workload x backend, marked shown. */
void
rep_memory_of(struct report *r, const struct prof_verdict *v, double *host,
	      double *gpu)
{
	size_t from, to, i;

	*host = *gpu = NAN;
	if (!view_rows_of(r, v->workload, v->backend, v->segment, &from, &to))
		return;
	rep_peaks(r, from, to, host, gpu);
	for (i = from; r->mem_used && i < to; i++)
		r->mem_used[i] = 1;
}

/* Whether a view row has a memory peak. */
int
rep_has_memory(const struct prof_runbrief *row)
{
	return isfinite(row->host_peak_bytes) ||
	       isfinite(row->device_peak_bytes);
}

/*
 * A time row's CPU median and contended cells ("4/12"): "-" where its
 * samples say nothing (a file from before the fields, a browser row).
 */
void
rep_cpu_cells(struct report *r, const struct prof_verdict *v, char *cpu,
	      size_t nc, char *cont, size_t nn)
{
	const struct prof_runbrief *rows;
	long k = v->workload && v->backend && v->segment ?
			 prof_runview_brief(&r->view, v->workload, v->backend,
					    v->segment) :
			 -1;
	struct prof_cpu_row said = {0};

	snprintf(cpu, nc, "-");
	snprintf(cont, nn, "-");
	prof_runview_briefs(&r->view, &rows);
	if (k < 0)
		return;
	said.n = rows[k].cpu_n;
	said.contended = rows[k].contended;
	prof_page_time(cpu, nc, rows[k].cpu_n ? rows[k].cpu_median : NAN, 0);
	prof_cpu_row_contended(&said, (size_t)v->cur.n, cont, nn);
}

/*
 * The verdict's notes on a row beyond its status: a row whose evidence
 * did not settle within its budget (unsettled), and a time row whose
 * current samples were mostly contended.
 */
int
rep_row_unsettled(const struct prof_verdict *v)
{
	return v->status == PROF_CMP_UNSETTLED;
}

/* Whether most current samples were contended; *k of *n (*k -1 where
 * the row does not say). */
int
rep_row_contended(const struct prof_verdict *v, long *k, long *n)
{
	*k = (long)v->cur.contended;
	*n = (long)v->cur.n;
	return !rep_is_count_row(v) && *n > 0 && 2 * *k > *n;
}

/* The last two parts of a source path: "engine/flatten.c". */
const char *
rep_short_file(const char *f)
{
	const char *a = f ? strrchr(f, '/') : NULL;

	if (!a)
		return f ? f : "";
	while (a > f && a[-1] != '/')
		a--;
	return a;
}
