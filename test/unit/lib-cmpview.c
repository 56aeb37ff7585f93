/* lib-cmpview.c: comparisons read once, kept as text and parsed again a
 * few at a time (verdict/view.h): every row comes back as it was, found by its
 * keys, and a bad document is refused at its place (issue 30). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verdict/read.h"
#include "verdict/view.h"
#include "verdict/verdict.h"
#include "tap.h"

#define ROWS 3000	/* more than PROF_CMPVIEW_KEEP: rows are parsed again */

static char path[256];

/* A comparisons document of n time rows w.N on cpu, and one count row of
 * w.0, of run "r"; bad: row 7's status is not a status. */
static void
write_doc(int n, int bad)
{
	FILE *fp = fopen(path, "w");
	int i;

	fprintf(fp, "[\n");
	for (i = 0; i <= n; i++) {
		int count = i == n;

		fprintf(fp,
			"%s{\"run_id\": \"r\", \"workload\": \"w.%d\", "
			"\"backend\": \"cpu\", \"segment\": \"s%d\", "
			"\"phase\": \"%s\", \"status\": \"%s\", "
			"\"reason\": \"row %d\", \"delta_ms\": null, "
			"\"ratio\": null, \"p_value\": null, "
			"\"current\": {\"n\": %d, \"min\": null, \"median\": "
			"null, \"p90\": null, \"max\": null}, \"baseline\": "
			"{\"n\": 0, \"min\": null, \"median\": null, \"p90\": "
			"null, \"max\": null}}\n",
			i ? "," : "", count ? 0 : i, count ? 0 : i,
			count ? "instructions" : "timing",
			bad && i == 7 ? "great" : "new", i, i);
	}
	fprintf(fp, "]\n");
	fclose(fp);
}

int
main(void)
{
	struct prof_cmpview v = {0};
	struct prof_err err = {0};
	const struct prof_verdict *r0, *d;
	const char *t = getenv("TMPDIR");
	char buf[512];
	long k;
	int i, same = 1;

	plan(13);
	snprintf(path, sizeof(path), "%s/lib-cmpview.%d.json",
		 t && t[0] ? t : "/tmp", (int)getpid());
	write_doc(ROWS, 0);
	ok(prof_cmpview_load(&v, path, "r", NULL, &err) == 0, "loaded");
	is_int((long long)prof_cmpview_len(&v), ROWS + 1, "every row kept");
	ok(prof_cmpview_has_counts(&v), "a row of counts is seen");
	for (i = 0; i <= ROWS; i++) {
		d = prof_cmpview_verdict(&v, (size_t)i);
		snprintf(buf, sizeof(buf), "row %d", i);
		if (!d || !d->reason || strcmp(d->reason, buf))
			same = 0;
	}
	ok(same, "each row comes back as it was, as a typed verdict, past "
		 "the kept ones");
	r0 = prof_cmpview_verdict(&v, 0);
	for (i = 1; i < PROF_CMPVIEW_KEEP; i++)
		prof_cmpview_verdict(&v, (size_t)i);
	ok(r0 == prof_cmpview_verdict(&v, 0) && !strcmp(r0->reason, "row 0"),
	   "a row stays valid while fewer than PROF_CMPVIEW_KEEP others are "
	   "asked for");
	ok(!prof_cmpview_verdict(&v, ROWS + 1), "no verdict past the end");
	k = prof_cmpview_find(&v, "w.42", "cpu", 0, "s42");
	is_int(k, 42, "found by workload, backend and segment");
	is_int(prof_cmpview_find(&v, "w.0", "cpu", 1, "s0"), ROWS,
	       "a count row apart from its time row");
	is_int(prof_cmpview_find(&v, "w.0", "cpu", 0, "s0"), 0,
	       "and the time row");
	is_int(prof_cmpview_find(&v, "w.42", "gpu", 0, "s42"), -1,
	       "no such row: -1");
	prof_cmpview_free(&v);

	memset(&err, 0, sizeof(err));
	ok(prof_cmpview_load(&v, path, "other", NULL, &err) < 0 &&
	   !strcmp(err.path, "[0].run_id"),
	   "a comparison of another run is refused at [0].run_id");
	prof_cmpview_free(&v);

	write_doc(20, 1);
	memset(&err, 0, sizeof(err));
	ok(prof_cmpview_load(&v, path, "r", NULL, &err) < 0 &&
	   !strcmp(err.path, "[7].status") && !strcmp(err.file, path),
	   "a bad status is refused at its path, with the file's name");
	prof_cmpview_free(&v);

	fclose(fopen(path, "w"));
	memset(&err, 0, sizeof(err));
	ok(prof_cmpview_load(&v, path, "r", NULL, &err) < 0 && err.line == 1,
	   "an empty file is refused at line 1");
	prof_cmpview_free(&v);
	unlink(path);
	return done();
}
