/* lib-flame.c: the differential flame graph of two callgrind profiles
 * (flame.h): its frames, their kinds, widths, order and hover text, what
 * vanished, escaping, and the ids a page needs unique. Drawn in chromium
 * by t6303; here the SVG's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "model/callgrind.h"
#include "tap.h"
#include "why/flame.h"

#define DATA "test/data/why/"

static struct prof_buf out;

/* The SVG of before -> after, "" on failure; valid until the next call. */
static const char *
svg(const struct prof_callgrind_profile *before,
    const struct prof_callgrind_profile *after, const char *id,
    const char *title, const char *unit, int *rc)
{
	struct prof_flame_opts o = {id, title, unit};
	struct prof_err e = {0};

	out.len = 0;
	*rc = prof_flame_svg(before, after, &o, &out, &e);
	if (*rc < 0 || prof_buf_put(&out, "", 1) < 0)
		return "";
	return out.p;
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* Whether a, b and c appear in s in that order. */
static int
in_order(const char *s, const char *a, const char *b, const char *c)
{
	const char *x = strstr(s, a), *y = strstr(s, b), *z = strstr(s, c);

	return x && y && z && x < y && y < z;
}

static int
load(const char *path, struct prof_callgrind_profile *p)
{
	struct prof_err e = {0};

	if (prof_callgrind_load(path, p, &e) < 0) {
		fprintf(stderr, "# %s: %s\n", path, e.reason);
		return -1;
	}
	return 0;
}

static const char svg_start[] =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" "
    "viewBox=\"0 0 1000 ";

static const char tiny_dump[] =
    "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n"
    "summary: 10000\n\n"
    "fl=(1) a.c\nfn=(1) main\n1 9000\n"
    "cfn=(2) op<int>&\ncalls=1 1\n2 999\n"
    "cfn=(3) tiny\ncalls=1 1\n3 1\n\n"
    "fn=(2)\n1 999\n\nfn=(3)\n1 1\n\ntotals: 10000\n";

int
main(void)
{
	struct prof_callgrind_profile before = {0}, after = {0}, odd = {0};
	char path[] = "/tmp/lib-flame.XXXXXX";
	const char *s;
	int rc, fd;

	plan(24);
	if (load(DATA "tree-before.out", &before) < 0 ||
	    load(DATA "tree-after.out", &after) < 0)
		return 1;

	s = svg(&before, &after, "f1", "t", NULL, &rc);
	is_int(rc, 0, "drawn");
	ok(!strncmp(s, svg_start, strlen(svg_start)) && strlen(s) > 7 &&
	       !strcmp(s + strlen(s) - 7, "</svg>\n"),
	   "one <svg> element, 1000 units wide");
	ok(strstr(s, "<title id=\"f1-t\">t</title>") &&
	       strstr(s, "<pattern id=\"f1-new\"") && count(s, " id=\"") == 2,
	   "its two ids carry the prefix given, and there are no others");
	is_int(count(s, "<g class=\"frame "), 6,
	       "a frame per stack: all, main, helper, new_fn, work, leaf");
	is_int(count(s, "<g class=\"frame more\">"), 1,
	       "one function with more of its own cost (work)");
	is_int(count(s, "<g class=\"frame new\">"), 1,
	       "one function only after (new_fn)");
	is_int(count(s, "<g class=\"frame less\">"), 0, "none with less");
	ok(strstr(s, "<g class=\"frame more\"><title>work "
		     "(/home/u/prof/work.c)\nnow: 1,500 instructions (80.21% "
		     "of all)\nbefore: 1,000\nself: 900 -> 1,400 (+500)"
		     "</title>") != NULL,
	   "the hover text: inclusive now and before, self's change");
	ok(strstr(s, "width=\"802.1\" height=\"16\" fill=\"rgb(220,40,30)\"") !=
	       NULL,
	   "as wide as its cost after (1,500 of 1,870), the deepest red");
	ok(strstr(s, "<g class=\"frame new\"><title>new_fn "
		     "(/home/u/prof/build/compare/abc/main.c) [new]\n") &&
	       strstr(s, "fill=\"url(#f1-new)\""),
	   "a new function says so and is hatched");
	ok(strstr(s, ">n..</text>") != NULL,
	   "a name wider than its frame is cut with ..");
	ok(in_order(s, "<title>helper ", "<title>new_fn ", "<title>work "),
	   "siblings left to right by name");
	ok(strstr(s, "<title>all\n") &&
	       strstr(s, "y=\"85.0\" width=\"1000.0\"") &&
	       strstr(s, "y=\"68.0\" width=\"1000.0\""),
	   "the root at the bottom, main above it");
	ok(strstr(s, ">vanished: old_fn (300)</text>") != NULL,
	   "what vanished is named with its cost before");

	s = svg(&after, &before, "f2", NULL, "samples", &rc);
	is_int(count(s, "<g class=\"frame less\">"), 1,
	       "the other way: work has less");
	ok(strstr(s, "<title>old_fn ") &&
	       strstr(s, ">vanished: new_fn (50)</text>"),
	   "old_fn is new and new_fn vanished");
	ok(strstr(s, "<title id=\"f2-t\">differential flame graph</title>") !=
	       NULL,
	   "no title: a plain one");
	ok(strstr(s, "width: samples after; colour: change of a function's "
		     "own samples") &&
	       strstr(s, "now: 1,600 samples (100.00% of all)"),
	   "the unit given, in the legend and the hover text");

	s = svg(&after, &after, "f3", "a<b & 'c'\"", NULL, &rc);
	is_int(count(s, "<g class=\"frame same\">"),
	       count(s, "<g class=\"frame "),
	       "the same profile twice: every frame unchanged");
	ok(strstr(s, ">vanished: none</text>") != NULL, "and nothing vanished");
	ok(strstr(s, "<title id=\"f3-t\">a&lt;b &amp; &#39;c&#39;&quot;"
		     "</title>") != NULL,
	   "the title is escaped");

	fd = mkstemp(path);
	if (fd < 0 || write(fd, tiny_dump, sizeof(tiny_dump) - 1) !=
			  (ssize_t)(sizeof(tiny_dump) - 1)) {
		perror("lib-flame");
		return 1;
	}
	close(fd);
	rc = load(path, &odd);
	unlink(path);
	if (rc < 0)
		return 1;
	s = svg(&odd, &odd, "f4", NULL, NULL, &rc);
	ok(strstr(s, "<title>op&lt;int&gt;&amp; (a.c)\n") &&
	       !strstr(s, "op<int>"),
	   "a function's name is escaped in its title");
	ok(strstr(s, ">op&lt;int&gt;&amp;</text>") != NULL, "and in its label");
	ok(!strstr(s, "tiny"),
	   "a frame narrower than a thousandth of the root is left out");

	prof_callgrind_profile_free(&before);
	prof_callgrind_profile_free(&after);
	prof_callgrind_profile_free(&odd);
	prof_buf_free(&out);
	return done();
}
