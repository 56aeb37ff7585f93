/* lines.c: schema-2 JSON lines with context lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/lines.h"
#include "model/sample.h"

#define TEXT_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

void
prof_lines_init(struct prof_lines *w, FILE *fp)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
}

void
prof_lines_free(struct prof_lines *w)
{
	json_object_put(w->seen);
	json_object_put(w->run);
	memset(w, 0, sizeof(*w));
}

int
prof_lines_run(struct prof_lines *w, const char *run_id, const char *mode,
	       struct json_object *options, const char *shard)
{
	struct json_object *r = json_object_new_object();

	if (!r) {
		json_object_put(options);
		return -1;
	}
	json_object_object_add(r, "record", json_object_new_string("run"));
	json_object_object_add(r, "run_id",
			       run_id ? json_object_new_string(run_id) : NULL);
	json_object_object_add(r, "mode",
			       mode ? json_object_new_string(mode) : NULL);
	json_object_object_add(r, "options",
			       options ? options : json_object_new_object());
	json_object_object_add(r, "shard",
			       shard ? json_object_new_string(shard) : NULL);
	json_object_put(w->run);
	w->run = r;
	return 0;
}

struct json_object *
prof_lines_sample2(struct json_object *s, const char *env_id,
		   const char *segment_id)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_foreach(s, key, v)
	{
		if (!strcmp(key, "schema_version") || !strcmp(key, "env") ||
		    !strcmp(key, "segment"))
			continue;
		json_object_object_add(o, key, json_object_get(v));
		if (!strcmp(key, "backend")) {
			json_object_object_add(
				o, "env_id", json_object_new_string(env_id));
			json_object_object_add(
				o, "segment_id",
				json_object_new_string(segment_id));
		}
	}
	if (!json_object_object_get_ex(o, "env_id", NULL)) {
		json_object_object_add(o, "env_id",
				       json_object_new_string(env_id));
		json_object_object_add(o, "segment_id",
				       json_object_new_string(segment_id));
	}
	return o;
}

static int
put_line(struct prof_lines *w, struct json_object *o, struct prof_err *err)
{
	char *own;
	size_t n;
	const char *text = prof_json_text(o, TEXT_FLAGS, &n, &own);
	int rc = 0;

	if (!text)
		return prof_err_set(err, "out of memory");
	if (fwrite(text, 1, n, w->fp) != n || fputc('\n', w->fp) == EOF)
		rc = prof_err_set(err, "write failed: %s", strerror(errno));
	free(own);
	return rc;
}

int
prof_lines_flush_run(struct prof_lines *w, struct prof_err *err)
{
	if (!w->run)
		return 0;
	if (put_line(w, w->run, err) < 0)
		return -1;
	json_object_put(w->run);
	w->run = NULL;
	return 0;
}

int
prof_lines_write(struct prof_lines *w, struct json_object *s,
		 struct prof_err *err)
{
	struct json_object *env = NULL, *seg = NULL, *o = NULL, *ctx;
	char eid[PROF_ID_SIZE], sid[PROF_ID_SIZE], pair[2 * PROF_ID_SIZE];
	int rc = -1;

	if (!w->seen && !(w->seen = json_object_new_object()))
		return prof_err_set(err, "out of memory");
	json_object_object_get_ex(s, "env", &env);
	json_object_object_get_ex(s, "segment", &seg);
	if (!env || !seg)
		return prof_err_set(err, "a sample without env or segment");
	if (prof_sample_json_id(env, eid) < 0 ||
	    prof_sample_id(json_object_get_string(seg), sid) < 0)
		return prof_err_set(err, "out of memory");
	if (prof_lines_flush_run(w, err) < 0)
		return -1;
	snprintf(pair, sizeof(pair), "%s %s", eid, sid);
	if (!json_object_object_get_ex(w->seen, pair, NULL)) {
		ctx = json_object_new_object();
		if (!ctx)
			return prof_err_set(err, "out of memory");
		json_object_object_add(ctx, "record",
				       json_object_new_string("context"));
		json_object_object_add(ctx, "env_id",
				       json_object_new_string(eid));
		json_object_object_add(ctx, "env", json_object_get(env));
		json_object_object_add(ctx, "segment_id",
				       json_object_new_string(sid));
		json_object_object_add(ctx, "segment", json_object_get(seg));
		rc = put_line(w, ctx, err);
		json_object_put(ctx);
		if (rc < 0)
			return -1;
		json_object_object_add(w->seen, pair, NULL);
	}
	o = prof_lines_sample2(s, eid, sid);
	if (!o)
		return prof_err_set(err, "out of memory");
	rc = put_line(w, o, err);
	json_object_put(o);
	return rc;
}
