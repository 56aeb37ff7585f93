/* dhat.c: valgrind DHAT's JSON read into allocation sites per function,
 * and two profiles' sites compared. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "base/json.h"
#include "why/dhat.h"

/* What one frame of DHAT's frame table (ftbl) is to a site. */
struct frame {
	char *name;	/* the function ("???" when unknown) */
	char *file;	/* its source file, its object, or "" */
	int inside;	/* a frame of the project */
	int alloc;	/* an allocator entry */
	int marker;	/* the harness's timed call of run() */
	int worker;	/* the harness's worker: a prof workload binary */
	int thread;	/* glibc's start of a thread (start_thread) */
};

/* The allocator's entry points: never a site. */
static int
allocator_name(const char *n)
{
	static const char *const names[] = {
		"malloc", "calloc", "realloc", "reallocarray", "free",
		"memalign", "aligned_alloc", "posix_memalign", "valloc",
		"pvalloc", "strdup", "strndup", "__strdup", "__strndup",
		"malloc_usable_size", NULL,
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(n, names[i]))
			return 1;
	return !strncmp(n, "__libc_", 7) || !strncmp(n, "operator new", 12) ||
	       !strncmp(n, "operator delete", 15);
}

/* Whether an object path is a shared object ("libc.so.6", "x.so"). */
static int
shared_object(const char *obj)
{
	const char *base = strrchr(obj, '/');
	size_t len;

	base = base ? base + 1 : obj;
	len = strlen(base);
	return strstr(base, ".so.") || (len > 3 && !strcmp(base + len - 3, ".so"));
}

/* Whether s[0..n) is "FILE:LINE". */
static int
file_line(const char *s, size_t n)
{
	size_t k = n;

	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	return k < n && k > 1 && s[k - 1] == ':';
}

/*
 * "0x10D373: copy_run (/src/ab.c:161)", "0x48417B4: malloc (in
 * /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)", "0x4AA5B0D: ???
 * (in /usr/lib/libcrypto.so.3)" or "[root]" into f. The location is the
 * last " (...)" that says "in OBJECT" or "FILE:LINE": a C++ name has
 * parentheses of its own. -1 when out of memory.
 */
static int
frame_parse(const char *s, struct frame *f)
{
	const char *name = s, *end = s + strlen(s), *loc = NULL, *p;
	size_t nlen, flen = 0;
	int in_obj = 0;

	if (s[0] == '0' && s[1] == 'x' && (p = strstr(s, ": ")) != NULL)
		name = p + 2;
	if (end > name && end[-1] == ')') {
		for (p = end - 1; p > name; p--) {
			if (p[0] != '(' || p[-1] != ' ')
				continue;
			if (!strncmp(p + 1, "in ", 3)) {
				loc = p + 4;
				in_obj = 1;
				break;
			}
			if (file_line(p + 1, (size_t)(end - 1 - (p + 1)))) {
				loc = p + 1;
				break;
			}
		}
	}
	nlen = loc ? (size_t)(loc - (in_obj ? 4 : 1) - 1 - name) :
		     (size_t)(end - name);
	if (loc) {
		flen = (size_t)(end - 1 - loc);
		/* FILE:LINE: the file up to the last ':' */
		while (!in_obj && flen && loc[flen] != ':')
			flen--;
	}
	f->name = strndup(name, nlen);
	f->file = loc ? strndup(loc, flen) : strdup("");
	if (!f->name || !f->file)
		return -1;
	f->alloc = allocator_name(f->name);
	if (!loc)
		f->inside = 0;	/* "???" or "[root]": no place */
	else if (in_obj)
		f->inside = !shared_object(f->file);
	else
		f->inside = f->file[0] == '/' && strncmp(f->file, "/usr/", 5);
	f->inside = f->inside && !f->alloc && strcmp(f->name, "???");
	f->thread = !strcmp(f->name, "start_thread");
	/* The harness's call of run(): with its source, or (a harness built
	 * without -g) in the workload binary. */
	if (!strcmp(f->name, "timed_call") ||
	    !strcmp(f->name, "prof_worker_run")) {
		size_t fl = strlen(f->file);
		int harness = in_obj ? !shared_object(f->file) :
			      fl >= 9 && !strcmp(f->file + fl - 9, "/phases.c");

		f->marker = harness && !strcmp(f->name, "timed_call");
		f->worker = harness;
	}
	return 0;
}

static void
frames_free(struct frame *fr, size_t n)
{
	size_t i;

	for (i = 0; fr && i < n; i++) {
		free(fr[i].name);
		free(fr[i].file);
	}
	free(fr);
}

/* A non-negative integer member of pp, or -1 with err. */
static int
pp_count(struct json_object *pp, const char *key, size_t i, int need,
	 long long *v, struct prof_err *err)
{
	struct json_object *x = prof_json_get(pp, key);

	*v = 0;
	if (!x && !need)
		return 0;
	if (!json_object_is_type(x, json_type_int) ||
	    json_object_get_int64(x) < 0)
	{
		char where[64];

		snprintf(where, sizeof(where), ".pps[%zu].%s", i, key);
		return prof_err_path(err, where, "expected a non-negative "
				     "integer, not %.40s",
				     x ? json_object_to_json_string(x) :
					 "nothing");
	}
	*v = json_object_get_int64(x);
	return 0;
}

static int
site_cmp(const void *a, const void *b)
{
	const struct prof_dhat_site *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->file, y->file);
}

/* The site of frame f in p (sites[0..n) unsorted while loading). */
static struct prof_dhat_site *
site_of(struct prof_dhat_profile *p, size_t *cap, const struct frame *f)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->sites[i].name, f->name) &&
		    !strcmp(p->sites[i].file, f->file))
			return &p->sites[i];
	if (PROF_GROW(p->sites, p->n + 1, *cap) < 0)
		return NULL;
	memset(&p->sites[p->n], 0, sizeof(p->sites[0]));
	p->sites[p->n].name = strdup(f->name);
	p->sites[p->n].file = strdup(f->file);
	if (!p->sites[p->n].name || !p->sites[p->n].file) {
		free(p->sites[p->n].name);
		free(p->sites[p->n].file);
		return NULL;
	}
	return &p->sites[p->n++];
}

/* The frame a point is counted for, or -1 with err; *marked 1 when its
 * stack holds the harness's call of run(), 2 when it is a thread's (the
 * harness starts none: the workload's own), else 0. */
static long
point_frame(struct json_object *fs, size_t i, const struct frame *fr,
	    size_t nf, int *marked, struct prof_err *err)
{
	size_t k, n = json_object_array_length(fs);
	long site = -1, first = -1;
	int thread = 0;

	*marked = 0;
	for (k = 0; k < n; k++) {
		struct json_object *x = json_object_array_get_idx(fs, k);
		int64_t v = json_object_get_int64(x);

		if (!json_object_is_type(x, json_type_int) || v < 0 ||
		    (uint64_t)v >= nf) {
			char where[64];

			snprintf(where, sizeof(where), ".pps[%zu].fs[%zu]", i,
				 k);
			return prof_err_path(err, where, "expected a frame of "
					     ".ftbl (0 to %zu)", nf - 1);
		}
		if (fr[v].marker) {
			*marked = 1;
			break;	/* the harness calls run() from here */
		}
		thread |= fr[v].thread;
		if (first < 0 && !fr[v].alloc && v != 0)
			first = (long)v;
		if (site < 0 && fr[v].inside)
			site = (long)v;
	}
	if (site < 0)
		site = first >= 0 ? first : 0;
	if (!*marked && thread)
		*marked = 2;
	return site;
}

/* The checks of DHAT's top level: version 2, heap mode, the frame table
 * and the points as arrays (*pps and *ftbl). -1 with err. */
static int
check_top(struct json_object *root, struct json_object **pps,
	  struct json_object **ftbl, struct prof_err *err)
{
	struct json_object *v;

	if (!json_object_is_type(root, json_type_object))
		return prof_err_path(err, ".",
				     "expected DHAT's JSON object, not %s",
				     prof_json_type_name(root));
	v = prof_json_get(root, "dhatFileVersion");
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != 2)
		return prof_err_path(err, ".dhatFileVersion",
				     "expected 2 (valgrind 3.15 or later's "
				     "DHAT), not %s",
				     v ? json_object_to_json_string(v) :
					 "nothing");
	if (!prof_json_str(root, "mode") ||
	    strcmp(prof_json_str(root, "mode"), "heap"))
		return prof_err_path(err, ".mode",
				     "expected \"heap\" (valgrind "
				     "--tool=dhat without --mode)");
	*pps = prof_json_get(root, "pps");
	*ftbl = prof_json_get(root, "ftbl");
	if (!json_object_is_type(*ftbl, json_type_array) ||
	    !json_object_array_length(*ftbl))
		return prof_err_path(err, ".ftbl",
				     "expected an array of frames");
	if (!json_object_is_type(*pps, json_type_array))
		return prof_err_path(err, ".pps",
				     "expected an array of program points");
	return 0;
}

/* The frame table parsed into *fr (*nf of them, for frames_free() even
 * on error); *worker counts the harness's worker frames. -1 with err. */
static int
load_frames(struct json_object *ftbl, struct frame **fr, size_t *nf,
	    size_t *worker, struct prof_err *err)
{
	char where[64];
	size_t i;

	*nf = json_object_array_length(ftbl);
	*fr = calloc(*nf, sizeof(**fr));
	if (!*fr)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < *nf; i++) {
		struct json_object *s = json_object_array_get_idx(ftbl, i);

		if (!json_object_is_type(s, json_type_string)) {
			snprintf(where, sizeof(where), ".ftbl[%zu]", i);
			return prof_err_path(err, where,
					     "expected a string, not %s",
					     prof_json_type_name(s));
		}
		if (frame_parse(json_object_get_string(s), &(*fr)[i]) < 0)
			return prof_err_set(err, "out of memory");
		*worker += (*fr)[i].worker;
	}
	return 0;
}

/*
 * Which frame each of the np points is for (at) and whether its stack
 * passes through run() (marks, point_frame()): in a prof worker (the
 * harness on some stack), only those are counted, and those of the
 * workload's threads (their stacks start at start_thread, not in the
 * harness: a thread that run() starts allocates there); none when run()
 * allocated nothing. *marked counts the points run() called. -1 with err.
 */
static int
mark_points(struct json_object *pps, size_t np, const struct frame *fr,
	    size_t nf, long *at, int *marks, size_t *marked,
	    struct prof_err *err)
{
	char where[64];
	size_t i;

	for (i = 0; i < np; i++) {
		struct json_object *pp = json_object_array_get_idx(pps, i);
		struct json_object *fs = prof_json_get(pp, "fs");

		if (!json_object_is_type(pp, json_type_object)) {
			snprintf(where, sizeof(where), ".pps[%zu]", i);
			return prof_err_path(err, where,
					     "expected an object, not %s",
					     prof_json_type_name(pp));
		}
		if (!json_object_is_type(fs, json_type_array)) {
			snprintf(where, sizeof(where), ".pps[%zu].fs", i);
			return prof_err_path(err, where,
					     "expected an array of frames");
		}
		at[i] = point_frame(fs, i, fr, nf, &marks[i], err);
		if (at[i] < 0)
			return -1;
		*marked += marks[i] == 1;
	}
	return 0;
}

/* Point i's bytes, allocations and peak (pp's tb, tbk and mb) added to
 * its site's and p's; -1 with err past 64 bits. */
static int
add_point(struct prof_dhat_profile *p, struct prof_dhat_site *s, size_t i,
	  long long tb, long long tbk, long long mb, struct prof_err *err)
{
	char where[64];

	if (tb > INT64_MAX - s->bytes || tbk > INT64_MAX - s->allocs ||
	    mb > INT64_MAX - s->max_live || tb > INT64_MAX - p->bytes ||
	    tbk > INT64_MAX - p->allocs || mb > INT64_MAX - p->max_live) {
		snprintf(where, sizeof(where), ".pps[%zu]", i);
		return prof_err_path(err, where, "the sums pass 64 bits");
	}
	s->bytes += tb;
	s->allocs += tbk;
	s->max_live += mb;
	p->bytes += tb;
	p->allocs += tbk;
	p->max_live += mb;
	p->counted++;
	return 0;
}

/* The counted points' costs summed into their sites; -1 with err. */
static int
sum_points(struct prof_dhat_profile *p, struct json_object *pps,
	   const struct frame *fr, const long *at, const int *marks,
	   struct prof_err *err)
{
	size_t i, cap = 0;

	for (i = 0; i < p->points; i++) {
		struct json_object *pp = json_object_array_get_idx(pps, i);
		struct prof_dhat_site *s;
		long long tb, tbk, mb;

		if (pp_count(pp, "tb", i, 1, &tb, err) < 0 ||
		    pp_count(pp, "tbk", i, 1, &tbk, err) < 0 ||
		    pp_count(pp, "mb", i, 0, &mb, err) < 0)
			return -1;
		if (p->scope == PROF_DHAT_RUN && !marks[i])
			continue;
		s = site_of(p, &cap, &fr[at[i]]);
		if (!s)
			return prof_err_set(err, "out of memory");
		if (add_point(p, s, i, tb, tbk, mb, err) < 0)
			return -1;
	}
	return 0;
}

int
prof_dhat_load(const char *path, struct prof_dhat_profile *p,
	       struct prof_err *err)
{
	struct json_object *root, *pps = NULL, *ftbl = NULL;
	struct frame *fr = NULL;
	long *at = NULL;
	int *marks = NULL;
	size_t nf = 0, np, marked = 0, worker = 0;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	root = prof_json_load(path, err);
	if (!root)
		return -1;
	if (check_top(root, &pps, &ftbl, err) < 0 ||
	    load_frames(ftbl, &fr, &nf, &worker, err) < 0)
		goto out;
	np = json_object_array_length(pps);
	at = calloc(np + 1, sizeof(*at));
	marks = calloc(np + 1, sizeof(*marks));
	if (!at || !marks) {
		prof_err_set(err, "out of memory");
		goto out;
	}
	if (mark_points(pps, np, fr, nf, at, marks, &marked, err) < 0)
		goto out;
	marked += worker;
	p->scope = marked ? PROF_DHAT_RUN : PROF_DHAT_PROCESS;
	p->points = np;
	if (sum_points(p, pps, fr, at, marks, err) < 0)
		goto out;
	if (p->n)
		qsort(p->sites, p->n, sizeof(*p->sites), site_cmp);
	rc = 0;
out:
	if (rc < 0) {
		prof_err_file(err, path);
		prof_dhat_free(p);
	}
	free(at);
	free(marks);
	frames_free(fr, nf);
	json_object_put(root);
	return rc;
}

void
prof_dhat_free(struct prof_dhat_profile *p)
{
	size_t i;

	for (i = 0; p->sites && i < p->n; i++) {
		free(p->sites[i].name);
		free(p->sites[i].file);
	}
	free(p->sites);
	memset(p, 0, sizeof(*p));
}

const char *
prof_dhat_by_name(enum prof_dhat_by by)
{
	return by == PROF_DHAT_BY_ALLOCS ? "allocations" :
	       by == PROF_DHAT_BY_LIVE	 ? "max-live" :
					   "bytes";
}

int
prof_dhat_by_parse(const char *s, enum prof_dhat_by *by)
{
	if (!strcmp(s, "bytes"))
		*by = PROF_DHAT_BY_BYTES;
	else if (!strcmp(s, "allocations"))
		*by = PROF_DHAT_BY_ALLOCS;
	else if (!strcmp(s, "max-live"))
		*by = PROF_DHAT_BY_LIVE;
	else
		return -1;
	return 0;
}

enum prof_dhat_by
prof_dhat_by_metric(const char *metric)
{
	if (metric && !strcmp(metric, "host_allocs"))
		return PROF_DHAT_BY_ALLOCS;
	if (metric && !strcmp(metric, "host_peak_bytes"))
		return PROF_DHAT_BY_LIVE;
	return PROF_DHAT_BY_BYTES;
}

const char *
prof_dhat_state_name(enum prof_dhat_state s)
{
	return s == PROF_DHAT_NEW      ? "new" :
	       s == PROF_DHAT_VANISHED ? "vanished" :
					 "changed";
}

long long
prof_dhat_total(const struct prof_dhat_profile *p, enum prof_dhat_by by)
{
	return by == PROF_DHAT_BY_ALLOCS ? p->allocs :
	       by == PROF_DHAT_BY_LIVE	 ? p->max_live :
					   p->bytes;
}

/* The last part of a path: sites of two builds in two folders match. */
static const char *
base_of(const char *f)
{
	const char *s = strrchr(f, '/');

	return s ? s + 1 : f;
}

/*
 * The bare name of a function as valgrind names it, into out: a C++
 * name's return type, scope and parameter list left out
 * ("tiny::copy_of(tiny::Table const&)" and "void ns::f<int>(int) const"
 * are "copy_of" and "f<int>"), for valgrind names an inlined frame by
 * its bare name only (DWARF's), so that the same function inlined in
 * one build and not in the other is one site. A C name is itself.
 */
static void
bare_name(const char *name, char *out, size_t n)
{
	size_t len = strlen(name), start = 0, end = len, i;
	int depth = 0;

	/* the parameter list: the last top-level "(...)", and what follows
	 * it (" const"); "operator()(int)" keeps its own "()" */
	for (i = len; i > 0; i--) {
		char ch = name[i - 1];

		if (ch == ')' || ch == '>')
			depth++;
		else if ((ch == '(' || ch == '<') && depth > 0 && !--depth &&
			 ch == '(' && i > 1) {
			end = i - 1;
			break;
		}
	}
	/* the scope and the return type: after the last top-level "::" or
	 * space */
	depth = 0;
	for (i = 0; i < end; i++) {
		char ch = name[i];

		if (ch == '<' || ch == '(')
			depth++;
		else if ((ch == '>' || ch == ')') && depth > 0)
			depth--;
		else if (!depth && ch == ' ')
			start = i + 1;
		else if (!depth && ch == ':' && name[i + 1] == ':')
			start = i + 2;
	}
	if (start > end)
		start = end;
	snprintf(out, n, "%.*s", (int)(end - start), name + start);
}

static long long
delta_of(const struct prof_dhat_change *c, enum prof_dhat_by by)
{
	return by == PROF_DHAT_BY_ALLOCS ? c->allocs_after - c->allocs_before :
	       by == PROF_DHAT_BY_LIVE	 ? c->live_after - c->live_before :
					   c->bytes_after - c->bytes_before;
}

static long long
mag(long long v)
{
	return v < 0 ? -v : v;
}

static enum prof_dhat_by sort_by;

static int
change_cmp(const void *a, const void *b)
{
	const struct prof_dhat_change *x = a, *y = b;
	long long dx = mag(delta_of(x, sort_by)), dy = mag(delta_of(y, sort_by));

	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = mag(x->bytes_after - x->bytes_before);
	dy = mag(y->bytes_after - y->bytes_before);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = mag(x->allocs_after - x->allocs_before);
	dy = mag(y->allocs_after - y->allocs_before);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A change of site s, state, its numbers still 0. */
static void
change_init(struct prof_dhat_change *c, const struct prof_dhat_site *s,
	    enum prof_dhat_state state)
{
	memset(c, 0, sizeof(*c));
	c->name = s->name;
	c->file = s->file;
	c->state = state;
}

/* The baseline's numbers of a change: its site s's. */
static void
change_before(struct prof_dhat_change *c, const struct prof_dhat_site *s)
{
	c->bytes_before = s->bytes;
	c->allocs_before = s->allocs;
	c->live_before = s->max_live;
}

int
prof_dhat_diff(const struct prof_dhat_profile *before,
	       const struct prof_dhat_profile *after, enum prof_dhat_by by,
	       struct prof_dhat_diff *d, struct prof_err *err)
{
	char *used = calloc(before->n + 1, 1);
	long long whole = prof_dhat_total(after, by) -
			  prof_dhat_total(before, by);
	size_t i, j, k = 0;
	int pass;

	memset(d, 0, sizeof(*d));
	d->by = by;
	d->c = calloc(before->n + after->n + 1, sizeof(*d->c));
	if (!used || !d->c) {
		free(used);
		free(d->c);
		d->c = NULL;
		return prof_err_set(err, "out of memory");
	}
	for (i = 0; i < after->n; i++) {
		const struct prof_dhat_site *a = &after->sites[i];
		struct prof_dhat_change *c = &d->c[k];

		change_init(c, a, PROF_DHAT_NEW);
		c->bytes_after = a->bytes;
		c->allocs_after = a->allocs;
		c->live_after = a->max_live;
		/* The same name first, then the same bare name (a C++
		 * function inlined on one side only). */
		for (pass = 0; pass < 2 && c->state == PROF_DHAT_NEW; pass++) {
			char ka[256], kb[256];

			if (pass)
				bare_name(a->name, ka, sizeof(ka));
			for (j = 0; j < before->n; j++) {
				const struct prof_dhat_site *b =
					&before->sites[j];

				if (used[j] ||
				    strcmp(base_of(a->file), base_of(b->file)))
					continue;
				if (pass)
					bare_name(b->name, kb, sizeof(kb));
				if (strcmp(pass ? ka : a->name,
					   pass ? kb : b->name))
					continue;
				used[j] = 1;
				c->state = PROF_DHAT_CHANGED;
				change_before(c, b);
				break;
			}
		}
		if (c->state == PROF_DHAT_CHANGED &&
		    c->bytes_before == c->bytes_after &&
		    c->allocs_before == c->allocs_after &&
		    c->live_before == c->live_after) {
			d->unchanged++;
			continue;
		}
		d->n_new += c->state == PROF_DHAT_NEW;
		k++;
	}
	for (j = 0; j < before->n; j++) {
		const struct prof_dhat_site *b = &before->sites[j];
		struct prof_dhat_change *c = &d->c[k];

		if (used[j])
			continue;
		change_init(c, b, PROF_DHAT_VANISHED);
		change_before(c, b);
		d->n_vanished++;
		k++;
	}
	for (i = 0; i < k; i++)
		d->c[i].share = whole ? (double)delta_of(&d->c[i], by) /
						(double)whole :
					0;
	d->n = k;
	sort_by = by;
	if (k)
		qsort(d->c, k, sizeof(*d->c), change_cmp);
	free(used);
	return 0;
}

void
prof_dhat_diff_free(struct prof_dhat_diff *d)
{
	free(d->c);
	memset(d, 0, sizeof(*d));
}
