/* lines.h: writing samples as schema-2 JSON lines, each environment and
 * segment key once, in a context line before the first sample using it. */
#ifndef PROF_LINES_H
#define PROF_LINES_H

#include <stdio.h>

#include "base/err.h"

struct json_object;

/*
 * A stream of JSON lines, as prof-time, prof-mem and prof-trace write:
 *   {"record":"run","run_id":..,"mode":..,"options":{..},"shard":..}
 *       first, when the run is known (prof_lines_run());
 *   {"record":"context","env_id":..,"env":{..},"segment_id":..,
 *    "segment":".."}
 *       before the first sample of each env_id/segment_id pair;
 *   one sample per line: the schema-1 fields without schema_version, env
 *       and segment, with env_id and segment_id; no "record" key, so
 *       jq 'select(.phase == "timing")' still picks the samples.
 */
struct prof_lines {
	FILE *fp;
	struct json_object *seen;	/* "ENV_ID SEGMENT_ID" pairs given */
	struct json_object *run;	/* the run line, until written */
};

/* Start writing to fp (not owned). */
void prof_lines_init(struct prof_lines *w, FILE *fp);

/*
 * What the run is: every field may be NULL (run_id unknown, no shard);
 * options is taken over. The run line goes out before the first line.
 * Returns 0, or -1 when out of memory.
 */
int prof_lines_run(struct prof_lines *w, const char *run_id,
		   const char *mode, struct json_object *options,
		   const char *shard);

/*
 * Write sample s, schema-1 shaped (prof_sample_new(): env and segment),
 * as a schema-2 line, after its context line when its pair is new. s is
 * not changed. Returns 0, or -1 with err filled (a failed write, out of
 * memory).
 */
int prof_lines_write(struct prof_lines *w, struct json_object *s,
		     struct prof_err *err);

/* The schema-2 form of a schema-1 sample: a new object whose fields are
 * s's (shared references) without schema_version, env and segment, and
 * with env_id and segment_id after backend. NULL when out of memory. */
struct json_object *prof_lines_sample2(struct json_object *s,
				       const char *env_id,
				       const char *segment_id);

/* The run line, when it has not gone out with a first sample (a shard
 * that holds no workload still says which shard it is). Returns 0, or -1
 * with err filled. */
int prof_lines_flush_run(struct prof_lines *w, struct prof_err *err);

void prof_lines_free(struct prof_lines *w);

#endif /* PROF_LINES_H */
