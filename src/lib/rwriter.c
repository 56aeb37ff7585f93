/* rwriter.c: a schema-2 results file, one sample at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "afile.h"
#include "prof.h"
#include "rwriter.h"
#include "sample.h"

#define PLAIN (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

int
prof_rwriter_init(struct prof_rwriter *w, struct prof_err *err)
{
	memset(w, 0, sizeof(*w));
	w->spool = tmpfile();
	if (!w->spool)
		return prof_err_set(err, "cannot make a temporary file: %s",
				    strerror(errno));
	w->envs = json_object_new_object();
	w->segments = json_object_new_object();
	w->groups = json_object_new_object();
	w->group_ids = json_object_new_object();
	if (!w->envs || !w->segments || !w->groups || !w->group_ids) {
		prof_rwriter_free(w);
		return prof_err_set(err, "out of memory");
	}
	return 0;
}

void
prof_rwriter_free(struct prof_rwriter *w)
{
	if (w->spool)
		fclose(w->spool);
	json_object_put(w->envs);
	json_object_put(w->segments);
	json_object_put(w->groups);
	json_object_put(w->group_ids);
	memset(w, 0, sizeof(*w));
}

/* Whether a field may be left out of a schema-2 sample: null, or an
 * empty array (what a reader takes the missing field for). */
static int
omitted(const char *key, struct json_object *v)
{
	if (!strcmp(key, "reason") || !strcmp(key, "checksum"))
		return v == NULL;
	if (!strcmp(key, "artifacts"))
		return !v || (json_object_is_type(v, json_type_array) &&
			      !json_object_array_length(v));
	return 0;
}

/* The id of s's group, the group put into the table when it is new. */
static const char *
group_id(struct prof_rwriter *w, struct json_object *s, struct prof_err *err)
{
	struct json_object *g = json_object_new_object(), *v, *known;
	char id[PROF_ID_SIZE];
	const char *text;
	size_t i;

	if (!g)
		goto oom;
	for (i = 0; prof_group_keys[i]; i++)
		if (json_object_object_get_ex(s, prof_group_keys[i], &v))
			json_object_object_add(g, prof_group_keys[i],
					       json_object_get(v));
	text = json_object_to_json_string_ext(g, PLAIN);
	if (json_object_object_get_ex(w->group_ids, text, &known)) {
		json_object_put(g);
		return json_object_get_string(known);
	}
	if (prof_sample_json_id(g, id) < 0)
		goto oom;
	if (json_object_object_get_ex(w->groups, id, &known)) {
		/* Two groups whose ids collide: not one file's worth. */
		json_object_put(g);
		prof_err_set(err, "two sample groups share the id %s", id);
		return NULL;
	}
	json_object_object_add(w->group_ids, text, json_object_new_string(id));
	json_object_object_add(w->groups, id, g);
	json_object_object_get_ex(w->group_ids, text, &known);
	return json_object_get_string(known);
oom:
	json_object_put(g);
	prof_err_set(err, "out of memory");
	return NULL;
}

int
prof_rwriter_add(struct prof_rwriter *w, struct json_object *s,
		 struct prof_err *err)
{
	struct json_object *own = json_object_new_object();
	const char *gid, *text;
	size_t len;
	int rc;

	if (!own)
		return prof_err_set(err, "out of memory");
	gid = group_id(w, s, err);
	if (!gid) {
		json_object_put(own);
		return -1;
	}
	json_object_object_add(own, "group_id", json_object_new_string(gid));
	json_object_object_foreach(s, key, v)
	{
		if (!prof_group_key(key) && !omitted(key, v))
			json_object_object_add(own, key, json_object_get(v));
	}
	text = json_object_to_json_string_ext(own, PLAIN);
	len = strlen(text);
	rc = 0;
	if (fputs(w->n ? ",\n    " : "\n    ", w->spool) == EOF ||
	    fwrite(text, 1, len, w->spool) != len)
		rc = prof_err_set(err, "cannot write a temporary file: %s",
				  strerror(errno));
	else
		w->n++;
	json_object_put(own);
	return rc;
}

int
prof_rwriter_put_tables(struct prof_rwriter *w, const char *env_id,
			struct json_object *env, const char *segment_id,
			const char *segment, struct prof_err *err)
{
	struct json_object *seg;

	if (!json_object_object_get_ex(w->envs, env_id, NULL))
		json_object_object_add(w->envs, env_id, json_object_get(env));
	if (!json_object_object_get_ex(w->segments, segment_id, NULL)) {
		seg = json_object_new_string(segment);
		if (!seg)
			return prof_err_set(err, "out of memory");
		json_object_object_add(w->segments, segment_id, seg);
	}
	return 0;
}

int
prof_rwriter_merge_tables(struct prof_rwriter *w, struct json_object *envs,
			  struct json_object *segments, struct prof_err *err)
{
	(void)err;
	json_object_object_foreach(envs, eid, env)
	{
		if (!json_object_object_get_ex(w->envs, eid, NULL))
			json_object_object_add(w->envs, eid,
					       json_object_get(env));
	}
	json_object_object_foreach(segments, sid, seg)
	{
		if (!json_object_object_get_ex(w->segments, sid, NULL))
			json_object_object_add(w->segments, sid,
					       json_object_get(seg));
	}
	return 0;
}

/* "  \"key\": value" with a pretty value. */
static int
member(FILE *fp, int *first, const char *key, struct json_object *v,
       int flags)
{
	struct json_object *k = json_object_new_string(key);
	int rc;

	rc = fprintf(fp, "%s\n  %s: %s", *first ? "" : ",",
		     json_object_to_json_string_ext(k, PLAIN),
		     json_object_to_json_string_ext(v, flags));
	json_object_put(k);
	*first = 0;
	return rc < 0 ? -1 : 0;
}

/* A table with one entry per line. */
static int
table(FILE *fp, int *first, const char *key, struct json_object *t)
{
	int n = 0;

	if (fprintf(fp, "%s\n  \"%s\": {", *first ? "" : ",", key) < 0)
		return -1;
	*first = 0;
	json_object_object_foreach(t, id, v)
	{
		struct json_object *k = json_object_new_string(id);

		if (fprintf(fp, "%s\n    %s: %s", n++ ? "," : "",
			    json_object_to_json_string_ext(k, PLAIN),
			    json_object_to_json_string_ext(v, PLAIN)) < 0) {
			json_object_put(k);
			return -1;
		}
		json_object_put(k);
	}
	return fprintf(fp, "%s}", n ? "\n  " : "") < 0 ? -1 : 0;
}

static int
write_all(struct prof_rwriter *w, FILE *fp, struct json_object *head)
{
	struct json_object *v = NULL;
	char buf[65536];
	size_t got;
	int first = 1;

	if (fputc('{', fp) == EOF)
		return -1;
	v = json_object_new_string(PROF_SCHEMA);
	if (member(fp, &first, "schema", v, PLAIN) < 0) {
		json_object_put(v);
		return -1;
	}
	json_object_put(v);
	v = json_object_new_int(PROF_SCHEMA_VERSION);
	if (member(fp, &first, "schema_version", v, PLAIN) < 0) {
		json_object_put(v);
		return -1;
	}
	json_object_put(v);
	json_object_object_foreach(head, key, val)
	{
		if (!strcmp(key, "schema") || !strcmp(key, "schema_version") ||
		    !strcmp(key, "envs") || !strcmp(key, "segments") ||
		    !strcmp(key, "groups") || !strcmp(key, "samples"))
			continue;
		if (member(fp, &first, key, val,
			   PLAIN | JSON_C_TO_STRING_SPACED) < 0)
			return -1;
	}
	if (table(fp, &first, "envs", w->envs) < 0 ||
	    table(fp, &first, "segments", w->segments) < 0 ||
	    table(fp, &first, "groups", w->groups) < 0 ||
	    fputs(",\n  \"samples\": [", fp) == EOF)
		return -1;
	if (fflush(w->spool) != 0 || fseek(w->spool, 0, SEEK_SET) != 0)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), w->spool)) > 0)
		if (fwrite(buf, 1, got, fp) != got)
			return -1;
	if (ferror(w->spool))
		return -1;
	if (fputs(w->n ? "\n  ]\n}\n" : "]\n}\n", fp) == EOF)
		return -1;
	return fflush(fp) == 0 ? 0 : -1;
}

int
prof_rwriter_commit(struct prof_rwriter *w, const char *path,
		    struct json_object *head, struct prof_err *err)
{
	struct prof_afile af;
	FILE *fp;

	if (!strcmp(path, "-")) {
		if (write_all(w, stdout, head) < 0)
			return prof_err_at(err, "<stdout>", 0, 0,
					   "write failed: %s",
					   strerror(errno));
		return 0;
	}
	fp = prof_afile_open(&af, path, err);
	if (!fp)
		return -1;
	if (write_all(w, fp, head) < 0) {
		prof_err_at(err, path, 0, 0, "write failed: %s",
			    strerror(errno));
		prof_afile_abort(&af);
		return -1;
	}
	return prof_afile_commit(&af, err);
}
