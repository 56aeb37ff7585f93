/* out.c: whole outputs to the caller's stdout, devices, or atomically to
 * files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "afile.h"
#include "json.h"
#include "out.h"

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
