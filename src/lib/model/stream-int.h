/* stream-int.h: what the stream's two files share: the reader's state
 * (struct prof_stream), and the samples' side of it that stream-samples.c
 * keeps (the env and segment tables, the pairs, the groups, each sample
 * checked and taken) for the documents and lines stream.c walks. */
#ifndef PROF_STREAM_INT_H
#define PROF_STREAM_INT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/htab.h"
#include "base/prof.h"
#include "model/stream.h"

/* Bytes read at a time; a sample never needs more than its own size. */
#define CHUNK (1 << 20)
/* Deeper nesting than this is json-c's to reject. */
#define MAX_DEPTH 64
/* Columns up to this are padded so that json-c's errors land on them. */
#define MAX_PAD 4096

/* A member of a groups table in the input: "ID": {...}, from the key's
 * first byte to the value's last. */
struct group_at {
	uint64_t off;
	uint32_t key_len; /* the key's bytes, its quotes included */
	uint32_t len;	  /* the member's */
};

struct prof_stream {
	struct json_object *envs;     /* env_id -> env */
	struct json_object *segments; /* segment_id -> segment key */
	/* The last document's groups (group_id -> group): where each is
	 * in the input when that is a regular file (read again from it
	 * for each sample that joins it: a group is one row's shared
	 * fields, and a large run has a group a row), else (a pipe, or a
	 * group that held a string cut on reading) its text in groups. */
	struct json_object *groups;
	struct group_at *gat;
	size_t n_gat, cap_gat;
	struct prof_htab64 gidx; /* a probe of an id's hash -> gat */
	char *gbuf;		 /* a member read back */
	size_t gbuf_cap;
	/* The group joined last and its id: the samples of a group come
	 * one after another, so the next sample's is most often the same
	 * (its values are shared, as join shares them; NULL: none). */
	struct json_object *glast;
	char *glast_id;
	int gfd;		  /* the input's, when regular; else -1 */
	off_t gbase;		  /* where reading it began: stdin may
				   * be a file read from before */
	struct json_object *meta; /* the last input's other members */
	/* The caller's taker of other record lines (prof_stream_on_record). */
	prof_stream_record_fn on_record;
	void *on_record_arg;
	/* Ids a document's samples named before its tables: "e ID" or
	 * "s ID" -> the index of the first sample that did. */
	struct json_object *pending;
	/* Each env_id and segment_id pair samples named, "EID\nSID" -> -1
	 * when its segment was checked to be its env's key, or the index of
	 * the first sample of a document that named it before the tables
	 * held both; and the pair checked last. */
	struct json_object *pairs;
	char *last_pair_e, *last_pair_s;
	int version; /* of the last document; 0: a stream */
	int mixed;
	long first_v1, first_v2; /* samples of each form, -1: none */
	/* The schema-1 conversion's memory of the last env and segment. */
	struct json_object *last_env;
	char last_env_id[PROF_ID_SIZE];
	char *last_seg;
	char last_seg_id[PROF_ID_SIZE];

	/* The input. */
	FILE *fp;
	const char *name;
	char *buf;
	size_t len, pos;
	size_t base;	   /* offset of buf[0] in the input */
	size_t line_start; /* offset of the current line's start */
	long line;	   /* from 1 */
	int eof;
	int read_error;
	/* The bytes of the value being read, after vpad bytes of padding;
	 * cut: a string of it was cut (the bytes are not the input's). */
	struct prof_buf val;
	size_t vpad;
	int cut;
	struct json_tokener *tok; /* reused for every value */
};

/* stream-samples.c, each said where it is defined. */
int stream_path_err(struct prof_stream *st, struct prof_err *err,
		    const char *path, const char *reason);
int stream_table_put(struct prof_stream *st, struct json_object *table,
		     const char *what, const char *id,
		     struct json_object *value, struct prof_err *err);
int stream_check_pending_pairs(struct prof_stream *st, struct prof_err *err);
void stream_mixed_reason(struct prof_stream *st, struct prof_err *err, int doc,
			 long index, int sample);
int stream_groups_reset(struct prof_stream *st);
struct json_object *stream_group_find(struct prof_stream *st, const char *id,
				      int *found, uint64_t *probe);
int stream_take_sample(struct prof_stream *st, struct json_object *s,
		       long index, int doc, prof_stream_fn fn, void *arg,
		       struct prof_err *err);
int stream_keep_group(struct prof_stream *st, const char *id,
		      struct json_object *g, struct prof_err *err);
int stream_group_put(struct prof_stream *st, uint64_t probe, size_t off,
		     size_t key_len, size_t len, struct prof_err *err);
int stream_take_table(struct prof_stream *st, const char *key,
		      struct json_object *t, struct prof_err *err);

#endif
