/* why.c: two callgrind profiles of one workload, function by function:
 * what appeared, what vanished, and what changed most. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/spawn.h"
#include "why/why.h"

const char *
prof_why_state_name(enum prof_why_state s)
{
	switch (s) {
	case PROF_WHY_NEW:
		return "new";
	case PROF_WHY_VANISHED:
		return "vanished";
	default:
		return "changed";
	}
}

/* What p counts: "Ir", or its event ("Hits"). */
static const char *
event_of(const struct prof_callgrind_profile *p)
{
	return p->event[0] ? p->event : "Ir";
}

static long long
llabs_(long long x)
{
	return x < 0 ? -x : x;
}

static int rank_by_incl;

/* The tree's move (moved_tree()) while one diff runs. */
static struct {
	const char *pb, *pa;
	size_t lb, la;
} mv;

/*
 * Two builds of one tree in two folders (a compare's reference is built
 * in a worktree) name every source file with another prefix. The prefix
 * pair that most functions of one name on both sides agree on: *pb in
 * before stands for *pa in after (lengths *lb, *la; 0 and 0 for none).
 */
static void
moved_tree(const struct prof_callgrind_profile *before,
	   const struct prof_callgrind_profile *after, const char **pb,
	   size_t *lb, const char **pa, size_t *la)
{
	struct {
		const char *b, *a;
		size_t lb, la;
		int votes;
	} v[8];
	size_t nv = 0, i, k;
	int best = 0;

	*pb = *pa = "";
	*lb = *la = 0;
	for (i = 0; i < after->n_fns; i++) {
		const char *fa = after->fns[i].file, *fb;
		long j = prof_callgrind_find(before, after->fns[i].name, NULL);
		size_t na, nb;

		if (j < 0 || fa[0] != '/' ||
		    prof_callgrind_find(after, after->fns[i].name, NULL) < 0)
			continue;
		fb = before->fns[j].file;
		if (fb[0] != '/' || !strcmp(fa, fb))
			continue;
		na = strlen(fa);
		nb = strlen(fb);
		/* the common tail, from a '/' on */
		while (na && nb && fa[na - 1] == fb[nb - 1]) {
			na--;
			nb--;
		}
		while (fa[na] && fa[na] != '/')
			na++;
		nb = strlen(fb) - (strlen(fa) - na);
		if (!fa[na] || fb[nb] != '/')
			continue;
		for (k = 0; k < nv; k++)
			if (v[k].la == na && v[k].lb == nb &&
			    !strncmp(v[k].a, fa, na) && !strncmp(v[k].b, fb, nb))
				break;
		if (k == nv) {
			if (nv == 8)
				continue;
			v[nv].a = fa;
			v[nv].b = fb;
			v[nv].la = na;
			v[nv].lb = nb;
			v[nv++].votes = 0;
		}
		v[k].votes++;
	}
	for (k = 0; k < nv; k++) {
		if (v[k].votes <= best)
			continue;
		best = v[k].votes;
		*pb = v[k].b;
		*lb = v[k].lb;
		*pa = v[k].a;
		*la = v[k].la;
	}
}

/* The function of before that is f of after, its file moved as the tree
 * moved; -1 when none. */
static long
find_moved(const struct prof_callgrind_profile *before,
	   const struct prof_callgrind_fn *f, const char *pb, size_t lb,
	   const char *pa, size_t la)
{
	char stack[1024];
	size_t rest;

	if (!la || strncmp(f->file, pa, la))
		return prof_callgrind_find(before, f->name, f->file);
	rest = strlen(f->file + la);
	if (lb + rest >= sizeof(stack))
		return -1;
	memcpy(stack, pb, lb);
	memcpy(stack + lb, f->file + la, rest + 1);
	return prof_callgrind_find(before, f->name, stack);
}

/* Whether file b of before is file a of after, the tree moved. */
static int
same_file(const char *b, const char *a, const char *pb, size_t lb,
	  const char *pa, size_t la)
{
	if (!strcmp(a, b))
		return 1;
	return la && !strncmp(a, pa, la) && !strncmp(b, pb, lb) &&
	       !strcmp(a + la, b + lb);
}

static int
by_change(const void *a, const void *b)
{
	const struct prof_why_fn *x = a, *y = b;
	long long xs = llabs_(x->self_after - x->self_before);
	long long ys = llabs_(y->self_after - y->self_before);
	long long xi = llabs_(x->incl_after - x->incl_before);
	long long yi = llabs_(y->incl_after - y->incl_before);
	int c;

	if (rank_by_incl) {
		long long t = xs;

		xs = xi;
		xi = t;
		t = ys;
		ys = yi;
		yi = t;
	}
	if (xs != ys)
		return xs > ys ? -1 : 1;
	if (xi != yi)
		return xi > yi ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->file, y->file);
}

/* Add one entry; a function on both sides with nothing changed is only
 * counted. Returns 0 or -1 (out of memory). */
static int
add(struct prof_why *w, size_t *cap, const struct prof_callgrind_fn *b,
    const struct prof_callgrind_fn *a)
{
	struct prof_why_fn *e;
	long long delta = w->total_after - w->total_before;

	if (a && b && a->self == b->self && a->incl == b->incl) {
		w->unchanged++;
		return 0;
	}
	if (PROF_GROW(w->fns, w->n + 1, *cap) < 0)
		return -1;
	e = &w->fns[w->n++];
	memset(e, 0, sizeof(*e));
	e->name = a ? a->name : b->name;
	e->file = a ? a->file : b->file;
	e->state = !b ? PROF_WHY_NEW : !a ? PROF_WHY_VANISHED :
		   PROF_WHY_CHANGED;
	if (a && b && !same_file(b->file, a->file, mv.pb, mv.lb, mv.pa, mv.la))
		e->file_before = b->file;
	e->self_before = b ? b->self : 0;
	e->incl_before = b ? b->incl : 0;
	e->self_after = a ? a->self : 0;
	e->incl_after = a ? a->incl : 0;
	if (delta) {
		e->share = (double)(e->self_after - e->self_before) /
			   (double)delta;
		e->incl_share = (double)(e->incl_after - e->incl_before) /
				(double)delta;
	}
	if (e->state == PROF_WHY_NEW)
		w->n_new++;
	if (e->state == PROF_WHY_VANISHED)
		w->n_vanished++;
	return 0;
}

/* How many functions of p that are not yet matched carry name. */
static size_t
left_named(const struct prof_callgrind_profile *p, const char *taken,
	   const char *name, size_t *which)
{
	size_t i, n = 0;

	for (i = 0; i < p->n_fns; i++) {
		if (taken[i] || strcmp(p->fns[i].name, name))
			continue;
		*which = i;
		n++;
	}
	return n;
}

int
prof_why_diff(const struct prof_callgrind_profile *before,
	      const struct prof_callgrind_profile *after, int by_incl,
	      struct prof_why *w, struct prof_err *err)
{
	char *taken_b = calloc(before->n_fns + 1, 1);
	char *taken_a = calloc(after->n_fns + 1, 1);
	long *match = malloc((after->n_fns + 1) * sizeof(*match));
	size_t i, cap = 0, lb, la;
	const char *pb, *pa;
	int rc = -1;

	memset(w, 0, sizeof(*w));
	w->total_before = before->total;
	w->total_after = after->total;
	/* The unit is part of what a profile is: instructions less CPU
	 * samples is no change of either. */
	if (strcmp(before->event, after->event)) {
		prof_err_set(err, "counts %s, but the profile before counts "
			     "%s: profiles of different units are not "
			     "compared", event_of(after),
			     event_of(before));
		goto out;
	}
	if (!taken_b || !taken_a || !match) {
		prof_err_set(err, "out of memory");
		goto out;
	}
	moved_tree(before, after, &pb, &lb, &pa, &la);
	mv.pb = pb;
	mv.lb = lb;
	mv.pa = pa;
	mv.la = la;
	/* by name and file first */
	for (i = 0; i < after->n_fns; i++) {
		const struct prof_callgrind_fn *f = &after->fns[i];

		match[i] = find_moved(before, f, pb, lb, pa, la);
		if (match[i] >= 0)
			taken_b[match[i]] = 1;
	}
	/* then a name left alone on both sides: moved to another file */
	for (i = 0; i < after->n_fns; i++)
		taken_a[i] = match[i] >= 0;
	for (i = 0; i < after->n_fns; i++) {
		size_t b, a;

		if (match[i] >= 0 ||
		    left_named(before, taken_b, after->fns[i].name, &b) != 1 ||
		    left_named(after, taken_a, after->fns[i].name, &a) != 1)
			continue;
		match[i] = (long)b;
		taken_b[b] = 1;
		taken_a[i] = 1;
	}
	for (i = 0; i < after->n_fns; i++)
		if (add(w, &cap, match[i] >= 0 ? &before->fns[match[i]] : NULL,
			&after->fns[i]) < 0)
			goto oom;
	for (i = 0; i < before->n_fns; i++)
		if (!taken_b[i] && add(w, &cap, &before->fns[i], NULL) < 0)
			goto oom;
	rank_by_incl = by_incl;
	if (w->n)
		qsort(w->fns, w->n, sizeof(*w->fns), by_change);
	rc = 0;
	goto out;
oom:
	prof_err_set(err, "out of memory");
out:
	free(taken_b);
	free(taken_a);
	free(match);
	if (rc < 0)
		prof_why_free(w);
	return rc;
}

void
prof_why_free(struct prof_why *w)
{
	free(w->fns);
	w->fns = NULL;
	w->n = 0;
}

/* c++filt's lines, one a name, in the order the names were given. */
struct demangled {
	char **names;		/* by function index; NULL: not mangled */
	size_t *of;		/* the function indexes of this batch */
	size_t n, next;		/* in the batch, and lines read */
	int oom;
};

static int
demangled_line(void *arg, char *line, size_t len, int complete)
{
	struct demangled *d = arg;
	char *s;

	(void)complete;
	if (d->next >= d->n)
		return 0;
	s = strndup(line, len);
	if (!s) {
		d->oom = 1;
		return 1;
	}
	d->names[d->of[d->next++]] = s;
	return 0;
}

static const char *
demangled_name(void *arg, size_t i, const char *name)
{
	(void)name;
	return ((struct demangled *)arg)->names[i];
}

/* Names in one c++filt command line: well under ARG_MAX. */
#define DEMANGLE_BATCH_BYTES (64 * 1024)

int
prof_why_demangle(struct prof_callgrind_profile *p, const char *program,
		  struct prof_err *err)
{
	struct demangled d = {0};
	char **argv = NULL;
	size_t i = 0, k, mangled = 0, n_fns = p->n_fns;
	int rc = -1;

	for (k = 0; k < p->n_fns; k++)
		if (!strncmp(p->fns[k].name, "_Z", 2))
			mangled++;
	if (!mangled)
		return 1;
	d.names = calloc(p->n_fns, sizeof(*d.names));
	d.of = malloc(mangled * sizeof(*d.of));
	argv = malloc((mangled + 3) * sizeof(*argv));
	if (!d.names || !d.of || !argv)
		goto oom;
	/* c++filt -- NAME...: one line a name, the same order */
	while (i < p->n_fns) {
		struct prof_spawn sp = {0};
		struct prof_spawn_result res;
		size_t bytes = 0, na = 2;

		argv[0] = (char *)program;
		argv[1] = "--";
		d.n = d.next = 0;
		for (; i < p->n_fns && bytes < DEMANGLE_BATCH_BYTES; i++) {
			if (strncmp(p->fns[i].name, "_Z", 2))
				continue;
			argv[na++] = p->fns[i].name;
			d.of[d.n++] = i;
			bytes += strlen(p->fns[i].name) + 1;
		}
		if (!d.n)
			break;
		argv[na] = NULL;
		sp.argv = argv;
		sp.timeout_s = 60;
		sp.stdout_fd = PROF_SPAWN_PIPE;
		sp.on_line = demangled_line;
		sp.arg = &d;
		if (prof_spawn_run(&sp, &res, err) < 0)
			goto out;
		if (d.oom) {
			prof_spawn_free(&res);
			goto oom;
		}
		if (!prof_spawn_ok(&res) || d.next != d.n) {
			/* not installed, or not c++filt: names as they are */
			prof_spawn_free(&res);
			rc = 0;
			goto out;
		}
		prof_spawn_free(&res);
	}
	rc = prof_callgrind_rename(p, demangled_name, &d, err) < 0 ? -1 : 1;
	goto out;
oom:
	prof_err_set(err, "out of memory");
out:
	/* by the functions' indexes before they were merged */
	if (d.names)
		for (k = 0; k < n_fns; k++)
			free(d.names[k]);
	free(d.names);
	free(d.of);
	free(argv);
	return rc;
}
