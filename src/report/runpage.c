/* runpage.c: prof-report's self-contained HTML page of a run (runpage.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/json.h"
#include "base/utf8.h"
#include "channels.h"
#include "verdict/view.h"
#include "verdict/verdict.h"
#include "history/history.h"
#include "model/callgrind.h"
#include "model/runview.h"
#include "model/sample.h"
#include "page.h"
#include "palette.h"
#include "runpage.h"
#include "why/flame.h"
#include "why/why.h"

/* The plots' coordinate boxes (SVG user units; CSS scales them). */
#define PLOT_W 640
#define STRIP_H 96
#define TREND_W 960
#define TREND_H 230
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

static const struct extra *extra_of(const struct extras *x, long k);

/*
 * A page a browser opens: past this many workload x backend blocks (a
 * block is a few kB of SVG and numbers), only the errored and changed
 * ones are drawn whole and the rest are counted; every row's numbers are
 * in comparisons.json and summary.md.
 */
#define WHOLE_BLOCKS 2000

static const char css[] =
	":root{--fg:#1d2330;--mute:#5b6472;--line:#d8dde5;--bg:#fff;"
	"--cur:#1f6feb;--base:#8a94a6;--p90:#b35900;"
	"--warn:" PROF_PALETTE_WARNING ";--ok:" PROF_PALETTE_STABLE ";"
	"--new:" PROF_PALETTE_NEW ";--inc:" PROF_PALETTE_INCOMPARABLE ";"
	"--err:" PROF_PALETTE_ERROR ";--imp:" PROF_PALETTE_IMPROVED ";"
	"--uns:" PROF_PALETTE_UNSETTLED "}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;"
	"padding:16px 20px 40px}\n"
	"h1{font-size:1.45em;margin:.2em 0 .4em}h2{font-size:1.1em;margin:0}\n"
	"code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
	"font-size:.92em}\n"
	"table{border-collapse:collapse;width:100%;margin:.5em 0}\n"
	"th,td{text-align:left;padding:3px 8px;border-bottom:1px solid "
	"var(--line);vertical-align:top}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.num{white-space:nowrap}td.num .gloss{white-space:normal}\n"
	".overview{font-size:.9em}.overview th,.overview td{padding:3px 4px}"
	".overview td:first-child{overflow-wrap:anywhere}"
	".overview td{white-space:nowrap}"
	".overview td:first-child{white-space:normal}\n"
	".nums{font-size:.9em}.nums th,.nums td{padding:3px 6px;"
	"white-space:nowrap}"
	".nums tr.judged td{font-weight:600}\n"
	".meta td:first-child{color:var(--mute);width:11em}\n"
	".badge{display:inline-block;padding:0 .55em;border-radius:1em;"
	"font-size:.85em;font-weight:600;color:#fff;background:var(--inc)}\n"
	".s-warning{background:var(--warn)}.s-stable{background:var(--ok)}"
	".s-improved{background:var(--imp)}.s-unsettled{background:var(--uns)}"
	".s-new{background:var(--new)}.s-error{background:var(--err)}\n"
	"section.row{border:1px solid var(--line);border-radius:8px;"
	"padding:12px 14px;margin:14px 0;break-inside:avoid}\n"
	"section.row header{display:flex;flex-wrap:wrap;gap:.3em .8em;"
	"align-items:baseline}\n"
	".reason{color:var(--mute);margin:.3em 0}\n"
	".channels{display:grid;gap:12px;grid-template-columns:"
	"repeat(auto-fit,minmax(min(100%,420px),1fr))}\n"
	".channel{min-width:0}.channel header h3{margin:.4em 0 0}\n"
	".channels.two .cols{grid-template-columns:1fr}\n"
	".disagree{border-left:3px solid var(--imp);padding-left:.6em;"
	"margin:.4em 0}\n"
	"figure{margin:.4em 0}figcaption{color:var(--mute);font-size:.85em}\n"
	"svg{width:100%;height:auto;display:block}\n"
	"svg text{font:11px system-ui,sans-serif;fill:var(--mute)}\n"
	"svg .axis{stroke:var(--mute);stroke-width:1}\n"
	"svg .grid{stroke:var(--line);stroke-width:1}\n"
	"svg .cur{fill:var(--cur);fill-opacity:.7}\n"
	"svg .base{fill:var(--base);fill-opacity:.7}\n"
	"svg .med-cur{stroke:var(--cur);stroke-width:2.5}\n"
	"svg .med-base{stroke:var(--base);stroke-width:2.5}\n"
	"svg .cur-cpu{fill:#fff;stroke:var(--cur);stroke-width:1.5}"
	"svg .base-cpu{fill:#fff;stroke:var(--base);stroke-width:1.5}"
	"svg .cur-own{fill:var(--cur);fill-opacity:.4}"
	"svg .base-own{fill:var(--base);fill-opacity:.4}"
	"svg .judged-band{fill:var(--warn);fill-opacity:.08}"
	"svg circle[data-contended]{stroke:var(--fg);stroke-width:1.2}"
	"svg .med-cur-cpu,svg .med-cur-own{stroke:var(--cur);stroke-width:2.5}"
	"svg .med-base-cpu,svg .med-base-own{stroke:var(--base);"
	"stroke-width:2.5}svg text.judged{fill:var(--fg)}\n"
	"svg .box{fill:var(--base);fill-opacity:.35;stroke:var(--base)}\n"
	"svg .mark{fill:var(--base);stroke:var(--fg);stroke-width:1}\n"
	"svg .mark-line{stroke:var(--base);stroke-width:1.5;"
	"stroke-dasharray:4 3}\n"
	"svg .lmed{fill:none;stroke:var(--cur);stroke-width:2}\n"
	"svg .lp90{fill:none;stroke:var(--p90);stroke-width:1.5;"
	"stroke-dasharray:5 3}\n"
	"svg .pmed{fill:var(--cur)}svg .pp90{fill:var(--p90)}\n"
	"svg .now{fill:none;stroke:var(--fg);stroke-width:1.5}\n"
	"svg .change{stroke:var(--err);stroke-width:1.5;"
	"stroke-dasharray:4 3}\n"
	"svg text.cpl{fill:var(--err);font-weight:600}\n"
	"svg.flame text{fill:var(--fg)}h3{font-size:1em;margin:.8em 0 0}\n"
	".cols{display:grid;grid-template-columns:minmax(0,1fr) "
	"fit-content(26em);gap:12px}\n"
	"@media (max-width:820px){.cols{grid-template-columns:1fr}"
	".overview .cpu,.overview .mem{display:none}}\n"
	"nav.filter{margin:.6em 0}nav.filter button{font:inherit;"
	"margin-right:.3em;padding:.1em .7em;border:1px solid var(--line);"
	"border-radius:1em;background:#f6f8fa;cursor:pointer}\n"
	"nav.filter button[aria-pressed=true]{background:var(--fg);"
	"color:#fff}\n"
	".legend span{margin-right:1.2em;white-space:nowrap}\n"
	".legend .cp{display:block;white-space:normal;"
	"overflow-wrap:anywhere}\n"
	".key{display:inline-block;width:.9em;height:.9em;border-radius:50%;"
	"vertical-align:-.1em;margin-right:.3em}\n"
	".key.med{background:var(--cur)}.key.p90{background:var(--p90)}\n"
	"@media print{body{max-width:none;padding:0;font-size:11pt}"
	"nav.filter{display:none}section.row{border-color:#999}"
	"section.row[hidden]{display:block}a{color:inherit}}\n";

static const char script[] =
	"'use strict';\n"
	"for (const b of document.querySelectorAll('nav.filter button')) {\n"
	"  b.addEventListener('click', () => {\n"
	"    const show = b.dataset.show;\n"
	"    for (const o of document.querySelectorAll('nav.filter button'))\n"
	"      o.setAttribute('aria-pressed', String(o === b));\n"
	"    for (const r of document.querySelectorAll('section.row'))\n"
	"      r.hidden = show !== 'all' &&\n"
	"        !r.dataset.statuses.split(' ').includes(show);\n"
	"  });\n"
	"}\n";

/* A value of a chart with its unit: "1.234 ms", "56,099,498 instructions". */
static void
fmt_val(char *buf, size_t n, double v, int counts)
{
	char a[40];

	if (!counts) {
		prof_page_time(buf, n, v, 0);
		return;
	}
	prof_page_count(a, sizeof(a), v, 0);
	snprintf(buf, n, "%s instructions", a);
}

/* The index of row i drawn whole among every row of the run: its id on
 * the page, the same whether the page is summarised or not. */
static long
row_number(const struct page *p, long i)
{
	const struct prof_runrow *r = &p->rows[i];
	long k = prof_runview_brief(p->cur, r->workload, r->backend,
				    r->segment);

	return k < 0 ? i : k;
}

/*
 * A row's key in the page's tables: workload, backend and segment joined
 * with NUL bytes, allocated (NULL when out of memory); *len its length.
 */
static char *
row_key(const char *w, const char *b, const char *s, size_t *len)
{
	size_t lw = strlen(w), lb = strlen(b), ls = strlen(s);
	char *k = malloc(lw + lb + ls + 2);

	if (!k)
		return NULL;
	memcpy(k, w, lw + 1);
	memcpy(k + lw + 1, b, lb + 1);
	memcpy(k + lw + lb + 2, s, ls);
	*len = lw + lb + ls + 2;
	return k;
}

/* Index key -> i in h, the first of equal keys kept (as a search from the
 * start would find). Returns 0 or -1. */
static int
index_put(struct prof_htab *h, const char *w, const char *b, const char *s,
	  long i, struct prof_err *err)
{
	size_t len;
	char *k = row_key(w, b, s, &len);
	int rc = -1;

	if (!k)
		return prof_err_set(err, "out of memory");
	if (prof_htab_get(h, k, len) >= 0 || prof_htab_put(h, k, len, i) == 0)
		rc = 0;
	else
		prof_err_set(err, "out of memory");
	free(k);
	return rc;
}

/* The index of r's key in h, or -1 (also when out of memory: then the
 * row is drawn without its comparison or baseline). */
static long
index_get(const struct prof_htab *h, const struct prof_runrow *r)
{
	size_t len;
	char *k = row_key(r->workload, r->backend, r->segment, &len);
	long i = k ? prof_htab_get(h, k, len) : -1;

	free(k);
	return i;
}

/* The baseline's rows by key, once: the page finds each row's in
 * constant time (a search per row made it quadratic). The comparisons
 * have their own index (cmpview.h; time and counts apart: a hand-made
 * count may share its time row's segment). */
static int
index_rows(struct page *p, struct prof_err *err)
{
	long k;

	for (k = 0; k < p->bn; k++)
		if (index_put(&p->base_index, p->brows[k].workload,
			      p->brows[k].backend, p->brows[k].segment, k,
			      err) < 0)
			return -1;
	return 0;
}

/* The comparison of r, of counts or of time, or NULL; *at its index in
 * the comparisons, or -1. */
static struct json_object *
cmp_in(struct page *p, int count, const struct prof_runrow *r, long *at)
{
	long i = p->cmp ? prof_cmpview_find(p->cmp, r->workload, r->backend,
					    count, r->segment) :
			  -1;

	if (at)
		*at = i;
	return i < 0 ? NULL : prof_cmpview_row(p->cmp, (size_t)i);
}

/* r's time (or browser) comparison, or NULL. */
static struct json_object *
comparison_of(struct page *p, const struct prof_runrow *r)
{
	return cmp_in(p, 0, r, NULL);
}

/* r's instruction comparison, or NULL. */
static struct json_object *
count_comparison_of(struct page *p, const struct prof_runrow *r)
{
	return cmp_in(p, 1, r, NULL);
}

/*
 * r's memory comparisons (prof-diff's memory rows of its workload,
 * backend and segment: cmpview.h keeps them in a view of their own), by
 * metric into out[] (NULL where none; borrowed, see cmpview.h). Returns
 * how many.
 */
static int
memory_comparisons_of(struct page *p, const struct prof_runrow *r,
		      struct json_object *out[PROF_CMP_MEM_N])
{
	struct prof_cmpview *v = p->cmp ? p->cmp->memory : NULL;
	long i = v ? prof_cmpview_find(v, r->workload, r->backend, 0,
				       r->segment) :
		     -1;
	int m, found = 0;

	for (m = 0; m < PROF_CMP_MEM_N; m++)
		out[m] = NULL;
	for (; i >= 0 && (size_t)i < prof_cmpview_len(v); i++) {
		struct json_object *o = prof_cmpview_row(v, (size_t)i);

		if (!o || strcmp(prof_json_str(o, "workload"), r->workload) ||
		    strcmp(prof_json_str(o, "backend"), r->backend) ||
		    strcmp(prof_json_str(o, "segment"), r->segment))
			break;
		m = prof_cmp_metric_find(prof_json_str(o, "metric"));
		if (m && !out[m]) {
			out[m] = o;
			found++;
		}
	}
	return found;
}

/*
 * The channels a row shows: instructions where it counted (or has an
 * instruction comparison), memory where the memory phase measured it (or
 * it has a memory comparison), time where it timed, and time as before
 * for a row that did none of them (error samples): a channel that was not
 * measured is not shown at all.
 */
static int
has_count(struct page *p, const struct prof_runrow *r)
{
	return r->n_counts || count_comparison_of(p, r);
}

static int
has_memory(struct page *p, const struct prof_runrow *r)
{
	struct json_object *mc[PROF_CMP_MEM_N];
	int m;

	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (r->mem_st[m].n)
			return 1;
	return memory_comparisons_of(p, r, mc) > 0;
}

static int
has_time(struct page *p, const struct prof_runrow *r)
{
	return r->n || comparison_of(p, r) ||
	       (!has_count(p, r) && !has_memory(p, r));
}

static const struct prof_runrow *
baseline_of(struct page *p, const struct prof_runrow *r)
{
	long i = p->bn ? index_get(&p->base_index, r) : -1;

	return i < 0 ? NULL : &p->brows[i];
}

/* Whether the n values of median med are those side st (a comparison's
 * "current" or "baseline") was computed from. */
static int
same_side(struct json_object *st, double n, double med)
{
	double m = prof_json_numf(st, "median");

	return prof_json_numf(st, "n") == n &&
	       fabs(m - med) <= 1e-9 * fabs(med) + 1e-12;
}

/* r's baseline row for its time channel (c its comparison): a found
 * baseline's only where it is the side c was made from. */
static const struct prof_runrow *
time_baseline_of(struct page *p, const struct prof_runrow *r,
		 struct json_object *c)
{
	const struct prof_runrow *b = baseline_of(p, r);

	if (b && p->found_base &&
	    !same_side(c ? prof_json_get(c, "baseline") : NULL, (double)b->n,
		       b->st.median))
		return NULL;
	return b;
}

/* The same for r's count channel (c its instruction comparison). */
static const struct prof_runrow *
count_baseline_of(struct page *p, const struct prof_runrow *r,
		  struct json_object *c)
{
	const struct prof_runrow *b = baseline_of(p, r);

	if (b && p->found_base &&
	    (!b->n_counts ||
	     !same_side(c ? prof_json_get(c, "baseline") : NULL,
			(double)b->n_counts, (double)b->instructions)))
		return NULL;
	return b;
}

/* The row's status word: the comparison's, or "error" / "unjudged". */
static const char *
status_of(const struct prof_runrow *r, struct json_object *c)
{
	const char *s = c ? prof_json_str(c, "status") : NULL;

	if (r->errors && !r->n)
		return "error";
	return s ? s : "unjudged";
}

/* The instruction channel's status word, as status_of() for time. */
static const char *
count_status_of(const struct prof_runrow *r, struct json_object *c)
{
	const char *s = c ? prof_json_str(c, "status") : NULL;

	if (r->errors && !r->n_counts && !r->n)
		return "error";
	return s ? s : "unjudged";
}

/* A status as a coloured word. */
static void
badge(FILE *fp, const char *status)
{
	fprintf(fp, "<span class=\"badge s-");
	prof_page_esc(fp, status);
	fprintf(fp, "\">");
	prof_page_esc(fp, status);
	fprintf(fp, "</span>");
}

/* The axis of a strip chart: in the unit of its times (ms, µs, ...), or
 * in instructions (counts). */
static void
x_axis(FILE *fp, double lo, double hi, double (*x)(double, double, double),
       int y, int top, int counts)
{
	double tick[PROF_PAGE_MAX_TICKS], step, scale;
	double mag = fmax(fabs(lo), fabs(hi));
	int i, n = prof_page_ticks(lo, hi, tick, &step);
	char label[32];

	fprintf(fp, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		    "y2=\"%d\"/>", LEFT, y, PLOT_W - RIGHT, y);
	for (i = 0; i < n; i++) {
		double px = x(tick[i], lo, hi);

		if (counts)
			prof_page_count_tick(label, sizeof(label), tick[i], step,
				       mag);
		else
			prof_page_time_tick(label, sizeof(label), tick[i], step,
					    mag);
		fprintf(fp, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			    "x2=\"%.1f\" y2=\"%d\"/>", px, top, px, y);
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			    "%s</text>", px, y + 14, label);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
		LEFT - 8, y + 14,
		counts ? "instructions" : prof_page_time_unit(mag, &scale));
}

static double
x_of(double v, double lo, double hi)
{
	/* In halves: hi - lo may be past the largest double. */
	return LEFT + (v / 2 - lo / 2) / (hi / 2 - lo / 2) *
			      (PLOT_W - LEFT - RIGHT);
}

/* One lane of dots and a median tick (ms, or instruction counts); a
 * lane of the time the verdict judged has its label marked (judged), and
 * note, when not NULL, says in its label's title what the time is. */
static void
lane_of(FILE *fp, const double *v, size_t n, double median, double lo,
	double hi, int y, const char *cls, const char *label, int counts,
	int judged, const char *note, const unsigned char *cont)
{
	size_t i;
	char a[64];

	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"%s>%s<title>"
		    "%zu samples%s%s</title></text>", LEFT - 8, y + 4,
		judged ? " class=\"judged\"" : "", label, n, note ? ": " : "",
		note ? note : "");
	for (i = 0; i < n; i++) {
		/* A fixed small jitter so equal values stay visible. */
		int dy = (int)(i % 5) * 3 - 6;

		fmt_val(a, sizeof(a), v[i], counts);
		fprintf(fp, "<circle class=\"%s\"%s cx=\"%.1f\" cy=\"%d\" "
			    "r=\"4\"><title>%s #%zu: %s%s</title></circle>",
			cls, cont && cont[i] ? " data-contended=\"\"" : "",
			x_of(v[i], lo, hi), y + dy, label, i, a,
			cont && cont[i] ? " (contended)" : "");
	}
	if (n && isfinite(median)) {
		fmt_val(a, sizeof(a), median, counts);
		fprintf(fp, "<line class=\"med-%s\" x1=\"%.1f\" y1=\"%d\" "
			    "x2=\"%.1f\" y2=\"%d\"><title>%s median %s"
			    "</title></line>",
			cls, x_of(median, lo, hi), y - 11, x_of(median, lo, hi),
			y + 11, label, a);
	}
}

static void
lane(FILE *fp, const double *v, size_t n, double median, double lo,
     double hi, int y, const char *cls, const char *label, int counts)
{
	lane_of(fp, v, n, median, lo, hi, y, cls, label, counts, 0, NULL,
		NULL);
}

/* The baseline from its statistics only: min-max, median-p90, median. */
static void
stat_lane(FILE *fp, struct json_object *b, double lo, double hi, int y)
{
	double mn = prof_json_numf(b, "min"), md = prof_json_numf(b, "median"),
	       p9 = prof_json_numf(b, "p90"), mx = prof_json_numf(b, "max");
	char m[32], q[32];

	prof_page_time(m, sizeof(m), md, 0);
	prof_page_time(q, sizeof(q), p9, 0);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">baseline"
		    "<title>%.0f samples</title></text>", LEFT - 8, y + 4,
		prof_json_numf(b, "n"));
	fprintf(fp, "<line class=\"med-base\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\" stroke-width=\"1\"/>",
		x_of(mn, lo, hi), y, x_of(mx, lo, hi), y);
	fprintf(fp, "<rect class=\"box\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		    "height=\"14\"><title>baseline median %s, p90 %s "
		    "(its samples are not at hand)</title></rect>",
		x_of(md, lo, hi), y - 7,
		fmax(1, x_of(p9, lo, hi) - x_of(md, lo, hi)), m, q);
	fprintf(fp, "<line class=\"med-base\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\"/>", x_of(md, lo, hi), y - 11,
		x_of(md, lo, hi), y + 11);
}

static void
range_of(const double *v, size_t n, double *lo, double *hi)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(*lo <= v[i]))
			*lo = v[i];
		if (!(*hi >= v[i]))
			*hi = v[i];
	}
}

/*
 * The times a time channel draws and tabulates beside the wall time: the
 * CPU time of the calls, and the code's own time (wall minus run-queue
 * delay, contend.h), each where some sample of a side says it. A side's
 * values, in its samples' order, and their statistics.
 */
enum { TIME_WALL, TIME_CPU, TIME_OWN, TIME_N };

struct times {
	const double *v;
	size_t n;
	struct prof_stats st;
	const unsigned char *cont;	/* v[i]'s call contended; NULL: */
};					/* not known sample by sample */

static const struct {
	const char *label, *cls, *key, *words, *note;
} time_kinds[TIME_N] = {
	{"", "", "duration_ms", "wall time", "wall time"},
	{" CPU", "-cpu", "cpu_ms", "CPU time", "CPU time of the call"},
	{" own", "-own", "own_ms", "the code's own time",
	 "the code's own time, wall minus run-queue delay"},
};

/* The times of row r (of the run, or of the baseline: x its extras,
 * rows the view's rows) by kind into t[]; t[k].n == 0 where none. */
static void
times_of(const struct extras *x, const struct prof_runrow *rows,
	 const struct prof_runrow *r, struct times t[TIME_N])
{
	const struct extra *e = r ? extra_of(x, r - rows) : NULL;

	memset(t, 0, TIME_N * sizeof(*t));
	if (!r)
		return;
	t[TIME_WALL].v = r->v;
	t[TIME_WALL].n = r->n;
	t[TIME_WALL].st = r->st;
	t[TIME_CPU].v = r->cpu.v;
	t[TIME_CPU].n = r->cpu.n;
	t[TIME_CPU].st = r->cpu_st;
	/* The marks are the samples', in their order: a time of every
	 * sample is a mark's. */
	if (e && e->n_cont == r->n) {
		t[TIME_WALL].cont = e->cont;
		if (r->cpu.n == r->n)
			t[TIME_CPU].cont = e->cont;
		if (e->n_own == r->n)
			t[TIME_OWN].cont = e->cont;
	}
	if (e && e->n_own) {
		t[TIME_OWN].v = e->own;
		t[TIME_OWN].n = e->n_own;
		/* Out of memory: the own time is left out. */
		if (prof_stats_compute(e->own, e->n_own, &t[TIME_OWN].st) < 0)
			t[TIME_OWN].n = 0;
	}
}

/* Whether some sample of t[] is marked contended. */
static int
marked(const struct times t[TIME_N])
{
	size_t i;

	for (i = 0; t[TIME_WALL].cont && i < t[TIME_WALL].n; i++)
		if (t[TIME_WALL].cont[i])
			return 1;
	return 0;
}

/* The kind of time comparison c judged (its judged_on), or -1. */
static int
judged_kind(struct json_object *c)
{
	const char *j = c ? prof_json_str(c, "judged_on") : NULL;
	int k;

	for (k = 0; j && k < TIME_N; k++)
		if (!strcmp(j, time_kinds[k].key))
			return k;
	return -1;
}

/*
 * The distribution chart of a row whose samples say more than their wall
 * time: a lane for each time of each side (wall, CPU, own; current above
 * baseline, so that the two sides of one time lie together), the lanes
 * of the time the verdict judged marked.
 */
static void
times_chart(struct page *p, const struct prof_runrow *r,
	    struct json_object *c, const struct prof_runrow *b,
	    const struct times cur[TIME_N], const struct times base[TIME_N])
{
	struct json_object *bs = c ? prof_json_get(c, "baseline") : NULL;
	int stats = !b && prof_json_numf(bs, "n") > 0;
	int judged = judged_kind(c), k, lanes = 0, y, axis;
	double lo = NAN, hi = NAN;
	FILE *fp = p->fp;
	char label[64], cls[32];

	for (k = 0; k < TIME_N; k++) {
		range_of(cur[k].v, cur[k].n, &lo, &hi);
		range_of(base[k].v, base[k].n, &lo, &hi);
		lanes += (cur[k].n || base[k].n || !k) +
			 (base[k].n || (!k && stats));
	}
	if (stats) {
		double v[2] = {prof_json_numf(bs, "min"),
			       prof_json_numf(bs, "max")};

		range_of(v, 2, &lo, &hi);
	}
	if (!b && !stats)
		lanes++;	/* "no baseline" */
	if (!isfinite(lo)) {
		if (r->errors)
			fprintf(fp, "<figure class=\"chart\" data-kind=\""
				    "distribution\"><figcaption>No successful "
				    "warm samples to draw.</figcaption>"
				    "</figure>");
		return;
	}
	axis = 22 + 28 * (lanes - 1) + 22;
	fprintf(fp, "<figure class=\"chart\" data-kind=\"distribution\" "
		    "data-times=\"wall%s%s\"",
		cur[TIME_CPU].n || base[TIME_CPU].n ? " cpu" : "",
		cur[TIME_OWN].n || base[TIME_OWN].n ? " own" : "");
	if (judged >= 0)
		fprintf(fp, " data-judged=\"%s\"", time_kinds[judged].key);
	prof_page_pad(&lo, &hi);
	fprintf(fp, "><svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
		    "samples of ", PLOT_W, axis + 24);
	prof_page_esc(fp, r->workload);
	fprintf(fp, "\">");
	x_axis(fp, lo, hi, x_of, axis, 6, 0);
	y = 22;
	for (k = 0; k < TIME_N; k++) {
		int n = (cur[k].n || base[k].n || !k) +
			(base[k].n || (!k && stats));

		if (k == judged && n)
			fprintf(fp, "<rect class=\"judged-band\" x=\"2\" "
				    "y=\"%d\" width=\"%d\" height=\"%d\">"
				    "<title>judged on %s</title></rect>",
				y - 13, PLOT_W - 4, 28 * n - 2,
				time_kinds[k].words);
		if (cur[k].n || base[k].n || !k) {
			snprintf(label, sizeof(label), "current%s",
				 time_kinds[k].label);
			snprintf(cls, sizeof(cls), "cur%s", time_kinds[k].cls);
			lane_of(fp, cur[k].v, cur[k].n, cur[k].st.median, lo,
				hi, y, cls, label, 0, k == judged,
				time_kinds[k].note, cur[k].cont);
			y += 28;
		}
		if (base[k].n) {
			snprintf(label, sizeof(label), "baseline%s",
				 time_kinds[k].label);
			snprintf(cls, sizeof(cls), "base%s", time_kinds[k].cls);
			lane_of(fp, base[k].v, base[k].n, base[k].st.median,
				lo, hi, y, cls, label, 0, k == judged,
				time_kinds[k].note, base[k].cont);
			y += 28;
		} else if (!k && stats) {
			stat_lane(fp, bs, lo, hi, y);
			y += 28;
		}
	}
	if (!b && !stats)
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
			    "no baseline</text>", LEFT - 8, y + 4);
	fprintf(fp, "</svg><figcaption>Each dot is one warm sample; the bars "
		    "are the medians. Filled dots: wall time; rings: the CPU "
		    "time of the call%s.",
		cur[TIME_OWN].n || base[TIME_OWN].n ?
			"; pale dots: the code's own time (wall minus the "
			"time it waited for a core)" :
			"");
	if (marked(cur) || marked(base))
		fprintf(fp, " Outlined dark: a contended call (it waited for "
			    "a core).");
	if (judged >= 0)
		fprintf(fp, " Judged on %s (its lanes shaded)%s.",
			time_kinds[judged].words,
			prof_json_get(prof_json_get(c, "interleaved"),
				      "uncontended_only") &&
					json_object_get_boolean(prof_json_get(
						prof_json_get(c, "interleaved"),
						"uncontended_only")) ?
				", on its uncontended samples only" :
				"");
	fprintf(fp, "%s</figcaption></figure>",
		stats ? " The baseline's samples are not at hand: its box "
			"spans median to p90, its line min to max." :
			"");
}

/* The distribution chart: current and baseline samples on one axis. */
static void
strip_chart(struct page *p, const struct prof_runrow *r,
	    struct json_object *c, const struct prof_runrow *b)
{
	struct json_object *bs = c ? prof_json_get(c, "baseline") : NULL;
	int stats = !b && prof_json_numf(bs, "n") > 0;
	double lo = NAN, hi = NAN;
	FILE *fp = p->fp;
	struct times cur[TIME_N], base[TIME_N];

	/* A row whose samples say their CPU or own time: every time drawn. */
	times_of(&p->wx, p->rows, r, cur);
	times_of(&p->bx, p->brows, b, base);
	if (cur[TIME_CPU].n || cur[TIME_OWN].n || base[TIME_CPU].n ||
	    base[TIME_OWN].n) {
		times_chart(p, r, c, b, cur, base);
		return;
	}
	range_of(r->v, r->n, &lo, &hi);
	if (b)
		range_of(b->v, b->n, &lo, &hi);
	if (stats) {
		double s[2] = {prof_json_numf(bs, "min"), prof_json_numf(bs, "max")};

		range_of(s, 2, &lo, &hi);
	}
	/* Nothing to draw: say so where samples were taken and all failed,
	 * draw nothing where the channel was not measured. */
	if (!isfinite(lo)) {
		if (r->errors)
			fprintf(fp, "<figure class=\"chart\" data-kind=\""
				    "distribution\"><figcaption>No successful "
				    "warm samples to draw.</figcaption></figure>");
		return;
	}
	fprintf(fp, "<figure class=\"chart\" data-kind=\"distribution\">");
	prof_page_pad(&lo, &hi);
	fprintf(fp, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
		    "samples of ", PLOT_W, STRIP_H);
	prof_page_esc(fp, r->workload);
	fprintf(fp, "\">");
	x_axis(fp, lo, hi, x_of, 72, 6, 0);
	lane(fp, r->v, r->n, r->st.median, lo, hi, 22, "cur", "current", 0);
	if (b)
		lane(fp, b->v, b->n, b->st.median, lo, hi, 50, "base",
		     "baseline", 0);
	else if (stats)
		stat_lane(fp, bs, lo, hi, 50);
	else
		fprintf(fp, "<text x=\"%d\" y=\"54\" text-anchor=\"end\">"
			    "no baseline</text>", LEFT - 8);
	fprintf(fp, "</svg><figcaption>Each dot is one warm sample; "
		    "the bars are the medians.%s</figcaption></figure>",
		stats ? " The baseline's samples are not at hand: its box "
			"spans median to p90, its line min to max." :
			"");
}

/*
 * The count chart: the current build's instruction counts against the
 * baseline's, on one axis in instructions. Counts are exact, so a side
 * is usually one value: the baseline's is drawn as a marker (a diamond
 * and a dashed line across the chart) against the current dots, never as
 * a box; its dots only where its counts differ. Nothing is drawn where
 * no count was taken, a line says so where all failed.
 */
static void
count_chart(struct page *p, const struct prof_runrow *r,
	    struct json_object *c, const struct prof_runrow *b)
{
	struct json_object *bs = c ? prof_json_get(c, "baseline") : NULL;
	size_t i, bn = b ? b->n_counts : 0;
	double *v = malloc((r->n_counts + 1) * sizeof(*v));
	double *bv = malloc((bn + 1) * sizeof(*bv));
	double lo = NAN, hi = NAN, mark = NAN, bmin = NAN, bmax = NAN, x;
	double bsamples = 0, ends[3];
	int dots, k = 0;
	FILE *fp = p->fp;
	char m[64], a[64];

	/* Out of memory: the chart is left out, the numbers still say. */
	if (!v || !bv)
		goto out;
	for (i = 0; i < r->n_counts; i++)
		v[i] = (double)r->counts[i];
	for (i = 0; i < bn; i++)
		bv[i] = (double)b->counts[i];
	if (bn) {
		bmin = bv[0];
		bmax = bv[bn - 1];
		mark = (double)b->instructions;
		bsamples = (double)bn;
	} else if (prof_json_numf(bs, "n") > 0) {
		bmin = prof_json_numf(bs, "min");
		bmax = prof_json_numf(bs, "max");
		mark = prof_json_numf(bs, "median");
		bsamples = prof_json_numf(bs, "n");
	}
	range_of(v, r->n_counts, &lo, &hi);
	if (isfinite(mark))
		ends[k++] = mark;
	if (isfinite(mark) && isfinite(bmin) && isfinite(bmax)) {
		ends[k++] = bmin;
		ends[k++] = bmax;
	}
	range_of(ends, (size_t)k, &lo, &hi);
	if (!isfinite(lo)) {
		if (r->errors && !r->n)
			fprintf(fp, "<figure class=\"counts\" data-kind=\""
				    "counts\"><figcaption>No successful count "
				    "to draw.</figcaption></figure>");
		goto out;
	}
	prof_page_pad(&lo, &hi);
	if (hi - lo < 2) {
		x = lo / 2 + hi / 2;
		lo = fmax(x - 1, 0);
		hi = lo + 2;
	}
	/* The baseline's dots where its counts differ, else its marker. */
	dots = bn > 1 && bmin < bmax;
	fprintf(fp, "<figure class=\"counts\" data-kind=\"counts\"><svg "
		    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
		    "instruction counts of ", PLOT_W, STRIP_H);
	prof_page_esc(fp, r->workload);
	fprintf(fp, "\">");
	x_axis(fp, lo, hi, x_of, 72, 6, 1);
	lane(fp, v, r->n_counts, r->n_counts ? (double)r->instructions : NAN,
	     lo, hi, 22, "cur", "current", 1);
	if (dots) {
		lane(fp, bv, bn, mark, lo, hi, 50, "base", "baseline", 1);
	} else if (isfinite(mark)) {
		x = x_of(mark, lo, hi);
		fmt_val(m, sizeof(m), mark, 1);
		fprintf(fp, "<text x=\"%d\" y=\"54\" text-anchor=\"end\">"
			    "baseline</text><g class=\"base-mark\"><title>"
			    "baseline %s (%.0f sample%s)", LEFT - 8, m,
			bsamples, bsamples == 1 ? "" : "s");
		if (bmin < bmax) {
			prof_page_count(a, sizeof(a), bmin, 0);
			fprintf(fp, ", from %s", a);
			prof_page_count(a, sizeof(a), bmax, 0);
			fprintf(fp, " to %s", a);
		}
		fprintf(fp, "</title>");
		if (bmin < bmax)
			fprintf(fp, "<line class=\"med-base\" x1=\"%.1f\" "
				    "y1=\"50\" x2=\"%.1f\" y2=\"50\" "
				    "stroke-width=\"1\"/>", x_of(bmin, lo, hi),
				x_of(bmax, lo, hi));
		fprintf(fp, "<line class=\"mark-line\" x1=\"%.1f\" y1=\"6\" "
			    "x2=\"%.1f\" y2=\"72\"/><path class=\"mark\" d=\""
			    "M%.1f 43l7 7l-7 7l-7-7z\"/></g>", x, x, x);
	} else {
		fprintf(fp, "<text x=\"%d\" y=\"54\" text-anchor=\"end\">"
			    "no baseline</text>", LEFT - 8);
	}
	fprintf(fp, "</svg><figcaption>Each dot is one counted run "
		    "(instructions); the bars are the medians.%s"
		    "</figcaption></figure>",
		dots ? "" : isfinite(mark) ? " The baseline's count is the "
					     "diamond and the dashed line." :
					     "");
out:
	free(v);
	free(bv);
}

/* The count channel's numbers: each side's count, the change in
 * instructions and in %, the threshold. */
static void
count_numbers(struct page *p, const struct prof_runrow *r,
	      struct json_object *c, const struct prof_runrow *b, int errors)
{
	struct json_object *cs = c ? prof_json_get(c, "current") : NULL;
	struct json_object *bs = c ? prof_json_get(c, "baseline") : NULL;
	double ratio = prof_json_numf(c, "ratio");
	double th = prof_json_numf(c, "threshold_pct");
	double delta = prof_json_numf(c, "delta_instructions");
	double side[2][4];	/* n, min, median, max: current, baseline */
	const char *name[2] = {"current", "baseline"};
	FILE *fp = p->fp;
	char t[3][40];
	int k;

	for (k = 0; k < 2; k++) {
		const struct prof_runrow *x = k ? b : r;
		struct json_object *st = k ? bs : cs;

		if (x && x->n_counts) {
			side[k][0] = (double)x->n_counts;
			side[k][1] = (double)x->counts[0];
			side[k][2] = (double)x->instructions;
			side[k][3] = (double)x->counts[x->n_counts - 1];
		} else {
			side[k][0] = prof_json_numf(st, "n");
			side[k][1] = prof_json_numf(st, "min");
			side[k][2] = prof_json_numf(st, "median");
			side[k][3] = prof_json_numf(st, "max");
		}
	}
	fprintf(fp, "<table class=\"nums\"><tr><th></th><th class=\"num\">n"
		    "</th><th class=\"num\">instructions</th>"
		    "<th class=\"num\">min</th><th class=\"num\">max</th></tr>");
	for (k = 0; k < 2; k++) {
		if (k && !(side[k][0] > 0))
			continue;
		prof_page_count(t[0], 40, side[k][2], 0);
		prof_page_count(t[1], 40, side[k][1], 0);
		prof_page_count(t[2], 40, side[k][3], 0);
		fprintf(fp, "<tr><td>%s</td><td class=\"num\">%.0f</td>"
			    "<td class=\"num\">%s</td><td class=\"num\">%s"
			    "</td><td class=\"num\">%s</td></tr>",
			name[k], isfinite(side[k][0]) ? side[k][0] : 0, t[0],
			t[1], t[2]);
	}
	fprintf(fp, "</table><table class=\"facts\">");
	/* Counted calls of one build differ where the code does (the svg
	 * workload's strcmp): the spread, beside the count that stands for
	 * them (stats.h: the lower median). */
	if (side[0][0] > 1 && side[0][3] > side[0][1]) {
		prof_page_count(t[0], 40, side[0][3] - side[0][1], 1);
		fprintf(fp, "<tr><td>calls differ</td><td class=\"num\">%s "
			    "instructions (%+.2f%%)<span class=\"gloss\"> from "
			    "the fewest to the most; the count is their lower "
			    "median</span></td></tr>",
			t[0], (side[0][3] / side[0][1] - 1) * 100);
	}
	if (!isfinite(delta) && isfinite(side[0][2]) && side[1][0] > 0)
		delta = side[0][2] - side[1][2];
	if (isfinite(delta)) {
		prof_page_count(t[0], 40, delta, 1);
		fprintf(fp, "<tr><td>change</td><td class=\"num\">%s "
			    "instructions", t[0]);
		if (isfinite(ratio))
			fprintf(fp, " (%+.2f%%)", (ratio - 1) * 100);
		fprintf(fp, "</td></tr>");
	}
	if (isfinite(th))
		fprintf(fp, "<tr><td>threshold</td><td class=\"num\">&#177;%g%%"
			    "</td></tr>", th);
	if (errors && r->errors)
		fprintf(fp, "<tr><td>error samples</td><td class=\"num\">%ld"
			    "</td></tr>", r->errors);
	fprintf(fp, "</table>");
}

/* A change's commits, each cut to 12 characters: "a1b2c3..d4e5f6". */
static void
short_range(FILE *fp, struct json_object *c)
{
	const char *b = prof_json_str(c, "commit_before"),
		   *a = prof_json_str(c, "commit_after");

	prof_page_esc_cut(fp, b ? b : "?", 12);
	fprintf(fp, "..");
	prof_page_esc_cut(fp, a ? a : "?", 12);
}

/* The median and p90 of every run, with the change points marked. */
static int
trend_chart(struct page *p, const struct prof_runrow *r,
	    struct prof_err *err)
{
	struct prof_history_filter f = {r->workload, r->backend, r->segment_id};
	struct json_object *all = prof_history_trend(p->hist, &f, err);
	struct json_object *changes = NULL, **pt = NULL;
	const char *now = prof_runview_str(p->cur, "run_id");
	double lo = NAN, hi = NAN, step, tick[PROF_PAGE_MAX_TICKS], w, scale;
	const char *unit;
	size_t i, n = 0, k, nc;
	int j, nt;
	FILE *fp = p->fp;
	int rc = -1, y0 = TREND_H - 44, top = 26;

	if (!all)
		return -1;
	changes = prof_history_changes(p->hist, &f, NULL, err);
	if (!changes)
		goto out;
	pt = malloc((json_object_array_length(all) + 1) * sizeof(*pt));
	if (!pt) {
		prof_err_set(err, "out of memory");
		goto out;
	}
	for (i = 0; i < json_object_array_length(all); i++) {
		struct json_object *o = json_object_array_get_idx(all, i);
		double v[2] = {prof_json_numf(o, "median"), prof_json_numf(o, "p90")};

		if (!isfinite(v[0]))
			continue;
		pt[n++] = o;
		range_of(v, isfinite(v[1]) ? 2 : 1, &lo, &hi);
	}
	fprintf(fp, "<figure class=\"trend\" data-runs=\"%zu\">", n);
	if (!n) {
		fprintf(fp, "<figcaption>No run in the history has successful "
			    "samples of this row.</figcaption></figure>");
		rc = 0;
		goto out;
	}
	prof_page_pad(&lo, &hi);
	w = (double)(TREND_W - LEFT - RIGHT) / (double)n;
#define TX(i) (LEFT + ((double)(i) + 0.5) * w)
#define TY(v) (y0 - ((v) / 2 - lo / 2) / (hi / 2 - lo / 2) * (y0 - top))
	fprintf(fp, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
		    "median and p90 over %zu runs\">", TREND_W, TREND_H, n);
	nt = prof_page_ticks(lo, hi, tick, &step);
	unit = prof_page_time_unit(fmax(fabs(lo), fabs(hi)), &scale);
	for (j = 0; j < nt; j++) {
		char label[32];

		prof_page_time_tick(label, sizeof(label), tick[j], step,
				    fmax(fabs(lo), fabs(hi)));
		fprintf(fp, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			    "x2=\"%d\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%s %s</text>",
			LEFT, TY(tick[j]), TREND_W - RIGHT, TY(tick[j]),
			LEFT - 6, TY(tick[j]) + 4, label, unit);
	}
	fprintf(fp, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		    "y2=\"%d\"/>", LEFT, y0, TREND_W - RIGHT, y0);
	for (k = 0; k < 2; k++) {
		const char *key = k ? "p90" : "median";

		fprintf(fp, "<polyline class=\"%s\" points=\"",
			k ? "lp90" : "lmed");
		for (i = 0; i < n; i++)
			if (isfinite(prof_json_numf(pt[i], key)))
				fprintf(fp, "%.1f,%.1f ", TX(i),
					TY(prof_json_numf(pt[i], key)));
		fprintf(fp, "\"/>");
	}
	for (i = 0; i < n; i++) {
		const char *commit = prof_json_str(pt[i], "commit");
		const char *run = prof_json_str(pt[i], "run_id");
		char m[32], q[32];

		prof_page_time(m, sizeof(m), prof_json_numf(pt[i], "median"), 0);
		prof_page_time(q, sizeof(q), prof_json_numf(pt[i], "p90"), 0);
		if (run && !strcmp(run, now))
			fprintf(fp, "<circle class=\"now\" cx=\"%.1f\" "
				    "cy=\"%.1f\" r=\"7\"/>",
				TX(i), TY(prof_json_numf(pt[i], "median")));
		fprintf(fp, "<circle class=\"pp90\" cx=\"%.1f\" cy=\"%.1f\" "
			    "r=\"2.5\"/><circle class=\"pmed\" cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"3.5\"><title>run ",
			TX(i), TY(prof_json_numf(pt[i], "p90")), TX(i),
			TY(prof_json_numf(pt[i], "median")));
		prof_page_esc(fp, run);
		fprintf(fp, ", commit ");
		prof_page_esc_cut(fp, commit ? commit : "?", 12);
		fprintf(fp, ": median %s, p90 %s</title></circle>", m, q);
		/* Commit labels: all of a short history, else first and last. */
		if (n <= 10 || i == 0 || i == n - 1) {
			fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\""
				    "middle\" class=\"mono\"><title>", TX(i),
				y0 + 14);
			prof_page_esc(fp, commit);
			fprintf(fp, "</title>");
			prof_page_esc_cut(fp, commit ? commit : "?", 7);
			fprintf(fp, "</text>");
		}
	}
	nc = json_object_array_length(changes);
	for (k = 0; k < nc; k++) {
		struct json_object *c = json_object_array_get_idx(changes, k);
		long long idx = json_object_get_int64(prof_json_get(c, "index"));
		/* Between the last run before and the first after (idx). */
		double x = LEFT + ((double)idx - 1) * w;
		char pct[32];

		snprintf(pct, sizeof(pct), "%+.1f%%", prof_json_numf(c, "change_pct"));
		fprintf(fp, "<line class=\"change\" x1=\"%.1f\" y1=\"%d\" "
			    "x2=\"%.1f\" y2=\"%d\"><title>change point %s in "
			    "commits ", x, top, x, y0, pct);
		prof_page_esc(fp, prof_json_str(c, "commits"));
		fprintf(fp, "</title></line><text class=\"cpl\" x=\"%.1f\" "
			    "y=\"%d\" text-anchor=\"middle\">%s</text>", x,
			top - 8, pct);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu runs, "
		    "oldest first</text>", TREND_W - RIGHT, y0 + 30, n);
	fprintf(fp, "</svg><figcaption class=\"legend\"><span><i class=\"key "
		    "med\"></i>median</span><span><i class=\"key p90\"></i>p90"
		    "</span><span>ringed: this run</span>");
	if (!nc)
		fprintf(fp, "<span>no change point</span>");
	for (k = 0; k < nc; k++) {
		struct json_object *c = json_object_array_get_idx(changes, k);
		char b[32], a[32];

		prof_page_time(b, sizeof(b), prof_json_numf(c, "median_before"), 0);
		prof_page_time(a, sizeof(a), prof_json_numf(c, "median_after"), 0);
		fprintf(fp, "<span class=\"cp\">change point %+.1f%% in "
			    "<code title=\"", prof_json_numf(c, "change_pct"));
		prof_page_esc(fp, prof_json_str(c, "commits"));
		fprintf(fp, "\">");
		short_range(fp, c);
		fprintf(fp, "</code>: %s &#8594; %s (%lld runs before, "
			    "%lld after)</span>",
			b, a, (long long)json_object_get_int64(prof_json_get(c, "runs_before")),
			(long long)json_object_get_int64(prof_json_get(c, "runs_after")));
	}
	fprintf(fp, "</figcaption></figure>");
#undef TX
#undef TY
	rc = 0;
out:
	free(pt);
	json_object_put(all);
	json_object_put(changes);
	return rc;
}

static int
is_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* Links to the .prof and trace files of this row's samples. */
static void
artifact_links(struct page *p, const struct prof_runrow *r)
{
	size_t j;
	int any = 0;

	for (j = 0; j < r->n_artifacts; j++) {
		const char *a = r->artifacts[j];

		if (!(is_suffix(a, ".prof") || is_suffix(a, ".trace.json")))
			continue;
		fprintf(p->fp, "%s<a href=\"", any++ ? ", " :
			"<p class=\"links\">Diagnose files: ");
		if (a[0] != '/')
			prof_page_esc_url(p->fp, p->prefix);
		prof_page_esc_url(p->fp, a);
		fprintf(p->fp, "\">");
		prof_page_esc(p->fp, a);
		fprintf(p->fp, "</a>");
	}
	if (any)
		fprintf(p->fp, " (<code>google-pprof --text</code>; open a "
			       "trace in Perfetto)</p>");
}

/*
 * The contended row of a time channel's facts: how many of the n samples
 * were contended (cell), and by which rule (contend.h): the run-queue
 * delay where the samples said it, today's rule on CPU time where they
 * did not ("unavailable": a kernel without schedstat, an older file).
 */
static void
contended_fact(FILE *fp, const struct extra *e, size_t n, const char *cell)
{
	size_t known = e ? e->n_own : 0, unknown = e ? e->no_delay : n;

	fprintf(fp, "<tr><td>contended (");
	if (known)
		fprintf(fp, "waited for a core: run-queue delay &gt; %g%% of "
			    "wall + %g ms", PROF_DELAY_SHARE * 100,
			PROF_DELAY_SLACK_MS);
	if (known && unknown)
		fprintf(fp, "; its delay unavailable in %zu of %zu: ",
			unknown, known + unknown);
	else if (!known)
		fprintf(fp, "run-queue delay unavailable, waited: ");
	if (unknown)
		fprintf(fp, "wall &gt; CPU &#215; %g + %g ms",
			PROF_CONTEND_RATIO, PROF_CONTEND_SLACK_MS);
	fprintf(fp, ")</td><td class=\"num\">%s</td></tr>", cell);
}

/* One row of a time channel's table: label, n, min, median, p90 and max
 * of st (times, ms; "-" where n is 0); judged: the time the verdict
 * judged; title, when not NULL, what the label means. */
static void
stat_row(FILE *fp, const char *label, const char *title,
	 const struct prof_stats *st, int judged)
{
	char a[4][32];
	int have = st->n > 0;

	prof_page_time(a[0], 32, have ? st->min : NAN, 0);
	prof_page_time(a[1], 32, have ? st->median : NAN, 0);
	prof_page_time(a[2], 32, have ? st->p90 : NAN, 0);
	prof_page_time(a[3], 32, have ? st->max : NAN, 0);
	fprintf(fp, "<tr%s><td", judged ? " class=\"judged\"" : "");
	if (title)
		fprintf(fp, " title=\"%s\"", title);
	fprintf(fp, ">%s</td><td class=\"num\">%zu</td><td class=\"num\">%s"
		    "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
		    "<td class=\"num\">%s</td></tr>",
		label, st->n, a[0], a[1], a[2], a[3]);
}

/*
 * A time channel's numbers: n, min, median, p90 and max of each side's
 * wall time and, where its samples say them, its CPU and own times (b:
 * the baseline's row whose samples are at hand, else NULL: its wall time
 * from the comparison's statistics), the rows of the time the verdict
 * judged marked; then the facts: contended samples and their rule, the
 * queue's share, the change, the threshold, the p-value, the peaks.
 */
static void
numbers(struct page *p, const struct prof_runrow *r, struct json_object *c,
	const struct prof_runrow *b)
{
	struct json_object *bs = c ? prof_json_get(c, "baseline") : NULL;
	struct json_object *q = c ? prof_json_get(c, "queue_pct") : NULL;
	struct times cur[TIME_N], base[TIME_N];
	struct prof_stats st = {0};
	FILE *fp = p->fp;
	char a[5][32];
	double pv = prof_json_numf(c, "p_value"), ratio = prof_json_numf(c, "ratio");
	int judged = judged_kind(c), k;

	times_of(&p->wx, p->rows, r, cur);
	times_of(&p->bx, p->brows, b, base);
	fprintf(fp, "<table class=\"nums\"><tr><th></th><th class=\"num\">n"
		    "</th><th class=\"num\">min</th><th class=\"num\">median"
		    "</th><th class=\"num\">p90</th><th class=\"num\">max</th>"
		    "</tr>");
	st = r->st;
	st.n = r->n;
	stat_row(fp, "current", NULL, &st, judged == TIME_WALL);
	if (cur[TIME_CPU].n)
		stat_row(fp, "current CPU", NULL, &cur[TIME_CPU].st,
			 judged == TIME_CPU);
	if (cur[TIME_OWN].n)
		stat_row(fp, "current own", time_kinds[TIME_OWN].note,
			 &cur[TIME_OWN].st, judged == TIME_OWN);
	if (bs && prof_json_numf(bs, "n") > 0) {
		st.n = (size_t)prof_json_numf(bs, "n");
		st.min = prof_json_numf(bs, "min");
		st.median = prof_json_numf(bs, "median");
		st.p90 = prof_json_numf(bs, "p90");
		st.max = prof_json_numf(bs, "max");
		stat_row(fp, "baseline", NULL, &st, judged == TIME_WALL);
		for (k = TIME_CPU; k < TIME_N; k++) {
			char label[32];

			if (!base[k].n)
				continue;
			snprintf(label, sizeof(label), "baseline%s",
				 time_kinds[k].label);
			stat_row(fp, label, k == TIME_OWN ?
					 time_kinds[k].note : NULL,
				 &base[k].st, judged == k);
		}
	}
	fprintf(fp, "</table><table class=\"facts\">");
	if (r->cpu_st.n) {
		prof_cpu_row_contended(&r->cpu, r->n, a[4], 32);
		contended_fact(fp, extra_of(&p->wx, r - p->rows), r->n, a[4]);
		if (b && b->cpu_st.n) {
			prof_cpu_row_contended(&b->cpu, b->n, a[4], 32);
			fprintf(fp, "<tr><td>baseline contended</td><td "
				    "class=\"num\">%s</td></tr>", a[4]);
		}
		if (r->cpu.threads > 1)
			fprintf(fp, "<tr><td>threads (CPU may exceed wall)</td>"
				    "<td class=\"num\">%ld</td></tr>",
				r->cpu.threads);
	}
	if (isfinite(prof_json_numf(q, "current")) ||
	    isfinite(prof_json_numf(q, "baseline"))) {
		fprintf(fp, "<tr><td>the queue took (of the wall time)</td><td "
			    "class=\"num\">");
		if (isfinite(prof_json_numf(q, "current")))
			fprintf(fp, "%.1f%% current",
				prof_json_numf(q, "current"));
		if (isfinite(prof_json_numf(q, "current")) &&
		    isfinite(prof_json_numf(q, "baseline")))
			fprintf(fp, ", ");
		if (isfinite(prof_json_numf(q, "baseline")))
			fprintf(fp, "%.1f%% baseline",
				prof_json_numf(q, "baseline"));
		fprintf(fp, "</td></tr>");
	}
	if (judged >= 0 && (cur[TIME_CPU].n || cur[TIME_OWN].n))
		fprintf(fp, "<tr><td>judged on</td><td class=\"num\">%s</td>"
			    "</tr>", time_kinds[judged].words);
	if (isfinite(ratio))
		fprintf(fp, "<tr><td>median change</td><td class=\"num\">"
			    "%+.1f%%</td></tr>", (ratio - 1) * 100);
	if (isfinite(prof_json_numf(c, "threshold_pct")))
		fprintf(fp, "<tr><td>threshold (either way)</td><td "
			    "class=\"num\">%g%%</td></tr>",
			prof_json_numf(c, "threshold_pct"));
	if (isfinite(pv))
		fprintf(fp, "<tr><td>Mann-Whitney p</td><td class=\"num\">"
			    "%.3g</td></tr>", pv);
	if (isfinite(r->host_peak_bytes) && !has_memory(p, r)) {
		prof_page_bytes(a[4], 32, r->host_peak_bytes);
		fprintf(fp, "<tr><td>host heap peak</td><td class=\"num\">%s"
			    "</td></tr>", a[4]);
	}
	if (isfinite(r->rss_peak_bytes) && !has_memory(p, r)) {
		prof_page_bytes(a[4], 32, r->rss_peak_bytes);
		fprintf(fp, "<tr><td>peak RSS</td><td class=\"num\">%s"
			    "</td></tr>", a[4]);
	}
	if (isfinite(r->device_peak_bytes)) {
		prof_page_bytes(a[4], 32, r->device_peak_bytes);
		fprintf(fp, "<tr><td>GPU pool peak</td><td class=\"num\">%s"
			    "</td></tr>", a[4]);
	}
	if (r->errors)
		fprintf(fp, "<tr><td>error samples</td><td class=\"num\">%ld"
			    "</td></tr>", r->errors);
	fprintf(fp, "</table>");
}

/* An artifact path of the comparisons (relative to their folder). */
static void
cmp_path(struct page *p, const char *a, char *out, size_t n)
{
	const char *c = p->in->comparisons_path ? p->in->comparisons_path : "",
		   *slash = strrchr(c, '/');

	if (a[0] == '/' || !slash)
		snprintf(out, n, "%s", a);
	else
		snprintf(out, n, "%.*s/%s", (int)(slash - c), c, a);
}

/*
 * One explanation of a changed row (prof-why's fkey, "functions" or
 * "time_functions", with akey, its files): the top functions and the
 * differential flame graph of the two sides' call graphs, in unit.
 */
static int
why_block(struct page *p, long i, struct json_object *c, const char *fkey,
	  const char *akey, const char *unit, const char *heading,
	  struct prof_err *err)
{
	struct json_object *fns = prof_json_get(c, fkey), *arts = prof_json_get(c, akey);
	struct prof_callgrind_profile before = {0}, after = {0};
	struct prof_buf svg = {0};
	struct prof_err lerr = {0};
	char pb[4096], pa[4096], id[48];
	size_t k, n = json_object_is_type(fns, json_type_array) ?
			      json_object_array_length(fns) : 0;
	FILE *fp = p->fp;
	int time = !strcmp(fkey, "time_functions"), rc = -1;

	if (!n || !arts)
		return 0;
	fprintf(fp, "<div class=\"why\"><h3>%s</h3><table class=\"why-fns\">"
		    "<tr><th>function</th><th>file</th><th class=\"num\">"
		    "Δ self</th><th class=\"num\">share</th><th class=\"num\">"
		    "self before → after</th><th class=\"num\">inclusive "
		    "before → after</th></tr>", heading);
	for (k = 0; k < n && k < 5; k++) {
		struct json_object *f = json_object_array_get_idx(fns, k);
		const char *state = prof_json_str(f, "state");
		long long v[4];
		char t[5][40];
		double share = prof_json_numf(f, "share");

		v[0] = json_object_get_int64(prof_json_get(f, "self_before"));
		v[1] = json_object_get_int64(prof_json_get(f, "self_after"));
		v[2] = json_object_get_int64(prof_json_get(f, "inclusive_before"));
		v[3] = json_object_get_int64(prof_json_get(f, "inclusive_after"));
		prof_fmt_count(t[0], 40, v[1] - v[0], 1);
		prof_fmt_count(t[1], 40, v[0], 0);
		prof_fmt_count(t[2], 40, v[1], 0);
		prof_fmt_count(t[3], 40, v[2], 0);
		prof_fmt_count(t[4], 40, v[3], 0);
		fprintf(fp, "<tr><td><code>");
		prof_page_esc(fp, prof_json_str(f, "name"));
		fprintf(fp, "</code>");
		if (state && strcmp(state, "changed")) {
			fprintf(fp, " (");
			prof_page_esc(fp, state);
			fprintf(fp, ")");
		}
		fprintf(fp, "</td><td class=\"mono\">");
		prof_page_esc(fp, prof_json_str(f, "file"));
		fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">",
			t[0]);
		if (isfinite(share))
			fprintf(fp, "%.1f%%", 100 * share);
		fprintf(fp, "</td><td class=\"num\">%s → %s</td><td class="
			    "\"num\">%s → %s</td></tr>", t[1], t[2], t[3], t[4]);
	}
	fprintf(fp, "</table>");
	cmp_path(p, prof_json_str(arts, "before") ?
			    prof_json_str(arts, "before") : "", pb, sizeof(pb));
	cmp_path(p, prof_json_str(arts, "after") ?
			    prof_json_str(arts, "after") : "", pa, sizeof(pa));
	snprintf(id, sizeof(id), "flame-%ld-%s", i, fkey);
	/* C++ names demangled as prof-why's tables have them (c++filt; as
	 * they are when it cannot be run); CPU samples per call, as its
	 * time_functions are: the sides may cover different numbers of calls,
	 * and raw samples would colour a frame by that */
	if (prof_callgrind_load(pb, &before, &lerr) < 0 ||
	    prof_callgrind_load(pa, &after, &lerr) < 0 ||
	    prof_why_demangle(&before, "c++filt", &lerr) < 0 ||
	    prof_why_demangle(&after, "c++filt", &lerr) < 0 ||
	    (time && (prof_callgrind_per_call(&before, pb, &lerr) < 0 ||
		      prof_callgrind_per_call(&after, pa, &lerr) < 0))) {
		char buf[1200];

		fprintf(fp, "<p class=\"reason\">No flame graph: ");
		prof_page_esc(fp, prof_err_str(&lerr, buf, sizeof(buf)));
		fprintf(fp, "</p></div>");
		rc = 0;
		goto out;
	} else {
		struct prof_flame_opts fo = {id, NULL, unit};
		char title[512];

		snprintf(title, sizeof(title), "differential flame graph of %s "
			 "(%s)", prof_json_str(c, "workload"), unit);
		fo.title = title;
		if (prof_flame_svg(&before, &after, &fo, &svg, err) < 0)
			goto out;
	}
	fprintf(fp, "<figure>%s<figcaption>Differential flame graph of the "
		    "two sides' call graphs: each frame is as wide as its "
		    "%s now; red frames have more %s of their own than "
		    "before, blue fewer, hatched ones are new; hover a frame "
		    "for its numbers.", svg.p, unit, unit);
	if (prof_json_str(arts, "listing")) {
		fprintf(fp, " pprof's listing: <a href=\"");
		if (prof_json_str(arts, "listing")[0] != '/')
			prof_page_esc_url(fp, p->prefix);
		prof_page_esc_url(fp, prof_json_str(arts, "listing"));
		fprintf(fp, "\">");
		prof_page_esc(fp, prof_json_str(arts, "listing"));
		fprintf(fp, "</a>.");
	}
	fprintf(fp, "</figcaption></figure></div>");
	rc = 0;
out:
	prof_buf_free(&svg);
	prof_callgrind_profile_free(&before);
	prof_callgrind_profile_free(&after);
	return rc;
}

/*
 * Why a changed row changed: its instructions per function (a time row
 * whose workload's instruction row is explained, explained set, leaves
 * them to that row), and for a time row its CPU samples per function. i
 * is the row's index in the comparisons: its graphs' ids.
 */
static int
why_section(struct page *p, long i, struct json_object *c, int explained,
	    struct prof_err *err)
{
	const char *phase = c ? prof_json_str(c, "phase") : NULL;
	int count_row = phase && !strcmp(phase, "instructions");

	if (!c)
		return 0;
	if ((count_row || !explained) &&
	    why_block(p, i, c, "functions", "functions_artifacts",
		      "instructions", "Why: instructions per function",
		      err) < 0)
		return -1;
	return why_block(p, i, c, "time_functions", "time_artifacts",
			 "ns of CPU per call",
			 "Why: CPU time per function (gperftools)", err);
}

/*
 * Why r's memory changed: for each changed memory row of r that prof-why
 * --memory explained, its allocation sites per function (valgrind's DHAT,
 * one call of each side), at most five, or the line that says why there
 * are none. The memory rows are the comparisons' memory view, found from
 * the first of r's (they lie together, one a metric).
 */
static void
memory_why(struct page *p, const struct prof_runrow *r)
{
	struct prof_cmpview *mv = p->cmp ? p->cmp->memory : NULL;
	long i = mv ? prof_cmpview_find(mv, r->workload, r->backend, 0,
					r->segment) : -1;
	FILE *fp = p->fp;

	for (; i >= 0 && (size_t)i < prof_cmpview_len(mv); i++) {
		struct json_object *c = prof_cmpview_row(mv, (size_t)i);
		struct json_object *sites = prof_json_get(c, "memory_sites");
		struct json_object *arts = prof_json_get(c, "memory_sites_artifacts");
		const char *note = prof_json_str(c, "memory_sites_note");
		size_t k, n = json_object_is_type(sites, json_type_array) ?
				      json_object_array_length(sites) : 0;

		if (!c || !prof_json_str(c, "workload") ||
		    strcmp(prof_json_str(c, "workload"), r->workload) ||
		    !prof_json_str(c, "backend") ||
		    strcmp(prof_json_str(c, "backend"), r->backend))
			break;
		if (!n && !note)
			continue;
		fprintf(fp, "<div class=\"why\"><h3>Why: ");
		prof_page_esc(fp, prof_json_str(c, "metric"));
		fprintf(fp, " per allocation site (valgrind's DHAT, one call "
			    "of each side%s)</h3>",
			prof_json_str(arts, "scope_after") &&
					!strcmp(prof_json_str(arts,
							      "scope_after"),
						"run") ?
				", inside run()" :
				"");
		if (note) {
			fprintf(fp, "<p class=\"reason\">No allocation sites: ");
			prof_page_esc(fp, note);
			fprintf(fp, "</p></div>");
			continue;
		}
		fprintf(fp, "<table class=\"why-fns\"><tr><th>function</th>"
			    "<th>file</th><th class=\"num\">Δ bytes</th>"
			    "<th class=\"num\">share</th><th class=\"num\">"
			    "bytes before → after</th><th class=\"num\">"
			    "allocations before → after</th><th class=\"num\">"
			    "max live before → after</th></tr>");
		for (k = 0; k < n && k < 5; k++) {
			struct json_object *f = json_object_array_get_idx(sites, k);
			const char *state = prof_json_str(f, "state");
			static const char *const keys[] = {
				"bytes_before", "bytes_after", "allocs_before",
				"allocs_after", "max_live_before",
				"max_live_after",
			};
			double share = prof_json_numf(f, "share");
			char t[7][40];
			long long v[6];
			size_t j;

			for (j = 0; j < 6; j++) {
				v[j] = json_object_get_int64(
					prof_json_get(f, keys[j]));
				prof_page_count(t[j + 1], 40, (double)v[j], 0);
			}
			prof_page_count(t[0], 40, (double)(v[1] - v[0]), 1);
			fprintf(fp, "<tr><td><code>");
			prof_page_esc(fp, prof_json_str(f, "name"));
			fprintf(fp, "</code>");
			if (state && strcmp(state, "changed")) {
				fprintf(fp, " (");
				prof_page_esc(fp, state);
				fprintf(fp, ")");
			}
			fprintf(fp, "</td><td class=\"mono\">");
			prof_page_esc(fp, prof_json_str(f, "file"));
			fprintf(fp, "</td><td class=\"num\">%s</td><td "
				    "class=\"num\">", t[0]);
			if (isfinite(share))
				fprintf(fp, "%.1f%%", 100 * share);
			fprintf(fp, "</td><td class=\"num\">%s → %s</td><td "
				    "class=\"num\">%s → %s</td><td class="
				    "\"num\">%s → %s</td></tr>",
				t[1], t[2], t[3], t[4], t[5], t[6]);
		}
		fprintf(fp, "</table></div>");
	}
}

/* The statuses, the most telling first: a block's own is its channels'
 * first in this order. */
static const char *const status_order[] = {
	"error", "warning", "improved", "unsettled", "incomparable", "stable",
	"new", "unjudged", NULL,
};

static int
status_rank(const char *s)
{
	int k;

	for (k = 0; status_order[k]; k++)
		if (!strcmp(s, status_order[k]))
			break;
	return k;
}

/*
 * One workload x backend: the page's rows [from, to) (sorted, so its
 * segments lie together), their channels and the first time and count
 * comparisons among them, which the disagreement line reads.
 */
struct block {
	long from, to;
	int channels;
	const struct prof_runrow *tr, *cr;	/* first time, count row */
	struct json_object *tc, *cc;		/* their comparisons */
	const struct prof_runrow *mr;		/* first memory row */
	const char *mstatus;			/* its memory channel's */
	const char *status;			/* the most telling */
	char statuses[160];			/* each once, spaced */
	long errors;				/* error samples, all rows */
};

static void
add_status(struct block *k, const char *s)
{
	size_t n = strlen(k->statuses), len = strlen(s);
	const char *at = k->statuses;

	k->channels++;
	if (!k->status || status_rank(s) < status_rank(k->status))
		k->status = s;
	while ((at = strstr(at, s)) != NULL) {
		if ((at == k->statuses || at[-1] == ' ') &&
		    (at[len] == ' ' || !at[len]))
			return;
		at += len;
	}
	if (n + len + 2 <= sizeof(k->statuses))
		snprintf(k->statuses + n, sizeof(k->statuses) - n, "%s%s",
			 n ? " " : "", s);
}

/* The memory channel's status word: the most telling of its memory
 * rows' statuses (status_order), "error" for a row whose every sample
 * errored, else "unjudged". */
static const char *
memory_status_of(const struct prof_runrow *r,
		 struct json_object *mc[PROF_CMP_MEM_N])
{
	const char *s = NULL;
	int m;

	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const char *t = mc[m] ? prof_json_str(mc[m], "status") : NULL;

		if (t && (!s || status_rank(t) < status_rank(s)))
			s = t;
	}
	if (!s && r->errors && !r->n && !r->n_counts)
		return "error";
	return s ? s : "unjudged";
}

/* The end of the block that starts at row from, found without reading
 * its comparisons (which each row parses again: cmpview.h). */
static long
block_end(const struct page *p, long from)
{
	const struct prof_runrow *r0 = &p->rows[from];
	long i;

	for (i = from + 1; i < p->n; i++)
		if (strcmp(p->rows[i].workload, r0->workload) ||
		    strcmp(p->rows[i].backend, r0->backend))
			break;
	return i;
}

/* The block that starts at row from; returns its end. */
static long
block_at(struct page *p, long from, struct block *k)
{
	const struct prof_runrow *r0 = &p->rows[from];
	long i;

	memset(k, 0, sizeof(*k));
	k->from = from;
	for (i = from; i < p->n; i++) {
		const struct prof_runrow *r = &p->rows[i];

		if (strcmp(r->workload, r0->workload) ||
		    strcmp(r->backend, r0->backend))
			break;
		k->errors += r->errors;
		if (has_time(p, r)) {
			struct json_object *c = comparison_of(p, r);

			if (!k->tr) {
				k->tr = r;
				k->tc = c;
			}
			add_status(k, status_of(r, c));
		}
		if (has_count(p, r)) {
			struct json_object *c = count_comparison_of(p, r);

			if (!k->cr) {
				k->cr = r;
				k->cc = c;
			}
			add_status(k, count_status_of(r, c));
		}
		if (has_memory(p, r)) {
			struct json_object *mc[PROF_CMP_MEM_N];

			memory_comparisons_of(p, r, mc);
			if (!k->mr) {
				k->mr = r;
				k->mstatus = memory_status_of(r, mc);
			}
			add_status(k, memory_status_of(r, mc));
		}
	}
	k->to = i;
	if (!k->status)
		k->status = "unjudged";
	return i;
}

/* An unsettled row's way to a verdict: the command that would settle
 * it (compare.h), the run's own selection kept. */
static void
settle_line(struct page *p, struct json_object *c)
{
	struct json_object *ab = prof_json_get(c, "interleaved");
	long max = (long)prof_json_numf(ab, "max_repeat");
	const char *wl = prof_json_str(c, "workload");
	char cmd[2300], w[256] = "";

	/* This row's workload alone: a make compare W= runs it only. */
	if (wl && strlen(wl) + 4 < sizeof(w))
		snprintf(w, sizeof(w), " W=%s", wl);
	prof_cmp_settle_command(prof_runview_str(p->cur, "command"),
				(long)prof_json_numf(ab, "repeat"),
				max > 0 ? max : 0, w, cmd, sizeof(cmd));
	fprintf(p->fp, "<p class=\"reason settle\">Unsettled: the evidence "
		       "did not settle within the budget (neither warning, "
		       "improved nor stable). To settle it, %s",
		max > 0 ? "run <code>" : "");
	prof_page_esc(p->fp, cmd);
	fprintf(p->fp, "%s.</p>", max > 0 ? "</code>" : "");
}

/* A channel's head: its name, status and segment, and the reason. */
static void
channel_head(struct page *p, const struct prof_runrow *r, const char *kind,
	     const char *status, struct json_object *c, int errors)
{
	const char *reason = c ? prof_json_str(c, "reason") : NULL;
	FILE *fp = p->fp;

	errors = errors && r->errors;
	fprintf(fp, "<div class=\"channel\" data-channel=\"%s\" "
		    "data-status=\"", kind);
	prof_page_esc(fp, status);
	fprintf(fp, "\"><header><h3>%s</h3>", kind);
	badge(fp, status);
	fprintf(fp, "<span class=\"mono\" title=\"segment id\">");
	prof_page_esc(fp, r->segment_id);
	fprintf(fp, "</span></header>");
	if (reason || errors) {
		fprintf(fp, "<p class=\"reason\">");
		prof_page_esc(fp, reason ? reason : "");
		if (errors)
			fprintf(fp, "%s%ld error sample%s", reason ? "; " : "",
				r->errors, r->errors == 1 ? "" : "s");
		fprintf(fp, "</p>");
	}
	if (!strcmp(status, "unsettled"))
		settle_line(p, c);
	fprintf(fp, "<div class=\"cols\"><div>");
}

static void
time_channel(struct page *p, const struct prof_runrow *r)
{
	struct json_object *c = comparison_of(p, r);
	const struct prof_runrow *b = time_baseline_of(p, r, c);

	channel_head(p, r, "time", status_of(r, c), c, 1);
	strip_chart(p, r, c, b);
	fprintf(p->fp, "</div><div>");
	numbers(p, r, c, b);
	fprintf(p->fp, "</div></div></div>");
}

/* The count channel; errors: the row's error samples are said here (a
 * row without a time channel). */
static void
count_channel(struct page *p, const struct prof_runrow *r, int errors)
{
	struct json_object *c = count_comparison_of(p, r);
	const struct prof_runrow *b = count_baseline_of(p, r, c);

	channel_head(p, r, "instructions", count_status_of(r, c), c, errors);
	count_chart(p, r, c, b);
	fprintf(p->fp, "</div><div>");
	count_numbers(p, r, c, b, errors);
	fprintf(p->fp, "</div></div></div>");
}

/* A memory value with grouped digits ("2,105,312"; sign: "+1,052,656"),
 * "-" for none. */
static void
mem_value(char buf[32], struct json_object *v, int sign)
{
	prof_page_count(buf, 32, v && prof_json_is_number(v) ?
					 prof_json_number(v) :
					 NAN,
			sign);
}

/*
 * The memory channel of a row: per metric of prof_cmp_metrics[] that the
 * row measured, its current median, the baseline's, the change and the
 * status of its memory row, in bytes or allocations with grouped digits
 * (the numbers comparisons.json gives; a run not compared: the row's own
 * medians, unjudged); then the reason of each row that is not stable.
 * errors: the row's error samples are said here (a row with neither a
 * time nor a count channel).
 */
static void
memory_channel(struct page *p, const struct prof_runrow *r, int errors)
{
	struct json_object *mc[PROF_CMP_MEM_N];
	FILE *fp = p->fp;
	char cur[32], base[32], delta[32];
	int m, reasons = 0;

	memory_comparisons_of(p, r, mc);
	channel_head(p, r, "memory", memory_status_of(r, mc), NULL, errors);
	fprintf(fp, "<table class=\"nums mem\"><tr><th>one run()</th>"
		    "<th class=\"num\">current</th><th class=\"num\">baseline"
		    "</th><th class=\"num\">change</th><th>status</th></tr>");
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const struct prof_cmp_metric *me = &prof_cmp_metrics[m];
		struct json_object *c = mc[m];

		if (!c && !r->mem_st[m].n)
			continue;
		if (c)
			mem_value(cur, prof_json_get(prof_json_get(c, "current"),
						     "median"), 0);
		else
			prof_page_count(cur, sizeof(cur), r->mem_st[m].median, 0);
		mem_value(base, c ? prof_json_get(prof_json_get(c, "baseline"),
						  "median") :
				    NULL,
			  0);
		mem_value(delta, c ? prof_json_get(c, "delta") : NULL, 1);
		fprintf(fp, "<tr data-metric=\"%s\"><td>%s%s%s%s</td><td "
			    "class=\"num\">%s</td><td class=\"num\">%s</td>"
			    "<td class=\"num\">%s</td><td>",
			me->key, me->name, strcmp(me->name, me->unit) ? " (" : "",
			strcmp(me->name, me->unit) ? me->unit : "",
			strcmp(me->name, me->unit) ? ")" : "", cur, base, delta);
		badge(fp, c ? prof_json_str(c, "status") : "unjudged");
		fprintf(fp, "</td></tr>");
	}
	fprintf(fp, "</table></div><div>");
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const char *st = mc[m] ? prof_json_str(mc[m], "status") : NULL;

		if (!st || !strcmp(st, "stable"))
			continue;
		fprintf(fp, "<p class=\"reason\" data-metric=\"%s\">",
			prof_cmp_metrics[m].key);
		prof_page_esc(fp, prof_json_str(mc[m], "reason"));
		fprintf(fp, "</p>");
		reasons++;
	}
	if (!reasons)
		fprintf(fp, "<p class=\"reason\">One call under the allocation "
			    "interposer (prof-mem): the heap peak, allocations "
			    "and bytes allocated are judged exactly, the RSS "
			    "peak like time.</p>");
	fprintf(fp, "</div></div></div>");
}

/* The lines of summary.md's "Time and memory disagree" of row r: its time
 * comparison against each of its memory rows (prof_channels_memory()). */
static void
memory_disagreements(struct page *p, const struct prof_runrow *r)
{
	struct json_object *mc[PROF_CMP_MEM_N];
	struct json_object *t = comparison_of(p, r);
	char line[1024];
	int m;

	if (!t || !memory_comparisons_of(p, r, mc))
		return;
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!mc[m] ||
		    !prof_channels_memory(t, mc[m], "", line, sizeof(line)))
			continue;
		fprintf(p->fp, "<p class=\"disagree\" data-metric=\"%s\">Time "
			       "and memory disagree: ",
			prof_cmp_metrics[m].key);
		prof_page_esc(p->fp, line);
		fprintf(p->fp, "</p>");
	}
}

/*
 * One block per workload x backend: its time and instruction channels
 * side by side, each with its status, numbers and reason, and the
 * disagreement line of summary.md where the two disagree; then the
 * trends, the diagnose files and why it changed.
 */
static int
block_section(struct page *p, const struct block *k, struct prof_err *err)
{
	const struct prof_runrow *r0 = &p->rows[k->from];
	FILE *fp = p->fp;
	int explained = 0;
	char line[1024];
	long i, at;

	fprintf(fp, "<section class=\"row\" id=\"row-%ld\" data-status=\"",
		row_number(p, k->from));
	prof_page_esc(fp, k->status);
	fprintf(fp, "\" data-workload=\"");
	prof_page_esc(fp, r0->workload);
	fprintf(fp, "\" data-statuses=\"");
	prof_page_esc(fp, k->statuses);
	fprintf(fp, "\"><header><h2><code>");
	prof_page_esc(fp, r0->workload);
	fprintf(fp, "</code></h2><span>");
	prof_page_esc(fp, r0->backend);
	fprintf(fp, "</span></header>");
	if (prof_channels_disagree(k->tc, k->cc, "", line, sizeof(line))) {
		fprintf(fp, "<p class=\"disagree\">Time and instructions "
			    "disagree: ");
		prof_page_esc(fp, line);
		fprintf(fp, "</p>");
	}
	for (i = k->from; i < k->to; i++)
		memory_disagreements(p, &p->rows[i]);
	fprintf(fp, "<div class=\"channels%s\">", k->channels > 1 ? " two" :
								     "");
	for (i = k->from; i < k->to; i++)
		if (has_time(p, &p->rows[i]))
			time_channel(p, &p->rows[i]);
	for (i = k->from; i < k->to; i++)
		if (has_count(p, &p->rows[i]))
			count_channel(p, &p->rows[i],
				      !has_time(p, &p->rows[i]));
	for (i = k->from; i < k->to; i++)
		if (has_memory(p, &p->rows[i]))
			memory_channel(p, &p->rows[i],
				       !has_time(p, &p->rows[i]) &&
					       !has_count(p, &p->rows[i]));
	fprintf(fp, "</div>");
	for (i = k->from; i < k->to; i++) {
		struct json_object *c = count_comparison_of(p, &p->rows[i]);

		if (p->hist && has_time(p, &p->rows[i]) &&
		    trend_chart(p, &p->rows[i], err) < 0)
			return -1;
		if (c && prof_json_get(c, "functions"))
			explained = 1;
	}
	for (i = k->from; i < k->to; i++)
		artifact_links(p, &p->rows[i]);
	for (i = k->from; i < k->to; i++) {
		struct json_object *c = cmp_in(p, 0, &p->rows[i],
					       &at);

		if (why_section(p, at, c, explained, err) < 0)
			return -1;
		c = cmp_in(p, 1, &p->rows[i], &at);
		if (why_section(p, at, c, explained, err) < 0)
			return -1;
		memory_why(p, &p->rows[i]);
	}
	fprintf(fp, "</section>\n");
	return 0;
}

static void
env_line(struct page *p)
{
	struct json_object *env = prof_runview_env(p->cur);
	FILE *fp = p->fp;

	if (!env)
		return;
	fprintf(fp, "<tr><td>machine</td><td>");
	prof_page_esc(fp, prof_json_str(env, "cpu_model"));
	fprintf(fp, ", ");
	prof_page_esc(fp, prof_json_str(env, "distro_name") ?
		    prof_json_str(env, "distro_name") :
		    prof_json_str(env, "os"));
	if (prof_json_str(env, "compiler")) {
		fprintf(fp, ", ");
		prof_page_esc(fp, prof_json_str(env, "compiler"));
		fprintf(fp, " ");
		prof_page_esc(fp, prof_json_str(env, "compiler_version"));
	}
	fprintf(fp, "</td></tr>");
}

/* Whether block k is drawn whole: every block of a page that is not
 * summarised, else the errored and changed ones, in order, up to
 * WHOLE_BLOCKS: errored is any error sample (a row whose other samples
 * succeeded is judged, stable say, and its errors are what the header
 * counts). tally() asks, once a block; drawn_at() tells the later
 * passes. */
static int
shown(struct page *p, const struct block *k)
{
	if (!p->summarise)
		return 1;
	if ((status_rank(k->status) > status_rank("unsettled") &&
	     !k->errors) ||
	    p->telling >= WHOLE_BLOCKS)
		return 0;
	p->telling++;
	return 1;
}

/*
 * The rows [from, end) of one workload x backend in brief (every row of
 * the run), as rows whole that say what a block's status needs (their
 * keys, samples, counts, errors, metrics): block_at() reads them as it
 * reads rows drawn whole. *stub grows to hold them. Returns the end, or
 * -1 when out of memory.
 */
static long
stub_block(struct page *p, long from, struct prof_runrow **stub,
	   size_t *cap)
{
	const struct prof_runbrief *r0 = &p->briefs[from];
	long i;
	int m;

	for (i = from; i < p->n_briefs; i++) {
		const struct prof_runbrief *b = &p->briefs[i];
		struct prof_runrow *r;

		if (strcmp(b->workload, r0->workload) ||
		    strcmp(b->backend, r0->backend))
			break;
		if ((size_t)(i - from) == *cap) {
			size_t ncap = *cap ? *cap * 2 : 8;
			struct prof_runrow *ns = realloc(*stub, ncap *
								sizeof(*ns));

			if (!ns)
				return -1;
			*stub = ns;
			*cap = ncap;
		}
		r = &(*stub)[i - from];
		memset(r, 0, sizeof(*r));
		r->workload = b->workload;
		r->backend = b->backend;
		r->segment = b->segment;
		r->n = b->n;
		r->n_counts = b->n_counts;
		r->errors = b->errors;
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			r->mem_st[m].n = b->mem >> m & 1u;
	}
	return i;
}

/* Count the blocks and, on a page too large to draw whole, those drawn
 * and those counted instead, by status; from every row, in brief. */
static int
tally(struct page *p, struct prof_err *err)
{
	struct prof_runrow *stub = NULL, *saved = (struct prof_runrow *)p->rows;
	long i, end, saved_n = p->n;
	size_t cap = 0;
	struct block k;
	int rc = -1;

	p->blocks = p->drawn = p->errors = 0;
	for (i = 0; i < p->n_briefs; i++) {
		p->errors += p->briefs[i].errors;
		if (!i || strcmp(p->briefs[i].workload,
				 p->briefs[i - 1].workload) ||
		    strcmp(p->briefs[i].backend, p->briefs[i - 1].backend))
			p->blocks++;
	}
	p->summarise = p->blocks > WHOLE_BLOCKS;
	p->telling = 0;
	for (i = 0; i < p->n_briefs; i = end) {
		long j;

		end = stub_block(p, i, &stub, &cap);
		if (end < 0) {
			prof_err_set(err, "out of memory");
			goto out;
		}
		p->rows = stub;
		p->n = end - i;
		for (j = 0; j < p->n; j++) {
			p->any_counts |= has_count(p, &stub[j]);
			p->any_memory |= has_memory(p, &stub[j]);
		}
		if (!p->summarise)
			continue;
		block_at(p, 0, &k);
		if (shown(p, &k)) {
			const struct prof_runbrief *r = &p->briefs[i];
			size_t len;
			char *key = row_key(r->workload, r->backend, "", &len);

			if (!key || prof_htab_put(&p->drawn_index, key, len,
						  0) < 0) {
				free(key);
				prof_err_set(err, "out of memory");
				goto out;
			}
			free(key);
			p->drawn++;
		} else {
			p->hidden[status_rank(k.status)]++;
		}
	}
	rc = 0;
out:
	p->rows = saved;
	p->n = saved_n;
	free(stub);
	return rc;
}

/* Whether the baseline's rows of w and b are drawn (prof_runview_load_only()). */
static int
drawn_wb(void *arg, const char *w, const char *b)
{
	struct page *p = arg;
	size_t len;
	char *key = row_key(w ? w : "", b ? b : "", "", &len);
	long k = key ? prof_htab_get(&p->drawn_index, key, len) : 0;

	free(key);
	return k >= 0;
}

/* A sample the rows' statistics are made of (runview.h's aggregated
 * samples: timing or browser, warm, success, with a duration). */
static int
aggregated(struct json_object *s)
{
	return (prof_sample_is(s, "phase", "timing") ||
		prof_sample_is(s, "phase", "browser")) &&
	       prof_sample_is(s, "kind", "warm") &&
	       prof_sample_is(s, "outcome", "success") &&
	       prof_json_is_number(prof_json_get(s, "duration_ms"));
}

/* Take sample s's own time or its want of a delay into its row's extra
 * (prof_runview_load_only()'s callback: it sees every sample). */
static int
extras_take(void *arg, struct json_object *s, struct prof_err *err)
{
	struct extras *x = arg;
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	struct extra *e;
	size_t len;
	char *key, *k0;
	long k;

	if (!aggregated(s) || (x->p->summarise && !drawn_wb(x->p, w, b)))
		return 0;
	k0 = row_key(w ? w : "", b ? b : "", sid ? sid : "", &len);
	key = k0 ? realloc(k0, len + 1) : NULL;
	if (!key) {
		free(k0);
		return prof_err_set(err, "out of memory");
	}
	key[len] = '\0';
	k = prof_htab_get(&x->index, key, len);
	if (k < 0) {
		if (PROF_GROW(x->e, x->n + 1, x->cap) < 0)
			goto oom;
		k = (long)x->n;
		if (prof_htab_put(&x->index, key, len, k) < 0)
			goto oom;
		memset(&x->e[x->n], 0, sizeof(x->e[x->n]));
		x->e[x->n].key = key;
		x->e[x->n].len = len;
		x->n++;
	} else {
		free(key);
	}
	e = &x->e[k];
	if (PROF_GROW(e->cont, e->n_cont + 1, e->cap_cont) < 0)
		return prof_err_set(err, "out of memory");
	e->cont[e->n_cont++] = prof_json_get(s, "contended") &&
			       json_object_get_boolean(
				       prof_json_get(s, "contended"));
	if (!prof_sample_run_delay(s, NULL) || isnan(prof_sample_own_ms(s))) {
		e->no_delay++;
		return 0;
	}
	if (PROF_GROW(e->own, e->n_own + 1, e->cap_own) < 0)
		return prof_err_set(err, "out of memory");
	e->own[e->n_own++] = prof_sample_own_ms(s);
	return 0;
oom:
	free(key);
	return prof_err_set(err, "out of memory");
}

/* Each row of v (n of them) to its extra, once v is loaded (the
 * segment ids resolve only then). Returns 0 or -1. */
static int
extras_map(struct extras *x, const struct prof_runview *v, size_t n,
	   struct prof_err *err)
{
	size_t i;

	x->of_row = malloc((n + 1) * sizeof(*x->of_row));
	if (!x->of_row)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < n; i++)
		x->of_row[i] = -1;
	for (i = 0; i < x->n; i++) {
		const char *w = x->e[i].key, *b = w + strlen(w) + 1;
		const char *sid = b + strlen(b) + 1;
		long r = prof_runview_row(v, w, b,
					  prof_runview_segment(v, sid));

		if (r >= 0 && (size_t)r < n)
			x->of_row[r] = (long)i;
	}
	return 0;
}

/* Row k's extra (k: its index among the view's rows), or NULL. */
static const struct extra *
extra_of(const struct extras *x, long k)
{
	long i = x->of_row && k >= 0 ? x->of_row[k] : -1;

	return i < 0 ? NULL : &x->e[i];
}

static void
extras_free(struct extras *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->e[i].key);
		free(x->e[i].own);
		free(x->e[i].cont);
	}
	free(x->e);
	free(x->of_row);
	prof_htab_free(&x->index);
}

/* Whether the block that starts at row from is drawn whole (tally()
 * chose them): the passes that write the page skip the others without
 * reading their comparisons, so that a page of 40,000 rows parses each
 * counted row's comparison once, not once a pass. */
static int
drawn_at(struct page *p, long from)
{
	const struct prof_runrow *r = &p->rows[from];

	return !p->summarise || drawn_wb(p, r->workload, r->backend);
}

/* What a summarised page left out, counted, and where to read it. */
static void
summarised(struct page *p)
{
	FILE *fp = p->fp;
	int k, first = 1;

	if (!p->summarise)
		return;
	fprintf(fp, "<p class=\"summarised\">%ld workload x backend blocks "
		    "are too many for one page: the %ld errored or changed "
		    "ones are drawn whole%s, and the others are counted here:",
		p->blocks, p->drawn,
		p->drawn == WHOLE_BLOCKS ? " (the first of them)" : "");
	for (k = 0; status_order[k]; k++) {
		if (!p->hidden[k])
			continue;
		fprintf(fp, "%s %ld %s", first ? "" : ",", p->hidden[k],
			status_order[k]);
		first = 0;
	}
	fprintf(fp, "%s. Every row's numbers are in comparisons.json and "
		    "summary.md.</p>\n", first ? " none" : "");
}

/* A block's memory in the overview: its heap peak (the comparison's
 * current median, else the row's own; grouped digits) and the memory
 * channel's status. */
static void
overview_memory(struct page *p, const struct block *k)
{
	struct json_object *mc[PROF_CMP_MEM_N];
	char v[32] = "-";

	if (k->mr) {
		memory_comparisons_of(p, k->mr, mc);
		if (mc[PROF_CMP_MEM_PEAK])
			mem_value(v, prof_json_get(prof_json_get(
						   mc[PROF_CMP_MEM_PEAK],
						   "current"),
					       "median"),
				  0);
		else if (k->mr->mem_st[PROF_CMP_MEM_PEAK].n)
			prof_page_count(v, sizeof(v),
					k->mr->mem_st[PROF_CMP_MEM_PEAK].median,
					0);
	}
	fprintf(p->fp, "<td class=\"num mem\" data-metric=\"host_peak_bytes\">"
		       "%s</td><td class=\"mem\">", v);
	if (k->mr)
		badge(p->fp, k->mstatus);
	fprintf(p->fp, "</td>");
}

static void
overview(struct page *p)
{
	FILE *fp = p->fp;
	struct block k;
	long i, counts = p->any_counts, memory = p->any_memory;

	fprintf(fp, "<table class=\"overview\"><tr><th>workload</th>"
		    "<th>backend</th><th class=\"num\">n</th><th class=\"num\">"
		    "median</th><th class=\"num cpu\">CPU</th><th "
		    "class=\"num cpu\">contended</th><th class=\"num\">change"
		    "</th><th>status</th>%s%s</tr>",
		counts ? "<th class=\"num\">instructions</th><th class=\"num\">"
			 "change</th><th>status</th>" : "",
		memory ? "<th class=\"num mem\">heap peak bytes</th><th "
			 "class=\"mem\">memory</th>" : "");
	for (i = 0; i < p->n; i = k.to) {
		const struct prof_runrow *r = &p->rows[i];
		char m[32], pct[32] = "-", n[32] = "-", cpu[32] = "-";
		char cont[48] = "-";
		double ratio;

		if (!drawn_at(p, i)) {
			k.to = block_end(p, i);
			continue;
		}
		block_at(p, i, &k);
		ratio = prof_json_numf(k.tc, "ratio");
		prof_page_time(m, sizeof(m),
			       k.tr && k.tr->n ? k.tr->st.median : NAN, 0);
		if (k.tr) {
			snprintf(n, sizeof(n), "%zu", k.tr->n);
			prof_page_time(cpu, sizeof(cpu),
				       k.tr->cpu_st.n ? k.tr->cpu_st.median :
							NAN, 0);
			prof_cpu_row_contended(&k.tr->cpu, k.tr->n, cont,
					       sizeof(cont));
		}
		if (isfinite(ratio))
			snprintf(pct, sizeof(pct), "%+.1f%%", (ratio - 1) * 100);
		fprintf(fp, "<tr><td><a href=\"#row-%ld\"><code>",
			row_number(p, i));
		prof_page_esc(fp, r->workload);
		fprintf(fp, "</code></a></td><td>");
		prof_page_esc(fp, r->backend);
		fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">"
			    "%s</td><td class=\"num cpu\">%s</td><td class=\"num "
			    "cpu\">%s</td><td class=\"num\">%s</td><td>",
			n, m, cpu, cont, pct);
		if (k.tr)
			badge(fp, status_of(k.tr, k.tc));
		fprintf(fp, "</td>");
		if (counts) {
			ratio = prof_json_numf(k.cc, "ratio");
			snprintf(pct, sizeof(pct), "-");
			if (isfinite(ratio))
				snprintf(pct, sizeof(pct), "%+.2f%%",
					 (ratio - 1) * 100);
			prof_page_count(m, sizeof(m), k.cr && k.cr->n_counts ?
				   (double)k.cr->instructions :
				   prof_json_numf(prof_json_get(k.cc, "current"),
						  "median"), 0);
			fprintf(fp, "<td class=\"num\">%s</td><td class=\"num\">"
				    "%s</td><td>", m, pct);
			if (k.cr)
				badge(fp, count_status_of(k.cr, k.cc));
			fprintf(fp, "</td>");
		}
		if (memory)
			overview_memory(p, &k);
		fprintf(fp, "</tr>");
	}
	fprintf(fp, "</table>");
}

static int
write_page(struct page *p, struct prof_err *err)
{
	FILE *fp = p->fp;
	struct block k;
	long i, errors = p->errors;
	char style_src[PROF_PAGE_CSP], script_src[PROF_PAGE_CSP];

	/* The page's own style and script are allowed by their hashes and
	 * nothing else is: no inline handler or script runs, whatever text
	 * reached the page. */
	if (prof_page_csp(style_src, css) < 0 ||
	    prof_page_csp(script_src, script) < 0)
		return prof_err_set(err, "out of memory");
	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset="
		    "\"utf-8\"><meta name=\"viewport\" content=\"width=device-"
		    "width, initial-scale=1\"><meta http-equiv=\"Content-"
		    "Security-Policy\" content=\"default-src 'none'; style-src "
		    "%s; script-src %s; img-src data:; base-uri 'none'; "
		    "form-action 'none'\"><title>Performance profile ",
		style_src, script_src);
	prof_page_esc(fp, prof_runview_str(p->cur, "run_id"));
	fprintf(fp, "</title><style>%s</style></head><body>\n", css);
	fprintf(fp, "<h1>Performance profile <code>");
	prof_page_esc(fp, prof_runview_str(p->cur, "run_id"));
	fprintf(fp, "</code></h1><table class=\"meta\"><tr><td>commit</td>"
		    "<td><code>");
	prof_page_esc(fp, prof_runview_str(p->cur, "commit"));
	fprintf(fp, "</code></td></tr><tr><td>command</td><td><code>");
	prof_page_esc(fp, prof_runview_str(p->cur, "command"));
	fprintf(fp, "</code></td></tr><tr><td>timestamp (UTC)</td><td>");
	prof_page_esc(fp, prof_runview_str(p->cur, "timestamp_utc"));
	fprintf(fp, "</td></tr>");
	env_line(p);
	fprintf(fp, "<tr><td>samples</td><td>%zu, %ld error%s</td></tr>"
		    "<tr><td>compared with</td><td>",
		prof_runview_count(p->cur), errors, errors == 1 ? "" : "s");
	if (p->cmp && p->in->baseline)
		prof_page_esc(fp, p->in->baseline);
	else if (p->found_base)
		fprintf(fp, "the run folder's baseline.json");
	else
		fprintf(fp, p->cmp ? "the baseline" : "no baseline");
	fprintf(fp, "</td></tr><tr><td>history</td><td>");
	if (p->hist)
		prof_page_esc(fp, p->in->history);
	else
		fprintf(fp, "none");
	fprintf(fp, "</td></tr></table>\n");
	summarised(p);
	overview(p);
	fprintf(fp, "<nav class=\"filter\" aria-label=\"filter rows\">"
		    "<button data-show=\"all\" aria-pressed=\"true\">all"
		    "</button><button data-show=\"warning\" aria-pressed="
		    "\"false\">warnings</button><button data-show=\"unsettled\" "
		    "aria-pressed=\"false\">unsettled</button><button "
		    "data-show=\"error\" aria-pressed=\"false\">errors</button>"
		    "</nav>\n");
	for (i = 0; i < p->n; i = k.to) {
		if (!drawn_at(p, i)) {
			k.to = block_end(p, i);
			continue;
		}
		block_at(p, i, &k);
		if (block_section(p, &k, err) < 0)
			return -1;
	}
	if (!p->n_briefs)
		fprintf(fp, "<p>No samples.</p>");
	fprintf(fp, "<script>%s</script></body></html>\n", script);
	return 0;
}

/* Links go from the page's folder to the run folder's artifacts. */
static void
link_prefix(struct page *p)
{
	const char *out = p->in->output, *slash = strrchr(out, '/');
	char dir[4096];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) : 1,
		 slash ? out : ".");
	if (!strcmp(dir, p->in->run_dir) || !p->in->run_dir[0])
		p->prefix[0] = '\0';
	else
		snprintf(p->prefix, sizeof(p->prefix), "%s/", p->in->run_dir);
}

/*
 * The run folder's baseline.json, where no baseline is given and the
 * run was compared (make compare writes its reference side there): its
 * samples are drawn where they are those a row was judged against
 * (time_baseline_of()). A file that cannot be read is left out, as a
 * missing one: the comparisons' statistics are drawn instead.
 */
static void
load_found(struct page *p, const char *path)
{
	struct prof_err lerr = {0};
	const struct prof_runrow *rows;

	if (prof_runview_load_only(&p->base, path,
				   p->summarise ? drawn_wb : NULL, p,
				   extras_take, &p->bx, &lerr) < 0 ||
	    extras_map(&p->bx, &p->base, prof_runview_rows(&p->base, &rows),
		       &lerr) < 0) {
		prof_runview_free(&p->base);
		extras_free(&p->bx);
		memset(&p->bx, 0, sizeof(p->bx));
		p->bx.p = p;
		return;
	}
	p->has_base = p->found_base = 1;
	p->bn = (long)prof_runview_rows(&p->base, &p->brows);
}

int
prof_runpage_write(const struct prof_runpage_in *in, struct prof_err *err)
{
	struct page p = {.in = in, .cur = in->cur, .cmp = in->cmp};
	struct prof_afile af = {0};
	struct stat sb;
	char found[4200];
	int rc = -1;

	p.n_briefs = (long)prof_runview_briefs(p.cur, &p.briefs);
	if (tally(&p, err) < 0)
		goto out;
	/* The rows drawn, whole: of a summarised page, those of the blocks
	 * tally() chose only. */
	p.has_whole = 1;
	p.wx.p = p.bx.p = &p;
	if (prof_runview_load_only(&p.whole, prof_runview_path(p.cur),
				   p.summarise ? drawn_wb : NULL, &p,
				   extras_take, &p.wx, err) < 0)
		goto out;
	if (strcmp(p.whole.digest, p.cur->digest)) {
		prof_err_at(err, prof_runview_path(p.cur), 0, 0,
			    "changed while it was read");
		goto out;
	}
	p.n = (long)prof_runview_rows(&p.whole, &p.rows);
	if (extras_map(&p.wx, &p.whole, (size_t)p.n, err) < 0)
		goto out;
	if (!in->baseline && p.cmp && in->run_dir && in->run_dir[0] &&
	    snprintf(found, sizeof(found), "%s/baseline.json",
		     in->run_dir) < (int)sizeof(found) &&
	    stat(found, &sb) == 0 && S_ISREG(sb.st_mode))
		load_found(&p, found);
	else if (in->baseline && stat(in->baseline, &sb) == 0) {
		p.has_base = 1;
		/* Of a summarised page, the baseline rows it draws only. */
		if (prof_runview_load_only(&p.base, in->baseline,
					   p.summarise ? drawn_wb : NULL, &p,
					   extras_take, &p.bx, err) < 0)
			goto out;
		p.bn = (long)prof_runview_rows(&p.base, &p.brows);
		if (extras_map(&p.bx, &p.base, (size_t)p.bn, err) < 0)
			goto out;
	}
	if (in->history) {
		p.hist = prof_history_open(in->history, 0, err);
		if (!p.hist ||
		    (in->project && prof_history_many_projects(p.hist) &&
		     prof_history_project(p.hist, in->project, err) < 0))
			goto out;
	}
	if (index_rows(&p, err) < 0)
		goto out;
	link_prefix(&p);
	p.fp = prof_afile_open(&af, in->output, err);
	if (!p.fp)
		goto out;
	if (write_page(&p, err) < 0) {
		prof_afile_abort(&af);
		goto out;
	}
	if (prof_afile_commit(&af, err) < 0)
		goto out;
	rc = 0;
out:
	prof_history_close(p.hist);
	prof_htab_free(&p.base_index);
	prof_htab_free(&p.drawn_index);
	extras_free(&p.wx);
	extras_free(&p.bx);
	if (p.has_base)
		prof_runview_free(&p.base);
	if (p.has_whole)
		prof_runview_free(&p.whole);
	return rc;
}
