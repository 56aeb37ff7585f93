/* results.c: fuzz target: sample streams and results documents read as
 * every tool reads them (stream.h), and the HTML page of every document
 * that reads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/runview.h"
#include "model/stream.h"
#include "report/load.h"
#include "report/runpage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A folder of our own for the page's input and output, removed at exit. */
static char dir[64], in[96], page[96];

static void
cleanup(void)
{
	unlink(in);
	unlink(page);
	rmdir(dir);
}

/* The input as a file of our own (the readers take paths). */
static void
write_input(const uint8_t *data, size_t size)
{
	FILE *fp;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%.40s/prof-fuzz.XXXXXX",
			 t && t[0] ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(in, sizeof(in), "%s/results.json", dir);
		snprintf(page, sizeof(page), "%s/report.html", dir);
		atexit(cleanup);
	}
	fp = fopen(in, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
}

/* Each sample the reader hands out, dropped (the reader owns it). */
static int
drop(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	(void)arg;
	(void)s;
	(void)index;
	(void)err;
	return 0;
}

/* prof-report --html on the document: its axes, charts and escaping. */
static void
write_page(void)
{
	struct prof_runpage_in r = {0};
	struct prof_runpage *pg = NULL;
	struct rep_drawn d = {0};
	struct prof_runview v;
	struct prof_err err;

	if (prof_runview_load(&v, in, 0, &err) == 0) {
		r.cur = &v;
		r.run_dir = dir;
		r.output = page;
		if (prof_runpage_choose(&pg, &r, &err) == 0 &&
		    rep_load_drawn(&d, &r, prof_runpage_drawn(pg), &err) == 0)
			prof_runpage_write(pg, &d, &err);
		prof_runpage_free(pg);
		rep_drawn_free(&d);
	}
	prof_runview_free(&v);
}

/*
 * The input is read both ways the tools read their inputs (stream.h): as
 * a JSON-lines stream of samples (prof-merge) and as one results document
 * (prof-diff, prof-report, prof-history); a document that reads is drawn
 * as report.html is.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct prof_stream *st;
	long n;

	write_input(data, size);
	st = prof_stream_new();
	if (!st)
		abort();
	prof_stream_lines(st, in, drop, NULL, &err);
	prof_stream_free(st);
	st = prof_stream_new();
	if (!st)
		abort();
	n = prof_stream_results(st, in, drop, NULL, &err);
	prof_stream_free(st);
	if (n >= 0)
		write_page();
	return 0;
}
