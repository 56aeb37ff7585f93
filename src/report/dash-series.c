/* dash-series.c: a series' page: its charts, its segment's fields, its memory
 * and its last runs (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/steps.h"
#include "kit/glossary.h"
#include "dash-int.h"

/* A series' segment in words, its id on hover. */
static void
segment_span(FILE *fp, const char *backend, const char *segment,
	     const char *segment_id)
{
	fputs("<span class=\"segid\" title=\"segment ", fp);
	prof_page_esc(fp, segment_id);
	fputs("\">", fp);
	dash_segment_words(fp, backend, segment, segment_id);
	fputs("</span>", fp);
}

/* A series page's heading: the workload and its segment in words
 * (dash_segment_words(): the backend first), the id on hover. */
static void
series_title(FILE *fp, const struct entry *e)
{
	prof_page_esc(fp, e->workload);
	fputs(" \xc2\xb7 ", fp);
	segment_span(fp, e->backend, e->segment, e->segment_id);
}

/* Whether field f of segment o has the same value in every segment of
 * segs[0..n). */
static int
field_same(struct json_object *o, const char *f, struct json_object **segs,
	   size_t n)
{
	const char *mine = dash_field_text(json_object_object_get(o, f));
	size_t i;

	for (i = 0; i < n; i++) {
		const char *t = segs[i] ? dash_field_text(
						  json_object_object_get(
							  segs[i], f)) :
					  NULL;

		if (!segs[i])
			continue;
		if (!mine != !t || (mine && strcmp(mine, t)))
			return 0;
	}
	return 1;
}

/* Whether field f (of a segment of key k's workload) tells k from the
 * other series of its workload. segs: the parsed segments of the group. */
int
dash_field_differs(const struct skey *k, struct json_object **segs, size_t i,
		   const char *f)
{
	return strcmp(f, "backend") && segs[i] &&
	       !field_same(segs[i], f, segs, k->g1 - k->g0);
}

/* The segments of k's group (o, k's own, among them; NULL where one is
 * no JSON object), and in *me k's place; NULL when out of memory. */
static struct json_object **
group_segments(const struct dash *d, const struct skey *k,
	       struct json_object *o, size_t *me)
{
	size_t ng = k->g1 - k->g0, i;
	struct json_object **segs = calloc(ng, sizeof(*segs));

	for (i = 0; segs && i < ng; i++) {
		const struct skey *s = &d->keys[k->g0 + i];

		segs[i] = s == k ? json_object_get(o) :
				   json_tokener_parse(s->segment);
		if (s == k)
			*me = i;
		if (segs[i] && !json_object_is_type(segs[i], json_type_object)) {
			json_object_put(segs[i]);
			segs[i] = NULL;
		}
	}
	return segs;
}

/* The fields of segment o that have no value, in one line; those that
 * differ among the group's segs in bold. */
static void
unset_fields(FILE *fp, struct json_object *o, const struct skey *k,
	     struct json_object **segs, size_t me)
{
	const char *sep = "";

	fputs("<p class=\"unset\">No value: ", fp);
	json_object_object_foreach(o, f, v) {
		int dif = segs && dash_field_differs(k, segs, me, f);

		if (v)
			continue;
		fputs(sep, fp);
		if (dif)
			fputs("<b>", fp);
		prof_page_esc(fp, f);
		if (dif)
			fputs("</b>", fp);
		sep = ", ";
	}
	fputs(".</p>", fp);
}

/* The other series of e's workload, each a link with what tells it from
 * e. */
static void
siblings(FILE *fp, const struct dash *d, const struct entry *e)
{
	const struct skey *k = e->key;
	size_t i;

	fputs("<p>Other series of ", fp);
	prof_page_esc(fp, e->workload);
	fputs(", and what tells each from this one:</p><ul>", fp);
	for (i = k->g0; i < k->g1; i++) {
		const struct skey *s = &d->keys[i];

		if (s == k)
			continue;
		fprintf(fp, "<li class=\"sibling\"><a href=\"%s\">", s->file);
		segment_span(fp, s->backend, s->segment, s->segment_id);
		fputs("</a>", fp);
		if (s->differs[0]) {
			fputs(" <span class=\"differs\">", fp);
			prof_page_esc(fp, s->differs);
			fputs("</span>", fp);
		}
		fputs("</li>", fp);
	}
	fputs("</ul>", fp);
}

/*
 * The segment of a series: each field that has a value (the ones that
 * tell it from the other series of its workload marked), the fields that
 * have none in one line, and links to those other series with what
 * differs. A key that is not a JSON object is shown as it is.
 */
static void
segment_section(FILE *fp, const struct dash *d, const struct entry *e)
{
	struct json_object *o = json_tokener_parse(e->segment);
	struct json_object **segs = NULL;
	const struct skey *k = e->key;
	size_t ng = k ? k->g1 - k->g0 : 0, i, me = 0, unset = 0;

	fputs("<section><h2>Segment <span class=\"mono\">", fp);
	prof_page_esc(fp, e->segment_id);
	fputs("</span></h2><p class=\"sub\">The fields that decide what this "
	      "series is compared with: a run is compared only with runs of "
	      "the same segment. The id is the first 16 hex digits of the "
	      "SHA-256 of the fields.</p>", fp);
	if (!o || !json_object_is_type(o, json_type_object)) {
		fputs("<p class=\"unset mono\">", fp);
		prof_page_esc(fp, e->segment);
		fputs("</p></section>\n", fp);
		json_object_put(o);
		return;
	}
	if (ng > 1)
		segs = group_segments(d, k, o, &me);
	fputs("<dl class=\"seg\">", fp);
	json_object_object_foreach(o, f, v) {
		int dif = segs && dash_field_differs(k, segs, me, f);

		if (!v) {
			unset++;
			continue;
		}
		fputs(dif ? "<dt class=\"d\">" : "<dt>", fp);
		prof_page_esc(fp, f);
		fputs(dif ? "</dt><dd class=\"d\">" : "</dt><dd>", fp);
		prof_page_esc(fp, dash_field_text(v));
		fputs("</dd>", fp);
	}
	fputs("</dl>", fp);
	if (k && k->differs[0]) {
		fputs("<p class=\"differs\">Told from the other series of ",
		      fp);
		prof_page_esc(fp, e->workload);
		fputs(" by: <b>", fp);
		prof_page_esc(fp, k->differs);
		fputs("</b></p>", fp);
	}
	if (unset)
		unset_fields(fp, o, k, segs, me);
	if (ng > 1)
		siblings(fp, d, e);
	fputs("</section>\n", fp);
	for (i = 0; segs && i < ng; i++)
		json_object_put(segs[i]);
	free(segs);
	json_object_put(o);
}

/* What a series measures, in words. */
static const char *
kind_words(const struct entry *e)
{
	if (e->timed && e->counted)
		return "The time of run() per run (the median and p90 of its "
		       "warm samples) and its instruction count (callgrind, "
		       "the median of the counted calls).";
	if (e->counted)
		return "Instruction counts only: callgrind's count of run() "
		       "per run, the median of the counted calls (prof-count; "
		       "its segment keys valgrind, so it is a series of its "
		       "own beside the workload's times).";
	if (!e->timed && e->memory)
		return "Memory only: what one run() holds and allocates per "
		       "run (the memory phase, prof-mem), each metric the "
		       "median its comparison judged.";
	return "The time of run() per run: the median and p90 of its warm "
	       "samples.";
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

/* Series e's chart of kind (chart.h): the times' change points those of
 * its medians, a memory metric's found in its own values, none for
 * counts. */
static void
series_chart(FILE *fp, const struct dash *d, const struct entry *e, int kind)
{
	struct chart c = {d->pts, d->n, d->o->repo_url, e->cuts,
			  kind == KIND_TIME ? e->ncuts : 0, -1};
	size_t *mcuts = NULL;

	if (kind >= KIND_MEM) {
		mcuts = malloc((d->n ? d->n : 1) * sizeof(*mcuts));
		c.ncuts = mcuts ? mem_cuts(d, KIND_METRIC(kind), mcuts) : 0;
		c.cuts = mcuts;
	}
	chart_trend(fp, &c, kind);
	free(mcuts);
}

/* The memory metrics of a series (e->memory), one chart each: bytes or
 * allocations with grouped digits, the axis from 0 or a zoom that says
 * so, the metric's own change points and verdicts. */
static void
memory_section(FILE *fp, struct dash *d, const struct entry *e)
{
	int m;

	if (!e->memory)
		return;
	fputs("<section class=\"memory\"><h2>Memory</h2><p class=\"sub\">"
	      "Per run, the median of one run()'s values in the memory "
	      "phase (the number comparisons.json judged): the heap peak, "
	      "allocations and bytes allocated are judged exactly, the RSS "
	      "peak like time (prof-diff(1)).</p>", fp);
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!(e->memory & 1u << m))
			continue;
		fprintf(fp, "<h3 data-metric=\"%s\">%s", prof_cmp_metrics[m].key,
			prof_cmp_metrics[m].name);
		if (strcmp(prof_cmp_metrics[m].name, prof_cmp_metrics[m].unit))
			fprintf(fp, " (%s)", prof_cmp_metrics[m].unit);
		fputs("</h3>", fp);
		series_chart(fp, d, e, MEM_KIND(m));
	}
	if (e->mem_changed) {
		fputs("<p>Last change: ", fp);
		dash_change_words(fp, e);
		fputs("</p>", fp);
	}
	fputs("</section>\n", fp);
}

/* A run's value of memory metric m in the table: grouped digits, in the
 * colour of its verdict, which its title gives with the reason. */
static void
mem_cell(FILE *fp, const struct chart_run *p, int m, int wide)
{
	const char *cls = dash_verdict_class(p->mem_status[m]);
	char v[32];

	fprintf(fp, "<td class=\"num%s%s%s\" data-metric=\"%s\"",
		wide ? " wide" : "", cls[0] ? " " : "", cls,
		prof_cmp_metrics[m].key);
	if (p->mem_status[m]) {
		fputs(" title=\"", fp);
		prof_page_esc(fp, p->mem_status[m]);
		if (p->mem_reason[m] && p->mem_reason[m][0]) {
			fputs(": ", fp);
			prof_page_esc(fp, p->mem_reason[m]);
		}
		fputs("\"", fp);
	}
	prof_page_count(v, sizeof(v), p->mem[m], 0);
	fprintf(fp, ">%s</td>", isfinite(p->mem[m]) ? v : "");
}

/* A run's row of a series' table: run, commit (a link where the
 * repository is known), time, n, errors, median and p90, count, memory,
 * status (its reason on hover). */
static void
run_row(FILE *fp, const struct dash *d, const struct entry *e,
	const struct chart_run *p)
{
	char url[1200], n1[32], n2[32];
	const char *u = chart_commit_url(d->o->repo_url, p->commit, url, sizeof(url));
	int m;

	fputs("<tr><td class=\"mono\">", fp);
	prof_page_esc(fp, p->run_id);
	fputs("</td><td class=\"mono\">", fp);
	if (u) {
		fputs("<a href=\"", fp);
		prof_page_esc(fp, u);
		fputs("\">", fp);
	}
	prof_page_esc_cut(fp, p->commit, 12);
	fputs(u ? "</a>" : "", fp);
	fputs("</td><td class=\"wide\">", fp);
	prof_page_esc(fp, p->timestamp);
	fputs("</td>", fp);
	if (e->timed)
		fprintf(fp, "<td class=\"num\">%lld</td>", p->n);
	fprintf(fp, "<td class=\"num%s\">%lld</td>",
		p->errors ? " bad" : "", p->errors);
	if (e->timed)
		fprintf(fp, "<td class=\"num\">%s</td><td class=\"num\">"
			    "%s</td>",
			dash_ms(p->median, n1), dash_ms(p->p90, n2));
	if (e->counted) {
		fprintf(fp, "<td class=\"num%s\">",
			e->timed ? " wide" : "");
		if (p->instructions >= 0)
			fputs(dash_count(p->instructions, n1), fp);
		fputs("</td>", fp);
	}
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (e->memory & 1u << m)
			mem_cell(fp, p, m, e->timed || e->counted);
	fputs("<td", fp);
	if (p->reason && p->reason[0]) {
		fputs(" title=\"", fp);
		prof_page_esc(fp, p->reason);
		fputs("\"", fp);
	}
	fputc('>', fp);
	dash_verdict(fp, p->status);
	fputs("</td></tr>\n", fp);
}

/* A series' table of its last TABLE_RUNS runs, the latest first, with
 * the columns it has values for. */
static void
runs_table(FILE *fp, const struct dash *d, const struct entry *e)
{
	size_t i, first;
	int m;

	first = d->n > TABLE_RUNS ? d->n - TABLE_RUNS : 0;
	fprintf(fp, "<section><h2>The last %zu run%s</h2><div class=\"wrap\">"
		    "<table><thead><tr><th>run</th><th>commit</th>"
		    "<th class=\"wide\">time (UTC)</th>",
		d->n - first, d->n - first == 1 ? "" : "s");
	if (e->timed)
		fputs("<th class=\"num\">n</th>", fp);
	fputs("<th class=\"num\">errors</th>", fp);
	if (e->timed)
		fputs("<th class=\"num\">median</th><th class=\"num\">p90"
		      "</th>", fp);
	if (e->counted)
		fprintf(fp, "<th class=\"num%s\">instructions</th>",
			e->timed ? " wide" : "");
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (e->memory & 1u << m)
			fprintf(fp, "<th class=\"num%s\">%s</th>",
				e->timed || e->counted ? " wide" : "",
				prof_cmp_metrics[m].name);
	fputs("<th>status</th></tr></thead><tbody>\n", fp);
	for (i = d->n; i-- > first;)
		run_row(fp, d, e, &d->pts[i]);
}

void
dash_series_page(FILE *fp, struct dash *d, struct entry *e)
{
	/* The tab says what the heading says: the workload and its
	 * segment in words, never the segment's id. */
	dash_head_start(fp);
	prof_page_esc(fp, e->workload);
	fputs(" on ", fp);
	dash_segment_words(fp, e->backend, e->segment, e->segment_id);
	dash_head_end(fp);
	fputs("<nav><a href=\"index.html\">&larr; every series</a></nav>\n"
	      "<h1>", fp);
	series_title(fp, e);
	fprintf(fp, "</h1>\n<p class=\"sub\" data-kind=\"%s\">",
		e->timed ? (e->counted ? "both" : "time") :
		e->counted ? "count" : e->memory ? "memory" : "count");
	fputs(kind_words(e), fp);
	if (e->memory && (e->timed || e->counted))
		fputs(" And its memory: what one run() holds and allocates "
		      "(the memory phase).", fp);
	fputs("</p>\n", fp);
	if (e->timed) {
		struct chart keys = {NULL, 0, d->o->repo_url, NULL, 0, -1};

		fprintf(fp, "<section><h2>Median and p90 over %zu run%s</h2>",
			d->n, d->n == 1 ? "" : "s");
		chart_keys(fp, &keys);
		series_chart(fp, d, e, KIND_TIME);
		fputs("<p>Last change: ", fp);
		dash_change_words(fp, e);
		fputs("</p></section>\n", fp);
	}
	if (e->counted) {
		fputs("<section><h2>Instruction count</h2>", fp);
		series_chart(fp, d, e, KIND_COUNT);
		if (!e->timed) {
			fputs("<p>Last change: ", fp);
			dash_change_words(fp, e);
			fputs("</p>", fp);
		}
		fputs("</section>\n", fp);
	}
	memory_section(fp, d, e);
	segment_section(fp, d, e);
	runs_table(fp, d, e);
	fputs("</tbody></table></div></section>\n", fp);
	prof_glossary_section(fp);
	fputs("</main></body></html>\n", fp);
}
