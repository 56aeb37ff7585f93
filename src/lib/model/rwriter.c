/* rwriter.c: a schema-2 results file, one sample at a time. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/json.h"
#include "base/pool.h"
#include "base/prof.h"
#include "model/rwriter.h"
#include "model/sample.h"

#define PLAIN (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* The group store: an unlinked file in TMPDIR, or NULL (then memory). */
static FILE *
group_store(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "%s/prof-groups.XXXXXX",
		 dir && dir[0] ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	fp = fdopen(fd, "w+");
	if (!fp)
		close(fd);
	return fp;
}

int
prof_rwriter_init(struct prof_rwriter *w, struct prof_err *err)
{
	memset(w, 0, sizeof(*w));
	w->last = -1;
	w->spool = tmpfile();
	if (!w->spool)
		return prof_err_set(err, "cannot make a temporary file: %s",
				    strerror(errno));
	w->gfp = group_store();
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
	if (w->gfp)
		fclose(w->gfp);
	json_object_put(w->envs);
	json_object_put(w->segments);
	free(w->groups);
	prof_buf_free(&w->gtext);
	prof_htab64_free(&w->by_id);
	prof_htab64_free(&w->seen);
	prof_htab_free(&w->seen_more);
	prof_buf_free(&w->last_key);
	prof_buf_free(&w->key);
	prof_buf_free(&w->text);
	prof_buf_free(&w->back);
	memset(w, 0, sizeof(*w));
	w->last = -1;
}

/* n bytes of the group store at off into w->back (NUL-terminated).
 * Returns 0, or -1 when they cannot be read. */
static int
store_get(struct prof_rwriter *w, uint64_t off, size_t n)
{
	w->back.len = 0;
	if (prof_buf_reserve(&w->back, n + 1) < 0)
		return -1;
	if (!w->gfp) {
		memcpy(w->back.p, w->gtext.p + off, n);
	} else {
		if (w->gdirty && fflush(w->gfp) != 0)
			return -1;
		w->gdirty = 0;
		if (pread(fileno(w->gfp), w->back.p, n, (off_t)off) !=
		    (ssize_t)n)
			return -1;
	}
	w->back.p[n] = '\0';
	w->back.len = n;
	return 0;
}

/* n bytes onto the end of the group store. Returns 0 or -1. */
static int
store_put(struct prof_rwriter *w, const void *p, size_t n)
{
	if (w->gfp) {
		if (n && fwrite(p, 1, n, w->gfp) != n)
			return -1;
		w->gdirty = 1;
	} else if (prof_buf_put(&w->gtext, p, n) < 0) {
		return -1;
	}
	w->gend += n;
	return 0;
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

/* A 64-bit table's key for h (any but UINT64_MAX). */
static uint64_t
key64(uint64_t h)
{
	return h == UINT64_MAX ? UINT64_MAX - 1 : h;
}

/* Whether group k is found by the bytes key (read back to be sure). -1
 * when they cannot be read. */
static int
same_key(struct prof_rwriter *w, long k, const struct prof_buf *key)
{
	const struct prof_rwriter_group *g = &w->groups[k];

	if (g->klen != key->len)
		return 0;
	if (store_get(w, g->off, g->klen) < 0)
		return -1;
	return !memcmp(w->back.p, key->p, key->len);
}

/* A new group g of id id, found by key, into the table: its bytes and
 * text into the store, and its place. Returns 0, -1 when out of memory,
 * -2 when the store cannot be written. */
static int
keep_group(struct prof_rwriter *w, struct json_object *g, uint64_t id,
	   const struct prof_buf *key)
{
	struct prof_rwriter_group *e;
	char *own = NULL;
	size_t n;
	const char *t = prof_json_text(g, PLAIN, &n, &own);
	int rc = -1;

	if (!t)
		return -1;
	if (PROF_GROW(w->groups, w->n_groups + 1, w->cap_groups) < 0)
		goto out;
	if (n > UINT32_MAX || key->len > UINT32_MAX)
		goto out;
	e = &w->groups[w->n_groups];
	e->id = id;
	e->off = w->gend;
	e->klen = (uint32_t)key->len;
	e->tlen = (uint32_t)n;
	if (store_put(w, key->p, key->len) < 0 || store_put(w, t, n) < 0) {
		rc = -2;
		goto out;
	}
	if (prof_htab64_put(&w->by_id, key64(id), (int64_t)w->n_groups) < 0)
		goto out;
	w->n_groups++;
	rc = 0;
out:
	free(own);
	return rc;
}

/* The group found by w->key, or -1; -2 when the store cannot be read. */
static long
find_group(struct prof_rwriter *w, uint64_t h)
{
	int64_t k;
	int same;

	if (prof_htab64_get(&w->seen, key64(h), &k)) {
		same = same_key(w, (long)k, &w->key);
		if (same < 0)
			return -2;
		if (same)
			return (long)k;
	}
	if (!w->seen_more.n)
		return -1;
	return prof_htab_get(&w->seen_more, w->key.p, w->key.len);
}

/* The bytes by which s's group is found (each group key's tag and raw
 * value) into w->key; -1 when out of memory. */
static int
group_key(struct prof_rwriter *w, struct json_object *s)
{
	struct json_object *v;
	size_t i;

	w->key.len = 0;
	for (i = 0; prof_group_keys[i]; i++) {
		char tag[2] = {(char)('a' + i), 0};

		if (!json_object_object_get_ex(s, prof_group_keys[i], &v))
			continue;
		if (prof_buf_put(&w->key, tag, 2) < 0 ||
		    put_raw(&w->key, v) < 0)
			return -1;
	}
	return 0;
}

/* Whether the group known, whose id is g's (id), holds g's values, its
 * text read back: values that differ in their bytes only (5 and 5.0),
 * not two groups whose ids collide. 0 when it cannot be read. */
static int
same_text(struct prof_rwriter *w, int64_t known, uint64_t id,
	  struct json_object *g)
{
	const struct prof_rwriter_group *kg = &w->groups[known];
	struct json_object *kj = NULL;
	char *a = NULL, *b = NULL;
	int same = 0;

	if (kg->id == id && store_get(w, kg->off + kg->klen, kg->tlen) == 0) {
		kj = json_tokener_parse(w->back.p);
		a = kj ? prof_json_canonical(kj) : NULL;
		b = prof_json_canonical(g);
		same = a && b && !strcmp(a, b);
	}
	free(a);
	free(b);
	json_object_put(kj);
	return same;
}

/*
 * The group of s, whose bytes (w->key, hashed h) were not seen: put into
 * the table, or found by its id when only the bytes of its values differ
 * (5 and 5.0, as a file may give back a double: one group, whose id is of
 * the canonical text). Its index, or -1 with err.
 */
static long
new_group(struct prof_rwriter *w, struct json_object *s, uint64_t h,
	  struct prof_err *err)
{
	struct json_object *g, *v;
	struct prof_buf *key = &w->key;
	char id[PROF_ID_SIZE];
	uint64_t id64;
	int64_t known;
	size_t i;
	long k;
	int rc;

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
	id64 = strtoull(id, NULL, 16);
	if (prof_htab64_get(&w->by_id, key64(id64), &known)) {
		int same = same_text(w, known, id64, g);

		json_object_put(g);
		/* Two groups whose ids collide: not one file's worth. */
		if (!same)
			return prof_err_set(err,
					    "two sample groups share the id %s",
					    id);
		/* Its bytes found it again. */
		if (prof_htab_put(&w->seen_more, key->p, key->len,
				  (long)known) < 0)
			goto oom;
		return (long)known;
	}
	rc = keep_group(w, g, id64, key);
	json_object_put(g);
	if (rc == -2)
		return prof_err_set(err, "cannot write a temporary file: %s",
				    strerror(errno));
	if (rc < 0)
		goto oom;
	k = (long)w->n_groups - 1;
	if (prof_htab64_get(&w->seen, key64(h), &known) ?
		    prof_htab_put(&w->seen_more, key->p, key->len, k) < 0 :
		    prof_htab64_put(&w->seen, key64(h), k) < 0)
		goto oom;
	return k;
oom:
	return prof_err_set(err, "out of memory");
}

/*
 * The index of s's group, the group put into the table when it is new.
 * The groups seen are found by their values' bytes (w->key), so a sample
 * costs a hash lookup (and a read of the bytes kept, unless its group is
 * the last sample's), not a group object.
 */
static long
group_of(struct prof_rwriter *w, struct json_object *s, struct prof_err *err)
{
	struct prof_buf *key = &w->key;
	uint64_t h;
	long k;

	if (group_key(w, s) < 0)
		return prof_err_set(err, "out of memory");
	/* A group's samples mostly come one after another. */
	if (w->last >= 0 && key->len == w->last_key.len &&
	    !memcmp(key->p, w->last_key.p, key->len))
		return w->last;
	h = prof_pool_hash(key->p, key->len, PROF_POOL_FNV);
	k = find_group(w, h);
	if (k == -2)
		return prof_err_set(err, "cannot read a temporary file: %s",
				    strerror(errno));
	if (k < 0)
		k = new_group(w, s, h, err);
	if (k < 0)
		return -1;
	w->last_key.len = 0;
	if (prof_buf_put(&w->last_key, key->p, key->len) < 0)
		return prof_err_set(err, "out of memory");
	w->last = k;
	return k;
}

int
prof_rwriter_add(struct prof_rwriter *w, struct json_object *s,
		 struct prof_err *err)
{
	struct prof_buf *t = &w->text;
	long k = group_of(w, s, err);
	char gid[PROF_ID_SIZE + 1];

	if (k < 0)
		return -1;
	snprintf(gid, sizeof(gid), "%016" PRIx64, w->groups[k].id);
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

/* The groups table, as table() writes one: an id and its text a line,
 * the texts read back from the store in order. */
static int
group_table(struct prof_rwriter *w, FILE *fp)
{
	size_t k;

	if (fputs(",\n  \"groups\": {", fp) == EOF)
		return -1;
	for (k = 0; k < w->n_groups; k++) {
		const struct prof_rwriter_group *g = &w->groups[k];

		if (store_get(w, g->off + g->klen, g->tlen) < 0 ||
		    fprintf(fp, "%s\"%016" PRIx64 "\": ",
			    k ? ",\n    " : "\n    ", g->id) < 0 ||
		    fwrite(w->back.p, 1, g->tlen, fp) != g->tlen)
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
