/* rwriter.c: a schema-2 results file, one sample at a time. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "afile.h"
#include "buf.h"
#include "htab.h"
#include "json.h"
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
	if (!w->envs || !w->segments) {
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
	free(w->groups);
	prof_buf_free(&w->gtext);
	prof_htab_free(&w->by_id);
	prof_htab_free(&w->seen);
	free(w->ids);
	prof_buf_free(&w->key);
	prof_buf_free(&w->text);
	memset(w, 0, sizeof(*w));
}

/* Whether a field may be left out of a schema-2 sample: null, or an
 * empty array (what a reader takes the missing field for). */
static int
omitted(const char *key, struct json_object *v)
{
	if (v && !json_object_is_type(v, json_type_array))
		return 0;
	if (!strcmp(key, "reason") || !strcmp(key, "checksum"))
		return v == NULL;
	if (!strcmp(key, "artifacts"))
		return !v || !json_object_array_length(v);
	return 0;
}

/* A JSON value's text as json-c writes it. */
static int
put_value(struct prof_buf *b, struct json_object *v)
{
	size_t n;
	char *own;
	const char *t = prof_json_text(v, PLAIN, &n, &own);
	int rc = t ? prof_buf_put(b, t, n) : -1;

	free(own);
	return rc;
}

/* A key as a JSON string; ours need no escapes, others get json-c's. */
static int
put_key(struct prof_buf *b, const char *key)
{
	const char *q;
	struct json_object *k;
	int rc;

	for (q = key; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == '"' || *q == '\\' ||
		    (unsigned char)*q >= 0x7f)
			break;
	if (!*q) {
		if (prof_buf_put(b, "\"", 1) ||
		    prof_buf_put(b, key, (size_t)(q - key)) ||
		    prof_buf_put(b, "\":", 2))
			return -1;
		return 0;
	}
	k = json_object_new_string(key);
	rc = !k || put_value(b, k) || prof_buf_put(b, ":", 1) ? -1 : 0;
	json_object_put(k);
	return rc;
}

/* A value as bytes that tell it from any other of its type (a key for the
 * hash table, never written out). */
static int
put_raw(struct prof_buf *b, struct json_object *v)
{
	size_t n;
	int64_t i;
	double d;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return prof_buf_put(b, "n", 1);
	case json_type_string:
		n = (size_t)json_object_get_string_len(v);
		return prof_buf_put(b, "s", 1) ||
			       prof_buf_put(b, &n, sizeof(n)) ||
			       prof_buf_put(b, json_object_get_string(v), n) ?
			       -1 :
			       0;
	case json_type_int:
		i = json_object_get_int64(v);
		return prof_buf_put(b, "i", 1) || prof_buf_put(b, &i, sizeof(i));
	case json_type_double:
		d = json_object_get_double(v);
		return prof_buf_put(b, "d", 1) || prof_buf_put(b, &d, sizeof(d));
	default:
		return prof_buf_put(b, "j", 1) || put_value(b, v);
	}
}

/* A new group g of id id into the table: its text, as the table writes
 * it, and its place. Returns 0, or -1 when out of memory. */
static int
keep_group(struct prof_rwriter *w, struct json_object *g, const char *id)
{
	struct prof_rwriter_group *e;
	char *own = NULL;
	size_t n;
	const char *t = prof_json_text(g, PLAIN, &n, &own);
	int rc = -1;

	if (!t)
		return -1;
	if (w->n_groups == w->cap_groups) {
		size_t ncap = w->cap_groups ? w->cap_groups * 2 : 64;
		struct prof_rwriter_group *ng =
			realloc(w->groups, ncap * sizeof(*ng));

		if (!ng)
			goto out;
		w->groups = ng;
		w->cap_groups = ncap;
	}
	e = &w->groups[w->n_groups];
	memcpy(e->id, id, sizeof(e->id));
	e->off = w->gtext.len;
	e->len = n;
	/* Each text ends in a NUL, so that it reads back alone. */
	if (prof_buf_put(&w->gtext, t, n) < 0 ||
	    prof_buf_put(&w->gtext, "", 1) < 0 ||
	    prof_htab_put(&w->by_id, id, strlen(id), (long)w->n_groups) < 0)
		goto out;
	w->n_groups++;
	rc = 0;
out:
	free(own);
	return rc;
}

/*
 * The id of s's group, the group put into the table when it is new. The
 * groups seen are found by their values' bytes (w->key), so a sample
 * costs a hash lookup, not a group object. Values that differ only in
 * type (5 and 5.0, as a file may give back a double) are one group: its
 * id is of the canonical text.
 */
static const char *
group_id(struct prof_rwriter *w, struct json_object *s, struct prof_err *err)
{
	struct json_object *g, *v;
	struct prof_buf *key = &w->key;
	char id[PROF_ID_SIZE];
	size_t i;
	long k, known;

	key->len = 0;
	for (i = 0; prof_group_keys[i]; i++) {
		char tag[2] = {(char)('a' + i), 0};

		if (!json_object_object_get_ex(s, prof_group_keys[i], &v))
			continue;
		if (prof_buf_put(key, tag, 2) < 0 || put_raw(key, v) < 0)
			goto oom;
	}
	k = prof_htab_get(&w->seen, key->p, key->len);
	if (k >= 0)
		return w->ids[k];
	g = json_object_new_object();
	if (!g)
		goto oom;
	for (i = 0; prof_group_keys[i]; i++)
		if (json_object_object_get_ex(s, prof_group_keys[i], &v))
			json_object_object_add(g, prof_group_keys[i],
					       json_object_get(v));
	if (prof_sample_json_id(g, id) < 0) {
		json_object_put(g);
		goto oom;
	}
	known = prof_htab_get(&w->by_id, id, strlen(id));
	if (known >= 0) {
		/* The values differ in their bytes only (5 and 5.0), or two
		 * groups' ids collide: the first group's text, read back,
		 * tells which. */
		const struct prof_rwriter_group *kg = &w->groups[known];
		struct json_object *kj =
			json_tokener_parse(w->gtext.p + kg->off);
		char *a = kj ? prof_json_canonical(kj) : NULL;
		char *b = prof_json_canonical(g);
		int same = a && b && !strcmp(a, b);

		free(a);
		free(b);
		json_object_put(kj);
		json_object_put(g);
		if (!same) {
			/* Two groups whose ids collide: not one file's
			 * worth. */
			prof_err_set(err, "two sample groups share the id %s",
				     id);
			return NULL;
		}
	} else if (keep_group(w, g, id) < 0) {
		json_object_put(g);
		goto oom;
	} else {
		json_object_put(g);
	}
	if (w->n_ids == w->cap_ids) {
		size_t ncap = w->cap_ids ? w->cap_ids * 2 : 64;
		char (*ni)[PROF_ID_SIZE] = realloc(w->ids, ncap * sizeof(*ni));

		if (!ni)
			goto oom;
		w->ids = ni;
		w->cap_ids = ncap;
	}
	memcpy(w->ids[w->n_ids], id, PROF_ID_SIZE);
	if (prof_htab_put(&w->seen, key->p, key->len, (long)w->n_ids) < 0)
		goto oom;
	return w->ids[w->n_ids++];
oom:
	prof_err_set(err, "out of memory");
	return NULL;
}

int
prof_rwriter_add(struct prof_rwriter *w, struct json_object *s,
		 struct prof_err *err)
{
	struct prof_buf *t = &w->text;
	const char *gid = group_id(w, s, err);

	if (!gid)
		return -1;
	t->len = 0;
	if (prof_buf_put(t, "{\"group_id\":\"", 13) ||
	    prof_buf_put(t, gid, strlen(gid)) || prof_buf_put(t, "\"", 1))
		return prof_err_set(err, "out of memory");
	json_object_object_foreach(s, key, v)
	{
		if (prof_group_key(key) || omitted(key, v))
			continue;
		if (prof_buf_put(t, ",", 1) || put_key(t, key) ||
		    put_value(t, v))
			return prof_err_set(err, "out of memory");
	}
	if (prof_buf_put(t, "}", 1))
		return prof_err_set(err, "out of memory");
	if (fputs(w->n ? ",\n    " : "\n    ", w->spool) == EOF ||
	    fwrite(t->p, 1, t->len, w->spool) != t->len)
		return prof_err_set(err, "cannot write a temporary file: %s",
				    strerror(errno));
	w->n++;
	return 0;
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

/* lead, then "key: value" as prof_json_text() writes them. */
static int
key_value(FILE *fp, const char *lead, const char *key, struct json_object *v,
	  int flags)
{
	struct json_object *k = json_object_new_string(key);
	char *own_k = NULL, *own_v = NULL;
	size_t nk, nv;
	const char *tk = k ? prof_json_text(k, PLAIN, &nk, &own_k) : NULL;
	const char *tv = prof_json_text(v, flags, &nv, &own_v);
	int rc = -1;

	if (tk && tv && fputs(lead, fp) != EOF &&
	    fwrite(tk, 1, nk, fp) == nk && fputs(": ", fp) != EOF &&
	    fwrite(tv, 1, nv, fp) == nv)
		rc = 0;
	free(own_k);
	free(own_v);
	json_object_put(k);
	return rc;
}

/* "  \"key\": value" with a pretty value. */
static int
member(FILE *fp, int *first, const char *key, struct json_object *v,
       int flags)
{
	int rc = key_value(fp, *first ? "\n  " : ",\n  ", key, v, flags);

	*first = 0;
	return rc;
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
		if (key_value(fp, n++ ? ",\n    " : "\n    ", id, v, PLAIN) <
		    0)
			return -1;
	}
	return fprintf(fp, "%s}", n ? "\n  " : "") < 0 ? -1 : 0;
}

/* The groups table, as table() writes one: an id and its text a line. */
static int
group_table(struct prof_rwriter *w, FILE *fp)
{
	size_t k;

	if (fputs(",\n  \"groups\": {", fp) == EOF)
		return -1;
	for (k = 0; k < w->n_groups; k++) {
		const struct prof_rwriter_group *g = &w->groups[k];

		if (fprintf(fp, "%s\"%s\": ", k ? ",\n    " : "\n    ",
			    g->id) < 0 ||
		    fwrite(w->gtext.p + g->off, 1, g->len, fp) != g->len)
			return -1;
	}
	return fprintf(fp, "%s}", w->n_groups ? "\n  " : "") < 0 ? -1 : 0;
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
	    group_table(w, fp) < 0 ||
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
prof_rwriter_commit_to(struct prof_rwriter *w, const char *path, FILE *dash,
		       struct json_object *head, struct prof_err *err)
{
	struct prof_afile af;
	FILE *fp;

	if (!strcmp(path, "-")) {
		if (write_all(w, dash, head) < 0)
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
