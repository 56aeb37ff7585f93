/* sample.h: the sample (one measurement) and results file, schema 1 and 2. */
#ifndef PROF_SAMPLE_H
#define PROF_SAMPLE_H

#include <stddef.h>

#include "base/err.h"
#include "base/range.h"

struct json_object;

/*
 * A sample, schema version 1, is a JSON object with these fields:
 *   schema_version 1; workload, workload_version, category, fixture,
 *   fixture_checksum (string or null), warning_floor_ms, backend, env
 *   (object), segment (the env's segment key), phase (timing, memory,
 *   profile, browser, instructions), kind (warm, cold), index,
 *   duration_ms (null only on an error), metrics (object of scalars),
 *   checksum (string or null), outcome (success, error), reason (string
 *   on an error), artifacts (paths relative to the run folder); memory
 *   (object) on memory samples; instructions (an integer, callgrind's Ir
 *   of the counted region) on instruction samples that succeeded, and
 *   count_threshold_pct (the growth in % above which a count is a
 *   warning) on instruction samples; time_threshold_pct (the change in
 *   % either way beyond which a time is a warning or improved: above 0,
 *   at most 1000; verdict/verdict.h) on timing samples where prof-time was given
 *   one, the workload's descriptor says one, or an A/B settled by one;
 *   order_seed (the run order's seed) where prof-time ran it;
 *   on timing samples whose call was timed (contend.h has the rule):
 *   cpu_ms (the call's CPU time, user + system: a time like
 *   duration_ms), involuntary_switches (an integer >= 0), threads (an
 *   integer >= 1: how many threads the call may run at once) and
 *   contended (a boolean: prof_sample_contended() of the others),
 *   run_delay_ms (the run-queue delay of the call's threads, a time
 *   like duration_ms: prof_sample_run_delay()) and run_delay
 *   ("unavailable": the kernel keeps no delay, so run_delay_ms is
 *   absent; "partial": run_delay_ms leaves out threads or processes
 *   the kernel kept none for);
 *   iterations (an integer >= 1) where the duration is the mean of a
 *   loop of that many calls (Google Benchmark's, gbench.h), and
 *   checksum_reason (a string) where checksum is null because the
 *   workload has no output to sum. Each
 *   is optional: a file from before them is read as before, its samples
 *   never contended. With threads 1 (or absent) a reader refuses cpu_ms
 *   above duration_ms * PROF_CPU_TOL_RATIO + PROF_CPU_TOL_MS, and
 *   run_delay_ms above threads times that.
 *
 * A results file is {schema: "prof.results", schema_version: 1, run_id,
 * timestamp_utc, command, commit, samples: [...]}; its run_id follows the
 * rule of id.h (it names the run folder).
 *
 * Schema 2 stores each environment and segment key once per file:
 *   {schema, schema_version: 2, run_id, timestamp_utc, command, commit,
 *    run: {mode, options, shard} (optional),
 *    envs: {ENV_ID: env}, segments: {SEGMENT_ID: segment key},
 *    samples: [schema-1 fields without schema_version, env and segment,
 *              with env_id and segment_id]}
 * ENV_ID is the first 16 hex digits of the SHA-256 of the env's canonical
 * JSON, SEGMENT_ID those of the segment key (prof_sample_id()). A schema-2
 * sample may leave out fixture_checksum, checksum and reason when null, and
 * metrics and artifacts when empty. It may carry shard ("2/4") after a
 * merge of shards, and phase instructions samples an integer instructions.
 *
 * A schema-2 results file may also keep the fields that every sample of
 * one workload x backend x env x segment x run repeats (the group keys
 * below) once, in a "groups" table that comes before "samples":
 *   groups: {GROUP_ID: {workload, ..., order_seed}},
 *   samples: [{group_id, phase, kind, index, duration_ms, ...}]
 * GROUP_ID is the id of the group's canonical JSON. A reader joins the
 * two (prof_sample_join()), so every consumer sees whole samples.

 * JSON-lines streams give a context line before the first sample that
 * refers to an env_id/segment_id pair (see lines.h).
 */

/*
 * The times a sample may hold (duration_ms, warning_floor_ms) are range.h's
 * PROF_MS_MIN to PROF_MS_MAX, or 0, and its memory numbers (bytes, counts)
 * 0 to PROF_MEMORY_MAX or null: a reader refuses any other with its JSON
 * path (prof_range_ms(), prof_range_double()). The workload id and the
 * backend follow the rule of id.h.
 */
#define PROF_MEMORY_MAX 1e15

/* An id: 16 hex digits and a NUL. */
#define PROF_ID_SIZE 17

/* The id of a text (a segment key) or of a JSON value's canonical text
 * (an env). Returns 0, or -1 when out of memory. */
int prof_sample_id(const char *text, char id[PROF_ID_SIZE]);
int prof_sample_json_id(struct json_object *o, char id[PROF_ID_SIZE]);

/* Whether key is one of the fields a group holds: workload,
 * workload_version, category, fixture, fixture_checksum,
 * warning_floor_ms, count_threshold_pct, backend, env_id, segment_id,
 * order_seed, shard, threads and time_threshold_pct. */
int prof_group_key(const char *key);

/* The group keys in the order a group lists them (NULL-terminated). */
extern const char *const prof_group_keys[];

/* Check a group of a results file's "groups" table; errors name
 * prefix.key (".groups.ID.workload"). Returns 0 or -1. */
int prof_group_check(struct json_object *g, const char *prefix,
		     struct prof_err *err);

/*
 * Make a grouped sample s whole, in place: group's fields (values shared)
 * join s's own, and group_id goes. A field in both is an error naming
 * prefix.key, s unchanged; so is a cpu_ms or run_delay_ms above the
 * duration_ms on the threads of s or group (prefix.cpu_ms,
 * prefix.run_delay_ms, as prof_sample_check()). Returns 0
 * or -1.
 */
int prof_sample_join(struct json_object *group, struct json_object *s,
		     const char *prefix, struct prof_err *err);

/* Check only a grouped sample's own fields (those no group holds: phase,
 * kind, index, duration_ms, ...), the group having been checked once. */
int prof_sample_check_own(struct json_object *s, const char *prefix,
			  struct prof_err *err);

/* What a sample says about its workload; strings are borrowed. */
struct prof_sample_meta {
	const char *workload;
	long long version;
	const char *category;
	const char *fixture;
	const char *fixture_checksum;	/* NULL: unknown */
	double warning_floor_ms;
	const char *backend;
};

/*
 * A new sample of phase and kind with index, env taken over (its reference
 * moves into the sample) and the segment key computed from it. It starts as
 * a success with no duration; set one of the outcomes below. Returns NULL
 * when out of memory.
 */
struct json_object *prof_sample_new(const struct prof_sample_meta *m,
				    struct json_object *env, const char *phase,
				    const char *kind, long long index);

/* Mark a success: duration, metrics (taken over, may be NULL), checksum. */
void prof_sample_succeed(struct json_object *s, double duration_ms,
			 struct json_object *metrics, const char *checksum);

/* Mark an error with its reason; duration_ms < 0 records null. */
void prof_sample_fail(struct json_object *s, const char *reason,
		      double duration_ms);

/*
 * Check that s is a valid schema-1 sample. Errors name the JSON path below
 * prefix (".samples[3].duration_ms: expected a number"). Returns 0 or -1.
 */
int prof_sample_check(struct json_object *s, const char *prefix,
		      struct prof_err *err);

/* The same for a schema-2 sample (env_id and segment_id, no env). */
int prof_sample_check2(struct json_object *s, const char *prefix,
		       struct prof_err *err);

/*
 * Check the top level of a results document (schema, schema_version 1 or
 * 2, run_id, timestamp_utc, command, commit, and run when present). With
 * final 0 only the members present are checked (a document still being
 * read). Returns 0 or -1.
 */
int prof_results_check_head(struct json_object *r, int final,
			    struct prof_err *err);

/* Borrowed field accessors for checked samples. */
const char *prof_sample_str(struct json_object *s, const char *key);
double prof_sample_num(struct json_object *s, const char *key);
int prof_sample_is(struct json_object *s, const char *key, const char *value);

#endif /* PROF_SAMPLE_H */
