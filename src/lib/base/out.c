/* out.c: whole outputs to the caller's stdout, devices, or atomically to
 * files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/json.h"
#include "base/out.h"

/* Write to an open stream; 0 or -1 with err. */
static int
put(FILE *fp, const char *name, const char *text, size_t len,
    struct prof_err *err)
{
	if ((len && fwrite(text, 1, len, fp) != len) || fflush(fp) != 0)
		return prof_err_at(err, name, 0, 0, "write failed: %s",
				   strerror(errno));
	return 0;
}

int
prof_out_write_to(const char *path, FILE *dash, const char *text, size_t len,
		  struct prof_err *err)
{
	if (!strcmp(path, "-"))
		return put(dash, "<stdout>", text, len, err);
	return prof_afile_write(path, text, len, err);
}

int
prof_out_json_to(const char *path, FILE *dash, struct json_object *o,
		 struct prof_err *err)
{
	char *own, *buf;
	size_t n;
	const char *text = prof_json_text(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			   JSON_C_TO_STRING_NOSLASHESCAPE,
		&n, &own);
	int rc;

	buf = text ? malloc(n + 2) : NULL;
	if (!buf) {
		free(own);
		return prof_err_at(err, path, 0, 0, "out of memory");
	}
	memcpy(buf, text, n);
	buf[n] = '\n';
	buf[n + 1] = '\0';
	rc = prof_out_write_to(path, dash, buf, n + 1, err);
	free(buf);
	free(own);
	return rc;
}

/* An element's text at the array's depth: two spaces before each line. */
static int
put_indented(FILE *fp, const char *t, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j < n && t[j] != '\n'; j++)
			;
		if (fputs("  ", fp) == EOF || fwrite(t + i, 1, j - i, fp) !=
							  j - i)
			return -1;
		if (j < n && fputc('\n', fp) == EOF)
			return -1;
		i = j + 1;
	}
	return 0;
}

int
prof_out_json_array_to(const char *path, FILE *dash, size_t n,
		       struct json_object *(*item)(void *arg, size_t k),
		       void *arg, struct prof_err *err)
{
	struct prof_afile af = {0};
	int to_dash = !strcmp(path, "-");
	const char *name = to_dash ? "<stdout>" : path;
	FILE *fp = to_dash ? dash : prof_afile_open(&af, path, err);
	size_t k;

	if (!fp)
		return -1;
	if (fputc('[', fp) == EOF)
		goto failed;
	for (k = 0; k < n; k++) {
		struct json_object *o = item(arg, k);
		char *own = NULL;
		size_t len;
		const char *t = o ? prof_json_text(
					    o,
					    JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE,
					    &len, &own) :
				    NULL;
		int bad;

		if (!t) {
			json_object_put(o);
			prof_afile_abort(&af);
			return prof_err_at(err, path, 0, 0, "out of memory");
		}
		bad = fputs(k ? ",\n" : "\n", fp) == EOF ||
		      put_indented(fp, t, len) < 0;
		free(own);
		json_object_put(o);
		if (bad)
			goto failed;
	}
	if (fputs("\n]\n", fp) == EOF)
		goto failed;
	if (to_dash) {
		if (fflush(fp) != 0)
			goto failed;
		return 0;
	}
	return prof_afile_commit(&af, err);
failed:
	prof_err_at(err, name, 0, 0, "write failed: %s", strerror(errno));
	prof_afile_abort(&af);
	return -1;
}
