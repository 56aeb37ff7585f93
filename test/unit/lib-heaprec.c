/* lib-heaprec.c: a folder of heap records and notes read back. */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/utf8.h"
#include "model/heaprec.h"
#include "tap.h"

static char dir[64] = "/tmp/lib-heaprec.XXXXXX";

static void
put(const char *name, const void *p, size_t n)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(p, 1, n, fp) != n)
		abort();
	fclose(fp);
}

/* A record of pid started at start, peak bytes above a base of 1000. */
static void
record(const char *name, int pid, unsigned long long start, int state,
       const char *exe, long long peak)
{
	struct prof_heaprec *r = calloc(1, sizeof(*r));

	r->magic = PROF_HEAPREC_MAGIC;
	r->pid = pid;
	r->ppid = 1;
	r->state = state;
	r->start = start;
	r->rss_peak = 4096;
	r->c.base = 1000;
	r->c.peak = 1000 + peak;
	r->c.live = 1000 + 10;
	r->c.allocs = 3;
	r->c.bytes = peak + 64;
	snprintf(r->exe, sizeof(r->exe), "%s", exe);
	if (state == PROF_HEAPREC_EXEC)
		snprintf(r->exec, sizeof(r->exec), "/bin/static");
	put(name, r, sizeof(*r));
	free(r);
}

static void
note(const char *name, int pid, unsigned long long start, const char *prog)
{
	struct prof_heaprec_note h = {0};
	char buf[sizeof(h) + 256];
	size_t n;

	h.magic = PROF_HEAPREC_SPAWN_MAGIC;
	h.pid = pid;
	h.ppid = 10;
	h.start = start;
	memcpy(buf, &h, sizeof(h));
	n = sizeof(h);
	memcpy(buf + n, "/bin/sh", 8);
	n += 8;
	memcpy(buf + n, prog, strlen(prog) + 1);
	n += strlen(prog) + 1;
	put(name, buf, n);
}

int
main(void)
{
	struct prof_heaprecs hr;
	struct prof_err err = {0};
	char cmd[128];

	plan(19);
	if (!mkdtemp(dir))
		return 1;
	record("20-500.heap", 20, 500, PROF_HEAPREC_EXITED, "/bin/b", 2000);
	record("10-400.heap", 10, 400, PROF_HEAPREC_RUNNING, "/bin/\377a",
	       5000);
	record("30-600.heap", 30, 600, PROF_HEAPREC_EXEC, "/bin/env", 0);
	note("20-500.spawn", 20, 500, "/bin/b");	/* its record is there */
	note("40-700.spawn", 40, 700, "/bin/static");	/* none */
	note("20-501.spawn", 20, 501, "/bin/other");	/* another start */
	put("50-800.heap", "half", 4);			/* cut short */
	put("notes.txt", "not a record", 12);

	is_int(prof_heaprec_read(dir, &hr, &err), 0, "the folder is read");
	is_int((long long)hr.n, 3, "three whole records");
	is_int(hr.n ? hr.p[0].pid : 0, 10, "in the order of their start");
	is_int(hr.n > 2 ? hr.p[2].pid : 0, 30, "the last started last");
	is_int(hr.n ? hr.p[0].peak : 0, 5000, "a peak above the base");
	is_int(hr.n ? hr.p[0].live_end : 0, 10, "live at the end, above it");
	is_int(hr.n ? hr.p[0].rss_peak : 0, -1,
	       "no RSS peak for a process a signal ended");
	is_int(hr.n > 1 ? hr.p[1].rss_peak : 0, 4096, "an exited one's");
	is_str(hr.n ? hr.p[0].exe : NULL, "/bin/" PROF_UTF8_REPLACEMENT "a",
	       "a path's byte that is not UTF-8 is U+FFFD");
	is_str(hr.n > 2 ? hr.p[2].exec : NULL, "/bin/static",
	       "an exec record names its program");
	ok(hr.n > 1 && hr.p[1].exec == NULL, "no program for another");
	is_int((long long)hr.n_miss, 2,
	       "two notes without a record of their pid and start");
	is_int(hr.n_miss ? hr.miss[0].pid : 0, 20, "by pid");
	is_str(hr.n_miss ? hr.miss[0].prog : NULL, "/bin/other",
	       "a pid's later process is another");
	is_str(hr.n_miss > 1 ? hr.miss[1].by : NULL, "/bin/sh",
	       "the starter named");
	is_int((long long)hr.incomplete, 1, "one file cut short");
	prof_heaprec_free(&hr);

	ok(prof_heaprec_unloaded("sh") == NULL, "sh is dynamic: no reason");
	ok(prof_heaprec_unloaded("/no/such/program") == NULL,
	   "a program that is not there: no reason");
	snprintf(cmd, sizeof(cmd), "%s/none", dir);
	ok(prof_heaprec_read(cmd, &hr, &err) < 0 &&
		   strstr(err.reason, "cannot read"),
	   "a folder that is not there: an error");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return done();
}
