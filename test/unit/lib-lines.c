/* lib-lines.c: samples written as schema-2 JSON lines (lines.h): the run
 * line first, one context line before the first sample of each
 * env/segment pair, each sample without its env and segment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/lines.h"
#include "tap.h"

static struct json_object *
sample(const char *workload, const char *os, const char *segment)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "{\"schema_version\": 1, \"workload\": \"%s\", \"backend\": "
		 "\"cpu\", \"env\": {\"os\": \"%s\"}, \"segment\": \"%s\", "
		 "\"duration_ms\": 1.5}",
		 workload, os, segment);
	return json_tokener_parse(text);
}

/* The lines of text, each parsed, in an array (NULL for one that is not
 * JSON). */
static struct json_object *
lines_of(char *text)
{
	struct json_object *a = json_object_new_array();
	char *save = NULL, *l;

	for (l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		json_object_array_add(a, json_tokener_parse(l));
	return a;
}

static const char *
field(struct json_object *a, size_t i, const char *key)
{
	return prof_json_str(json_object_array_get_idx(a, i), key);
}

static void
test_write(void)
{
	struct json_object *s1 = sample("w.a", "linux", "k1");
	struct json_object *s2 = sample("w.b", "linux", "k1");
	struct json_object *s3 = sample("w.a", "bsd", "k1");
	struct json_object *a, *l1;
	struct prof_lines w;
	struct prof_err e = {0};
	char *text = NULL, *keys;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int rc;

	prof_lines_init(&w, fp);
	prof_lines_run(&w, "r-1", "quick", NULL, "1/2");
	rc = prof_lines_write(&w, s1, &e);
	rc |= prof_lines_write(&w, s2, &e);
	rc |= prof_lines_write(&w, s3, &e);
	prof_lines_free(&w);
	fclose(fp);
	is_int(rc, 0, "three samples written");
	a = lines_of(text);
	is_int((long long)json_object_array_length(a), 6,
	       "a run line, two context lines, three samples");
	ok(!strcmp(field(a, 0, "record"), "run") &&
	       !strcmp(field(a, 0, "run_id"), "r-1") &&
	       !strcmp(field(a, 0, "shard"), "1/2"),
	   "the run line first, with its id and shard");
	ok(!strcmp(field(a, 1, "record"), "context") &&
	       !strcmp(field(a, 4, "record"), "context") &&
	       !json_object_object_get_ex(json_object_array_get_idx(a, 3),
					  "record", NULL),
	   "a context line before the first sample of each pair only");
	ok(!strcmp(field(a, 2, "env_id"), field(a, 1, "env_id")) &&
	       !strcmp(field(a, 3, "env_id"), field(a, 1, "env_id")) &&
	       strcmp(field(a, 5, "env_id"), field(a, 1, "env_id")) &&
	       !strcmp(field(a, 5, "segment_id"), field(a, 1, "segment_id")),
	   "samples name their context by env_id and segment_id");
	l1 = json_object_array_get_idx(a, 2);
	ok(!json_object_object_get_ex(l1, "env", NULL) &&
	       !json_object_object_get_ex(l1, "segment", NULL) &&
	       !json_object_object_get_ex(l1, "schema_version", NULL),
	   "a sample line holds no env, segment or schema_version");
	keys =
	    strdup(json_object_to_json_string_ext(l1, JSON_C_TO_STRING_PLAIN));
	ok(strstr(keys, "\"backend\":\"cpu\",\"env_id\":") != NULL,
	   "env_id comes right after backend");
	free(keys);
	is_str(field(a, 1, "segment"), "k1",
	       "the context line holds the segment key");
	ok(json_object_is_type(json_object_object_get(s1, "env"),
			       json_type_object),
	   "the sample given is not changed");
	json_object_put(a);
	free(text);
	json_object_put(s1);
	json_object_put(s2);
	json_object_put(s3);
}

static void
test_errors(void)
{
	struct json_object *s = sample("w.a", "linux", "k1");
	struct json_object *bare = json_tokener_parse("{\"workload\": \"w\"}");
	struct prof_lines w;
	struct prof_err e = {0};
	char *text = NULL, msg[256];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	prof_lines_init(&w, fp);
	is_int(prof_lines_write(&w, bare, &e), -1,
	       "a sample without env or segment is refused");
	prof_err_str(&e, msg, sizeof(msg));
	is_str(msg, "a sample without env or segment", "and says so");
	prof_lines_free(&w);
	fclose(fp);
	is_int((long long)len, 0, "nothing was written for it");
	free(text);

	fp = fopen("/dev/null", "r");
	prof_lines_init(&w, fp);
	is_int(prof_lines_write(&w, s, &e), -1, "a failed write is an error");
	prof_err_str(&e, msg, sizeof(msg));
	ok(!strncmp(msg, "write failed: ", 14), "that says the write failed");
	prof_lines_free(&w);
	fclose(fp);
	json_object_put(s);
	json_object_put(bare);
}

int
main(void)
{
	plan(14);
	test_write();
	test_errors();
	return done();
}
