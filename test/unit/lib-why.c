/* lib-why.c: callgrind outputs read function by function, two of them
 * ranked by their change, written back functions only, and drawn as a
 * differential flame graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "model/callgrind.h"
#include "tap.h"
#include "why/flame.h"
#include "why/why.h"

#define DATA "test/data/why/"

static const struct prof_callgrind_fn *
fn(const struct prof_callgrind_profile *p, const char *name)
{
	long i = prof_callgrind_find(p, name, NULL);

	return i >= 0 ? &p->fns[i] : NULL;
}

static void
test_load(void)
{
	struct prof_callgrind_profile p;
	struct prof_err err = {0};
	const struct prof_callgrind_fn *f;
	char buf[1024];

	is_int(prof_callgrind_load(DATA "before.out", &p, &err), 0,
	       "a dump is read function by function");
	is_int(p.total, 1600, "its total is totals:");
	is_int((long long)p.n_fns, 5, "five functions (helper'2 is helper)");
	f = fn(&p, "main");
	ok(f && f->self == 100 && f->incl == 1600 && f->called == 0,
	   "main: self 100 over two cost lines, inclusive 1600, a root");
	f = fn(&p, "work");
	ok(f && f->self == 900 && f->incl == 1000 && f->called == 1000,
	   "work: self 900, inclusive 1000 with leaf, called for 1000");
	f = fn(&p, "helper");
	ok(f && f->self == 200 && !strcmp(f->file, "util.c"),
	   "helper: its recursion depth '2 is added to it, file util.c");
	is_int(prof_callgrind_find(&p, "leaf", "work.c") >= 0, 1,
	       "a callee without cfi= is in its caller's file");
	is_int((long long)p.n_calls, 4, "four call arcs");
	is_str(p.trigger, "Client Request: prof-call-0", "the trigger");
	prof_callgrind_profile_free(&p);

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_load(DATA "badref.out", &p, &err), -1,
	       "a name id used before its definition is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       DATA "badref.out:7: name id (7) is used before it is defined",
	       "naming the file and line");
	prof_callgrind_profile_free(&p);
	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_load(DATA "badcost.out", &p, &err), -1,
	       "a cost line that is not numbers is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       DATA "badcost.out:8: a cost line that is not numbers",
	       "naming the line");
	prof_callgrind_profile_free(&p);
}

static const struct prof_why_fn *
entry(const struct prof_why *w, size_t i)
{
	return i < w->n ? &w->fns[i] : NULL;
}

static void
test_rank(void)
{
	struct prof_callgrind_profile b, a;
	struct prof_why w;
	struct prof_err err = {0};
	const struct prof_why_fn *e;

	prof_callgrind_load(DATA "before.out", &b, &err);
	prof_callgrind_load(DATA "after.out", &a, &err);
	is_int(prof_why_diff(&b, &a, 0, &w, &err), 0, "ranked by self");
	is_int((long long)w.n, 5, "five functions changed");
	is_int((long long)w.unchanged, 1, "leaf did not");
	e = entry(&w, 0);
	ok(e && !strcmp(e->name, "work") && e->self_before == 900 &&
		   e->self_after == 1400 && e->incl_before == 1000 &&
		   e->incl_after == 1500 && e->state == PROF_WHY_CHANGED,
	   "first: work, self 900 -> 1400, inclusive 1000 -> 1500");
	is_num(e ? e->share : 0, 500.0 / 270, 1e-9,
	       "its share of the change of 270");
	e = entry(&w, 1);
	ok(e && !strcmp(e->name, "old_fn") && e->state == PROF_WHY_VANISHED &&
		   e->self_before == 300 && e->self_after == 0,
	   "second: old_fn, vanished (-300)");
	e = entry(&w, 2);
	ok(e && !strcmp(e->name, "new_fn") && e->state == PROF_WHY_NEW &&
		   e->self_after == 50 && !strcmp(e->file, "main.c"),
	   "third: new_fn, new (+50)");
	e = entry(&w, 3);
	ok(e && !strcmp(e->name, "helper") && e->file_before &&
		   !strcmp(e->file_before, "util.c") &&
		   !strcmp(e->file, "helpers.c") &&
		   e->state == PROF_WHY_CHANGED && e->self_before == 200 &&
		   e->self_after == 220,
	   "fourth: helper, moved from util.c to helpers.c, matched by name");
	e = entry(&w, 4);
	ok(e && !strcmp(e->name, "main") && e->self_after == e->self_before &&
		   e->incl_after - e->incl_before == 270,
	   "last: main, same self, inclusive +270");
	is_int((long long)w.n_new, 1, "one new");
	is_int((long long)w.n_vanished, 1, "one vanished");
	prof_why_free(&w);

	is_int(prof_why_diff(&b, &a, 1, &w, &err), 0, "ranked by inclusive");
	ok(w.n == 5 && !strcmp(w.fns[0].name, "work") &&
		   !strcmp(w.fns[1].name, "old_fn") &&
		   !strcmp(w.fns[2].name, "main") &&
		   !strcmp(w.fns[3].name, "new_fn") &&
		   !strcmp(w.fns[4].name, "helper"),
	   "work, old_fn, main (+270 inclusive), new_fn, helper");
	is_num(w.fns[2].incl_share, 1.0, 1e-9,
	       "main's inclusive change is the whole change");
	prof_why_free(&w);

	is_int(prof_why_diff(&a, &a, 0, &w, &err), 0, "a side with itself");
	ok(w.n == 0 && w.unchanged == 5, "nothing changed");
	prof_why_free(&w);
	prof_callgrind_profile_free(&b);
	prof_callgrind_profile_free(&a);
}

/* A reference built in another folder: every file has another prefix. */
static void
test_moved_tree(void)
{
	struct prof_callgrind_profile b, a;
	struct prof_why w;
	struct prof_err err = {0};
	size_t i, moved = 0;

	prof_callgrind_load(DATA "tree-before.out", &b, &err);
	prof_callgrind_load(DATA "tree-after.out", &a, &err);
	is_int(prof_why_diff(&b, &a, 0, &w, &err), 0,
	       "two builds in two folders");
	ok(w.n == 5 && w.unchanged == 1 && w.n_new == 1 && w.n_vanished == 1,
	   "match as they do in one folder");
	for (i = 0; i < w.n; i++)
		if (w.fns[i].file_before)
			moved++;
	is_int((long long)moved, 1, "only helper's file changed");
	is_str(w.fns[3].file_before, "/home/u/prof/util.c",
	       "helper: was in util.c");
	prof_why_free(&w);
	prof_callgrind_profile_free(&b);
	prof_callgrind_profile_free(&a);
}

static void
test_write(void)
{
	struct prof_callgrind_profile a, again;
	struct prof_err err = {0};
	char path[] = "/tmp/lib-why-XXXXXX";
	int fd = mkstemp(path);
	size_t i;
	int same = 1;

	close(fd);
	prof_callgrind_load(DATA "after.out", &a, &err);
	is_int(prof_callgrind_write_functions(&a, path, &err), 0,
	       "a profile is written functions only");
	is_int(prof_callgrind_load(path, &again, &err), 0, "and read back");
	is_int(again.total, a.total, "with its total");
	same = again.n_fns == a.n_fns && again.n_calls == a.n_calls;
	for (i = 0; same && i < a.n_fns; i++) {
		const struct prof_callgrind_fn *f = &a.fns[i];
		long j = prof_callgrind_find(&again, f->name, f->file);

		same = j >= 0 && again.fns[j].self == f->self &&
		       again.fns[j].incl == f->incl &&
		       again.fns[j].called == f->called;
	}
	ok(same, "with every function's self, inclusive and called cost");
	unlink(path);
	prof_callgrind_profile_free(&a);
	prof_callgrind_profile_free(&again);
}

/* Mangled C++ names (callgrind --demangle=no): c++filt demangles them,
 * and a constructor's two symbols become one function. */
static void
test_demangle(void)
{
	struct prof_callgrind_profile p;
	struct prof_err err = {0};
	const struct prof_callgrind_fn *f;

	prof_callgrind_load(DATA "mangled.out", &p, &err);
	is_int(prof_why_demangle(&p, "prof-no-such-c++filt", &err), 0,
	       "no c++filt: 0, and nothing fails");
	ok(fn(&p, "_ZN3foo3barEv") != NULL && p.n_fns == 4,
	   "the names stay as they were");
	is_int(prof_why_demangle(&p, "c++filt", &err), 1,
	       "c++filt demangles the names");
	f = fn(&p, "foo::bar()");
	ok(f && f->self == 600 && f->incl == 600 && f->called == 600 &&
		   !strcmp(f->file, "foo.cc"),
	   "_ZN3foo3barEv is foo::bar(), with its costs and file");
	is_int((long long)p.n_fns, 3, "three functions: C1 and C2 are one");
	f = fn(&p, "foo::foo()");
	ok(f && f->self == 300 && f->incl == 300 && f->called == 300,
	   "foo::foo(): self 100 + 200, its call to itself inside");
	f = fn(&p, "main");
	ok(f && f->self == 100 && f->incl == 1000,
	   "main is left as it is, inclusive 1000");
	is_int((long long)p.n_calls, 2, "main's two calls are left");
	is_int(p.total, 1000, "the total is the same");
	is_int(prof_why_demangle(&p, "prof-no-such-c++filt", &err), 1,
	       "nothing mangled: nothing is run");
	prof_callgrind_profile_free(&p);
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s++;
	}
	return n;
}

static void
test_flame(void)
{
	struct prof_callgrind_profile b, a;
	struct prof_err err = {0};
	struct prof_buf svg = {0};
	struct prof_flame_opts o = {"f1", "pipeline <x> & y", NULL};

	prof_callgrind_load(DATA "before.out", &b, &err);
	prof_callgrind_load(DATA "after.out", &a, &err);
	is_int(prof_flame_svg(&b, &a, &o, &svg, &err), 0, "an SVG is drawn");
	ok(svg.p && !strncmp(svg.p, "<svg xmlns=\"http://www.w3.org/2000/svg\"",
			     39),
	   "one svg element");
	is_int(count(svg.p, "class=\"frame more\""), 1,
	       "one frame has more work: work");
	ok(strstr(svg.p, "<g class=\"frame more\"><title>work (work.c)\n") !=
		   NULL,
	   "and it is work's, with its file in the hover title");
	is_int(count(svg.p, "class=\"frame new\""), 1, "one new frame: new_fn");
	ok(strstr(svg.p, "<g class=\"frame new\"><title>new_fn (main.c) "
			 "[new]\n") != NULL,
	   "marked new");
	is_int(count(svg.p, "class=\"frame less\""), 0,
	       "no frame has less (old_fn vanished: it has no width)");
	ok(strstr(svg.p, "vanished: old_fn (300)</text>") != NULL,
	   "the vanished function is named under the graph");
	ok(strstr(svg.p, "pipeline &lt;x&gt; &amp; y") != NULL,
	   "the title is escaped");
	ok(!strstr(svg.p, "<script") && !strstr(svg.p, "style="),
	   "no script and no style attribute");
	ok(strstr(svg.p, "now: 1,500 instructions (80.21% of all)\n"
			 "before: 1,000\nself: 900 -> 1,400 (+500)") != NULL,
	   "the hover title has the numbers");
	prof_buf_free(&svg);
	prof_callgrind_profile_free(&b);
	prof_callgrind_profile_free(&a);
}

int
main(void)
{
	plan(58);
	test_load();
	test_rank();
	test_moved_tree();
	test_write();
	test_demangle();
	test_flame();
	return done();
}
