/* runpage-rows.c: the rows report.html draws: each one's comparisons,
 * baseline and statuses found by key (runpage-int.h), from what load.c
 * loaded (load.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "kit/glossary.h"
#include "kit/page.h"
#include "runpage-int.h"

/* A value of a chart with its unit: "1.234 ms", "56,099,498 instructions". */
void
rp_fmt_val(char *buf, size_t n, double v, int counts)
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
long
rp_row_number(const struct page *p, long i)
{
	const struct prof_runrow *r = &p->rows[i];
	long k = prof_runview_brief(p->cur, r->workload, r->backend,
				    r->segment);

	return k < 0 ? i : k;
}

/* The index of r's key in h, or -1 (also when out of memory: then the
 * row is drawn without its comparison or baseline). */
static long
index_get(const struct prof_htab *h, const struct prof_runrow *r)
{
	size_t len;
	char *k = rep_row_key(r->workload, r->backend, r->segment, &len);
	long i = k ? prof_htab_get(h, k, len) : -1;

	free(k);
	return i;
}

/* The comparison of r, of counts or of time, or NULL (borrowed: valid
 * as the view's row is, view.h); *at its index in the comparisons, or
 * -1. */
const struct prof_verdict *
rp_cmp_in(struct page *p, int count, const struct prof_runrow *r, long *at)
{
	long i = p->cmp ? prof_cmpview_find(p->cmp, r->workload, r->backend,
					    count, r->segment) :
			  -1;

	if (at)
		*at = i;
	return i < 0 ? NULL : prof_cmpview_verdict(p->cmp, (size_t)i);
}

/* r's time (or browser) comparison, or NULL. */
const struct prof_verdict *
rp_comparison_of(struct page *p, const struct prof_runrow *r)
{
	return rp_cmp_in(p, 0, r, NULL);
}

/* r's instruction comparison, or NULL. */
const struct prof_verdict *
rp_count_comparison_of(struct page *p, const struct prof_runrow *r)
{
	return rp_cmp_in(p, 1, r, NULL);
}

/*
 * r's memory comparisons (prof-diff's memory rows of its workload,
 * backend and segment: cmpview.h keeps them in a view of their own), by
 * metric into out[] (NULL where none; borrowed, see cmpview.h). Returns
 * how many.
 */
int
rp_memory_comparisons_of(struct page *p, const struct prof_runrow *r,
			 const struct prof_verdict *out[PROF_CMP_MEM_N])
{
	struct prof_cmpview *v = p->cmp ? p->cmp->memory : NULL;
	long i = v ? prof_cmpview_find(v, r->workload, r->backend, 0,
				       r->segment) :
		     -1;
	int m, found = 0;

	for (m = 0; m < PROF_CMP_MEM_N; m++)
		out[m] = NULL;
	for (; i >= 0 && (size_t)i < prof_cmpview_len(v); i++) {
		const struct prof_verdict *o = prof_cmpview_verdict(v,
								    (size_t)i);

		if (!o || strcmp(o->workload, r->workload) ||
		    strcmp(o->backend, r->backend) ||
		    strcmp(o->segment, r->segment))
			break;
		m = o->metric;
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
int
rp_has_count(struct page *p, const struct prof_runrow *r)
{
	return r->n_counts || rp_count_comparison_of(p, r);
}

int
rp_has_memory(struct page *p, const struct prof_runrow *r)
{
	const struct prof_verdict *mc[PROF_CMP_MEM_N];
	int m;

	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (r->mem_st[m].n)
			return 1;
	return rp_memory_comparisons_of(p, r, mc) > 0;
}

int
rp_has_time(struct page *p, const struct prof_runrow *r)
{
	return r->n || rp_comparison_of(p, r) ||
	       (!rp_has_count(p, r) && !rp_has_memory(p, r));
}

static const struct prof_runrow *
baseline_of(struct page *p, const struct prof_runrow *r)
{
	long i = p->bn ? index_get(&p->d->base_index, r) : -1;

	return i < 0 ? NULL : &p->brows[i];
}

/* Whether the n values of median med are those side st (a comparison's
 * current or baseline; NULL: none) was computed from. */
static int
same_side(const struct prof_verdict_side *st, double n, double med)
{
	return st && (double)st->n == n &&
	       fabs(st->median - med) <= 1e-9 * fabs(med) + 1e-12;
}

/* r's baseline row for its time channel (c its comparison): a found
 * baseline's only where it is the side c was made from. */
const struct prof_runrow *
rp_time_baseline_of(struct page *p, const struct prof_runrow *r,
		    const struct prof_verdict *c)
{
	const struct prof_runrow *b = baseline_of(p, r);

	if (b && p->d->found_base &&
	    !same_side(c ? &c->base : NULL, (double)b->n, b->st.median))
		return NULL;
	return b;
}

/* The same for r's count channel (c its instruction comparison). */
const struct prof_runrow *
rp_count_baseline_of(struct page *p, const struct prof_runrow *r,
		     const struct prof_verdict *c)
{
	const struct prof_runrow *b = baseline_of(p, r);

	if (b && p->d->found_base &&
	    (!b->n_counts ||
	     !same_side(c ? &c->base : NULL, (double)b->n_counts,
			(double)b->instructions)))
		return NULL;
	return b;
}

/* The row's status word: the comparison's, or "error" / "unjudged". */
const char *
rp_status_of(const struct prof_runrow *r, const struct prof_verdict *c)
{
	const char *s = c ? c->status_name : NULL;

	if (r->errors && !r->n)
		return "error";
	return s ? s : "unjudged";
}

/* The instruction channel's status word, as rp_status_of() for time. */
const char *
rp_count_status_of(const struct prof_runrow *r, const struct prof_verdict *c)
{
	const char *s = c ? c->status_name : NULL;

	if (r->errors && !r->n_counts && !r->n)
		return "error";
	return s ? s : "unjudged";
}

/* A status as a coloured word, a link to its entry in the page's
 * glossary. */
void
rp_badge(FILE *fp, const char *status)
{
	int linked = prof_glossary_has(status);

	if (linked)
		prof_glossary_open(fp, status);
	fprintf(fp, "<span class=\"badge s-");
	prof_page_esc(fp, status);
	fprintf(fp, "\">");
	prof_page_esc(fp, status);
	fprintf(fp, "</span>");
	if (linked)
		fputs("</a>", fp);
}
