/* runpage-chart.c: report.html's charts and numbers: the samples on an axis
 * (time, instructions), the trend over the history, and the tables of
 * statistics beside them (runpage-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "kit/page.h"
#include "chart.h"
#include "runpage-int.h"

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

		rp_fmt_val(a, sizeof(a), v[i], counts);
		fprintf(fp, "<circle class=\"%s\"%s cx=\"%.1f\" cy=\"%d\" "
			    "r=\"4\"><title>%s #%zu: %s%s</title></circle>",
			cls, cont && cont[i] ? " data-contended=\"\"" : "",
			x_of(v[i], lo, hi), y + dy, label, i, a,
			cont && cont[i] ? " (contended)" : "");
	}
	if (n && isfinite(median)) {
		rp_fmt_val(a, sizeof(a), median, counts);
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

/* The baseline from its statistics only (b, its comparison's side):
 * min-max, median-p90, median. */
static void
stat_lane(FILE *fp, const struct prof_verdict_side *b, double lo, double hi,
	  int y)
{
	double mn = b->min, md = b->median, p9 = b->p90, mx = b->max;
	char m[32], q[32];

	prof_page_time(m, sizeof(m), md, 0);
	prof_page_time(q, sizeof(q), p9, 0);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">baseline"
		    "<title>%.0f samples</title></text>", LEFT - 8, y + 4,
		(double)b->n);
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
times_of(const struct rep_extras *x, const struct prof_runrow *rows,
	 const struct prof_runrow *r, struct times t[TIME_N])
{
	const struct rep_extra *e = r ? rep_extra_of(x, r - rows) : NULL;

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
judged_kind(const struct prof_verdict *c)
{
	const char *j = c ? c->judged_on : NULL;
	int k;

	for (k = 0; j && k < TIME_N; k++)
		if (!strcmp(j, time_kinds[k].key))
			return k;
	return -1;
}

/* The range of a baseline's statistics bs (its min and max) into lo..hi. */
static void
stat_range(const struct prof_verdict_side *bs, double *lo, double *hi)
{
	double v[2] = {bs->min, bs->max};

	range_of(v, 2, lo, hi);
}

/* Nothing to draw: said where samples were taken and all failed,
 * nothing where the channel was not measured. */
static void
no_samples(FILE *fp, const struct prof_runrow *r)
{
	if (r->errors)
		fprintf(fp, "<figure class=\"chart\" data-kind=\"distribution\">"
			    "<figcaption>No successful warm samples to draw."
			    "</figcaption></figure>");
}

/* The svg of a distribution chart of row r, h high. */
static void
samples_svg(FILE *fp, const struct prof_runrow *r, int h)
{
	fprintf(fp, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
		    "samples of ", PLOT_W, h);
	prof_page_esc(fp, r->workload);
	fprintf(fp, "\">");
}

/* A distribution chart's caption's end: where the baseline is only its
 * statistics (stats), how they are drawn. */
static void
stats_end(FILE *fp, int stats)
{
	fprintf(fp, "%s</figcaption></figure>",
		stats ? " The baseline's samples are not at hand: its box "
			"spans median to p90, its line min to max." :
			"");
}

/* The caption of the chart of every time (times_chart()), up to its end:
 * the dots, the contended ones, what was judged. */
static void
times_caption(FILE *fp, const struct prof_verdict *c,
	      const struct times cur[TIME_N], const struct times base[TIME_N],
	      int judged)
{
	fprintf(fp, "<figcaption>Each dot is one warm sample; the bars "
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
			c && c->ab.uncontended_only ?
				", on its uncontended samples only" :
				"");
}

/*
 * The distribution chart of a row whose samples say more than their wall
 * time: a lane for each time of each side (wall, CPU, own; current above
 * baseline, so that the two sides of one time lie together), the lanes
 * of the time the verdict judged marked.
 */
static void
times_chart(struct page *p, const struct prof_runrow *r,
	    const struct prof_verdict *c, const struct prof_runrow *b,
	    const struct times cur[TIME_N], const struct times base[TIME_N])
{
	const struct prof_verdict_side *bs = c ? &c->base : NULL;
	int stats = !b && bs && bs->n > 0;
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
	if (stats)
		stat_range(bs, &lo, &hi);
	if (!b && !stats)
		lanes++;	/* "no baseline" */
	if (!isfinite(lo)) {
		no_samples(fp, r);
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
	fputc('>', fp);
	samples_svg(fp, r, axis + 24);
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
	fputs("</svg>", fp);
	times_caption(fp, c, cur, base, judged);
	stats_end(fp, stats);
}

/* The distribution chart: current and baseline samples on one axis. */
void
rp_strip_chart(struct page *p, const struct prof_runrow *r,
	       const struct prof_verdict *c, const struct prof_runrow *b)
{
	const struct prof_verdict_side *bs = c ? &c->base : NULL;
	int stats = !b && bs && bs->n > 0;
	double lo = NAN, hi = NAN;
	FILE *fp = p->fp;
	struct times cur[TIME_N], base[TIME_N];

	/* A row whose samples say their CPU or own time: every time drawn. */
	times_of(&p->d->wx, p->rows, r, cur);
	times_of(&p->d->bx, p->brows, b, base);
	if (cur[TIME_CPU].n || cur[TIME_OWN].n || base[TIME_CPU].n ||
	    base[TIME_OWN].n) {
		times_chart(p, r, c, b, cur, base);
		return;
	}
	range_of(r->v, r->n, &lo, &hi);
	if (b)
		range_of(b->v, b->n, &lo, &hi);
	if (stats)
		stat_range(bs, &lo, &hi);
	/* Nothing to draw: say so where samples were taken and all failed,
	 * draw nothing where the channel was not measured. */
	if (!isfinite(lo)) {
		no_samples(fp, r);
		return;
	}
	fprintf(fp, "<figure class=\"chart\" data-kind=\"distribution\">");
	prof_page_pad(&lo, &hi);
	samples_svg(fp, r, STRIP_H);
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
	fputs("</svg><figcaption>Each dot is one warm sample; the bars are "
	      "the medians.", fp);
	stats_end(fp, stats);
}

/*
 * The count chart: the current build's instruction counts against the
 * baseline's, on one axis in instructions. Counts are exact, so a side
 * is usually one value: the baseline's is drawn as a marker (a diamond
 * and a dashed line across the chart) against the current dots, never as
 * a box; its dots only where its counts differ. Nothing is drawn where
 * no count was taken, a line says so where all failed.
 */
void
rp_count_chart(struct page *p, const struct prof_runrow *r,
	       const struct prof_verdict *c, const struct prof_runrow *b)
{
	const struct prof_verdict_side *bs = c ? &c->base : NULL;
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
	} else if (bs && bs->n > 0) {
		bmin = bs->min;
		bmax = bs->max;
		mark = bs->median;
		bsamples = (double)bs->n;
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
		rp_fmt_val(m, sizeof(m), mark, 1);
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
void
rp_count_numbers(struct page *p, const struct prof_runrow *r,
		 const struct prof_verdict *c, const struct prof_runrow *b,
		 int errors)
{
	double ratio = c ? c->ratio : NAN;
	double th = c ? c->threshold_pct : NAN;
	double delta = c ? c->delta_instructions : NAN;
	double side[2][4];	/* n, min, median, max: current, baseline */
	const char *name[2] = {"current", "baseline"};
	FILE *fp = p->fp;
	char t[3][40];
	int k;

	for (k = 0; k < 2; k++) {
		const struct prof_runrow *x = k ? b : r;
		const struct prof_verdict_side *st =
			!c ? NULL : k ? &c->base : &c->cur;

		if (x && x->n_counts) {
			side[k][0] = (double)x->n_counts;
			side[k][1] = (double)x->counts[0];
			side[k][2] = (double)x->instructions;
			side[k][3] = (double)x->counts[x->n_counts - 1];
		} else {
			/* No comparison: nothing known (an n that the
			 * comparison has null reads 0; either is no side). */
			side[k][0] = st ? (double)st->n : NAN;
			side[k][1] = st ? st->min : NAN;
			side[k][2] = st ? st->median : NAN;
			side[k][3] = st ? st->max : NAN;
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

/* Each of a trend's change points in words (the medians before and
 * after, and the runs on each side), under its chart. */
static void
trend_legend(FILE *fp, struct json_object *changes)
{
	size_t k, nc = json_object_array_length(changes);

	fprintf(fp, "<figcaption class=\"legend\">");
	if (!nc)
		fprintf(fp, "<span>no change point</span>");
	for (k = 0; k < nc; k++) {
		struct json_object *c = json_object_array_get_idx(changes, k);
		char b[32], a[32];

		prof_page_time(b, sizeof(b), prof_json_numf(c, "median_before"),
			       0);
		prof_page_time(a, sizeof(a), prof_json_numf(c, "median_after"),
			       0);
		fprintf(fp, "<span class=\"cp\">change point %+.1f%% in "
			    "<code title=\"", prof_json_numf(c, "change_pct"));
		prof_page_esc(fp, prof_json_str(c, "commits"));
		fprintf(fp, "\">");
		short_range(fp, c);
		fprintf(fp, "</code>: %s &#8594; %s (%lld runs before, "
			    "%lld after)</span>", b, a,
			(long long)json_object_get_int64(
				prof_json_get(c, "runs_before")),
			(long long)json_object_get_int64(
				prof_json_get(c, "runs_after")));
	}
	fprintf(fp, "</figcaption></figure>");
}

/* A string of a trend's run, borrowed (chart.h's runs do not own theirs). */
static char *
run_str(struct json_object *o, const char *key)
{
	return (char *)prof_json_str(o, key);
}

/* The trend's runs with a median, as the chart draws them, into t (room
 * for every run); the run of this page as *now. Returns their number. */
static size_t
trend_runs(struct json_object *all, const char *now, struct chart_run *t,
	   long *at)
{
	size_t i, n = 0;
	int m;

	*at = -1;
	for (i = 0; i < json_object_array_length(all); i++) {
		struct json_object *o = json_object_array_get_idx(all, i);
		struct chart_run *r = &t[n];
		const char *ts = prof_json_str(o, "timestamp_utc");

		if (!isfinite(prof_json_numf(o, "median")))
			continue;
		memset(r, 0, sizeof(*r));
		r->run_id = run_str(o, "run_id");
		r->commit = run_str(o, "commit");
		r->timestamp = (char *)(ts ? ts : "");
		r->errors = json_object_get_int64(prof_json_get(o, "errors"));
		r->median = prof_json_numf(o, "median");
		r->p90 = prof_json_numf(o, "p90");
		r->instructions = -1;
		r->status = run_str(o, "status");
		r->reason = run_str(o, "reason");
		for (m = 0; m < PROF_CMP_MEM_N; m++)
			r->mem[m] = NAN;
		if (!r->run_id)
			r->run_id = (char *)"?";
		if (!r->commit)
			r->commit = (char *)"?";
		if (now && !strcmp(r->run_id, now))
			*at = (long)n;
		n++;
	}
	return n;
}

/* The change points as the first run after each (chart.h): the run
 * named run_after among t[0..n), in cuts. Returns their number. */
static long
trend_cuts(struct json_object *changes, const struct chart_run *t, size_t n,
	   size_t *cuts)
{
	size_t k, i;
	long nc = 0;

	for (k = 0; k < json_object_array_length(changes); k++) {
		const char *after = prof_json_str(
			json_object_array_get_idx(changes, k), "run_after");

		for (i = 1; after && i < n; i++)
			if (!strcmp(t[i].run_id, after)) {
				cuts[nc++] = i;
				break;
			}
	}
	return nc;
}

/* The median and p90 of every run, with the change points marked: the
 * one trend chart of every page (chart.h), this page's run ringed. */
int
rp_trend_chart(struct page *p, const struct prof_runrow *r,
	       struct prof_err *err)
{
	struct json_object *all, *changes;
	struct chart c = {NULL, 0, NULL, NULL, 0, -1};
	struct chart_run *t = NULL;
	size_t *cuts = NULL, len;
	FILE *fp = p->fp;
	int rc = -1;

	if (rep_trend_of(p->d, r, &all, &changes, err) < 0)
		goto out;
	len = json_object_array_length(all) + 1;
	t = malloc(len * sizeof(*t));
	cuts = malloc(len * sizeof(*cuts));
	if (!t || !cuts) {
		prof_err_set(err, "out of memory");
		goto out;
	}
	c.runs = t;
	c.n = trend_runs(all, prof_runview_str(p->cur, "run_id"), t, &c.now);
	c.cuts = cuts;
	c.ncuts = trend_cuts(changes, t, c.n, cuts);
	fprintf(fp, "<figure class=\"trend\" data-runs=\"%zu\">", c.n);
	if (!c.n) {
		fprintf(fp, "<figcaption>No run in the history has successful "
			    "samples of this row.</figcaption></figure>");
		rc = 0;
		goto out;
	}
	chart_keys(fp, &c);
	chart_trend(fp, &c, KIND_TIME);
	trend_legend(fp, changes);
	rc = 0;
out:
	free(t);
	free(cuts);
	json_object_put(all);
	json_object_put(changes);
	return rc;
}

/*
 * The contended row of a time channel's facts: how many of the n samples
 * were contended (cell), and by which rule (contend.h): the run-queue
 * delay where the samples said it, today's rule on CPU time where they
 * did not ("unavailable": a kernel without schedstat, an older file).
 */
static void
contended_fact(FILE *fp, const struct rep_extra *e, size_t n, const char *cell)
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

/* A fact of bytes v, where it is measured. */
static void
bytes_fact(FILE *fp, const char *label, double v)
{
	char b[32];

	if (!isfinite(v))
		return;
	prof_page_bytes(b, sizeof(b), v);
	fprintf(fp, "<tr><td>%s</td><td class=\"num\">%s</td></tr>", label, b);
}

/* What the queue took of each side's wall time (c: the comparison, or
 * NULL), where it is known. */
static void
queue_fact(FILE *fp, const struct prof_verdict *c)
{
	double cur = c ? c->cur.queue_pct : NAN;
	double base = c ? c->base.queue_pct : NAN;

	if (!isfinite(cur) && !isfinite(base))
		return;
	fprintf(fp, "<tr><td>the queue took (of the wall time)</td><td "
		    "class=\"num\">");
	if (isfinite(cur))
		fprintf(fp, "%.1f%% current", cur);
	if (isfinite(cur) && isfinite(base))
		fprintf(fp, ", ");
	if (isfinite(base))
		fprintf(fp, "%.1f%% baseline", base);
	fprintf(fp, "</td></tr>");
}

/* The numbers' table of a row's statistics: the current side's times
 * (wall, CPU, own), then the baseline's (bs: its comparison's). */
static void
stats_table(FILE *fp, const struct prof_runrow *r,
	    const struct prof_verdict_side *bs,
	    const struct times cur[TIME_N], const struct times base[TIME_N],
	    int judged)
{
	struct prof_stats st = {0};
	int k;

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
	if (bs && bs->n > 0) {
		st.n = (size_t)bs->n;
		st.min = bs->min;
		st.median = bs->median;
		st.p90 = bs->p90;
		st.max = bs->max;
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
}

/*
 * A time channel's numbers: n, min, median, p90 and max of each side's
 * wall time and, where its samples say them, its CPU and own times (b:
 * the baseline's row whose samples are at hand, else NULL: its wall time
 * from the comparison's statistics), the rows of the time the verdict
 * judged marked; then the facts: contended samples and their rule, the
 * queue's share, the change, the threshold, the p-value, the peaks.
 */
void
rp_numbers(struct page *p, const struct prof_runrow *r,
	   const struct prof_verdict *c, const struct prof_runrow *b)
{
	struct times cur[TIME_N], base[TIME_N];
	FILE *fp = p->fp;
	char a[5][32];
	double pv = c ? c->p_value : NAN, ratio = c ? c->ratio : NAN;
	double th = c ? c->threshold_pct : NAN;
	int judged = judged_kind(c);

	times_of(&p->d->wx, p->rows, r, cur);
	times_of(&p->d->bx, p->brows, b, base);
	stats_table(fp, r, c ? &c->base : NULL, cur, base, judged);
	fprintf(fp, "</table><table class=\"facts\">");
	if (r->cpu_st.n) {
		prof_cpu_row_contended(&r->cpu, r->n, a[4], 32);
		contended_fact(fp, rep_extra_of(&p->d->wx, r - p->rows), r->n,
			       a[4]);
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
	queue_fact(fp, c);
	if (judged >= 0 && (cur[TIME_CPU].n || cur[TIME_OWN].n))
		fprintf(fp, "<tr><td>judged on</td><td class=\"num\">%s</td>"
			    "</tr>", time_kinds[judged].words);
	if (isfinite(ratio))
		fprintf(fp, "<tr><td>median change</td><td class=\"num\">"
			    "%+.1f%%</td></tr>", (ratio - 1) * 100);
	if (isfinite(th))
		fprintf(fp, "<tr><td>threshold (either way)</td><td "
			    "class=\"num\">%g%%</td></tr>", th);
	if (isfinite(pv))
		fprintf(fp, "<tr><td>Mann-Whitney p</td><td class=\"num\">"
			    "%.3g</td></tr>", pv);
	if (!rp_has_memory(p, r)) {
		bytes_fact(fp, "host heap peak", r->host_peak_bytes);
		bytes_fact(fp, "peak RSS", r->rss_peak_bytes);
	}
	bytes_fact(fp, "GPU pool peak", r->device_peak_bytes);
	if (r->errors)
		fprintf(fp, "<tr><td>error samples</td><td class=\"num\">%ld"
			    "</td></tr>", r->errors);
	fprintf(fp, "</table>");
}
