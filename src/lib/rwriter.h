/* rwriter.h: writing a schema-2 results file one sample at a time. */
#ifndef PROF_RWRITER_H
#define PROF_RWRITER_H

#include <stdio.h>

#include "buf.h"
#include "err.h"
#include "htab.h"

struct json_object;

/*
 * The samples go to an unlinked temporary file as they come (one compact
 * line each), the tables grow with each new env, segment or group; commit
 * writes the top level, the tables and then the samples, through a
 * temporary sibling and rename(2) (or to the caller's stdout for "-").
 * Memory holds the tables only: the envs and segments as json-c objects
 * (a few), each group as its text and the bytes of its values.
 *
 * Each sample is written grouped (sample.h): the fields it shares with
 * every sample of its workload x backend x env x segment x run go once
 * into the groups table, and it keeps group_id and its own fields, less a
 * null reason or checksum and empty artifacts.
 */
/* A group of the table: its id, and its text at off in the texts. */
struct prof_rwriter_group {
	char id[17];
	size_t off, len;
};

struct prof_rwriter {
	FILE *spool;
	struct json_object *envs;	/* env_id -> env */
	struct json_object *segments;	/* segment_id -> segment key */
	/* The groups, in the order they came: each as the text the table
	 * writes (a few hundred bytes, not a tree of json-c objects), and
	 * group_id -> index in groups. */
	struct prof_rwriter_group *groups;
	size_t n_groups, cap_groups;
	struct prof_buf gtext;
	struct prof_htab by_id;
	struct prof_htab seen;		/* a group's values -> ids[] */
	char (*ids)[17];
	size_t n_ids, cap_ids;
	struct prof_buf key, text;	/* scratch texts */
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
 * stream: test/cli/t1521). */
static inline int
prof_rwriter_commit(struct prof_rwriter *w, const char *path,
		    struct json_object *head, struct prof_err *err)
{
	return prof_rwriter_commit_to(w, path, stdout, head, err);
}

void prof_rwriter_free(struct prof_rwriter *w);

#endif /* PROF_RWRITER_H */
