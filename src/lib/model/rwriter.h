/* rwriter.h: writing a schema-2 results file one sample at a time. */
#ifndef PROF_RWRITER_H
#define PROF_RWRITER_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/htab.h"

struct json_object;

/*
 * The samples go to an unlinked temporary file as they come (one compact
 * line each), the tables grow with each new env, segment or group; commit
 * writes the top level, the tables and then the samples, through a
 * temporary sibling and rename(2) (or to the caller's stdout for "-").
 * Memory holds the tables only: the envs and segments as json-c objects
 * (a few), and for each group its id and place (24 bytes) and two hash
 * slots; the group's text and the bytes it is found by wait in a second
 * unlinked temporary file in TMPDIR (in memory where that file cannot be
 * made), read back when a lookup's hash matches and at commit.
 *
 * Each sample is written grouped (sample.h): the fields it shares with
 * every sample of its workload x backend x env x segment x run go once
 * into the groups table, and it keeps group_id and its own fields, less a
 * null reason or checksum and empty artifacts.
 */
/* A group of the table: its id (16 hex digits), and at off in the group
 * store the bytes it is found by (klen), then its text (tlen). */
struct prof_rwriter_group {
	uint64_t id;
	uint64_t off;
	uint32_t klen, tlen;
};

struct prof_rwriter {
	FILE *spool;
	struct json_object *envs;	/* env_id -> env */
	struct json_object *segments;	/* segment_id -> segment key */
	/* The groups, in the order they came. */
	struct prof_rwriter_group *groups;
	size_t n_groups, cap_groups;
	/* The group store: the file gfp, or gtext where it could not be
	 * made; gend bytes long. */
	FILE *gfp;
	struct prof_buf gtext;
	uint64_t gend;
	int gdirty;			/* gfp holds unflushed bytes */
	struct prof_htab64 by_id;	/* group id -> index in groups */
	/* The hash of a group's bytes -> its index (each checked against
	 * the bytes kept); the bytes themselves where two hashes collide
	 * or other bytes give the same group (5 and 5.0). */
	struct prof_htab64 seen;
	struct prof_htab seen_more;
	long last;			/* the last sample's group, or -1 */
	struct prof_buf last_key;	/* and its bytes */
	struct prof_buf key, text, back;	/* scratch */
	long n;				/* samples added */
};

/* Returns 0, or -1 with err filled. */
int prof_rwriter_init(struct prof_rwriter *w, struct prof_err *err);

/* Add a whole schema-2 sample s (not changed); its ids must be in the
 * tables by commit. Returns 0, or -1 with err filled. */
int prof_rwriter_add(struct prof_rwriter *w, struct json_object *s,
		     struct prof_err *err);

/* Put env_id -> env and segment_id -> segment into the tables (values
 * borrowed and copied by reference). Returns 0 or -1. */
int prof_rwriter_put_tables(struct prof_rwriter *w, const char *env_id,
			    struct json_object *env, const char *segment_id,
			    const char *segment, struct prof_err *err);

/* Put every entry of a reader's tables (id -> env, id -> segment key
 * objects) into the tables. Returns 0 or -1. */
int prof_rwriter_merge_tables(struct prof_rwriter *w, struct json_object *envs,
			      struct json_object *segments,
			      struct prof_err *err);

/*
 * Write the results file to path ("-" is the stream dash, which the caller
 * gives): head's members (schema, schema_version, run_id, ..., in their
 * order; schema and schema_version are put first here), then envs,
 * segments, groups and samples. Returns 0, or -1 with err filled; nothing
 * is left at path then.
 */
int prof_rwriter_commit_to(struct prof_rwriter *w, const char *path,
			   FILE *dash, struct json_object *head,
			   struct prof_err *err);

/* The same, "-" being the caller's stdout (the library names no standard
 * stream: test/cli/t0102). */
static inline int
prof_rwriter_commit(struct prof_rwriter *w, const char *path,
		    struct json_object *head, struct prof_err *err)
{
	return prof_rwriter_commit_to(w, path, stdout, head, err);
}

void prof_rwriter_free(struct prof_rwriter *w);

#endif /* PROF_RWRITER_H */
