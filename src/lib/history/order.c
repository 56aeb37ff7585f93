/* order.c: the run order of a history over its commit graph (see
 * order.h). Linear but for the heap: a reader sorts every run of
 * the history before it reads one series. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/htab.h"
#include "order.h"

/* An allocation's count: at least 1, so that malloc() never returns NULL
 * for nothing. */
#define N1(n) ((n) ? (n) : 1)

struct run {
	long long id;
	size_t commit, parents;	/* offsets of their text in o->text */
	size_t commit_ix;	/* its commit, numbered as first seen */
};

struct prof_history_order {
	struct run *runs;	/* in commit-time order, as added */
	size_t n, cap;
	char *text;		/* each run's commit and parents, NUL-ended */
	size_t len, text_cap;
	size_t *pos;		/* pos[i]: the run at position i of run order */
	struct prof_htab64 rank;	/* row id -> position, from 1 */
};

struct prof_history_order *
prof_history_order_new(void)
{
	return calloc(1, sizeof(struct prof_history_order));
}

void
prof_history_order_free(struct prof_history_order *o)
{
	if (!o)
		return;
	free(o->runs);
	free(o->text);
	free(o->pos);
	prof_htab64_free(&o->rank);
	free(o);
}

/* s (NULL: "") copied into the text; its offset into *at. */
static int
keep(struct prof_history_order *o, const char *s, size_t *at)
{
	size_t n = strlen(s ? s : "") + 1;

	if (PROF_GROW(o->text, o->len + n, o->text_cap) < 0)
		return -1;
	memcpy(o->text + o->len, s ? s : "", n);
	*at = o->len;
	o->len += n;
	return 0;
}

int
prof_history_order_add(struct prof_history_order *o, long long id,
		       const char *commit, const char *parents)
{
	struct run *r;

	if (PROF_GROW(o->runs, o->n + 1, o->cap) < 0)
		return -1;
	r = &o->runs[o->n];
	r->id = id;
	r->commit_ix = 0;
	if (keep(o, commit, &r->commit) < 0 ||
	    keep(o, parents, &r->parents) < 0)
		return -1;
	o->n++;
	return 0;
}

/* The ready runs, by their position in commit-time order: a binary
 * min-heap of run indices. */
struct heap {
	size_t *a;
	size_t n;
};

static void
heap_push(struct heap *h, size_t v)
{
	size_t i = h->n++;

	while (i > 0 && h->a[(i - 1) / 2] > v) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i] = v;
}

static size_t
heap_pop(struct heap *h)
{
	size_t top = h->a[0], last = h->a[--h->n], i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->a[c + 1] < h->a[c])
			c++;
		if (h->a[c] >= last)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
	return top;
}

/*
 * The graph: commits numbered as first seen, each with its runs (in
 * commit-time order) and its children, from an edge per parent a run
 * names that is a commit of the history. A commit whose runs name the
 * same parent twice has that edge twice, counted twice in indeg and
 * listed twice in its parent's children: each is taken off once, so the
 * order is the same as with one.
 */
struct graph {
	size_t nc;
	size_t *run_first;	/* commit c's runs: runs_of[run_first[c]..] */
	size_t *runs_of;
	size_t *child_first;	/* commit c's children from child[this] */
	size_t *child;
	size_t *indeg;		/* edges from commits not yet done */
	size_t *left;		/* runs not yet in the order */
	unsigned char *released;
};

static void
graph_free(struct graph *g)
{
	free(g->run_first);
	free(g->runs_of);
	free(g->child_first);
	free(g->child);
	free(g->indeg);
	free(g->left);
	free(g->released);
}

/*
 * The commits by name, numbered as first seen: open addressing over the
 * names where they lie in o->text, so that no key is copied (a reader
 * numbers every commit of the history for one series: this is most of
 * its time).
 */
struct commits {
	size_t *slot;		/* a commit's number + 1; 0: empty */
	size_t mask;		/* slots - 1, a power of two minus one */
	const char **name;	/* commit c's name, and its length */
	size_t *len;
	size_t n;
};

static uint64_t
name_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

/* Room for a table of up to n commits. 0, or -1 (out of memory). */
static int
commits_init(struct commits *t, size_t n)
{
	size_t slots = 16;

	while (slots < 2 * n)
		slots *= 2;
	t->slot = calloc(slots, sizeof(*t->slot));
	t->name = malloc(N1(n) * sizeof(*t->name));
	t->len = malloc(N1(n) * sizeof(*t->len));
	t->mask = slots - 1;
	t->n = 0;
	return t->slot && t->name && t->len ? 0 : -1;
}

static void
commits_free(struct commits *t)
{
	free(t->slot);
	free(t->name);
	free(t->len);
}

/* The number of the commit named by the len bytes at s; a new one when
 * add is set (s then stays where it is, in o->text), else -1 when it is
 * not one. */
static long
commits_find(struct commits *t, const char *s, size_t len, int add)
{
	size_t i = (size_t)name_hash(s, len) & t->mask;

	for (;; i = (i + 1) & t->mask) {
		size_t c = t->slot[i];

		if (!c)
			break;
		if (t->len[c - 1] == len && !memcmp(t->name[c - 1], s, len))
			return (long)(c - 1);
	}
	if (!add)
		return -1;
	t->name[t->n] = s;
	t->len[t->n] = len;
	t->slot[i] = ++t->n;
	return (long)(t->n - 1);
}

/* An edge: a parent commit of the history to the commit of a run that
 * names it. */
struct edge {
	size_t parent, child;
};

/* The edges of run i's parents, appended to *e (*n of *cap). */
static int
run_edges(const struct prof_history_order *o, struct commits *ids, size_t i,
	  struct edge **e, size_t *n, size_t *cap)
{
	const char *s = o->text + o->runs[i].parents;
	size_t c = o->runs[i].commit_ix;

	for (;;) {
		size_t len;
		long p;

		s += strspn(s, " \t\n");
		len = strcspn(s, " \t\n");
		if (!len)
			return 0;
		p = commits_find(ids, s, len, 0);
		s += len;
		if (p < 0 || (size_t)p == c)
			continue;
		if (prof_grow(e, cap, *n + 1, sizeof(**e)) < 0)
			return -1;
		(*e)[*n].parent = (size_t)p;
		(*e)[(*n)++].child = c;
	}
}

static int
graph_build(struct prof_history_order *o, struct graph *g)
{
	struct commits ids = {0};
	struct edge *e = NULL;
	size_t i, c, ne = 0, cap = 0;
	int rc = -1;

	if (commits_init(&ids, o->n) < 0)
		goto out;
	for (i = 0; i < o->n; i++) {
		const char *commit = o->text + o->runs[i].commit;

		o->runs[i].commit_ix =
			(size_t)commits_find(&ids, commit, strlen(commit), 1);
	}
	g->nc = ids.n;
	g->run_first = calloc(g->nc + 1, sizeof(*g->run_first));
	g->runs_of = malloc(N1(o->n) * sizeof(*g->runs_of));
	g->child_first = calloc(g->nc + 2, sizeof(*g->child_first));
	g->indeg = calloc(N1(g->nc), sizeof(*g->indeg));
	g->left = calloc(N1(g->nc), sizeof(*g->left));
	g->released = calloc(N1(g->nc), 1);
	if (!g->run_first || !g->runs_of || !g->child_first || !g->indeg ||
	    !g->left || !g->released)
		goto out;
	/* Each commit's runs, in commit-time order (counting sort). */
	for (i = 0; i < o->n; i++)
		g->left[o->runs[i].commit_ix]++;
	for (c = 0; c < g->nc; c++)
		g->run_first[c + 1] = g->run_first[c] + g->left[c];
	for (i = 0; i < o->n; i++) {
		c = o->runs[i].commit_ix;
		g->runs_of[g->run_first[c + 1] - g->left[c]--] = i;
	}
	for (c = 0; c < g->nc; c++)
		g->left[c] = g->run_first[c + 1] - g->run_first[c];
	/* Each commit's children, the same way: counted, summed, then
	 * each put where its parent's next one goes (child_first[p] moves
	 * on to the next commit's start, and is moved back after). */
	for (i = 0; i < o->n; i++)
		if (run_edges(o, &ids, i, &e, &ne, &cap) < 0)
			goto out;
	g->child = malloc(N1(ne) * sizeof(*g->child));
	if (!g->child)
		goto out;
	for (i = 0; i < ne; i++) {
		g->child_first[e[i].parent + 1]++;
		g->indeg[e[i].child]++;
	}
	for (c = 0; c < g->nc; c++)
		g->child_first[c + 1] += g->child_first[c];
	for (i = 0; i < ne; i++)
		g->child[g->child_first[e[i].parent]++] = e[i].child;
	for (c = g->nc; c > 0; c--)
		g->child_first[c] = g->child_first[c - 1];
	g->child_first[0] = 0;
	rc = 0;
out:
	commits_free(&ids);
	free(e);
	return rc;
}

/* Commit c's runs are ready. */
static void
release(struct graph *g, struct heap *h, size_t c)
{
	size_t i;

	g->released[c] = 1;
	for (i = g->run_first[c]; i < g->run_first[c + 1]; i++)
		heap_push(h, g->runs_of[i]);
}

int
prof_history_order_sort(struct prof_history_order *o)
{
	struct graph g = {0};
	struct heap h = {0};
	size_t done = 0, cursor = 0, i, c;
	int rc = -1;

	free(o->pos);
	prof_htab64_free(&o->rank);
	memset(&o->rank, 0, sizeof(o->rank));
	o->pos = malloc(N1(o->n) * sizeof(*o->pos));
	h.a = malloc(N1(o->n) * sizeof(*h.a));
	if (!o->pos || !h.a || graph_build(o, &g) < 0)
		goto out;
	for (c = 0; c < g.nc; c++)
		if (!g.indeg[c])
			release(&g, &h, c);
	while (done < o->n) {
		size_t r;

		if (!h.n) {
			/* A circle of parents: the first run in
			 * commit-time order not yet ready goes on. */
			while (g.released[o->runs[cursor].commit_ix])
				cursor++;
			release(&g, &h, o->runs[cursor].commit_ix);
		}
		r = heap_pop(&h);
		o->pos[done++] = r;
		if (prof_htab64_put(&o->rank, (uint64_t)o->runs[r].id,
				    (int64_t)done) < 0)
			goto out;
		c = o->runs[r].commit_ix;
		if (--g.left[c])
			continue;
		for (i = g.child_first[c]; i < g.child_first[c + 1]; i++) {
			size_t ch = g.child[i];

			if (!g.released[ch] && !--g.indeg[ch])
				release(&g, &h, ch);
		}
	}
	rc = 0;
out:
	graph_free(&g);
	free(h.a);
	return rc;
}

size_t
prof_history_order_n(const struct prof_history_order *o)
{
	return o->n;
}

long long
prof_history_order_id(const struct prof_history_order *o, size_t i)
{
	return o->runs[o->pos[i]].id;
}

const char *
prof_history_order_commit(const struct prof_history_order *o, size_t i)
{
	return o->text + o->runs[o->pos[i]].commit;
}

long long
prof_history_order_rank(const struct prof_history_order *o, long long id)
{
	int64_t rank;

	if (!o->pos || !prof_htab64_get(&o->rank, (uint64_t)id, &rank))
		return 0;
	return rank;
}
