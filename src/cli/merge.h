/* merge.h: prof-merge's reading of its inputs into one results document
 * (merge_input.c) and its merge of a run's shards (merge_shards.c). They
 * say what is wrong through cli.h, so they sit here, not in libprof. */
#ifndef PROF_CLI_MERGE_H
#define PROF_CLI_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/pool.h"
#include "model/rwriter.h"

struct json_object;
struct prof_err;
struct prof_stream;

/* A group's indexes 0 to n - 1, index i at place at + i * step. */
struct cli_merge_run {
	int64_t at, step, n;
};

/*
 * What one merge keeps: the output being written, the streams' records,
 * and what refuses a sample given twice and, with --shards, a workload of
 * another shard. The caller sets shards and makes st, calib and w
 * (prof_rwriter_init()); cli_merge_free() frees all the rest.
 */
struct cli_merge {
	long shards;			/* --shards N; -1: N as the first
					 * shard says; 0: not merging shards */
	struct prof_stream *st;
	struct json_object *calib;	/* the streams' calibration and
					 * machine records, in order */
	struct prof_rwriter w;
	char *shard;			/* the shard of the input read */
	int untagged;			/* its run came after its samples:
					 * they are written as they are */
	/* --shards: the workloads of the input being read, each once, as
	 * 'b' (a browser row's: they go with shard 1) or 'w' before its id;
	 * and the shard each workload of the inputs read before came from
	 * (owner: id -> shard). */
	struct prof_pool workloads;
	struct prof_htab owner;
	/* Each sample's identity (its group of workload, backend, segment,
	 * phase and kind, and its index) -> its place (input << 40 | line
	 * or sample index), to refuse a sample given twice: in seen, group
	 * << 40 | index; in seen_big, an identity that does not fit 64 bits
	 * (an index from 2^40 on). The groups, and the inputs' names for
	 * the message. A group's indexes 0, 1, ... at places evenly apart
	 * (its samples one after another, or every so many lines) are kept
	 * as a run, 24 bytes a group, not an entry each: in runs. */
	struct prof_htab groups, seen_big;
	struct prof_htab64 seen;
	struct cli_merge_run *runs;
	size_t cap_runs;
	char last_gkey[1024];	/* the group of the sample before */
	int last_glen;
	long last_g;
	long n_groups;
	char **names;
	size_t n_names, cap_names;
	int doc;			/* the input is a results document (1)
					 * or Google Benchmark's JSON (2) */
};

/* The run line of the first stream that has one, and its input. */
struct cli_merge_first_run {
	struct json_object *run;	/* {run_id, shard} */
	size_t input;
};

/* Frees what m holds (not m). */
void cli_merge_free(struct cli_merge *m);

/* A new input: its name ("-" is "<stdin>") kept for the places of
 * messages; doc as in struct cli_merge. Returns 0, or -1 when out of
 * memory (not said). */
int cli_merge_input(struct cli_merge *m, const char *name, int doc);

/* The callbacks of prof_stream_on_record() and of prof_stream_lines()
 * and prof_stream_results(), arg a struct cli_merge: a drift guard's
 * record kept for the results' "calibration"; a sample checked to be
 * there once and written, with its shard when merging shards. */
int cli_merge_take_calib(void *arg, struct json_object *rec,
			 struct prof_err *err);
int cli_merge_take(void *arg, struct json_object *s, long index,
		   struct prof_err *err);

/* Forget the workloads of the shard read last. */
void cli_merge_forget_workloads(struct cli_merge *m);

/*
 * The stream read last is of the run the first stream that gave a run
 * line names (f, filled by the first): the same shard (or none) and,
 * where both name one, the same run id. Returns 0, or -1 after saying
 * why not.
 */
int cli_merge_same_run(struct cli_merge *m, struct cli_merge_first_run *f);

/* Browser rows (--playwright) and Google Benchmark's JSON (--gbench) at
 * path into the output. Returns 0, or -1 after saying why not. */
int cli_merge_playwright(struct cli_merge *m, const char *path);
int cli_merge_gbench(struct cli_merge *m, const char *path);

/*
 * --shards: each of the n files (results files or run folders) one
 * shard's results, read into the output; together one run (the same
 * commit, mode and options), shards 1/N to N/N each once, each holding
 * its own workloads. head gets the run's commit, run (mode, options,
 * shards, engines) and shard_calibrations. Returns 0, or -1 after naming
 * the first that is not.
 */
int cli_merge_shards(struct cli_merge *m, char **files, int n,
		     struct json_object *head);

#endif /* PROF_CLI_MERGE_H */
