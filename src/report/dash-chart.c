/* dash-chart.c: the dashboard's charts: a series' trend (times, counts or a
 * memory metric) with its axes and change points, and the index's small
 * trends (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/steps.h"
#include "dash-int.h"

/* The y of v on an axis drawn from y0 down h (halves: the width of
 * [-DBL_MAX, DBL_MAX] is not a double). */
static double
y_of(const struct prof_page_axis *ax, double v, double y0, double h)
{
	return y0 + h * (ax->hi / 2 - v / 2) / (ax->hi / 2 - ax->lo / 2);
}

/* A polyline of the finite values (gaps joined). */
static void
polyline(FILE *fp, const char *cls, const double *v, size_t n, double x0,
	 double dx, double y0, double h, const struct prof_page_axis *ax)
{
	size_t i;

	fprintf(fp, "<polyline class=\"%s\" points=\"", cls);
	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			fprintf(fp, "%.1f,%.1f ", x0 + dx * (double)i,
				y_of(ax, v[i], y0, h));
	fputs("\"/>", fp);
}

/* The x step of n points over width w. */
static double
step_of(size_t n, double w)
{
	return n > 1 ? w / (double)(n - 1) : 0;
}

/* A value of an axis of kind in words: a time in its unit, counts in the
 * axis's unit with a decimal more than its ticks, memory in bytes or
 * allocations with grouped digits. */
static const char *
axis_value(const struct prof_page_axis *ax, double v, int kind, char buf[32])
{
	if (kind == KIND_COUNT)
		prof_page_count_tick(buf, 32, v, ax->step / 10,
				      fmax(fabs(ax->lo), fabs(ax->hi)));
	else if (kind >= KIND_MEM)
		prof_page_count(buf, 32, v, 0);
	else
		dash_ms(v, buf);
	return buf;
}

/* The unit an axis of kind is in, with a space before it; "" for counts
 * and times (a time's value says its unit). */
static const char *
axis_unit(int kind, char buf[32])
{
	snprintf(buf, 32, "%s%s", kind >= KIND_MEM ? " " : "",
		 kind >= KIND_MEM ? prof_cmp_metrics[KIND_METRIC(kind)].unit :
				    "");
	return buf;
}

/* How the y axis runs, for a chart's title: "y from 0", or the zoom. */
static void
axis_words(FILE *fp, const struct prof_page_axis *ax, int kind)
{
	char a[32], b[32], u[32];

	if (!ax->zoom) {
		fputs("y axis from 0", fp);
		return;
	}
	fprintf(fp, "y axis zoomed: %s to %s%s, not from 0",
		axis_value(ax, ax->lo, kind, a),
		axis_value(ax, ax->hi, kind, b), axis_unit(kind, u));
}

/* The end of a chart's title: how its axis ax runs (NULL: none drawn). */
static void
title_end(FILE *fp, const struct prof_page_axis *ax, int kind)
{
	if (ax) {
		fputs("; ", fp);
		axis_words(fp, ax, kind);
	}
	fputs("</title>", fp);
}

/*
 * A small trend: the values, the change points as red marks, the latest
 * value as a dot. Its axis starts at zero or zooms as a series page's
 * does (at least 20% of the level), and its title says which.
 */
void
dash_spark(FILE *fp, const char *cls, const char *line, const double *v,
	   size_t n, const size_t *cuts, long ncuts, const char *label)
{
	const double W = 160, H = 32, P = 3;
	double lo, hi, dx = step_of(n, W - 2 * P);
	struct prof_page_axis ax;
	int kind = !strcmp(line, "ins") ? KIND_COUNT :
		   !strcmp(line, "mline") ? MEM_KIND(PROF_CMP_MEM_PEAK) :
					  KIND_TIME;
	int have = prof_page_axis_extent(v, NULL, n, &lo, &hi) == 0 &&
		   prof_page_axis_fit(&ax, lo, hi,
				 kind ? COUNT_LEAST : TIME_LEAST) == 0;
	long k;

	fprintf(fp, "<svg class=\"spark %s\" viewBox=\"0 0 160 32\" "
		    "role=\"img\" data-points=\"%zu\" data-changes=\"%ld\" "
		    "data-zoom=\"%d\">",
		cls, n, ncuts, have ? ax.zoom : 0);
	fputs("<title>", fp);
	prof_page_esc(fp, label);
	title_end(fp, have ? &ax : NULL, kind);
	if (have) {
		for (k = 0; k < ncuts; k++) {
			double x = P + dx * (double)cuts[k] - dx / 2;

			fprintf(fp, "<rect class=\"cutmark\" x=\"%.1f\" "
				    "y=\"0\" width=\"2\" height=\"%.0f\"/>",
				x - 1, H);
		}
		polyline(fp, line, v, n, n > 1 ? P : W / 2, dx, P, H - 2 * P,
			 &ax);
		/* The latest value as a dot: a single run is seen too. */
		for (k = (long)n - 1; k >= 0 && !isfinite(v[k]); k--)
			;
		if (k >= 0)
			fprintf(fp, "<circle class=\"%s\" cx=\"%.1f\" "
				    "cy=\"%.1f\" r=\"2\"/>",
				kind == KIND_COUNT ? "ipt" :
				kind ? "mpt" : "pt",
				(n > 1 ? P : W / 2) + dx * (double)k,
				y_of(&ax, v[k], P, H - 2 * P));
	}
	fputs("</svg>", fp);
}

/*
 * The x axis of a chart: a tick and the commit of every k-th run, the
 * latest always among them (at most MAX_XLABELS), each a link to its
 * commit where the repository is known, and under a commit that has
 * several runs what tells each apart (dash_run_words()); under them the first
 * and last dates.
 */
static void
x_axis(FILE *fp, const struct dash *d, double x0, double dx, double y,
       double L, double W, double R, double H)
{
	size_t k = (d->n + MAX_XLABELS - 1) / MAX_XLABELS, i;
	char url[1200], rw[64];

	if (!d->n)
		return;
	if (!k)
		k = 1;
	fprintf(fp, "<g class=\"xaxis\" data-labels=\"%zu\">",
		(d->n + k - 1) / k);
	for (i = d->n; i-- > 0;) {
		const struct point *p = &d->pts[i];
		const char *u = dash_commit_url(d->o, p->commit, url,
						 sizeof(url));
		double x = x0 + dx * (double)i;
		const char *anchor = "middle";

		if ((d->n - 1 - i) % k)
			continue;
		if (d->n > 1 && i == d->n - 1)
			anchor = "end";
		else if (d->n > 1 && i == 0)
			anchor = "start";
		fprintf(fp, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.0f\" y2=\"%.0f\"/>",
			x, x, y, y + 4);
		if (u) {
			fputs("<a href=\"", fp);
			prof_page_esc(fp, u);
			fputs("\">", fp);
		}
		fprintf(fp, "<text class=\"tick xc mono\" x=\"%.1f\" y=\"%.0f\" "
			    "text-anchor=\"%s\">",
			x, y + 16, anchor);
		dash_commit_label(fp, p->commit);
		fputs("</text>", fp);
		if (u)
			fputs("</a>", fp);
		dash_run_words(d, i, rw, sizeof(rw));
		if (rw[0]) {
			fprintf(fp, "<text class=\"tick xr\" x=\"%.1f\" "
				    "y=\"%.0f\" text-anchor=\"%s\">",
				x, y + 29, anchor);
			prof_page_esc(fp, rw);
			fputs("</text>", fp);
		}
	}
	fprintf(fp, "</g><text class=\"tick\" x=\"%.0f\" y=\"%.0f\">", L,
		H - 6);
	prof_page_esc_cut(fp, d->pts[0].timestamp, 10);
	fprintf(fp, "</text><text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"middle\">commit, oldest first</text>",
		L + (W - R - L) / 2, H - 6);
	fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"end\">",
		W - R, H - 6);
	prof_page_esc_cut(fp, d->pts[d->n - 1].timestamp, 10);
	fprintf(fp, " (%zu run%s)</text>", d->n, d->n == 1 ? "" : "s");
}

/*
 * The change points of memory metric m of a series (runs with a value
 * only), as run indexes into cuts (room for d->n). Returns their number:
 * 0 when out of memory (the chart is drawn without them).
 */
static long
mem_cuts(const struct dash *d, int m, size_t *cuts)
{
	struct dash_steps s;
	long j, nc = 0;

	if (dash_steps_fit(d, m, &s) == 0)
		for (nc = s.nc, j = 0; j < nc; j++)
			cuts[j] = s.idx[s.off + s.cuts[j]];
	dash_steps_free(&s);
	return nc;
}

/* A chart's title: what it draws per run, in its unit. */
static void
chart_title(FILE *fp, int kind)
{
	enum prof_cmp_mem m = (enum prof_cmp_mem)KIND_METRIC(kind);

	if (kind == KIND_TIME)
		fputs("median and p90 per run", fp);
	else if (kind == KIND_COUNT)
		fputs("instruction count per run", fp);
	else
		fprintf(fp, "%s per run, %s", prof_cmp_metrics[m].name,
			prof_cmp_metrics[m].unit);
}

/* Point i of a chart of kind (metric m; a the values, on axis ax, from x0
 * by dx): a circle in its verdict's class, a link to its commit, and its
 * run, value and verdict on hover. */
static void
chart_point(FILE *fp, const struct dash *d, size_t i, int kind, int m,
	    const double *a, const struct prof_page_axis *ax, double x0,
	    double dx, double T, double ph)
{
	char url[1200], n1[32], n2[32];
	const struct point *p = &d->pts[i];
	const char *u = dash_commit_url(d->o, p->commit, url,
					 sizeof(url));
	const char *st = m ? p->mem_status[m] : p->status;
	const char *why = m ? p->mem_reason[m] : p->reason;

	if (!isfinite(a[i]))
		return;
	if (u) {
		fputs("<a href=\"", fp);
		prof_page_esc(fp, u);
		fputs("\">", fp);
	}
	fprintf(fp, "<circle class=\"%s%s%s\" cx=\"%.1f\" "
		    "cy=\"%.1f\" r=\"%s\"",
		kind == KIND_COUNT ? "ipt" : m ? "mpt" : "pt",
		dash_point_class(st), p->errors ? " err" : "",
		x0 + dx * (double)i, y_of(ax, a[i], T, ph),
		dash_point_class(st)[0] ? "4" : "3");
	if (m)
		fprintf(fp, " data-value=\"%.17g\"", a[i]);
	fputs("><title>", fp);
	prof_page_esc(fp, p->run_id);
	fputs(" \xc2\xb7 ", fp);
	prof_page_esc_cut(fp, p->commit, 12);
	if (kind == KIND_COUNT)
		fprintf(fp, " \xc2\xb7 %s instructions",
			dash_count(p->instructions, n1));
	else if (m)
		/* "heap peak 1,052,656 bytes", "2 allocations" */
		fprintf(fp, " \xc2\xb7 %s%s%s %s",
			strcmp(prof_cmp_metrics[m].name,
			       prof_cmp_metrics[m].unit) ?
				prof_cmp_metrics[m].name :
				"",
			strcmp(prof_cmp_metrics[m].name,
			       prof_cmp_metrics[m].unit) ?
				" " :
				"",
			axis_value(ax, a[i], kind, n1),
			prof_cmp_metrics[m].unit);
	else
		fprintf(fp, " \xc2\xb7 median %s \xc2\xb7 p90 %s",
			dash_ms(p->median, n1), dash_ms(p->p90, n2));
	if (p->errors)
		fprintf(fp, " \xc2\xb7 %lld errors", p->errors);
	if (st) {
		fputs(" \xc2\xb7 ", fp);
		prof_page_esc(fp, st);
		if (why && why[0]) {
			fputs(": ", fp);
			prof_page_esc(fp, why);
		}
	}
	fputs("</title></circle>", fp);
	if (u)
		fputs("</a>", fp);
}

/* The y axis of a chart of kind on ax, from x L to right, from y T down
 * ph: its grid and ticks, its unit, and where it zooms a break in it and
 * the zoom in words. */
static void
y_axis(FILE *fp, const struct prof_page_axis *ax, int kind, double L,
       double right, double T, double ph)
{
	int m = kind >= KIND_MEM ? KIND_METRIC(kind) : 0, k;
	double scale;
	char n1[32];

	for (k = 0; k < ax->n; k++) {
		double y = y_of(ax, ax->tick[k], T, ph);

		fprintf(fp, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" "
			    "y1=\"%.1f\" y2=\"%.1f\"/>",
			L, right, y, y);
		if (kind == KIND_COUNT)
			prof_page_count_tick(n1, sizeof(n1), ax->tick[k],
					      ax->step,
					      fmax(fabs(ax->lo), fabs(ax->hi)));
		else if (m && ax->step >= 1)
			prof_page_count(n1, sizeof(n1), ax->tick[k], 0);
		else if (m)
			prof_page_tick(n1, sizeof(n1), ax->tick[k], ax->step);
		else
			prof_page_time_tick(n1, sizeof(n1), ax->tick[k],
					    ax->step,
					    fmax(fabs(ax->lo), fabs(ax->hi)));
		fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
			    "text-anchor=\"end\">%s</text>",
			L - 6, y + 4, n1);
	}
	fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"end\">%s</text>",
		L - 6, T - 12,
		kind == KIND_COUNT ? "instructions" :
		m		   ? prof_cmp_metrics[m].unit :
				     prof_page_time_unit(fmax(fabs(ax->lo),
							      fabs(ax->hi)),
							 &scale));
	fprintf(fp, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" "
		    "y2=\"%.0f\"/><line class=\"axis\" x1=\"%.0f\" "
		    "x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>",
		L, right, T + ph, T + ph, L, L, T, T + ph);
	if (ax->zoom) {
		/* A break in the y axis, and the zoom in words. */
		fprintf(fp, "<path class=\"brk\" d=\"M%.0f,%.0f l10,-6 "
			    "M%.0f,%.0f l10,-6\"/>",
			L - 5, T + ph - 6, L - 5, T + ph);
		fprintf(fp, "<text class=\"zoom\" x=\"%.0f\" y=\"%.0f\">",
			L + 6, T - 12);
		axis_words(fp, ax, kind);
		fputs("</text>", fp);
	}
}

/*
 * The big chart of a series: median and p90, instruction counts or a
 * memory metric per run (kind). Its y axis starts at zero, or zooms and
 * says so in the chart, with its range, and with a break in the axis; its
 * x axis names the commits. Memory is in bytes or allocations with
 * grouped digits, its change points found in its own values and its
 * points coloured by its own verdicts.
 */
void
dash_chart(FILE *fp, struct dash *d, const struct entry *e, int kind)
{
	const double W = 960, H = 330, R = 16, T = 28, B = 62;
	const double L = kind >= KIND_MEM ? 100 : 72;
	double pw = W - L - R, ph = H - T - B, lo, hi;
	double *a = malloc((d->n ? d->n : 1) * sizeof(*a));
	double *b = malloc((d->n ? d->n : 1) * sizeof(*b));
	size_t *mcuts = NULL;
	const size_t *cuts = e->cuts;
	long ncuts = kind == KIND_TIME ? e->ncuts : 0;
	double dx = step_of(d->n, pw), x0 = d->n > 1 ? L : L + pw / 2;
	struct prof_page_axis ax;
	int m = kind >= KIND_MEM ? KIND_METRIC(kind) : 0;
	size_t i;
	int have;

	if (!a || !b)
		goto out;
	for (i = 0; i < d->n; i++) {
		a[i] = kind == KIND_COUNT ?
			       (d->pts[i].instructions >= 0 ?
					(double)d->pts[i].instructions :
					NAN) :
		       m ? d->pts[i].mem[m] :
			   d->pts[i].median;
		b[i] = d->pts[i].p90;
	}
	if (m) {
		mcuts = malloc((d->n ? d->n : 1) * sizeof(*mcuts));
		ncuts = mcuts ? mem_cuts(d, m, mcuts) : 0;
		cuts = mcuts;
	}
	have = prof_page_axis_extent(a, kind ? NULL : b, d->n, &lo, &hi) == 0 &&
	       prof_page_axis_fit(&ax, lo, hi, kind ? COUNT_LEAST : TIME_LEAST) ==
		       0;
	fprintf(fp, "<svg class=\"trend%s\" viewBox=\"0 0 960 330\" "
		    "role=\"img\" data-points=\"%zu\" data-changes=\"%ld\" "
		    "data-zoom=\"%d\"",
		kind == KIND_COUNT ? " instr" : m ? " mem" : "", d->n, ncuts,
		have ? ax.zoom : 0);
	if (m)
		fprintf(fp, " data-metric=\"%s\"", prof_cmp_metrics[m].key);
	if (have)
		fprintf(fp, " data-y-lo=\"%.17g\" data-y-hi=\"%.17g\"", ax.lo,
			ax.hi);
	fputs("><title>", fp);
	chart_title(fp, kind);
	title_end(fp, have ? &ax : NULL, kind);
	if (!have) {
		fputs("</svg>", fp);
		goto out;
	}
	y_axis(fp, &ax, kind, L, W - R, T, ph);
	x_axis(fp, d, x0, dx, T + ph, L, W, R, H);
	if (kind != KIND_COUNT) {
		long c;

		for (c = 0; c < ncuts; c++) {
			double x = x0 + dx * (double)cuts[c] - dx / 2;

			fprintf(fp, "<line class=\"cut\" x1=\"%.1f\" "
				    "x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>",
				x, x, T, T + ph);
		}
		if (!m)
			polyline(fp, "p90", b, d->n, x0, dx, T, ph, &ax);
	}
	polyline(fp, kind == KIND_COUNT ? "ins" : m ? "mline" : "med", a, d->n,
		 x0, dx, T, ph, &ax);
	for (i = 0; i < d->n; i++)
		chart_point(fp, d, i, kind, m, a, &ax, x0, dx, T, ph);
	fputs("</svg>\n", fp);
out:
	free(a);
	free(b);
	free(mcuts);
}
