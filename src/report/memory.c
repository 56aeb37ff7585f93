/* memory.c: summary.md's Memory section: the memory rows, their disagreements
 * with time and the allocation sites (report-int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/page.h"
#include "verdict/channels.h"
#include "report-int.h"

/* Whether some view row has a memory peak. */
int
rep_any_memory(struct report *r)
{
	const struct prof_runbrief *rows;
	size_t i, n = prof_runview_briefs(&r->view, &rows);

	for (i = 0; i < n; i++)
		if (rep_has_memory(&rows[i]))
			return 1;
	return 0;
}

/* The memory peaks of each workload x backend no time row showed. */
void
rep_write_memory_rows(struct report *r, int counts)
{
	const struct prof_runbrief *rows;
	size_t i, j, n = prof_runview_briefs(&r->view, &rows);
	FILE *md = r->md;

	for (i = 0; i < n; i = j) {
		char host[32], gpu[32];
		double h, g;
		int used = 0, any = 0;

		for (j = i; j < n && !strcmp(rows[j].workload, rows[i].workload) &&
			    !strcmp(rows[j].backend, rows[i].backend);
		     j++) {
			used |= r->mem_used && r->mem_used[j];
			any |= rep_has_memory(&rows[j]);
		}
		if (used || !any)
			continue;
		rep_peaks(r, i, j, &h, &g);
		prof_page_bytes(host, sizeof(host), h);
		prof_page_bytes(gpu, sizeof(gpu), g);
		fprintf(md, "| ");
		prof_md_write(md, rows[i].workload, CELL_CODE);
		fprintf(md, " | ");
		prof_md_write(md, rows[i].backend, PROF_MD_TEXT);
		fprintf(md, " | 0 | - | - | - | - | - | - | %s | %s | - | - | "
			    "- | - | - |%s\n",
			host, gpu, counts ? " - | - | - |" : "");
	}
}

/* A memory row's metric as a table says it: "heap peak (bytes)" ("-"
 * for none: a checked memory row always names one). */
static const char *
mem_metric(const struct prof_verdict *v, char *buf, size_t n)
{
	enum prof_cmp_mem m = v->metric;

	if (!m)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%s%s%s%s", prof_cmp_metrics[m].name,
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ? " (" : "",
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ?
				 prof_cmp_metrics[m].unit : "",
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ? ")" : "");
	return buf;
}

/* A memory value with grouped digits, or "-" for none (NAN). */
static const char *
mem_cell(char *buf, size_t n, double v, int sign)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return prof_fmt_count(buf, n, llround(v), sign);
}

const struct prof_verdict *
rep_mem_row(struct report *r, size_t i, struct rep_mem_cells *c)
{
	const struct prof_verdict *v = prof_cmpview_verdict(&r->mem_rows, i);

	if (!v)
		return NULL;
	mem_metric(v, c->metric, sizeof(c->metric));
	mem_cell(c->cur, sizeof(c->cur), v->cur.median, 0);
	mem_cell(c->base, sizeof(c->base), v->base.median, 0);
	mem_cell(c->delta, sizeof(c->delta), v->delta, 1);
	if (!r->judged) {
		snprintf(c->base, sizeof(c->base), "-");
		snprintf(c->delta, sizeof(c->delta), "-");
	}
	c->status = r->judged ? v->status_name : "-";
	return v;
}

/* The memory rows that changed where their workload's time did not (or
 * the other way), each as two facts and what they can mean. */
static void
write_memory_disagreements(struct report *r)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->mem_rows) : 0;
	FILE *md = r->md;
	int any = 0;

	for (i = 0; i < n; i++) {
		const struct prof_verdict *m =
			prof_cmpview_verdict(&r->mem_rows, i);
		long k = m ? prof_cmpview_find(&r->rows, m->workload,
					       m->backend, 0, m->segment) :
			     -1;
		char line[1024];

		if (k < 0 ||
		    !prof_channels_time_memory(
			    prof_cmpview_verdict(&r->rows, (size_t)k), m, "**",
			    line, sizeof(line)))
			continue;
		if (!any++)
			fprintf(md, "Time and memory disagree:\n\n");
		fprintf(md, "- ");
		prof_md_write(md, m->workload, PROF_MD_CODE);
		fprintf(md, " (");
		prof_md_write(md, m->backend, PROF_MD_TEXT);
		fprintf(md, "): %s\n", line);
	}
	if (any)
		fputc('\n', md);
}

/*
 * Under a changed memory row's reason: the allocation sites prof-why
 * --memory found (DHAT, one call of each side), at most five, or the
 * line that says why there are none.
 */
static void
write_sites_table(FILE *md, const struct prof_verdict *v)
{
	const struct prof_verdict_sites *s = &v->sites;
	struct prof_verdict_site f;
	size_t i;

	if (s->note) {
		fprintf(md, "\n  No allocation sites: ");
		prof_md_write(md, s->note, PROF_MD_TEXT);
		fprintf(md, "\n\n");
		return;
	}
	if (!s->n)
		return;
	fprintf(md, "\n  Allocation sites per function (valgrind's DHAT, one "
		    "call of each side%s), by %s:\n\n  | function | file | "
		    "bytes before | bytes after | Δ bytes | allocations | "
		    "max live before | max live after | share |\n"
		    "  |---|---|--:|--:|--:|--:|--:|--:|--:|\n",
		    s->scope_after && !strcmp(s->scope_after, "run") ?
			    ", inside run()" :
			    ", the whole process",
		    s->by && !strcmp(s->by, "allocations") ?
			    "allocations" :
		    s->by && !strcmp(s->by, "max-live") ?
			    "the most bytes live at once" :
			    "bytes allocated");
	for (i = 0; i < 5 && prof_verdict_site(v, i, &f) == 0; i++) {
		long long n[PROF_VERDICT_MEM_COUNTS];
		char c[7][40];
		size_t k;

		for (k = 0; k < PROF_VERDICT_MEM_COUNTS; k++)
			n[k] = prof_verdict_count(f.v[k]);
		prof_fmt_count(c[0], 40, n[PROF_VERDICT_BYTES_BEFORE], 0);
		prof_fmt_count(c[1], 40, n[PROF_VERDICT_BYTES_AFTER], 0);
		prof_fmt_count(c[2], 40, n[PROF_VERDICT_BYTES_AFTER] -
					 n[PROF_VERDICT_BYTES_BEFORE], 1);
		prof_fmt_count(c[3], 40, n[PROF_VERDICT_ALLOCS_BEFORE], 0);
		prof_fmt_count(c[4], 40, n[PROF_VERDICT_ALLOCS_AFTER], 0);
		prof_fmt_count(c[5], 40, n[PROF_VERDICT_LIVE_BEFORE], 0);
		prof_fmt_count(c[6], 40, n[PROF_VERDICT_LIVE_AFTER], 0);
		fprintf(md, "  | ");
		prof_md_write(md, f.name, CELL_CODE);
		if (f.state && strcmp(f.state, "changed")) {
			fputc(' ', md);
			prof_md_write(md, f.state, PROF_MD_TEXT);
		}
		fprintf(md, " | ");
		prof_md_write(md, rep_short_file(f.file), PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | %s → %s | %s | %s | ", c[0],
			c[1], c[2], c[3], c[4], c[5], c[6]);
		if (isfinite(f.share))
			fprintf(md, "%.1f%%", 100 * f.share);
		else
			fprintf(md, "-");
		fprintf(md, " |\n");
	}
	fputc('\n', md);
}

/* summary.md's memory table: one line a memory row, in bytes or
 * allocations with grouped digits; then the reason of each that is not
 * stable. Nothing when the run has no memory rows. */
void
rep_write_memory(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->mem_rows);
	FILE *md = r->md;
	int reasons = 0;

	if (!n)
		return;
	fprintf(md, "## Memory\n\n"
		    "One call of each workload under the allocation "
		    "interposer (prof-mem): the heap peak, allocations and "
		    "bytes allocated are judged exactly (more than 1%% and "
		    "a floor), the RSS peak like time (prof-diff(1)).\n\n");
	fprintf(md, "| workload | backend | metric | current | baseline | "
		    "Δ | rule | status |\n"
		    "|---|---|---|---:|---:|---:|---|---|\n");
	for (i = 0; i < n; i++) {
		struct rep_mem_cells c;
		const struct prof_verdict *v = rep_mem_row(r, i, &c);

		if (!v)
			continue;
		fprintf(md, "| ");
		prof_md_write(md, v->workload, CELL_CODE);
		fprintf(md, " | ");
		prof_md_write(md, v->backend, PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | %s | %s | %s |\n", c.metric,
			c.cur, c.base, c.delta,
			v->rule && v->rule[0] ? v->rule : "-", c.status);
	}
	fputc('\n', md);
	for (i = 0; r->judged && i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->mem_rows, i);

		if (!v || v->status == PROF_CMP_STABLE)
			continue;
		fprintf(md, "- ");
		prof_md_write(md, v->workload, PROF_MD_CODE);
		fprintf(md, " (");
		prof_md_write(md, v->backend, PROF_MD_TEXT);
		fprintf(md, ", memory %s): **%s**: ",
			prof_cmp_metrics[v->metric].key, v->status_name);
		prof_md_write(md, v->reason, PROF_MD_TEXT);
		fputc('\n', md);
		write_sites_table(md, v);
		reasons++;
	}
	if (reasons)
		fputc('\n', md);
	write_memory_disagreements(r);
}
