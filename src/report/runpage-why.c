/* runpage-why.c: report.html's why of a change: the artifacts' links,
 * prof-why's functions and flame graph, the memory's allocation sites
 * (runpage-int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/page.h"
#include "verdict/channels.h"
#include "why/flame.h"
#include "why/why.h"
#include "runpage-int.h"

static int
is_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* Links to the .prof and trace files of this row's samples. */
void
rp_artifact_links(struct page *p, const struct prof_runrow *r)
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

/* The start of a why table's row of a function or site: its name (and
 * state where it is not changed), file, delta (words) and share (NAN:
 * none), up to the share's cell's end. */
static void
why_row_start(FILE *fp, const char *name, const char *file,
	      const char *state, double share, const char *delta)
{
	fprintf(fp, "<tr><td><code>");
	prof_page_esc(fp, name);
	fprintf(fp, "</code>");
	if (state && strcmp(state, "changed")) {
		fprintf(fp, " (");
		prof_page_esc(fp, state);
		fprintf(fp, ")");
	}
	fprintf(fp, "</td><td class=\"mono\">");
	prof_page_esc(fp, file);
	fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">", delta);
	if (isfinite(share))
		fprintf(fp, "%.1f%%", 100 * share);
}

/* An explanation's heading and its table of the top five functions of
 * c's explanation kind (prof-why's). */
static void
why_functions(FILE *fp, const struct prof_verdict *c,
	      enum prof_verdict_why_kind kind, const char *heading)
{
	struct prof_verdict_fn f;
	size_t k;

	fprintf(fp, "<div class=\"why\"><h3>%s</h3><table class=\"why-fns\">"
		    "<tr><th>function</th><th>file</th><th class=\"num\">"
		    "Δ self</th><th class=\"num\">share</th><th class=\"num\">"
		    "self before → after</th><th class=\"num\">inclusive "
		    "before → after</th></tr>", heading);
	for (k = 0; k < 5 && prof_verdict_fn(c, kind, k, &f) == 0; k++) {
		long long v[4];
		char t[5][40];

		v[0] = prof_verdict_count(f.self_before);
		v[1] = prof_verdict_count(f.self_after);
		v[2] = prof_verdict_count(f.incl_before);
		v[3] = prof_verdict_count(f.incl_after);
		prof_fmt_count(t[0], 40, v[1] - v[0], 1);
		prof_fmt_count(t[1], 40, v[0], 0);
		prof_fmt_count(t[2], 40, v[1], 0);
		prof_fmt_count(t[3], 40, v[2], 0);
		prof_fmt_count(t[4], 40, v[3], 0);
		why_row_start(fp, f.name, f.file, f.state, f.share, t[0]);
		fprintf(fp, "</td><td class=\"num\">%s → %s</td><td class="
			    "\"num\">%s → %s</td></tr>", t[1], t[2], t[3], t[4]);
	}
	fprintf(fp, "</table>");
}

/* The differential flame graph svg of an explanation with its caption,
 * and pprof's listing where its files (listing, or NULL) name one. */
static void
flame_figure(struct page *p, const char *listing, const char *svg,
	     const char *unit)
{
	FILE *fp = p->fp;

	fprintf(fp, "<figure>%s<figcaption>Differential flame graph of the "
		    "two sides' call graphs: each frame is as wide as its "
		    "%s now; red frames have more %s of their own than "
		    "before, blue fewer, hatched ones are new; hover a frame "
		    "for its numbers.", svg, unit, unit);
	if (listing) {
		fprintf(fp, " pprof's listing: <a href=\"");
		if (listing[0] != '/')
			prof_page_esc_url(fp, p->prefix);
		prof_page_esc_url(fp, listing);
		fprintf(fp, "\">");
		prof_page_esc(fp, listing);
		fprintf(fp, "</a>.");
	}
	fprintf(fp, "</figcaption></figure></div>");
}

/*
 * One explanation of a changed row (prof-why's of kind, with its files):
 * the top functions and the differential flame graph of the two sides'
 * call graphs, in unit.
 */
static int
why_block(struct page *p, long i, const struct prof_verdict *c,
	  enum prof_verdict_why_kind kind, const char *unit,
	  const char *heading, struct prof_err *err)
{
	const struct prof_verdict_why *w = &c->why[kind];
	struct prof_callgrind_profile before = {0}, after = {0};
	struct prof_buf svg = {0};
	struct prof_err lerr = {0};
	char id[48];
	FILE *fp = p->fp;
	int time = kind == PROF_VERDICT_WHY_TIME, rc = -1;

	if (!w->n || !w->has_artifacts)
		return 0;
	why_functions(fp, c, kind, heading);
	snprintf(id, sizeof(id), "flame-%ld-%s", i, w->key);
	if (rep_graphs_of(p->d, w, time, &before, &after, &lerr) < 0) {
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
			 "(%s)", c->workload, unit);
		fo.title = title;
		if (prof_flame_svg(&before, &after, &fo, &svg, err) < 0)
			goto out;
	}
	flame_figure(p, w->listing, svg.p, unit);
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
int
rp_why_section(struct page *p, long i, const struct prof_verdict *c,
	       int explained, struct prof_err *err)
{
	if (!c)
		return 0;
	if ((c->phase == PROF_VERDICT_COUNT || !explained) &&
	    why_block(p, i, c, PROF_VERDICT_WHY_COUNT, "instructions",
		      "Why: instructions per function", err) < 0)
		return -1;
	return why_block(p, i, c, PROF_VERDICT_WHY_TIME, "ns of CPU per call",
			 "Why: CPU time per function (gperftools)", err);
}

/*
 * Why r's memory changed: for each changed memory row of r that prof-why
 * --memory explained, its allocation sites per function (valgrind's DHAT,
 * one call of each side), at most five, or the line that says why there
 * are none. The memory rows are the comparisons' memory view, found from
 * the first of r's (they lie together, one a metric).
 */
void
rp_memory_why(struct page *p, const struct prof_runrow *r)
{
	struct prof_cmpview *mv = p->cmp ? p->cmp->memory : NULL;
	long i = mv ? prof_cmpview_find(mv, r->workload, r->backend, 0,
					r->segment) : -1;
	FILE *fp = p->fp;

	for (; i >= 0 && (size_t)i < prof_cmpview_len(mv); i++) {
		const struct prof_verdict *c = prof_cmpview_verdict(mv,
								    (size_t)i);
		const char *scope;
		struct prof_verdict_site f;
		size_t k;

		if (!c || !c->workload || strcmp(c->workload, r->workload) ||
		    !c->backend || strcmp(c->backend, r->backend))
			break;
		if (!c->sites.n && !c->sites.note)
			continue;
		scope = c->sites.scope_after;
		fprintf(fp, "<div class=\"why\"><h3>Why: ");
		prof_page_esc(fp, prof_cmp_metrics[c->metric].key);
		fprintf(fp, " per allocation site (valgrind's DHAT, one call "
			    "of each side%s)</h3>",
			scope && !strcmp(scope, "run") ? ", inside run()" : "");
		if (c->sites.note) {
			fprintf(fp, "<p class=\"reason\">No allocation sites: ");
			prof_page_esc(fp, c->sites.note);
			fprintf(fp, "</p></div>");
			continue;
		}
		fprintf(fp, "<table class=\"why-fns\"><tr><th>function</th>"
			    "<th>file</th><th class=\"num\">Δ bytes</th>"
			    "<th class=\"num\">share</th><th class=\"num\">"
			    "bytes before → after</th><th class=\"num\">"
			    "allocations before → after</th><th class=\"num\">"
			    "max live before → after</th></tr>");
		for (k = 0; k < 5 && prof_verdict_site(c, k, &f) == 0; k++) {
			char t[PROF_VERDICT_MEM_COUNTS + 1][40];
			long long v[PROF_VERDICT_MEM_COUNTS];
			int j;

			/* In the order of the table's columns. */
			for (j = 0; j < PROF_VERDICT_MEM_COUNTS; j++) {
				v[j] = prof_verdict_count(f.v[j]);
				prof_page_count(t[j + 1], 40, (double)v[j], 0);
			}
			prof_page_count(t[0], 40,
					(double)(v[PROF_VERDICT_BYTES_AFTER] -
						 v[PROF_VERDICT_BYTES_BEFORE]),
					1);
			why_row_start(fp, f.name, f.file, f.state, f.share,
				      t[0]);
			fprintf(fp, "</td><td class=\"num\">%s → %s</td><td "
				    "class=\"num\">%s → %s</td><td class="
				    "\"num\">%s → %s</td></tr>",
				t[1], t[2], t[3], t[4], t[5], t[6]);
		}
		fprintf(fp, "</table></div>");
	}
}
