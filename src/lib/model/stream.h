/* stream.h: samples one at a time from results files (schema 1 or 2) and
 * JSON-lines streams, in memory bounded by one sample and the tables. */
#ifndef PROF_STREAM_H
#define PROF_STREAM_H

#include "base/err.h"
#include "model/sample.h"

struct json_object;

/*
 * A reader never holds a whole document: it walks the top level of a
 * results file itself, hands each element of "samples" to json-c (through
 * prof_json_parse(), so every check of the strict reader applies) and
 * calls fn with it, checked and in the schema-2 form: a schema-1 sample
 * (env, segment, schema_version) has its env and segment moved into the
 * reader's tables and env_id and segment_id put in their place, and a
 * grouped sample (group_id) is joined with its group from the document's
 * "groups" table, which must come before "samples". fn borrows
 * the sample (json_object_get() it to keep it) and returns 0, or -1 with
 * err filled to stop the walk. index is the sample's place: .samples[index]
 * of a document, the line number of a stream.
 *
 * The tables (env_id -> env, segment_id -> segment key) gather every input
 * read through one reader; an id that a sample names may be defined after
 * it in a document (a file sorted with jq -S), so a consumer keys by id and
 * looks the texts up when the walk is done. Everything else at the top
 * level (schema, run_id, command, commit, run, calibration, ...) is kept
 * as the document's meta.
 *
 * Errors name the place as the strict reader does: "f.json:12:7: reason"
 * for syntax, "f.json: .samples[3].duration_ms: reason" for the schema,
 * "f.jsonl:4: reason" for a line of a stream.
 */
struct prof_stream;

typedef int (*prof_stream_fn)(void *arg, struct json_object *s, long index,
			      struct prof_err *err);

/* A new reader; NULL when out of memory. */
struct prof_stream *prof_stream_new(void);
void prof_stream_free(struct prof_stream *st);

/*
 * Read the results file at path ("-" is stdin) and call fn for each
 * sample, each checked as it comes (prof_sample_check(), or for schema 2
 * prof_sample_check2() and its env_id and segment_id); the top level is
 * checked when the walk ends (prof_results_check_head()). Returns the
 * number of samples, or -1.
 */
long prof_stream_results(struct prof_stream *st, const char *path,
			 prof_stream_fn fn, void *arg, struct prof_err *err);

/*
 * Read a document that is one array (prof-diff's comparisons) and call fn
 * with each element as json-c parses it (borrowed, index its place), with
 * the strict reader's checks and error places; what names the elements
 * in the error for a document that is not an array ("expected an array
 * of comparisons, got an object"). An error of fn gets the file's name.
 * Returns the number of elements, or -1.
 */
long prof_stream_array(struct prof_stream *st, const char *path,
		       const char *what, prof_stream_fn fn, void *arg,
		       struct prof_err *err);

/*
 * Read a document that is one object ({"context": {...}, "benchmarks":
 * [...]}, Google Benchmark's) in the file's order: member is called with
 * each member's key and value but array's, elem with each element of the
 * member named array when it is an array (index its place), as
 * prof_stream_array() calls fn: that array is never held whole. A member
 * named array that is not an array goes to member. what names the
 * document in the error for one that is not an object ("expected Google
 * Benchmark's JSON output, got an array"); a key given twice is refused
 * at its place. An error of member or elem gets the file's name; elem
 * may stop the walk without one by returning 1 (the walk then returns
 * -2). Returns the number of elements, or -1.
 */
typedef int (*prof_stream_member_fn)(void *arg, const char *key,
				     struct json_object *v,
				     struct prof_err *err);
long prof_stream_object(struct prof_stream *st, const char *path,
			const char *what, const char *array,
			prof_stream_member_fn member, prof_stream_fn elem,
			void *arg, struct prof_err *err);

/*
 * A record line of a stream that is neither a context nor a run line (the
 * drift guard's calibration and machine lines, which the caller gathers
 * with calib.h), handed to the caller: fn borrows rec and returns 1 when
 * it took it, 0 when rec is not its (the stream refuses it as an unknown
 * record), or -1 with err filled (its path within the line) to stop.
 */
typedef int (*prof_stream_record_fn)(void *arg, struct json_object *rec,
				     struct prof_err *err);

/* The caller's taker of the record lines st does not know itself, for
 * every stream read through st after; without one, each is unknown. */
void prof_stream_on_record(struct prof_stream *st, prof_stream_record_fn fn,
			   void *arg);

/*
 * Read a JSON-lines stream: samples of either schema, context lines
 * ({"record": "context", env_id, env, segment_id, segment}), run lines
 * ({"record": "run", run_id, mode, options, shard}) and other record
 * lines, which go to the taker of prof_stream_on_record(). Returns the
 * number of samples, or -1.
 */
long prof_stream_lines(struct prof_stream *st, const char *path,
		       prof_stream_fn fn, void *arg, struct prof_err *err);

/* Whether the last failure was mixed schema versions in one document (a
 * refusal for prof-baseline, not malformed input). */
int prof_stream_mixed(const struct prof_stream *st);

/* The last input's top level without samples, envs and segments (for a
 * stream: its run line's fields as run_id and run). Borrowed. */
struct json_object *prof_stream_meta(const struct prof_stream *st);

/* The schema version of the last document (0 after a stream). */
int prof_stream_version(const struct prof_stream *st);

/* Borrowed lookups in the tables; NULL when the id is unknown. */
struct json_object *prof_stream_env(const struct prof_stream *st,
				    const char *id);
const char *prof_stream_segment(const struct prof_stream *st, const char *id);

/* The tables themselves, id -> value objects (borrowed). */
struct json_object *prof_stream_envs(const struct prof_stream *st);
struct json_object *prof_stream_segments(const struct prof_stream *st);

#endif /* PROF_STREAM_H */
