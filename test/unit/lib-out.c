/* lib-out.c: a tool's whole output (out.h): "-" to the caller's stream,
 * flushed, a failed write named <stdout>; a path written whole through
 * afile.h, a device written through; JSON pretty-printed with a newline,
 * in text prof's strict reader takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/json.h"
#include "base/out.h"
#include "tap.h"

static char dir[] = "/tmp/prof-lib-out.XXXXXX";
static char text[4096];

/* The whole of fp from its start, in text. */
static const char *
all(FILE *fp)
{
	size_t n;

	rewind(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	return text;
}

/* The whole of the file at path, in text ("" when it is not there). */
static const char *
file(const char *path)
{
	FILE *fp = fopen(path, "r");
	const char *s = fp ? all(fp) : "";

	if (fp)
		fclose(fp);
	return fp ? s : "";
}

int
main(void)
{
	struct prof_err e = {0};
	struct json_object *o;
	FILE *dash = tmpfile(), *full;
	char path[256], msg[1024];

	plan(13);
	if (!dash || !mkdtemp(dir))
		return 1;

	ok(prof_out_write_to("-", dash, "one\n", 4, &e) == 0,
	   "'-' is written to the caller's stream");
	is_str(all(dash), "one\n", "with the bytes given");
	ok(prof_out_write_to("-", dash, "", 0, &e) == 0 &&
		   !strcmp(all(dash), "one\n"),
	   "nothing to write is no error");

	full = fopen("/dev/full", "w");
	if (full) {
		ok(prof_out_write_to("-", full, "x", 1, &e) == -1,
		   "a failed write to the stream is an error");
		is_str(prof_err_str(&e, msg, sizeof(msg)),
		       "<stdout>: write failed: No space left on device",
		       "named <stdout>, with its reason (the stream is flushed)");
		fclose(full);
	} else {
		ok(1, "# SKIP no /dev/full");
		ok(1, "# SKIP no /dev/full");
	}

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	prof_err_clear(&e);
	ok(prof_out_write_to(path, dash, "two\n", 4, &e) == 0 &&
		   !strcmp(file(path), "two\n") && !strcmp(all(dash), "one\n"),
	   "a path is written as a file, the stream untouched");
	ok(prof_out_write_to("/dev/null", dash, "x", 1, &e) == 0 &&
		   access("/dev/null", W_OK) == 0,
	   "a device is written through");
	snprintf(path, sizeof(path), "%s/no/such/out.txt", dir);
	ok(prof_out_write_to(path, dash, "x", 1, &e) == -1 &&
		   !strcmp(e.file, path) && e.reason[0],
	   "a file that cannot be made is an error naming it");

	o = json_tokener_parse("{\"a\": [1, 2], \"b\": \"c/d\"}");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	prof_err_clear(&e);
	ok(prof_out_json_to(path, dash, o, &e) == 0, "JSON is written");
	is_str(file(path),
	       "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"c/d\"\n}\n",
	       "pretty, slashes as they are, and a newline at the end");
	json_object_put(o);

	o = json_object_new_object();
	json_object_object_add(o, "s", json_object_new_string("a\xff" "b"));
	rewind(dash);
	ok(prof_out_json_to("-", dash, o, &e) == 0 &&
		   !strncmp(all(dash), "{\n  \"s\": ", 9),
	   "JSON to '-' goes to the stream");
	json_object_put(o);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	o = json_object_new_object();
	json_object_object_add(o, "s", json_object_new_string("a\xff" "b"));
	prof_out_json_to(path, dash, o, &e);
	json_object_put(o);
	o = prof_json_load(path, &e);
	ok(o != NULL, "a string that is not UTF-8 is written so that prof's "
		      "strict reader takes it");
	is_str(prof_json_str(o, "s"), "a\xef\xbf\xbd" "b",
	       "the bad byte as U+FFFD");
	json_object_put(o);

	fclose(dash);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	return system(path) != 0 ? 1 : done();
}
