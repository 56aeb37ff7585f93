/* json.c: fuzz target: libprof's strict JSON reader and canonical writer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/utf8.h"
#include "report/md.h"

static int
drop(void *arg, struct json_object *v, struct prof_err *err)
{
	(void)arg;
	(void)err;
	json_object_put(v);
	return 0;
}

/*
 * Any bytes, taken from outside as a string (a command's stderr, a note),
 * are written as text the reader accepts (issue 19, item 1), and
 * prof_utf8_fix() makes them valid UTF-8.
 */
static void
outside_text(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *s = json_object_new_string_len(
		(const char *)data, (int)size);
	struct json_object *back;
	char *own, *fixed;
	size_t n;
	const char *t;

	if (!s)
		abort();
	t = prof_json_text(s, JSON_C_TO_STRING_PLAIN, &n, &own);
	if (!t)
		abort();
	back = prof_json_parse(t, n, "written", 1, &err);
	if (!back)
		abort();	/* a writer wrote what the reader refuses */
	json_object_put(back);
	free(own);
	json_object_put(s);
	fixed = prof_utf8_fix((const char *)data, size, 64, &n);
	if (!fixed || prof_utf8_check(fixed, n) != n || n > 64 + 40)
		abort();
	free(fixed);
}

/*
 * The same bytes as a field of summary.md (issue 28, item 4), in each way
 * prof_md_write() writes one: valid UTF-8, one line, and as text no '<'
 * that a backslash does not escape.
 */
static void
markdown_field(const uint8_t *data, size_t size)
{
	static const unsigned how[] = {
		PROF_MD_TEXT, PROF_MD_CODE, PROF_MD_CODE | PROF_MD_CELL,
		PROF_MD_BLOCK,
	};
	char *s = malloc(size + 1), *out = NULL;
	size_t i, j, n = 0;
	FILE *fp;

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		fp = open_memstream(&out, &n);
		if (!fp)
			abort();
		prof_md_write(fp, s, how[i]);
		fclose(fp);
		if (prof_utf8_check(out, n) != n || memchr(out, '\n', n) ||
		    memchr(out, '\r', n))
			abort();
		for (j = 0; how[i] == PROF_MD_TEXT && j < n; j++)
			if (out[j] == '\\')
				j++;
			else if (out[j] == '<')
				abort();
		free(out);
		out = NULL;
	}
	free(s);
}

/*
 * Whatever the reader accepts, the canonical writer turns into text that
 * the reader accepts again, and canonical text is a fixed point.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *o, *again;
	char *text, *text2;

	outside_text(data, size);
	markdown_field(data, size);
	prof_json_lines((const char *)data, size, "fuzz", drop, NULL, &err);
	o = prof_json_parse((const char *)data, size, "fuzz", 1, &err);
	if (!o)
		return 0;
	text = prof_json_canonical(o);
	if (!text)
		abort();
	again = prof_json_parse(text, strlen(text), "canonical", 1, &err);
	if (!again)
		abort();	/* the writer wrote what the reader refuses */
	text2 = prof_json_canonical(again);
	if (!text2 || strcmp(text, text2) != 0)
		abort();	/* canonical text is not canonical */
	free(text2);
	free(text);
	json_object_put(again);
	json_object_put(o);
	return 0;
}
