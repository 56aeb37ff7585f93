/* lib-dhat.c: DHAT's JSON read into allocation sites per function (the
 * first frame inside the project, only inside run()), and two profiles'
 * sites ranked by their change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "why/dhat.h"

#define DATA "test/data/dhat/"

static const struct prof_dhat_site *
site(const struct prof_dhat_profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->sites[i].name, name))
			return &p->sites[i];
	return NULL;
}

static void
test_load(void)
{
	struct prof_dhat_profile p;
	struct prof_err err = {0};
	const struct prof_dhat_site *s;

	is_int(prof_dhat_load(DATA "before.json", &p, &err), 0,
	       "a DHAT file is read");
	is_int(p.scope, PROF_DHAT_RUN, "stacks pass through timed_call: "
	       "only run()'s allocations count");
	is_int((long long)p.points, 5, "five program points");
	is_int((long long)p.counted, 4, "four inside run() (prepare's not)");
	ok(!site(&p, "ab_prepare"), "prepare()'s allocation is no site");
	s = site(&p, "copy_run");
	ok(s && s->bytes == 1048576 && s->allocs == 1 &&
		   s->max_live == 1048576 &&
		   !strcmp(s->file, "/p/test/workloads/ab.c"),
	   "copy_run: malloc's caller, with its file and no line");
	s = site(&p, "keep(int)");
	ok(s && s->bytes == 400 && s->allocs == 3 && s->max_live == 256,
	   "operator new (a shared object) and vector's inlined template "
	   "(under /usr/) are passed over for the project's keep(int)");
	ok(site(&p, "report") != NULL && !site(&p, "fputs") &&
		   !site(&p, "_IO_file_doallocate"),
	   "libc's frames (relative source paths) are passed over");
	is_int(p.bytes, 1048576 + 400 + 4096 + 32, "the total bytes");
	is_int(p.allocs, 6, "the total allocations");
	prof_dhat_free(&p);

	is_int(prof_dhat_load(DATA "after.json", &p, &err), 0, "after");
	s = site(&p, "copy_run");
	ok(s && s->bytes == 2097152 && s->allocs == 2,
	   "copy_run's two program points are one site");
	s = site(&p, "table_grow");
	ok(s && !strcmp(s->file, "/q/bin/w"),
	   "a frame of the workload binary without debug information is "
	   "inside, its object as its file");
	prof_dhat_free(&p);
}

static void
test_diff(void)
{
	struct prof_dhat_profile b, a;
	struct prof_dhat_diff d;
	struct prof_err err = {0};

	prof_dhat_load(DATA "before.json", &b, &err);
	prof_dhat_load(DATA "after.json", &a, &err);
	is_int(prof_dhat_diff(&b, &a, PROF_DHAT_BY_BYTES, &d, &err), 0,
	       "two profiles compared by bytes");
	is_int((long long)d.n, 3, "three sites changed");
	is_int((long long)d.unchanged, 2, "two did not (keep, report)");
	ok(d.n == 3 && !strcmp(d.c[0].name, "copy_run") &&
		   d.c[0].state == PROF_DHAT_CHANGED &&
		   d.c[0].bytes_before == 1048576 &&
		   d.c[0].bytes_after == 2097152,
	   "copy_run first, matched across two folders (/p, /q)");
	is_num(d.c[0].share, 1048576.0 / 1048644.0, 1e-12,
	       "its share of the whole change");
	ok(d.n == 3 && !strcmp(d.c[1].name, "table_grow") &&
		   d.c[1].state == PROF_DHAT_NEW &&
		   !strcmp(d.c[2].name, "old_cache") &&
		   d.c[2].state == PROF_DHAT_VANISHED,
	   "then the new site, then the vanished one");
	prof_dhat_diff_free(&d);
	is_int(prof_dhat_diff(&b, &a, PROF_DHAT_BY_ALLOCS, &d, &err), 0,
	       "by allocations");
	ok(d.n == 3 && !strcmp(d.c[0].name, "table_grow"),
	   "the site of two more allocations first");
	prof_dhat_diff_free(&d);
	is_int(prof_dhat_by_metric("host_peak_bytes"), PROF_DHAT_BY_LIVE,
	       "a heap peak row ranks by the most bytes live");
	is_int(prof_dhat_by_metric("host_allocs"), PROF_DHAT_BY_ALLOCS,
	       "an allocation row by allocations");
	is_int(prof_dhat_by_metric("rss_peak_bytes"), PROF_DHAT_BY_BYTES,
	       "the others by bytes");
	prof_dhat_free(&b);
	prof_dhat_free(&a);
}

/* A file of text, then loaded: the error's text. */
static const char *
load_text(const char *text)
{
	static char msg[1400];
	char path[] = "/tmp/lib-dhat.XXXXXX";
	struct prof_dhat_profile p;
	struct prof_err err = {0};
	int fd = mkstemp(path);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "w");

	if (!fp)
		return "cannot write";
	fputs(text, fp);
	fclose(fp);
	if (prof_dhat_load(path, &p, &err) == 0) {
		prof_dhat_free(&p);
		unlink(path);
		return "loaded";
	}
	unlink(path);
	prof_err_str(&err, msg, sizeof(msg));
	/* from the path on: the file's name is a temporary one */
	return strchr(msg, ' ') ? strchr(msg, ' ') + 1 : msg;
}

static void
test_bad(void)
{
	is_str(load_text("{\"dhatFileVersion\":1,\"mode\":\"heap\"}"),
	       ".dhatFileVersion: expected 2 (valgrind 3.15 or later's DHAT), "
	       "not 1", "an old version is refused by its path");
	is_str(load_text("{\"dhatFileVersion\":2,\"mode\":\"copy\"}"),
	       ".mode: expected \"heap\" (valgrind --tool=dhat without --mode)",
	       "a copy profile is refused");
	is_str(load_text("{\"dhatFileVersion\":2,\"mode\":\"heap\","
			 "\"ftbl\":[\"[root]\"],\"pps\":[{\"tb\":1,\"tbk\":1,"
			 "\"fs\":[3]}]}"),
	       ".pps[0].fs[0]: expected a frame of .ftbl (0 to 0)",
	       "a frame beyond the table");
	is_str(load_text("{\"dhatFileVersion\":2,\"mode\":\"heap\","
			 "\"ftbl\":[\"[root]\"],\"pps\":[{\"tb\":-1,\"tbk\":1,"
			 "\"fs\":[0]}]}"),
	       ".pps[0].tb: expected a non-negative integer, not -1",
	       "a negative count");
	is_str(load_text("{\"dhatFileVersion\":2,"),
	       "unexpected end of input (truncated JSON)",
	       "a cut file (DHAT killed while writing) is a syntax error");
	is_str(load_text("{\"dhatFileVersion\":2,\"mode\":\"heap\","
			 "\"ftbl\":[\"[root]\"],\"pps\":[]}"),
	       "loaded", "no program point at all is an empty profile");
}

/* A worker whose run() allocates nothing: prepare's point is no site. */
static void
test_worker_without_run(void)
{
	char path[] = "/tmp/lib-dhat.XXXXXX";
	struct prof_dhat_profile p;
	struct prof_err err = {0};
	int fd = mkstemp(path);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "w");

	if (fp) {
		fputs("{\"dhatFileVersion\":2,\"mode\":\"heap\",\"ftbl\":"
		      "[\"[root]\",\"0x1: malloc (in /usr/lib/x.so)\","
		      "\"0x2: prepare (/p/tiny.c:20)\",\"0x3: prof_worker_run "
		      "(/p/src/harness/phases.c:783)\"],\"pps\":[{\"tb\":400,"
		      "\"tbk\":1,\"mb\":400,\"fs\":[1,2,3]}]}", fp);
		fclose(fp);
	}
	is_int(prof_dhat_load(path, &p, &err), 0, "a worker's profile");
	ok(p.scope == PROF_DHAT_RUN && p.n == 0 && p.bytes == 0 &&
		   p.points == 1 && p.counted == 0,
	   "whose run() allocated nothing: no site, prepare's not counted");
	prof_dhat_free(&p);
	unlink(path);
}

/* A profile of one program point per frame: FRAMES (JSON strings,
 * comma-separated) with tb BYTES... under a prof worker's timed call. */
static int
load_points(const char *frames, const long long *tb, int n,
	    struct prof_dhat_profile *p)
{
	char path[] = "/tmp/lib-dhat.XXXXXX";
	struct prof_err err = {0};
	int fd = mkstemp(path), i, rc;
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "w");

	if (!fp)
		return -1;
	fprintf(fp, "{\"dhatFileVersion\":2,\"mode\":\"heap\",\"ftbl\":"
		    "[\"[root]\",\"0x1: malloc (in /usr/lib/x.so)\","
		    "\"0x2: timed_call (/p/src/harness/phases.c:190)\",%s],"
		    "\"pps\":[", frames);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s{\"tb\":%lld,\"tbk\":1,\"mb\":%lld,"
			    "\"fs\":[1,%d,2]}", i ? "," : "", tb[i], tb[i], 3 + i);
	fputs("]}", fp);
	fclose(fp);
	rc = prof_dhat_load(path, p, &err);
	unlink(path);
	return rc;
}

/* valgrind names an inlined C++ frame by its bare name, an outlined one
 * in full: the same function inlined on one side only is one site. */
static void
test_cxx_names(void)
{
	struct prof_dhat_profile b, a;
	struct prof_dhat_diff d = {0};
	struct prof_err err = {0};
	static const long long b_tb[] = {400000, 100, 200};
	static const long long a_tb[] = {800000, 300};

	ok(load_points("\"0x3: tiny::copy_of(tiny::Table const&) (/p/w.cc:11)\","
		       "\"0x4: void A::fill<int>(int) const (/p/w.cc:3)\","
		       "\"0x5: B::fill(int) (/p/w.cc:5)\"",
		       b_tb, 3, &b) == 0 &&
		   load_points("\"0x3: copy_of (/q/w.cc:11)\","
			       "\"0x4: B::fill(int) (/q/w.cc:5)\"",
			       a_tb, 2, &a) == 0,
	   "two C++ profiles, copy_of inlined in the second");
	is_int(prof_dhat_diff(&b, &a, PROF_DHAT_BY_BYTES, &d, &err), 0,
	       "compared");
	ok(d.n == 3 && !strcmp(d.c[0].name, "copy_of") &&
		   d.c[0].state == PROF_DHAT_CHANGED &&
		   d.c[0].bytes_before == 400000 && d.c[0].bytes_after == 800000,
	   "copy_of is tiny::copy_of(tiny::Table const&): one changed site");
	ok(d.n == 3 && !strcmp(d.c[2].name, "B::fill(int)") &&
		   d.c[2].state == PROF_DHAT_CHANGED &&
		   d.c[2].bytes_before == 200 && d.c[2].bytes_after == 300 &&
		   !strcmp(d.c[1].name, "void A::fill<int>(int) const") &&
		   d.c[1].state == PROF_DHAT_VANISHED,
	   "the same name first: B::fill is B::fill, A::fill<int> vanished");
	prof_dhat_diff_free(&d);
	prof_dhat_free(&b);
	prof_dhat_free(&a);
}

int
main(void)
{
	plan(36);
	test_load();
	test_diff();
	test_bad();
	test_worker_without_run();
	test_cxx_names();
	return done();
}
