/* chart.c: the one trend chart of every page (chart.h): a row's or a
 * series' trend (times, counts or a memory metric) with its axes, change
 * points and keys, and the dashboard index's small trends. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/page.h"
#include "chart.h"

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
		prof_page_time(buf, 32, v, 0);
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

void
chart_spark(FILE *fp, const char *cls, const char *line, const double *v,
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

	fprintf(fp, "<svg class=\"chart spark %s\" viewBox=\"0 0 160 32\" "
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


int
chart_stands_out(const char *status)
{
	static const char *const word[] = {"improved", "warning", "unsettled"};
	int i;

	for (i = 0; status && i < 3; i++)
		if (!strcmp(status, word[i]))
			return i + 1;
	return 0;
}

/* The class a point of a verdict gets: improved, warning and unsettled
 * stand out. */
static const char *
point_class(const char *status)
{
	static const char *const cls[] = {"", " imp", " wrn", " uns"};

	return cls[chart_stands_out(status)];
}

/* Whether a commit is a hexadecimal object name, safe in a URL. */
static int
commit_linkable(const char *c)
{
	size_t n = strspn(c, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 64 && !c[n];
}

const char *
chart_commit_url(const char *repo_url, const char *commit, char *buf,
		 size_t n)
{
	if (!repo_url || !commit || !commit_linkable(commit))
		return NULL;
	snprintf(buf, n, "%s/commit/%s", repo_url, commit);
	return buf;
}

/* The bytes of a commit its label shows (chart_commit_label()). */
static size_t
label_len(const char *commit)
{
	return commit_linkable(commit) ? 7 : 10;
}

void
chart_commit_label(FILE *fp, const char *commit)
{
	prof_page_esc_cut(fp, commit, label_len(commit));
}

void
chart_run_words(const struct chart_run *runs, size_t n, size_t i, char *buf,
		size_t len)
{
	const struct chart_run *p = &runs[i];
	size_t j, of = 0, k = 0;
	int same_minute = 0;

	buf[0] = '\0';
	for (j = 0; j < n; j++) {
		if (label_len(runs[j].commit) != label_len(p->commit) ||
		    strncmp(runs[j].commit, p->commit, label_len(p->commit)))
			continue;
		of++;
		if (j <= i)
			k++;
		if (j != i && strlen(p->timestamp) >= 16 &&
		    !strncmp(runs[j].timestamp, p->timestamp, 16))
			same_minute = 1;
	}
	if (of < 2)
		return;
	if (!same_minute && strlen(p->timestamp) >= 16 &&
	    p->timestamp[10] == 'T')
		snprintf(buf, len, "%.5s %.5s", p->timestamp + 5,
			 p->timestamp + 11);
	else
		snprintf(buf, len, "run %zu of %zu", k, of);
}

/* Where a chart draws: its plot from x L (its first run at x0, the next
 * dx on) to W - R, from y T down ph, in a box of W x H. */
struct frame {
	double W, H, L, R, T, ph, x0, dx;
};

/*
 * The x axis of a chart: a tick and the commit of every k-th run, the
 * latest always among them (at most CHART_XLABELS), each a link to its
 * commit where the repository is known, and under a commit that has
 * several runs what tells each apart (chart_run_words()); under them the
 * first and last dates.
 */
static void
x_axis(FILE *fp, const struct chart *c, const struct frame *f)
{
	size_t k = (c->n + CHART_XLABELS - 1) / CHART_XLABELS, i;
	double y = f->T + f->ph;
	char url[1200], rw[64];

	if (!c->n)
		return;
	if (!k)
		k = 1;
	fprintf(fp, "<g class=\"xaxis\" data-labels=\"%zu\">",
		(c->n + k - 1) / k);
	for (i = c->n; i-- > 0;) {
		const struct chart_run *p = &c->runs[i];
		const char *u = chart_commit_url(c->repo_url, p->commit, url,
						 sizeof(url));
		double x = f->x0 + f->dx * (double)i;
		const char *anchor = "middle";

		if ((c->n - 1 - i) % k)
			continue;
		if (c->n > 1 && i == c->n - 1)
			anchor = "end";
		else if (c->n > 1 && i == 0)
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
		chart_commit_label(fp, p->commit);
		fputs("</text>", fp);
		if (u)
			fputs("</a>", fp);
		chart_run_words(c->runs, c->n, i, rw, sizeof(rw));
		if (rw[0]) {
			fprintf(fp, "<text class=\"tick xr\" x=\"%.1f\" "
				    "y=\"%.0f\" text-anchor=\"%s\">",
				x, y + 29, anchor);
			prof_page_esc(fp, rw);
			fputs("</text>", fp);
		}
	}
	fprintf(fp, "</g><text class=\"tick\" x=\"%.0f\" y=\"%.0f\">", f->L,
		f->H - 6);
	prof_page_esc_cut(fp, c->runs[0].timestamp, 10);
	fprintf(fp, "</text><text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"middle\">commit, oldest first</text>",
		f->L + (f->W - f->R - f->L) / 2, f->H - 6);
	fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"end\">",
		f->W - f->R, f->H - 6);
	prof_page_esc_cut(fp, c->runs[c->n - 1].timestamp, 10);
	fprintf(fp, " (%zu run%s)</text>", c->n, c->n == 1 ? "" : "s");
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

/* Point i of a chart of kind (metric m; a the values, on axis ax, in
 * frame f): a circle in its verdict's class (ringed where it is the
 * page's run), a link to its commit, and its run, value and verdict on
 * hover. */
static void
chart_point(FILE *fp, const struct chart *c, size_t i, int kind, int m,
	    const double *a, const struct prof_page_axis *ax,
	    const struct frame *f)
{
	char url[1200], n1[32], n2[32];
	const struct chart_run *p = &c->runs[i];
	const char *u = chart_commit_url(c->repo_url, p->commit, url,
					 sizeof(url));
	const char *st = m ? p->mem_status[m] : p->status;
	const char *why = m ? p->mem_reason[m] : p->reason;
	double x = f->x0 + f->dx * (double)i, y = y_of(ax, a[i], f->T, f->ph);

	if (!isfinite(a[i]))
		return;
	if ((long)i == c->now)
		fprintf(fp, "<circle class=\"now\" cx=\"%.1f\" cy=\"%.1f\" "
			    "r=\"7\"/>",
			x, y);
	if (u) {
		fputs("<a href=\"", fp);
		prof_page_esc(fp, u);
		fputs("\">", fp);
	}
	fprintf(fp, "<circle class=\"%s%s%s\" cx=\"%.1f\" "
		    "cy=\"%.1f\" r=\"%s\"",
		kind == KIND_COUNT ? "ipt" : m ? "mpt" : "pt",
		point_class(st), p->errors ? " err" : "", x, y,
		point_class(st)[0] ? "4" : "3");
	if (m)
		fprintf(fp, " data-value=\"%.17g\"", a[i]);
	fputs("><title>", fp);
	prof_page_esc(fp, p->run_id);
	fputs(" \xc2\xb7 ", fp);
	prof_page_esc_cut(fp, p->commit, 12);
	if (kind == KIND_COUNT) {
		prof_page_count(n1, sizeof(n1), (double)p->instructions, 0);
		fprintf(fp, " \xc2\xb7 %s instructions", n1);
	} else if (m) {
		/* "heap peak 1,052,656 bytes", "2 allocations" */
		int named = strcmp(prof_cmp_metrics[m].name,
				   prof_cmp_metrics[m].unit) != 0;

		fprintf(fp, " \xc2\xb7 %s%s%s %s",
			named ? prof_cmp_metrics[m].name : "",
			named ? " " : "", axis_value(ax, a[i], kind, n1),
			prof_cmp_metrics[m].unit);
	} else {
		prof_page_time(n1, sizeof(n1), p->median, 0);
		prof_page_time(n2, sizeof(n2), p->p90, 0);
		fprintf(fp, " \xc2\xb7 median %s \xc2\xb7 p90 %s", n1, n2);
	}
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

/* The y axis of a chart of kind on ax, in frame f: its grid and ticks,
 * its unit, and where it zooms a break in it and the zoom in words. */
static void
y_axis(FILE *fp, const struct prof_page_axis *ax, int kind,
       const struct frame *f)
{
	int m = kind >= KIND_MEM ? KIND_METRIC(kind) : 0, k;
	double scale, L = f->L, right = f->W - f->R, T = f->T, ph = f->ph;
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

/* The value of run p a chart of kind draws (metric m): NAN where none. */
static double
value_of(const struct chart_run *p, int kind, int m)
{
	if (kind == KIND_COUNT)
		return p->instructions >= 0 ? (double)p->instructions : NAN;
	return m ? p->mem[m] : p->median;
}

void
chart_trend(FILE *fp, const struct chart *c, int kind)
{
	struct frame f = {960, 330, kind >= KIND_MEM ? 100 : 72, 16, 28, 0,
			  0, 0};
	double *a = malloc((c->n ? c->n : 1) * sizeof(*a));
	double *b = malloc((c->n ? c->n : 1) * sizeof(*b));
	double pw, lo, hi;
	struct prof_page_axis ax;
	int m = kind >= KIND_MEM ? KIND_METRIC(kind) : 0;
	long ncuts = kind == KIND_COUNT ? 0 : c->ncuts;
	size_t i;
	int have;

	pw = f.W - f.L - f.R;
	f.ph = f.H - f.T - 62;
	f.dx = step_of(c->n, pw);
	f.x0 = c->n > 1 ? f.L : f.L + pw / 2;
	if (!a || !b)
		goto out;
	for (i = 0; i < c->n; i++) {
		a[i] = value_of(&c->runs[i], kind, m);
		b[i] = c->runs[i].p90;
	}
	have = prof_page_axis_extent(a, kind ? NULL : b, c->n, &lo, &hi) == 0 &&
	       prof_page_axis_fit(&ax, lo, hi, kind ? COUNT_LEAST : TIME_LEAST) ==
		       0;
	fprintf(fp, "<svg class=\"chart trend%s\" viewBox=\"0 0 960 330\" "
		    "role=\"img\" data-points=\"%zu\" data-changes=\"%ld\" "
		    "data-zoom=\"%d\"",
		kind == KIND_COUNT ? " instr" : m ? " mem" : "", c->n, ncuts,
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
	y_axis(fp, &ax, kind, &f);
	x_axis(fp, c, &f);
	for (i = 0; i < (size_t)ncuts; i++) {
		double x = f.x0 + f.dx * (double)c->cuts[i] - f.dx / 2;

		fprintf(fp, "<line class=\"cut\" x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.0f\" y2=\"%.0f\"/>",
			x, x, f.T, f.T + f.ph);
	}
	if (kind == KIND_TIME)
		polyline(fp, "p90", b, c->n, f.x0, f.dx, f.T, f.ph, &ax);
	polyline(fp, kind == KIND_COUNT ? "ins" : m ? "mline" : "med", a, c->n,
		 f.x0, f.dx, f.T, f.ph, &ax);
	for (i = 0; i < c->n; i++)
		chart_point(fp, c, i, kind, m, a, &ax, &f);
	fputs("</svg>\n", fp);
out:
	free(a);
	free(b);
}

void
chart_keys(FILE *fp, const struct chart *c)
{
	fprintf(fp, "<p class=\"keys\"><span class=\"lm\">&#9679; "
		    "median (a point per run%s)</span><span class=\"lp\">- - "
		    "p90</span><span class=\"lc\">| change point</span>",
		c->repo_url ? ", a link to its commit" : "");
	if (c->now >= 0)
		fputs("<span class=\"lm\">&#9711; this run</span>", fp);
	fputs("<span class=\"li\">&#9679; improved</span><span class=\"lw\">"
	      "&#9679; warning</span><span class=\"lu\">&#9679; unsettled "
	      "(not settled within its budget: run it again with a larger "
	      "one)</span></p>",
	      fp);
}
