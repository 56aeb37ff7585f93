/* runpage-rows.c: the rows report.html draws: each one's comparisons,
 * baseline and statuses found by key, and the extras of the samples (own
 * times, contended marks) the view does not keep (runpage-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/json.h"
#include "kit/glossary.h"
#include "kit/page.h"
#include "model/sample.h"
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

/*
 * A row's key in the page's tables: workload, backend and segment joined
 * with NUL bytes, allocated (NULL when out of memory); *len its length.
 */
char *
rp_row_key(const char *w, const char *b, const char *s, size_t *len)
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
	char *k = rp_row_key(w, b, s, &len);
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
	char *k = rp_row_key(r->workload, r->backend, r->segment, &len);
	long i = k ? prof_htab_get(h, k, len) : -1;

	free(k);
	return i;
}

/* The baseline's rows by key, once: the page finds each row's in
 * constant time (a search per row made it quadratic). The comparisons
 * have their own index (cmpview.h; time and counts apart: a hand-made
 * count may share its time row's segment). */
int
rp_index_rows(struct page *p, struct prof_err *err)
{
	long k;

	for (k = 0; k < p->bn; k++)
		if (index_put(&p->base_index, p->brows[k].workload,
			      p->brows[k].backend, p->brows[k].segment, k,
			      err) < 0)
			return -1;
	return 0;
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
	long i = p->bn ? index_get(&p->base_index, r) : -1;

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

	if (b && p->found_base &&
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

	if (b && p->found_base &&
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

/* Whether the baseline's rows of w and b are drawn (prof_runview_load_only()). */
int
rp_drawn_wb(void *arg, const char *w, const char *b)
{
	struct page *p = arg;
	size_t len;
	char *key = rp_row_key(w ? w : "", b ? b : "", "", &len);
	long k = key ? prof_htab_get(&p->drawn_index, key, len) : 0;

	free(key);
	return k >= 0;
}

/* Take sample s's own time or its want of a delay into its row's extra
 * (prof_runview_load_only()'s callback: it sees every sample). */
int
rp_extras_take(void *arg, struct json_object *s, struct prof_err *err)
{
	struct extras *x = arg;
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	struct extra *e;
	size_t len;
	char *key, *k0;
	long k;
	double own;

	if (!prof_runview_aggregated(s) || (x->p->summarise && !rp_drawn_wb(x->p, w, b)))
		return 0;
	k0 = rp_row_key(w ? w : "", b ? b : "", sid ? sid : "", &len);
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
	own = prof_sample_own_ms(s);
	if (!prof_sample_run_delay(s, NULL) || isnan(own)) {
		e->no_delay++;
		return 0;
	}
	if (PROF_GROW(e->own, e->n_own + 1, e->cap_own) < 0)
		return prof_err_set(err, "out of memory");
	e->own[e->n_own++] = own;
	return 0;
oom:
	free(key);
	return prof_err_set(err, "out of memory");
}

/* Each row of v (n of them) to its extra, once v is loaded (the
 * segment ids resolve only then). Returns 0 or -1. */
int
rp_extras_map(struct extras *x, const struct prof_runview *v, size_t n,
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
const struct extra *
rp_extra_of(const struct extras *x, long k)
{
	long i = x->of_row && k >= 0 ? x->of_row[k] : -1;

	return i < 0 ? NULL : &x->e[i];
}

void
rp_extras_free(struct extras *x)
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
