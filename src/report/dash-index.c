/* dash-index.c: the dashboard's index: what changed recently, then a row per
 * series (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/glossary.h"
#include "dash-int.h"

/*
 * The size of a verdict's change as its reason says it: "49.8% slower"
 * (a time's median), "+5.00%" (a count's or a memory metric's), into out,
 * and the ratio that stands for (1.498; 49.8% faster: 1 / 1.498), for the
 * order of what changed. 0 where the reason gives none.
 */
static double
reason_size(const char *reason, char *out, size_t n)
{
	const char *q, *b;
	double v;

	out[0] = '\0';
	q = reason ? strchr(reason, '%') : NULL;
	for (; q; q = strchr(q + 1, '%')) {
		for (b = q; b > reason && strchr("0123456789.", b[-1]); b--)
			;
		if (b == q)
			continue;
		v = strtod(b, NULL);
		if (b > reason && (b[-1] == '+' || b[-1] == '-')) {
			snprintf(out, n, "%.*s", (int)(q + 1 - (b - 1)), b - 1);
			return 1 + (b[-1] == '-' ? -v : v) / 100;
		}
		if (!strncmp(q, "% slower", 8) || !strncmp(q, "% faster", 8)) {
			snprintf(out, n, "%.*s", (int)(q + 8 - b), b);
			return q[2] == 's' ? 1 + v / 100 : 1 / (1 + v / 100);
		}
	}
	return 0;
}

/* One line of what changed recently: a series' last change point (metric
 * 0 and no status) or a verdict of its latest run (metric 0: its time or
 * count row; m: memory metric m). */
struct recent {
	const struct entry *e;
	const char *status;	/* NULL: a change point */
	const char *reason;
	int metric;
	double size;		/* |ln ratio|, the order: largest first */
	char words[40];		/* a verdict's size as its reason says it */
	size_t i;
};

static int
recent_cmp(const void *x, const void *y)
{
	const struct recent *a = x, *b = y;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int
stands_out(const char *status)
{
	return status && (!strcmp(status, "warning") ||
			  !strcmp(status, "improved"));
}

/* A series and its differs words (open and close around them), as a
 * link to its page. */
static void
series_link(FILE *fp, const struct entry *e, const char *open,
	    const char *close)
{
	fprintf(fp, "<a href=\"%s\">", e->file);
	prof_page_esc(fp, e->workload);
	fputs("</a>", fp);
	if (e->key && e->key->differs[0]) {
		fputs(open, fp);
		prof_page_esc(fp, e->key->differs);
		fputs(close, fp);
	}
}

/* A verdict of e's latest run that stands out (metric m of its memory, or
 * 0) as r[*n], its size as its reason says it. */
static void
add_verdict(struct recent *r, size_t *n, const struct entry *e,
	    const char *status, const char *reason, int m)
{
	char w[40];
	double ratio;

	if (!stands_out(status))
		return;
	ratio = reason_size(reason, w, sizeof(w));
	r[*n] = (struct recent){.e = e, .status = status, .reason = reason,
				.metric = m, .i = *n};
	r[*n].size = ratio > 0 ? fabs(log(ratio)) : 0;
	memcpy(r[*n].words, w, sizeof(w));
	(*n)++;
}

/* What changed recently into r, unsorted: each series' last change point
 * among its last RECENT_RUNS runs, each verdict of the latest run that
 * stands out. Returns their number. */
static size_t
recent_changes(const struct dash *d, struct recent *r)
{
	size_t n = 0, i;
	int m;

	for (i = 0; i < d->n_entries; i++) {
		const struct entry *e = &d->entries[i];
		int latest = !strcmp(e->last_run, d->last_run);

		if (e->change_at < e->n && e->n - e->change_at <= RECENT_RUNS) {
			double ratio = isfinite(e->change_pct) ?
					       1 + e->change_pct / 100 : 0;

			r[n] = (struct recent){.e = e, .i = n};
			r[n].size = ratio > 0 ? fabs(log(ratio)) : 0;
			n++;
		}
		if (!latest)
			continue;
		add_verdict(r, &n, e, e->last_status, e->last_reason, 0);
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			add_verdict(r, &n, e, e->last_mem_status[m],
				    e->last_mem_reason[m], m);
	}
	return n;
}

/* A line of what changed recently: its size, its series, what and why. */
static void
recent_row(FILE *fp, const struct recent *x)
{
	const struct entry *e = x->e;

	fprintf(fp, "<tr class=\"recent\" data-kind=\"%s\"><td "
		    "class=\"num\">",
		x->status ? x->status : "change");
	if (!x->status && isfinite(e->change_pct))
		fprintf(fp, "<span class=\"%s\">%+.*f%%</span>",
			e->change_pct > 0 ? "bad" : "ok",
			e->count_changed ? 2 : 1, e->change_pct);
	else if (x->status && x->words[0]) {
		fprintf(fp, "<span class=\"%s\">",
			dash_verdict_class(x->status));
		prof_page_esc(fp, x->words);
		fputs("</span>", fp);
	}
	fputs("</td><td class=\"name\">", fp);
	series_link(fp, e, " <span class=\"differs\">", "</span>");
	fputs("</td><td>", fp);
	if (!x->status) {
		fprintf(fp, "change point (%s)",
			e->count_changed ? "instruction count" :
			e->mem_changed ? prof_cmp_metrics[e->mem_metric].name :
					 "median");
		fputs("</td><td class=\"why\"><span class=\"mono\">", fp);
		prof_page_esc(fp, e->change);
		fprintf(fp, "</span>, %zu run%s ago</td></tr>\n",
			e->n - e->change_at,
			e->n - e->change_at == 1 ? "" : "s");
		return;
	}
	dash_verdict(fp, x->status);
	fprintf(fp, " in the latest run (%s)</td><td class=\"why\">",
		x->metric ? prof_cmp_metrics[x->metric].name :
		e->timed ? "time" : "instruction count");
	prof_page_esc(fp, x->reason ? x->reason : "");
	fputs("</td></tr>\n", fp);
}

/* What changed recently, as asv's regressions page has it: each series'
 * last change point where it lies among its last RECENT_RUNS runs, and
 * every warning and improvement of the history's latest run, largest
 * first; at most RECENT_MAX lines, and how many more. */
static int
recent_section(FILE *fp, const struct dash *d, struct prof_err *err)
{
	struct recent *r = malloc((d->n_entries ? d->n_entries : 1) *
				  PROF_CMP_MEM_N * 2 * sizeof(*r));
	size_t n, i, shown;

	if (!r)
		return prof_err_set(err, "out of memory");
	n = recent_changes(d, r);
	if (n)
		qsort(r, n, sizeof(*r), recent_cmp);
	shown = n < RECENT_MAX ? n : RECENT_MAX;
	fprintf(fp, "<section class=\"recent\" data-recent=\"%zu\"><h2>What "
		    "changed recently</h2>", n);
	if (!n) {
		fprintf(fp, "<p class=\"sub\">Nothing: no change point among "
			    "any series' last %d runs, and no warning or "
			    "improvement in the latest run.</p></section>\n",
			RECENT_RUNS);
		free(r);
		return 0;
	}
	fputs("<div class=\"wrap\"><table><thead><tr><th class=\"num\">change"
	      "</th><th>series</th><th>what</th><th>where, or why</th></tr>"
	      "</thead><tbody>\n", fp);
	for (i = 0; i < shown; i++)
		recent_row(fp, &r[i]);
	fputs("</tbody></table></div>", fp);
	if (n > shown)
		fprintf(fp, "<p class=\"sub\">And %zu more: each series' row "
			    "below has its latest status and last change.</p>",
			n - shown);
	fputs("</section>\n", fp);
	free(r);
	return 0;
}

/* A series' heap peak in the index: its trend and, under it, its latest
 * value (grouped digits); "-" where it has none. */
static void
heap_cell(FILE *fp, const struct entry *e)
{
	char v[32];
	size_t k;

	fputs("<td class=\"wide\">", fp);
	if (!(e->memory & 1u << PROF_CMP_MEM_PEAK)) {
		fputs("<span class=\"none\">-</span></td>", fp);
		return;
	}
	chart_spark(fp, "heap", "mline", e->heap, e->n, NULL, 0,
		   "heap peak per run, bytes");
	for (k = e->n; k > 0 && !isfinite(e->heap[k - 1]); k--)
		;
	prof_page_count(v, sizeof(v), k ? e->heap[k - 1] : NAN, 0);
	fprintf(fp, "<div class=\"latest\" data-metric=\"%s\">%s</div></td>",
		prof_cmp_metrics[PROF_CMP_MEM_PEAK].key, v);
}

/* A series' row of the index: its status, name and segment, latest
 * median, trend (and its counts' where both is set), heap peak, runs and
 * last change. */
static void
series_row(FILE *fp, const struct dash *d, const struct entry *e, int both)
{
	char n1[32];
	double *iv = NULL;
	size_t k;

	fprintf(fp, "<tr class=\"series\" data-backend=\"");
	prof_page_esc(fp, e->backend);
	fputs("\">", fp);
	dash_status_cell(fp, e, d->last_run);
	fputs("<td class=\"name\">", fp);
	series_link(fp, e, "<div class=\"differs\">", "</div>");
	fputs("<div class=\"segw\" title=\"segment ", fp);
	prof_page_esc(fp, e->segment_id);
	fputs("\">", fp);
	dash_segment_words(fp, e->backend, e->segment, e->segment_id);
	fputs("</div></td>", fp);
	fprintf(fp, "<td class=\"num\">%s</td><td>",
		dash_ms(e->last_median, n1));
	if (e->counted)
		iv = malloc((e->n ? e->n : 1) * sizeof(*iv));
	for (k = 0; iv && k < e->n; k++)
		iv[k] = e->instructions[k] >= 0 ?
				(double)e->instructions[k] :
				NAN;
	/* The trend of a series of counts only is its counts' (a
	 * series of memory only has its heap peak's column). */
	if (e->timed)
		chart_spark(fp, "med", "med", e->medians, e->n, e->cuts,
			   e->ncuts, "median per run");
	else if (iv)
		chart_spark(fp, "instr", "ins", iv, e->n, NULL, 0,
			   "instruction count per run (counts only)");
	else
		fputs("<span class=\"none\">-</span>", fp);
	fputs("</td>", fp);
	if (both) {
		fputs("<td class=\"wide\">", fp);
		if (iv && e->timed)
			chart_spark(fp, "instr", "ins", iv, e->n, NULL,
				   0, "instruction count per run");
		else if (iv)
			fputs("<span class=\"none\" title=\"counts "
			      "only: the trend is theirs\">= trend"
			      "</span>", fp);
		else
			fputs("<span class=\"none\">-</span>", fp);
		fputs("</td>", fp);
	}
	free(iv);
	if (d->any_memory)
		heap_cell(fp, e);
	fprintf(fp, "<td class=\"num\">%zu</td><td>", e->n);
	dash_change_words(fp, e);
	fputs("</td></tr>\n", fp);
}

int
dash_index_page(FILE *fp, struct dash *d, struct prof_err *err)
{
	size_t i;
	int both = 0;

	for (i = 0; i < d->n_entries; i++)
		if (d->entries[i].timed && d->entries[i].counted)
			both = 1;
	dash_head(fp, d->o->title);
	fputs("<h1>", fp);
	prof_page_esc(fp, d->o->title);
	fprintf(fp, "</h1>\n<p class=\"sub\">%zu series over %zu run%s",
		d->n_entries, d->runs, d->runs == 1 ? "" : "s");
	if (d->runs) {
		fputs("; the latest: <span class=\"mono\">", fp);
		prof_page_esc(fp, d->last_run);
		fputs("</span>", fp);
	}
	fputs(". What changed recently comes first, then every series with "
	      "its latest status; a series' page has its charts and runs."
	      "</p>\n", fp);
	if (recent_section(fp, d, err) < 0)
		return -1;
	fputs("<section><h2>Every series</h2><div class=\"wrap\"><table>"
	      "<thead><tr><th class=\"num\">latest status</th><th>series</th>"
	      "<th class=\"num\">latest median</th><th title=\"the median "
	      "per run, oldest first (a series of instruction counts only: "
	      "its count); a red mark is a change point\">trend</th>", fp);
	if (both)
		fputs("<th class=\"wide\">instructions</th>", fp);
	if (d->any_memory)
		fputs("<th class=\"wide\">heap peak, bytes</th>", fp);
	fputs("<th class=\"num\">runs</th><th>last change</th></tr>"
	      "</thead><tbody>\n", fp);
	for (i = 0; i < d->n_entries; i++)
		series_row(fp, d, &d->entries[i], both);
	fputs("</tbody></table></div></section>\n", fp);
	prof_glossary_section(fp);
	fputs("</main></body></html>\n", fp);
	return 0;
}
