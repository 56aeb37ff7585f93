/* runview.h: a results file of schema 1 or 2, read one way, and its rows. */
#ifndef PROF_RUNVIEW_H
#define PROF_RUNVIEW_H

#include <stddef.h>

#include "err.h"
#include "stats.h"

struct json_object;

/*
 * Schema 1 samples carry their env and segment key; schema 2 samples carry
 * env_id and segment_id, resolved through the document's "envs" and
 * "segments" maps (see the README's "The data"). A view hides the
 * difference: every reader asks it for a sample's env and segment key.
 *
 * Ownership: the view holds one reference to the document; every string
 * and object it hands out is borrowed from it and lives until
 * prof_runview_free().
 */
struct prof_runview {
	struct json_object *doc;
	struct json_object *samples;	/* the samples array */
	struct json_object *envs;	/* schema 2: env_id -> env; else NULL */
	struct json_object *segments;	/* schema 2: segment_id -> key */
	int schema_version;		/* 1 or 2 */
	char digest[65];		/* SHA-256 of the canonical document */
};

/*
 * Read and check a results file ("-" is stdin) of schema version 1 or 2.
 * Errors name the file and the JSON path (".samples[3].segment_id: 'x' is
 * not a key of .segments"). Returns 0, or -1 with err filled; free v with
 * prof_runview_free() either way.
 */
int prof_runview_load(struct prof_runview *v, const char *path,
		      struct prof_err *err);

/* Check an already parsed document the same way, taking its reference. */
int prof_runview_take(struct prof_runview *v, struct json_object *doc,
		      struct prof_err *err);

void prof_runview_free(struct prof_runview *v);

size_t prof_runview_count(const struct prof_runview *v);
struct json_object *prof_runview_sample(const struct prof_runview *v,
					size_t i);

/* A top-level string of the document (run_id, commit, ...), or "". */
const char *prof_runview_str(const struct prof_runview *v, const char *key);

/* The segment key string and the env object of sample s (never NULL for
 * a checked view; "" and NULL if s is foreign). */
const char *prof_runview_segment(const struct prof_runview *v,
				 struct json_object *s);
struct json_object *prof_runview_env(const struct prof_runview *v,
				     struct json_object *s);

/* The segment id of a key: the first 16 hex digits of its SHA-256. */
void prof_runview_segment_id(const char *key, char id[17]);

/*
 * A row: one workload x backend x segment, as prof-diff groups them
 * (timing and browser samples; the aggregated ones are warm successes),
 * plus what other phases say of the same workload x backend x segment:
 * the median instruction count of "instructions" samples with an integer
 * "instructions" field, and the largest memory peaks of memory samples.
 */
struct prof_runrow {
	const char *workload;
	const char *backend;
	const char *category;
	const char *segment;		/* the key string */
	char segment_id[17];
	long long version;		/* workload_version */
	double *v;			/* aggregated durations, ms, in order */
	size_t n;
	struct prof_stats st;		/* of v; zeros when n == 0 */
	long errors;			/* error samples of any phase */
	long long instructions;		/* -1: not counted */
	double host_peak_bytes;		/* NAN: no memory sample */
	double rss_peak_bytes;
	double device_peak_bytes;
	size_t first;			/* index of its first sample */
};

/*
 * The rows of a view, sorted by workload, backend and segment key.
 * Returns the number of rows (*rows malloc'd; prof_runview_rows_free()),
 * or -1 when out of memory.
 */
long prof_runview_rows(const struct prof_runview *v, struct prof_runrow **rows,
		       struct prof_err *err);
void prof_runview_rows_free(struct prof_runrow *rows, size_t n);

#endif /* PROF_RUNVIEW_H */
