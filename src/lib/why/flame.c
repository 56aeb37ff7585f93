/* flame.c: a differential flame graph, one SVG, from two call graphs. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/utf8.h"
#include "why/flame.h"

#define WIDTH 1000.0	/* the viewBox's width */
#define FRAME_H 17	/* a frame's height with its gap */
#define TOP 34		/* room for the legend */
#define MAX_DEPTH 48
#define MIN_FRAME 0.001	/* of the root: frames narrower are not drawn */
#define CHAR_W 6.6	/* an 11-unit monospace character */

/* A frame of the merged tree: a stack, as far as either side has it. */
struct node {
	const char *name, *file;
	long parent, child, next;	/* -1: none */
	double val[2], self[2];		/* inclusive and self: before, after */
	int depth;
	int is_new;			/* the function is only after */
};

struct tree {
	struct node *n;
	size_t len, cap;
	struct prof_htab kids;		/* (parent, name) -> node */
	int oom;
	int depth;			/* the deepest frame */
};

struct side {
	const struct prof_callgrind_profile *p;
	size_t *first;			/* calls of fn i: order[first[i]..] */
	size_t *order;
	int s;				/* 0 before, 1 after */
	double minv;
	size_t path[MAX_DEPTH + 2];
};

static long
child(struct tree *t, long parent, const char *name, const char *file)
{
	size_t nlen = strlen(name), klen = sizeof(long) + nlen;
	char *key = malloc(klen);
	struct node *n;
	long i = -1;

	if (!key) {
		t->oom = 1;
		return -1;
	}
	memcpy(key, &parent, sizeof(long));
	memcpy(key + sizeof(long), name, nlen);
	i = prof_htab_get(&t->kids, key, klen);
	if (i >= 0)
		goto out;
	if (PROF_GROW(t->n, t->len + 1, t->cap) < 0)
		goto oom;
	if (prof_htab_put(&t->kids, key, klen, (long)t->len) < 0)
		goto oom;
	n = &t->n[t->len];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->file = file;
	n->parent = parent;
	n->child = -1;
	n->next = -1;
	n->depth = parent >= 0 ? t->n[parent].depth + 1 : 0;
	if (n->depth > t->depth)
		t->depth = n->depth;
	if (parent >= 0) {
		n->next = t->n[parent].child;
		t->n[parent].child = (long)t->len;
	}
	i = (long)t->len++;
	goto out;
oom:
	t->oom = 1;
out:
	free(key);
	return i;
}

/* Add v of function fi's cost, reached through parent, and its calls. */
static void
expand(struct tree *t, struct side *sd, size_t fi, double v, long parent,
       int depth)
{
	const struct prof_callgrind_fn *f = &sd->p->fns[fi];
	double scale = f->incl > 0 ? v / (double)f->incl : 0;
	long me = child(t, parent, f->name, f->file);
	size_t k;
	int d;

	if (me < 0)
		return;
	t->n[me].val[sd->s] += v;
	t->n[me].self[sd->s] += (double)f->self * scale;
	if (depth >= MAX_DEPTH)
		return;
	sd->path[depth] = fi;
	for (k = sd->first[fi]; k < sd->first[fi + 1]; k++) {
		const struct prof_callgrind_call *c =
			&sd->p->calls[sd->order[k]];
		double cv = (double)c->ir * scale;

		if (cv < sd->minv)
			continue;
		for (d = 1; d <= depth; d++)
			if (sd->path[d] == c->callee)
				break;
		if (d <= depth)
			continue;	/* back into the stack: stays here */
		expand(t, sd, c->callee, cv, me, depth + 1);
		if (t->oom)
			return;
	}
}

static const struct prof_callgrind_profile *sort_p;

static int
by_caller(const void *a, const void *b)
{
	size_t x = sort_p->calls[*(const size_t *)a].caller;
	size_t y = sort_p->calls[*(const size_t *)b].caller;

	return (x > y) - (x < y);
}

/* One side's stacks into t: every function that something outside the
 * graph called (its cost not paid by callers) is a root's child. */
static int
add_side(struct tree *t, const struct prof_callgrind_profile *p, int s,
	 double minv)
{
	struct side sd = {0};
	size_t i;
	int rc = -1;

	sd.p = p;
	sd.s = s;
	sd.minv = minv;
	sd.first = calloc(p->n_fns + 1, sizeof(*sd.first));
	sd.order = malloc((p->n_calls + 1) * sizeof(*sd.order));
	if (!sd.first || !sd.order)
		goto out;
	for (i = 0; i < p->n_calls; i++) {
		sd.order[i] = i;
		sd.first[p->calls[i].caller + 1]++;
	}
	for (i = 0; i < p->n_fns; i++)
		sd.first[i + 1] += sd.first[i];
	sort_p = p;
	qsort(sd.order, p->n_calls, sizeof(*sd.order), by_caller);
	t->n[0].val[s] = (double)p->total;
	for (i = 0; i < p->n_fns && !t->oom; i++) {
		double r = (double)(p->fns[i].incl - p->fns[i].called);

		if (r >= minv && r > 0)
			expand(t, &sd, i, r, 0, 1);
	}
	rc = t->oom ? -1 : 0;
out:
	free(sd.first);
	free(sd.order);
	return rc;
}

struct out {
	struct prof_buf *b;
	int oom;
};

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (prof_buf_vprintf(o->b, fmt, ap) < 0)
		o->oom = 1;
	va_end(ap);
}

/* Text with <, >, &, " and ' escaped, at most max bytes of it (0: all). */
static void
put_text(struct out *o, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && (!max || i < max); i++) {
		const char *ref = prof_html_entity((unsigned char)s[i]);

		if (ref)
			put(o, "%s", ref);
		else if ((unsigned char)s[i] < 0x20)
			put(o, " ");
		else if (prof_buf_put(o->b, s + i, 1) < 0)
			o->oom = 1;
	}
}

/* 1234567 as "1,234,567". */
static void
grouped(char *dst, size_t n, double v)
{
	char digits[32];
	long long x = llround(fabs(v));
	int len, i, j = 0;

	len = snprintf(digits, sizeof(digits), "%lld", x);
	if (v < 0 && llround(v) != 0 && (size_t)j + 1 < n)
		dst[j++] = '-';
	for (i = 0; i < len && (size_t)j + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			dst[j++] = ',';
		dst[j++] = digits[i];
	}
	dst[j] = '\0';
}

static int
by_name(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a;
	const struct node *y = *(const struct node *const *)b;

	return strcmp(x->name, y->name);
}

struct draw {
	struct out o;
	const struct prof_flame_opts *opts;
	struct tree *t;
	double px;		/* units per cost */
	double most;		/* the largest self change of a drawn frame */
	double total;		/* after's */
	double height;
	const char *unit;
};

/* The fill of a frame whose self cost moved by d. */
static const char *
fill(const struct draw *dr, const struct node *n, char *buf, size_t len)
{
	double d = n->self[1] - n->self[0];
	double t = dr->most > 0 ? fabs(d) / dr->most : 0;

	if (n->is_new) {
		snprintf(buf, len, "url(#%s-new)", dr->opts->id);
		return "new";
	}
	if (t < 0.1 || fabs(d) < dr->total * 1e-5) {
		snprintf(buf, len, "rgb(226,222,212)");
		return "same";
	}
	if (d > 0) {
		snprintf(buf, len, "rgb(%d,%d,%d)", (int)(250 - 30 * t),
			 (int)(205 - 165 * t), (int)(195 - 165 * t));
		return "more";
	}
	snprintf(buf, len, "rgb(%d,%d,%d)", (int)(200 - 160 * t),
		 (int)(215 - 125 * t), (int)(250 - 30 * t));
	return "less";
}

static void
draw_node(struct draw *dr, long i, double x)
{
	struct node *n = &dr->t->n[i];
	struct out *o = &dr->o;
	double w = n->val[1] * dr->px, y, cx = x;
	char col[96], a[32], b[32], c[32], d[32], e[32];
	const char *kind;
	struct node **kids = NULL;
	size_t nk = 0, k;
	long j;

	if (w < WIDTH * MIN_FRAME)
		return;
	y = dr->height - 22 - (n->depth + 1) * FRAME_H;
	kind = fill(dr, n, col, sizeof(col));
	grouped(a, sizeof(a), n->val[1]);
	grouped(b, sizeof(b), n->val[0]);
	grouped(c, sizeof(c), n->self[0]);
	grouped(d, sizeof(d), n->self[1]);
	grouped(e, sizeof(e), n->self[1] - n->self[0]);
	put(o, "<g class=\"frame %s\"><title>", kind);
	put_text(o, n->name, 0);
	if (n->file && strcmp(n->file, "???")) {
		put(o, " (");
		put_text(o, n->file, 0);
		put(o, ")");
	}
	put(o, "%s\nnow: %s %s (%.2f%% of all)\nbefore: %s\n"
	       "self: %s -> %s (%s%s)</title>",
	    n->is_new ? " [new]" : "", a, dr->unit,
	    dr->total > 0 ? 100.0 * n->val[1] / dr->total : 0.0, b, c, d,
	    n->self[1] >= n->self[0] ? "+" : "", e);
	put(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
	       "fill=\"%s\" stroke=\"%s\" stroke-width=\"0.5\"/>",
	    x, y, w, FRAME_H - 1, col,
	    !strcmp(kind, "same") ? "#fff" : "#333");
	if (w >= 4 * CHAR_W) {
		size_t fit = (size_t)((w - 6) / CHAR_W);
		size_t len = strlen(n->name);

		put(o, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + 12);
		if (len <= fit) {
			put_text(o, n->name, 0);
		} else {
			put_text(o, n->name, fit - 2);
			put(o, "..");
		}
		put(o, "</text>");
	}
	put(o, "</g>\n");
	for (j = n->child; j >= 0; j = dr->t->n[j].next)
		nk++;
	if (!nk)
		return;
	kids = malloc(nk * sizeof(*kids));
	if (!kids) {
		o->oom = 1;
		return;
	}
	for (k = 0, j = n->child; j >= 0; j = dr->t->n[j].next)
		kids[k++] = &dr->t->n[j];
	qsort(kids, nk, sizeof(*kids), by_name);
	for (k = 0; k < nk && !o->oom; k++) {
		draw_node(dr, kids[k] - dr->t->n, cx);
		cx += kids[k]->val[1] * dr->px;
	}
	free(kids);
}

/* Whether p has a function of that name (in that file, or any other). */
static int
has(const struct prof_callgrind_profile *p, const char *name,
    const char *file)
{
	size_t i;

	if (prof_callgrind_find(p, name, file) >= 0)
		return 1;
	for (i = 0; i < p->n_fns; i++)
		if (!strcmp(p->fns[i].name, name))
			return 1;
	return 0;
}

int
prof_flame_svg(const struct prof_callgrind_profile *before,
	       const struct prof_callgrind_profile *after,
	       const struct prof_flame_opts *opts, struct prof_buf *out,
	       struct prof_err *err)
{
	struct tree t = {0};
	struct draw dr = {0};
	double big = (double)(after->total > before->total ? after->total :
							     before->total);
	double minv = big * MIN_FRAME / 4;
	size_t i, shown = 0;
	int rc = -1, depth;
	char num[32];
	struct out *o = &dr.o;

	o->b = out;
	if (child(&t, -1, "all", NULL) < 0)
		goto oom;
	if (add_side(&t, before, 0, minv) < 0 || add_side(&t, after, 1, minv) < 0)
		goto oom;
	dr.t = &t;
	dr.opts = opts;
	dr.total = (double)after->total;
	dr.px = after->total > 0 ? WIDTH / (double)after->total : 0;
	dr.unit = opts->unit ? opts->unit : "instructions";
	for (i = 0; i < t.len; i++) {
		struct node *n = &t.n[i];
		double d = fabs(n->self[1] - n->self[0]);

		if (i && !has(before, n->name, n->file))
			n->is_new = n->val[1] > 0;
		if (n->val[1] * dr.px >= WIDTH * MIN_FRAME && d > dr.most)
			dr.most = d;
	}
	depth = 0;
	for (i = 0; i < t.len; i++)
		if (t.n[i].val[1] * dr.px >= WIDTH * MIN_FRAME &&
		    t.n[i].depth > depth)
			depth = t.n[i].depth;
	dr.height = TOP + (depth + 1) * FRAME_H + 22;
	put(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" "
	       "viewBox=\"0 0 %.0f %.0f\" width=\"100%%\" "
	       "preserveAspectRatio=\"xMinYMin meet\" role=\"img\" "
	       "aria-labelledby=\"%s-t\" font-family=\"monospace\" "
	       "font-size=\"11\">\n<title id=\"%s-t\">",
	    WIDTH, dr.height, opts->id, opts->id);
	put_text(o, opts->title ? opts->title : "differential flame graph", 0);
	put(o, "</title>\n<defs><pattern id=\"%s-new\" width=\"6\" "
	       "height=\"6\" patternUnits=\"userSpaceOnUse\" "
	       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
	       "fill=\"rgb(240,150,140)\"/><line x1=\"0\" y1=\"0\" x2=\"0\" "
	       "y2=\"6\" stroke=\"rgb(150,20,10)\" stroke-width=\"3\"/>"
	       "</pattern></defs>\n", opts->id);
	put(o, "<text x=\"0\" y=\"12\">width: %s after; colour: change of a "
	       "function's own %s</text>\n", dr.unit, dr.unit);
	put(o, "<rect x=\"0\" y=\"18\" width=\"10\" height=\"10\" "
	       "fill=\"rgb(220,40,30)\"/><text x=\"14\" y=\"27\">more</text>"
	       "<rect x=\"60\" y=\"18\" width=\"10\" height=\"10\" "
	       "fill=\"rgb(40,90,220)\"/><text x=\"74\" y=\"27\">fewer</text>"
	       "<rect x=\"126\" y=\"18\" width=\"10\" height=\"10\" "
	       "fill=\"url(#%s-new)\"/><text x=\"140\" y=\"27\">new</text>"
	       "<rect x=\"180\" y=\"18\" width=\"10\" height=\"10\" "
	       "fill=\"rgb(226,222,212)\"/><text x=\"194\" y=\"27\">"
	       "unchanged</text>\n", opts->id);
	draw_node(&dr, 0, 0);
	/* what vanished: named, since it has no width after */
	put(o, "<text x=\"0\" y=\"%.0f\">vanished:", dr.height - 6);
	for (i = 0; i < before->n_fns; i++) {
		const struct prof_callgrind_fn *f = &before->fns[i];

		if (f->incl < minv * 4 || has(after, f->name, f->file))
			continue;
		if (shown++ == 8) {
			put(o, " ...");
			break;
		}
		grouped(num, sizeof(num), (double)f->incl);
		put(o, " ");
		put_text(o, f->name, 0);
		put(o, " (%s)", num);
	}
	if (!shown)
		put(o, " none");
	put(o, "</text>\n</svg>\n");
	if (o->oom)
		goto oom;
	rc = 0;
	goto out;
oom:
	prof_err_set(err, "out of memory");
out:
	free(t.n);
	prof_htab_free(&t.kids);
	return rc;
}
