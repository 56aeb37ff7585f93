/* runpage.c: prof-report's self-contained HTML page of a run (runpage.h):
 * its stylesheet and script, the blocks of rows and their channels, the
 * overview, the page written whole; charts, rows and the why of a change
 * in runpage-chart.c, runpage-rows.c, runpage-why.c (runpage-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/grow.h"
#include "base/json.h"
#include "kit/glossary.h"
#include "kit/page.h"
#include "verdict/channels.h"
#include "style.h"
#include "runpage-int.h"

static const char css[] =
	PAGE_CSS
	":root{--cur:#1f6feb;--base:#8a94a6}\n"
	"body{margin:0 auto;max-width:1100px;padding:16px 20px 40px}\n"
	"h1{font-size:1.45em;margin:.2em 0 .4em}h2{font-size:1.1em;margin:0}\n"
	"table{margin:.5em 0}th,td{padding:3px 8px;vertical-align:top}\n"
	"td.num .gloss{white-space:normal}\n"
	".overview{font-size:.9em}.overview th,.overview td{padding:3px 4px}"
	".overview td:first-child{overflow-wrap:anywhere}"
	".overview td{white-space:nowrap}"
	".overview td:first-child{white-space:normal}\n"
	".nums{font-size:.9em}.nums th,.nums td{padding:3px 6px;"
	"white-space:nowrap}"
	".nums tr.judged td{font-weight:600}\n"
	".meta td:first-child{color:var(--mute);width:11em}\n"
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
	const struct prof_verdict *tc, *cc;	/* their comparisons */
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
		 const struct prof_verdict *mc[PROF_CMP_MEM_N])
{
	const char *s = NULL;
	int m;

	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const char *t = mc[m] ? mc[m]->status_name : NULL;

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

/* Row r of a channel (c its comparison) in block k: the channel's first
 * row and its comparison kept in *first and *fc, its status added. */
static void
take_row(struct block *k, const struct prof_runrow *r,
	 const struct prof_verdict *c, const struct prof_runrow **first,
	 const struct prof_verdict **fc,
	 const char *(*status_of)(const struct prof_runrow *,
				  const struct prof_verdict *))
{
	if (!*first) {
		*first = r;
		*fc = c;
	}
	add_status(k, status_of(r, c));
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
		if (rp_has_time(p, r))
			take_row(k, r, rp_comparison_of(p, r), &k->tr, &k->tc,
				 rp_status_of);
		if (rp_has_count(p, r))
			take_row(k, r, rp_count_comparison_of(p, r), &k->cr,
				 &k->cc, rp_count_status_of);
		if (rp_has_memory(p, r)) {
			const struct prof_verdict *mc[PROF_CMP_MEM_N];

			rp_memory_comparisons_of(p, r, mc);
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

/* An unsettled row's way to a verdict (c its comparison, or NULL): the
 * command that would settle it (compare.h), the run's own selection
 * kept. */
static void
settle_line(struct page *p, const struct prof_verdict *c)
{
	long max = c ? (long)c->ab.max_repeat : 0;
	long repeat = c ? (long)c->ab.repeat : 0;
	const char *wl = c ? c->workload : NULL;
	char cmd[2300], w[256] = "";

	/* This row's workload alone: a make compare W= runs it only. */
	if (wl && strlen(wl) + 4 < sizeof(w))
		snprintf(w, sizeof(w), " W=%s", wl);
	prof_cmp_settle_command(prof_runview_str(p->cur, "command"),
				repeat, max > 0 ? max : 0, w, cmd, sizeof(cmd));
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
	     const char *status, const struct prof_verdict *c, int errors)
{
	const char *reason = c ? c->reason : NULL;
	FILE *fp = p->fp;

	errors = errors && r->errors;
	fprintf(fp, "<div class=\"channel\" data-channel=\"%s\" "
		    "data-status=\"", kind);
	prof_page_esc(fp, status);
	fprintf(fp, "\"><header><h3>%s</h3>", kind);
	rp_badge(fp, status);
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
	const struct prof_verdict *c = rp_comparison_of(p, r);
	const struct prof_runrow *b = rp_time_baseline_of(p, r, c);

	channel_head(p, r, "time", rp_status_of(r, c), c, 1);
	rp_strip_chart(p, r, c, b);
	fprintf(p->fp, "</div><div>");
	rp_numbers(p, r, c, b);
	fprintf(p->fp, "</div></div></div>");
}

/* The count channel; errors: the row's error samples are said here (a
 * row without a time channel). */
static void
count_channel(struct page *p, const struct prof_runrow *r, int errors)
{
	const struct prof_verdict *c = rp_count_comparison_of(p, r);
	const struct prof_runrow *b = rp_count_baseline_of(p, r, c);

	channel_head(p, r, "instructions", rp_count_status_of(r, c), c, errors);
	rp_count_chart(p, r, c, b);
	fprintf(p->fp, "</div><div>");
	rp_count_numbers(p, r, c, b, errors);
	fprintf(p->fp, "</div></div></div>");
}

/*
 * The memory channel of a row: per metric of prof_cmp_metrics[] that the
 * row measured, its current median, the baseline's, the change and the
 * status of its memory row, in bytes or allocations with grouped digits
 * ("2,105,312", the change "+1,052,656", "-" for none: the numbers
 * comparisons.json gives; a run not compared: the row's own medians,
 * unjudged); then the reason of each row that is not stable.
 * errors: the row's error samples are said here (a row with neither a
 * time nor a count channel).
 */
static void
memory_channel(struct page *p, const struct prof_runrow *r, int errors)
{
	const struct prof_verdict *mc[PROF_CMP_MEM_N];
	FILE *fp = p->fp;
	char cur[32], base[32], delta[32];
	int m, reasons = 0;

	rp_memory_comparisons_of(p, r, mc);
	channel_head(p, r, "memory", memory_status_of(r, mc), NULL, errors);
	fprintf(fp, "<table class=\"nums mem\"><tr><th>one run()</th>"
		    "<th class=\"num\">current</th><th class=\"num\">baseline"
		    "</th><th class=\"num\">change</th><th>status</th></tr>");
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const struct prof_cmp_metric *me = &prof_cmp_metrics[m];
		const struct prof_verdict *c = mc[m];

		if (!c && !r->mem_st[m].n)
			continue;
		prof_page_count(cur, sizeof(cur),
				c ? c->cur.median : r->mem_st[m].median, 0);
		prof_page_count(base, sizeof(base), c ? c->base.median : NAN, 0);
		prof_page_count(delta, sizeof(delta), c ? c->delta : NAN, 1);
		fprintf(fp, "<tr data-metric=\"%s\"><td>%s%s%s%s</td><td "
			    "class=\"num\">%s</td><td class=\"num\">%s</td>"
			    "<td class=\"num\">%s</td><td>",
			me->key, me->name, strcmp(me->name, me->unit) ? " (" : "",
			strcmp(me->name, me->unit) ? me->unit : "",
			strcmp(me->name, me->unit) ? ")" : "", cur, base, delta);
		rp_badge(fp, c ? c->status_name : "unjudged");
		fprintf(fp, "</td></tr>");
	}
	fprintf(fp, "</table></div><div>");
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		const char *st = mc[m] ? mc[m]->status_name : NULL;

		if (!st || !strcmp(st, "stable"))
			continue;
		fprintf(fp, "<p class=\"reason\" data-metric=\"%s\">",
			prof_cmp_metrics[m].key);
		prof_page_esc(fp, mc[m]->reason);
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
 * comparison against each of its memory rows
 * (prof_channels_time_memory()). */
static void
memory_disagreements(struct page *p, const struct prof_runrow *r)
{
	const struct prof_verdict *mc[PROF_CMP_MEM_N];
	const struct prof_verdict *t = rp_comparison_of(p, r);
	char line[1024];
	int m;

	if (!t || !rp_memory_comparisons_of(p, r, mc))
		return;
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!mc[m] || !prof_channels_time_memory(t, mc[m], "", line,
							 sizeof(line)))
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
		rp_row_number(p, k->from));
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
	if (prof_channels_time_count(k->tc, k->cc, "", line, sizeof(line))) {
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
		if (rp_has_time(p, &p->rows[i]))
			time_channel(p, &p->rows[i]);
	for (i = k->from; i < k->to; i++)
		if (rp_has_count(p, &p->rows[i]))
			count_channel(p, &p->rows[i],
				      !rp_has_time(p, &p->rows[i]));
	for (i = k->from; i < k->to; i++)
		if (rp_has_memory(p, &p->rows[i]))
			memory_channel(p, &p->rows[i],
				       !rp_has_time(p, &p->rows[i]) &&
					       !rp_has_count(p, &p->rows[i]));
	fprintf(fp, "</div>");
	for (i = k->from; i < k->to; i++) {
		const struct prof_verdict *c = rp_count_comparison_of(p,
								      &p->rows[i]);

		if (p->d->hist && rp_has_time(p, &p->rows[i]) &&
		    rp_trend_chart(p, &p->rows[i], err) < 0)
			return -1;
		if (c && c->why[PROF_VERDICT_WHY_COUNT].present)
			explained = 1;
	}
	for (i = k->from; i < k->to; i++)
		rp_artifact_links(p, &p->rows[i]);
	for (i = k->from; i < k->to; i++) {
		const struct prof_verdict *c = rp_cmp_in(p, 0, &p->rows[i],
							 &at);

		if (rp_why_section(p, at, c, explained, err) < 0)
			return -1;
		c = rp_cmp_in(p, 1, &p->rows[i], &at);
		if (rp_why_section(p, at, c, explained, err) < 0)
			return -1;
		rp_memory_why(p, &p->rows[i]);
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
		if (PROF_GROW(*stub, (size_t)(i - from) + 1, *cap) < 0)
			return -1;
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
			p->any_counts |= rp_has_count(p, &stub[j]);
			p->any_memory |= rp_has_memory(p, &stub[j]);
		}
		if (!p->summarise)
			continue;
		block_at(p, 0, &k);
		if (shown(p, &k)) {
			const struct prof_runbrief *r = &p->briefs[i];
			size_t len;
			char *key = rep_row_key(r->workload, r->backend, "", &len);

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

/* Whether the block that starts at row from is drawn whole (tally()
 * chose them): the passes that write the page skip the others without
 * reading their comparisons, so that a page of 40,000 rows parses each
 * counted row's comparison once, not once a pass. */
static int
drawn_at(struct page *p, long from)
{
	const struct prof_runrow *r = &p->rows[from];

	return !p->summarise ||
	       rep_block_drawn(&p->drawn_index, r->workload, r->backend);
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
	const struct prof_verdict *mc[PROF_CMP_MEM_N];
	char v[32] = "-";

	if (k->mr) {
		rp_memory_comparisons_of(p, k->mr, mc);
		if (mc[PROF_CMP_MEM_PEAK])
			prof_page_count(v, sizeof(v),
					mc[PROF_CMP_MEM_PEAK]->cur.median, 0);
		else if (k->mr->mem_st[PROF_CMP_MEM_PEAK].n)
			prof_page_count(v, sizeof(v),
					k->mr->mem_st[PROF_CMP_MEM_PEAK].median,
					0);
	}
	fprintf(p->fp, "<td class=\"num mem\" data-metric=\"host_peak_bytes\">"
		       "%s</td><td class=\"mem\">", v);
	if (k->mr)
		rp_badge(p->fp, k->mstatus);
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
		ratio = k.tc ? k.tc->ratio : NAN;
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
			rp_row_number(p, i));
		prof_page_esc(fp, r->workload);
		fprintf(fp, "</code></a></td><td>");
		prof_page_esc(fp, r->backend);
		fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">"
			    "%s</td><td class=\"num cpu\">%s</td><td class=\"num "
			    "cpu\">%s</td><td class=\"num\">%s</td><td>",
			n, m, cpu, cont, pct);
		if (k.tr)
			rp_badge(fp, rp_status_of(k.tr, k.tc));
		fprintf(fp, "</td>");
		if (counts) {
			ratio = k.cc ? k.cc->ratio : NAN;
			snprintf(pct, sizeof(pct), "-");
			if (isfinite(ratio))
				snprintf(pct, sizeof(pct), "%+.2f%%",
					 (ratio - 1) * 100);
			prof_page_count(m, sizeof(m), k.cr && k.cr->n_counts ?
				   (double)k.cr->instructions :
				   k.cc ? k.cc->cur.median : NAN, 0);
			fprintf(fp, "<td class=\"num\">%s</td><td class=\"num\">"
				    "%s</td><td>", m, pct);
			if (k.cr)
				rp_badge(fp, rp_count_status_of(k.cr, k.cc));
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
	else if (p->d->found_base)
		fprintf(fp, "the run folder's baseline.json");
	else
		fprintf(fp, p->cmp ? "the baseline" : "no baseline");
	fprintf(fp, "</td></tr><tr><td>history</td><td>");
	if (p->d->hist)
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
	prof_glossary_section(fp);
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

/* The page as runpage.h hands it out: made by prof_runpage_choose(),
 * written by prof_runpage_write(). */
struct prof_runpage {
	struct page p;
};

int
prof_runpage_choose(struct prof_runpage **pg,
		    const struct prof_runpage_in *in, struct prof_err *err)
{
	struct prof_runpage *g = calloc(1, sizeof(*g));

	*pg = g;
	if (!g)
		return prof_err_set(err, "out of memory");
	g->p.in = in;
	g->p.cur = in->cur;
	g->p.cmp = in->cmp;
	/* What is drawn (of every row, in brief), before what it needs is
	 * loaded. */
	g->p.n_briefs = (long)prof_runview_briefs(g->p.cur, &g->p.briefs);
	return tally(&g->p, err);
}

const struct prof_htab *
prof_runpage_drawn(const struct prof_runpage *pg)
{
	return pg->p.summarise ? &pg->p.drawn_index : NULL;
}

int
prof_runpage_write(struct prof_runpage *pg, const struct rep_drawn *d,
		   struct prof_err *err)
{
	struct page *p = &pg->p;
	struct prof_afile af = {0};

	p->d = d;
	p->rows = d->rows;
	p->n = d->n;
	p->brows = d->brows;
	p->bn = d->bn;
	link_prefix(p);
	p->fp = prof_afile_open(&af, p->in->output, err);
	if (!p->fp)
		return -1;
	/* Whole or not at all. */
	if (write_page(p, err) < 0) {
		prof_afile_abort(&af);
		return -1;
	}
	return prof_afile_commit(&af, err);
}

void
prof_runpage_free(struct prof_runpage *pg)
{
	if (!pg)
		return;
	prof_htab_free(&pg->p.drawn_index);
	free(pg);
}
