/* results.c: fuzz target: sample lines and results documents checked,
 * and the HTML page of every document that checks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "json.h"
#include "report-html.h"
#include "sample.h"

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

/* prof-report --html on the document: its axes, charts and escaping. */
static void
write_page(const uint8_t *data, size_t size)
{
	struct report_html_in r = {0};
	struct prof_err err;
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
	r.results = in;
	r.run_dir = dir;
	r.output = page;
	report_html_write(&r, &err);
}

/*
 * The input is read both ways prof-merge and prof-diff read their
 * inputs: as JSON lines of samples, and as one results document; a
 * document that checks is drawn as report.html is.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *arr, *doc;

	arr = json_object_new_array();
	if (!arr)
		abort();
	prof_samples_parse_lines((const char *)data, size, "fuzz", arr, &err);
	json_object_put(arr);
	doc = prof_json_parse((const char *)data, size, "fuzz", 1, &err);
	if (doc) {
		if (prof_results_expand(doc, &err) == 0 &&
		    prof_results_check(doc, &err) == 0)
			write_page(data, size);
		json_object_put(doc);
	}
	return 0;
}
