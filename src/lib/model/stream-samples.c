/* stream-samples.c: the stream's samples side: the env and segment
 * tables, each sample's pair of them checked, the groups its samples join,
 * and each sample checked and taken (stream.c walks the documents and
 * lines that hold them). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/env.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/json.h"
#include "base/pool.h"
#include "base/prof.h"
#include "base/utf8.h"
#include "model/stream-int.h"
#include "model/stream.h"

struct json_object *
prof_stream_env(const struct prof_stream *st, const char *id)
{
	struct json_object *v = NULL;

	if (!id || !json_object_object_get_ex(st->envs, id, &v))
		return NULL;
	return v;
}

const char *
prof_stream_segment(const struct prof_stream *st, const char *id)
{
	struct json_object *v = NULL;

	if (!id || !json_object_object_get_ex(st->segments, id, &v))
		return NULL;
	return json_object_get_string(v);
}

struct json_object *
prof_stream_envs(const struct prof_stream *st)
{
	return st->envs;
}

struct json_object *
prof_stream_segments(const struct prof_stream *st)
{
	return st->segments;
}

/* An error naming a JSON path of the input. */
int
stream_path_err(struct prof_stream *st, struct prof_err *err, const char *path,
		const char *reason)
{
	prof_err_path(err, path, "%s", reason);
	prof_err_file(err, st->name);
	return -1;
}

/* Put id -> value into a table, refusing a different value for an id
 * that is there. */
int
stream_table_put(struct prof_stream *st, struct json_object *table,
		 const char *what, const char *id, struct json_object *value,
		 struct prof_err *err)
{
	struct json_object *old = NULL;
	char path[128];

	if (json_object_object_get_ex(table, id, &old)) {
		if (json_object_equal(old, value))
			return 0;
		snprintf(path, sizeof(path), ".%s.%s", what, id);
		return stream_path_err(st, err, path,
				       "another value for an id that an input "
				       "read before defines");
	}
	json_object_object_add(table, id, json_object_get(value));
	return 0;
}

/* Move a schema-1 sample's env and segment into the tables. */
static int
convert_v1(struct prof_stream *st, struct json_object *s, struct prof_err *err)
{
	struct json_object *env = NULL, *seg = NULL;
	const char *segment;

	json_object_object_get_ex(s, "env", &env);
	json_object_object_get_ex(s, "segment", &seg);
	segment = json_object_get_string(seg);
	if (!st->last_env || !json_object_equal(env, st->last_env)) {
		if (prof_sample_json_id(env, st->last_env_id) < 0)
			return prof_err_set(err, "out of memory");
		json_object_put(st->last_env);
		st->last_env = json_object_get(env);
		if (stream_table_put(st, st->envs, "envs", st->last_env_id, env,
				     err) < 0)
			return -1;
	}
	if (!st->last_seg || strcmp(segment, st->last_seg)) {
		free(st->last_seg);
		st->last_seg = strdup(segment);
		if (!st->last_seg ||
		    prof_sample_id(segment, st->last_seg_id) < 0)
			return prof_err_set(err, "out of memory");
		if (stream_table_put(st, st->segments, "segments",
				     st->last_seg_id, seg, err) < 0)
			return -1;
	}
	json_object_object_del(s, "schema_version");
	json_object_object_del(s, "env");
	json_object_object_del(s, "segment");
	json_object_object_add(s, "env_id",
			       json_object_new_string(st->last_env_id));
	json_object_object_add(s, "segment_id",
			       json_object_new_string(st->last_seg_id));
	return 0;
}

/*
 * Whether the segment sid names is the key of the env eid names (env.h):
 * the segment key is derived from the env, and a stream or file whose two
 * disagree would key its rows by a machine its env does not describe.
 * Errors name path. Returns 0 or -1.
 */
static int
check_pair(struct prof_stream *st, const char *eid, const char *sid,
	   const char *path, struct prof_err *err)
{
	char why[400];
	int rc = prof_env_segment_check(prof_stream_env(st, eid),
					prof_stream_segment(st, sid), why,
					sizeof(why));

	if (rc < 0)
		return prof_err_set(err, "out of memory");
	if (rc)
		return prof_err_path(err, path,
				     "segment '%.100s' is not the key of env "
				     "'%.100s': %s",
				     sid, eid, why);
	return 0;
}

/* The key of a pair in st->pairs; NULL when out of memory. */
static char *
pair_key(const char *eid, const char *sid)
{
	size_t ne = strlen(eid), ns = strlen(sid);
	char *k = malloc(ne + ns + 2);

	if (!k)
		return NULL;
	memcpy(k, eid, ne);
	k[ne] = '\n';
	memcpy(k + ne + 1, sid, ns + 1);
	return k;
}

/*
 * A sample's env_id and segment_id: checked once a pair, as soon as the
 * tables hold both (a stream's context lines come first; a document may
 * give its tables after its samples, and finish_document() checks what
 * is left). Returns 0, or -1 with err.
 */
static int
note_pair(struct prof_stream *st, const char *eid, const char *sid, long index,
	  int doc, struct prof_err *err)
{
	struct json_object *v = NULL;
	char path[64], *key;
	int ready, rc = -1;

	if (st->last_pair_e && !strcmp(eid, st->last_pair_e) &&
	    !strcmp(sid, st->last_pair_s))
		return 0;
	key = pair_key(eid, sid);
	if (!key)
		return prof_err_set(err, "out of memory");
	if (json_object_object_get_ex(st->pairs, key, &v) &&
	    json_object_get_int64(v) < 0) {
		rc = 0;
		goto remember;
	}
	ready = prof_stream_env(st, eid) && prof_stream_segment(st, sid);
	if (!ready) {
		if (!v)
			json_object_object_add(st->pairs, key,
					       json_object_new_int64(index));
		free(key);
		return 0;
	}
	if (doc)
		snprintf(path, sizeof(path), ".samples[%ld].segment_id", index);
	if (check_pair(st, eid, sid, doc ? path : ".segment_id", err) < 0)
		goto out;
	json_object_object_add(st->pairs, key, json_object_new_int64(-1));
	rc = 0;
remember:
	free(st->last_pair_e);
	free(st->last_pair_s);
	st->last_pair_e = strdup(eid);
	st->last_pair_s = strdup(sid);
	if (!st->last_pair_e || !st->last_pair_s) {
		free(st->last_pair_e);
		free(st->last_pair_s);
		st->last_pair_e = st->last_pair_s = NULL;
	}
out:
	free(key);
	return rc;
}

/* The pairs a document named before its tables, checked at its end. */
int
stream_check_pending_pairs(struct prof_stream *st, struct prof_err *err)
{
	char path[64];

	json_object_object_foreach(st->pairs, key, index)
	{
		long i = (long)json_object_get_int64(index);
		char *eid, *sid;
		int rc;

		if (i < 0)
			continue;
		eid = strdup(key);
		if (!eid)
			return prof_err_set(err, "out of memory");
		sid = strchr(eid, '\n');
		*sid++ = '\0';
		snprintf(path, sizeof(path), ".samples[%ld].segment_id", i);
		rc = check_pair(st, eid, sid, path, err);
		free(eid);
		if (rc < 0) {
			prof_err_file(err, st->name);
			return -1;
		}
		json_object_set_int64(index, -1);
	}
	return 0;
}

/* Remember an id a sample names that no table holds yet. */
static int
note_pending(struct prof_stream *st, char kind, const char *id, long index)
{
	char key[160];

	snprintf(key, sizeof(key), "%c %s", kind, id);
	if (!json_object_object_get_ex(st->pending, key, NULL))
		json_object_object_add(st->pending, key,
				       json_object_new_int64(index));
	return 0;
}

void
stream_mixed_reason(struct prof_stream *st, struct prof_err *err, int doc,
		    long index, int sample)
{
	st->mixed = 1;
	prof_err_clear(err);
	prof_err_set(err,
		     "mixed schema versions: the results file is version %d, "
		     ".samples[%ld] is version %d",
		     doc, index, sample);
	prof_err_file(err, st->name);
}

/* Forget the last document's groups. Returns 0, or -1 when out of
 * memory. */
int
stream_groups_reset(struct prof_stream *st)
{
	json_object_put(st->groups);
	st->groups = json_object_new_object();
	free(st->gat);
	st->gat = NULL;
	st->n_gat = st->cap_gat = 0;
	prof_htab64_free(&st->gidx);
	json_object_put(st->glast);
	st->glast = NULL;
	free(st->glast_id);
	st->glast_id = NULL;
	return st->groups ? 0 : -1;
}

/* Member i of the groups table read back from the input into gbuf.
 * Returns 0, or -1 (out of memory, or a read that came short). */
static int
group_read(struct prof_stream *st, size_t i)
{
	const struct group_at *a = &st->gat[i];
	ssize_t got;

	/* Exactly the longest group's room: no doubling over it. */
	if (a->len + 1 > st->gbuf_cap) {
		if (PROF_RESIZE(st->gbuf, a->len + 1) < 0)
			return -1;
		st->gbuf_cap = a->len + 1;
	}
	got = pread(st->gfd, st->gbuf, a->len, st->gbase + (off_t)a->off);
	if (got != (ssize_t)a->len)
		return -1;
	st->gbuf[a->len] = '\0';
	return 0;
}

/* Whether the member in gbuf (group_read()) has the key id. */
static int
group_is(struct prof_stream *st, size_t i, const char *id)
{
	char *key = st->gbuf, after;
	size_t n = st->gat[i].key_len, len = strlen(id);
	struct json_object *k;
	int same;

	if (!memchr(key, '\\', n))
		return n == len + 2 && !memcmp(key + 1, id, len);
	/* An escaped key: parsed alone, as the string it is. */
	after = key[n];
	key[n] = '\0';
	k = json_tokener_parse(key);
	key[n] = after;
	same = k && !strcmp(json_object_get_string(k), id);
	json_object_put(k);
	return same;
}

/*
 * The group id names in the last document: a new object (the caller
 * puts it), or NULL with *found 0 when there is none. Where a regular
 * input's member is: *probe the first probe of id that is free (for
 * stream_group_put()). -1 into *found when out of memory or the input could not
 * be read again.
 */
struct json_object *
stream_group_find(struct prof_stream *st, const char *id, int *found,
		  uint64_t *probe)
{
	struct json_object *t = NULL, *g;
	uint64_t h = prof_pool_hash(id, strlen(id), PROF_POOL_FNV);
	int64_t i;

	*found = 0;
	if (json_object_object_get_ex(st->groups, id, &t)) {
		*found = 1;
		g = json_tokener_parse(json_object_get_string(t));
		if (!g)
			*found = -1;
		return g;
	}
	for (; st->n_gat && prof_htab64_get(&st->gidx, h, &i);
	     h = prof_pool_next(h)) {
		const char *v;

		if (group_read(st, (size_t)i) < 0) {
			*found = -1;
			return NULL;
		}
		if (!group_is(st, (size_t)i, id))
			continue;
		*found = 1;
		v = memchr(st->gbuf + st->gat[i].key_len, ':',
			   st->gat[i].len - st->gat[i].key_len);
		g = v ? json_tokener_parse(v + 1) : NULL;
		if (!g)
			*found = -1;
		return g;
	}
	if (probe)
		*probe = h;
	return NULL;
}

/*
 * A grouped sample (group_id) of a document made whole, in place, with its
 * group, which the document's groups table gave before its samples.
 */
static int
join_group(struct prof_stream *st, struct json_object *s, long index, int doc,
	   struct prof_err *err)
{
	struct json_object *id = NULL, *g = NULL;
	char prefix[64];
	int found = 0;

	json_object_object_get_ex(s, "group_id", &id);
	if (!json_object_is_type(id, json_type_string)) {
		snprintf(prefix, sizeof(prefix), ".samples[%ld].group_id",
			 index);
		return prof_err_path(err, prefix, "expected a string, got %s",
				     prof_json_type_name(id));
	}
	if (doc && st->glast &&
	    !strcmp(st->glast_id, json_object_get_string(id))) {
		g = json_object_get(st->glast);
		found = 1;
	} else if (doc) {
		g = stream_group_find(st, json_object_get_string(id), &found,
				      NULL);
		if (g) {
			char *gid = strdup(json_object_get_string(id));

			if (!gid) {
				json_object_put(g);
				return prof_err_set(err, "out of memory");
			}
			json_object_put(st->glast);
			free(st->glast_id);
			st->glast = json_object_get(g);
			st->glast_id = gid;
		}
	}
	if (found < 0)
		return prof_err_set(err,
				    "cannot read the group of "
				    ".samples[%ld] again from the input",
				    index);
	if (!g) {
		snprintf(prefix, sizeof(prefix), ".samples[%ld].group_id",
			 index);
		return prof_err_path(err, doc ? prefix : ".group_id", "%s",
				     doc ? "no such id in .groups (which "
					   "must come before .samples)"
					 : "a grouped sample belongs in a "
					   "results file, not a stream");
	}
	if (prof_sample_join(g, s, "", err) == 0) {
		json_object_put(g);
		return 0;
	}
	if (doc) {
		/* The path only for the error: the join again, with it. */
		snprintf(prefix, sizeof(prefix), ".samples[%ld]", index);
		prof_err_clear(err);
		prof_sample_join(g, s, prefix, err);
	}
	json_object_put(g);
	return -1;
}

/* The version a sample's form says: its schema_version, else 2; *has
 * whether it has one. */
static int
sample_version(struct json_object *s, int *has)
{
	struct json_object *v = NULL;

	*has = json_object_object_get_ex(s, "schema_version", &v);
	if (!*has)
		return PROF_SCHEMA_VERSION;
	if (!json_object_is_type(v, json_type_int))
		return -1;
	return (int)json_object_get_int64(v);
}

/* A reason longer than a writer keeps (PROF_REASON_MAX) is cut here too,
 * as the writer would have cut it. Returns 0, or -1 when out of memory. */
static int
cap_reason(struct json_object *s)
{
	struct json_object *r = NULL, *cut;
	const char *t, *m;
	char buf[PROF_REASON_MAX + 64];
	size_t n, total, keep;

	if (!json_object_object_get_ex(s, "reason", &r) ||
	    !json_object_is_type(r, json_type_string))
		return 0;
	t = json_object_get_string(r);
	n = total = (size_t)json_object_get_string_len(r);
	if (n <= PROF_REASON_MAX + 64)
		return 0;
	/* Cut by read_value() already: say the size it had in the file. */
	m = strstr(t + n - 64, " [... cut, ");
	if (m && sscanf(m, " [... cut, %zu bytes]", &total) != 1)
		total = n;
	keep = prof_utf8_cut(t, n, PROF_REASON_MAX);
	snprintf(buf, sizeof(buf), "%.*s [... cut, %zu bytes]", (int)keep, t,
		 total);
	cut = json_object_new_string(buf);
	if (!cut)
		return -1;
	json_object_object_add(s, "reason", cut);
	return 0;
}

typedef int (*sample_check_fn)(struct json_object *, const char *,
			       struct prof_err *);

/* A sample checked by check() without its path (the quick way); where it
 * fails in a document (doc), checked again with its path .samples[index]
 * for the error to name. 0, or -1. */
static int
check_sample(sample_check_fn check, struct json_object *s, int doc, long index,
	     struct prof_err *err)
{
	char prefix[64];

	if (check(s, "", err) >= 0)
		return 0;
	if (doc) {
		snprintf(prefix, sizeof(prefix), ".samples[%ld]", index);
		prof_err_clear(err);
		check(s, prefix, err);
	}
	return -1;
}

/*
 * Check and normalize one sample. In a document (doc), a sample's form
 * must match the document's version; a stream may mix them, but a
 * schema-2 line needs its context line before it.
 */
int
stream_take_sample(struct prof_stream *st, struct json_object *s, long index,
		   int doc, prof_stream_fn fn, void *arg, struct prof_err *err)
{
	char prefix[64] = "";
	const char *eid, *sid;
	int has_version = 0;
	int v = json_object_is_type(s, json_type_object) ?
			sample_version(s, &has_version) :
			PROF_SCHEMA_VERSION;
	int rc = -1;

	if (doc && !json_object_is_type(s, json_type_object)) {
		snprintf(prefix, sizeof(prefix), ".samples[%ld]", index);
		prof_err_path(err, prefix, "expected a sample object, got %s",
			      prof_json_type_name(s));
		goto fail;
	}
	/* In a schema-1 document a sample without schema_version is a
	 * schema-1 sample that lacks it (malformed), not a schema-2 one. */
	if (doc && st->version == PROF_SCHEMA_V1 &&
	    json_object_is_type(s, json_type_object) && !has_version)
		v = PROF_SCHEMA_V1;

	if (doc && v >= 1) {
		if (st->version && v != st->version) {
			stream_mixed_reason(st, err, st->version, index, v);
			goto out;
		}
		if (v == PROF_SCHEMA_V1 && st->first_v1 < 0)
			st->first_v1 = index;
		if (v != PROF_SCHEMA_V1 && st->first_v2 < 0)
			st->first_v2 = index;
	}
	/* The path of a sample is only written out for an error: the
	 * checks run again with it then. */
	if (v == PROF_SCHEMA_V1 || v < 0 || v > PROF_SCHEMA_VERSION) {
		if (check_sample(prof_sample_check, s, doc, index, err) < 0)
			goto fail;
		if (convert_v1(st, s, err) < 0)
			goto fail;
	} else {
		/* A grouped sample: its own fields checked here, its
		 * group's once, when the table was read. */
		int grouped = json_object_is_type(s, json_type_object) &&
			      json_object_object_get_ex(s, "group_id", NULL);
		sample_check_fn check =
		    grouped ? prof_sample_check_own : prof_sample_check2;

		if (has_version)
			json_object_object_del(s, "schema_version");
		if (check_sample(check, s, doc, index, err) < 0)
			goto fail;
		if (grouped && join_group(st, s, index, doc, err) < 0)
			goto fail;
		eid = prof_json_str(s, "env_id");
		sid = prof_json_str(s, "segment_id");
		/* The pair checked last (most samples are of it): both its
		 * ids are in the tables, which only grow. */
		if (st->last_pair_e && eid && sid &&
		    !strcmp(eid, st->last_pair_e) &&
		    !strcmp(sid, st->last_pair_s))
			goto taken;
		if (!doc && !json_object_object_get_ex(st->envs, eid, NULL)) {
			prof_err_path(err, ".env_id",
				      "no context line for '%s' before this "
				      "sample",
				      eid);
			goto fail;
		}
		if (!doc &&
		    !json_object_object_get_ex(st->segments, sid, NULL)) {
			prof_err_path(err, ".segment_id",
				      "no context line for '%s' before this "
				      "sample",
				      sid);
			goto fail;
		}
		if (!json_object_object_get_ex(st->envs, eid, NULL))
			note_pending(st, 'e', eid, index);
		if (!json_object_object_get_ex(st->segments, sid, NULL))
			note_pending(st, 's', sid, index);
		if (note_pair(st, eid, sid, index, doc, err) < 0)
			goto fail;
	}
taken:
	if (cap_reason(s) < 0) {
		prof_err_set(err, "out of memory");
		goto fail;
	}
	if (fn(arg, s, index, err) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	if (doc)
		prof_err_file(err, st->name);
out:
	json_object_put(s);
	return rc;
}

/*
 * Keep a checked group as its JSON text, parsed again for each sample that
 * joins it: a group is one row's shared fields, and 40,000 rows of json-c
 * objects were most of a large run's memory.
 */
int
stream_keep_group(struct prof_stream *st, const char *id, struct json_object *g,
		  struct prof_err *err)
{
	size_t len;
	const char *text = json_object_to_json_string_length(
	    g, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	struct json_object *t =
	    text ? json_object_new_string_len(text, (int)len) : NULL;

	if (!t)
		return prof_err_set(err, "out of memory");
	json_object_object_add(st->groups, id, t);
	return 0;
}

/* Where a checked group is in a regular input: member [off, off + len),
 * its key the first key_len bytes, at probe (stream_group_find()). Returns 0,
 * or -1 with err filled. */
int
stream_group_put(struct prof_stream *st, uint64_t probe, size_t off,
		 size_t key_len, size_t len, struct prof_err *err)
{
	if (PROF_GROW(st->gat, st->n_gat + 1, st->cap_gat) < 0)
		return prof_err_set(err, "out of memory");
	st->gat[st->n_gat].off = off;
	st->gat[st->n_gat].key_len = (uint32_t)key_len;
	st->gat[st->n_gat].len = (uint32_t)len;
	if (prof_htab64_put(&st->gidx, probe, (int64_t)st->n_gat) < 0)
		return prof_err_set(err, "out of memory");
	st->n_gat++;
	return 0;
}

/* A document's groups table, each group checked. */
static int
take_groups(struct prof_stream *st, struct json_object *t, struct prof_err *err)
{
	char path[300];

	if (!json_object_is_type(t, json_type_object)) {
		prof_err_path(err, ".groups", "expected an object, got %s",
			      prof_json_type_name(t));
		prof_err_file(err, st->name);
		return -1;
	}
	json_object_object_foreach(t, id, g)
	{
		snprintf(path, sizeof(path), ".groups.%.200s", id);
		if (prof_group_check(g, path, err) < 0) {
			prof_err_file(err, st->name);
			return -1;
		}
		if (stream_keep_group(st, id, g, err) < 0)
			return -1;
	}
	return 0;
}

/* A schema-2 table of a document, checked and added to the reader's. */
int
stream_take_table(struct prof_stream *st, const char *key,
		  struct json_object *t, struct prof_err *err)
{
	char path[300];
	int objects = !strcmp(key, "envs");

	if (!strcmp(key, "groups"))
		return take_groups(st, t, err);
	if (!json_object_is_type(t, json_type_object)) {
		snprintf(path, sizeof(path), ".%s", key);
		prof_err_path(err, path, "expected an object, got %s",
			      prof_json_type_name(t));
		prof_err_file(err, st->name);
		return -1;
	}
	json_object_object_foreach(t, id, v)
	{
		snprintf(path, sizeof(path), ".%s.%s", key, id);
		if (objects ? !json_object_is_type(v, json_type_object)
			    : !json_object_is_type(v, json_type_string) ||
				  !json_object_get_string_len(v)) {
			prof_err_path(err, path, "expected %s, got %s",
				      objects ? "an object"
					      : "a non-empty string",
				      prof_json_type_name(v));
			prof_err_file(err, st->name);
			return -1;
		}
		if (stream_table_put(st, objects ? st->envs : st->segments, key,
				     id, v, err) < 0)
			return -1;
	}
	return 0;
}
