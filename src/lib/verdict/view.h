/* view.h: the comparisons of a run (prof-diff's document, or rows made
 * from the results), kept as text and parsed a few at a time, so that a
 * report over 40,000 rows never holds 40,000 json-c trees. */
#ifndef PROF_VERDICT_VIEW_H
#define PROF_VERDICT_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "base/htab.h"
#include "base/pool.h"

struct json_object;
struct prof_cmp;
struct prof_cmp_rows;
struct prof_verdict;

/*
 * The rows' texts lie in an unnamed temporary file, one after another;
 * each row asked for is parsed again and kept in one of PROF_CMPVIEW_KEEP
 * slots, the oldest given up first. So a row handed out stays valid until
 * PROF_CMPVIEW_KEEP other rows have been asked for: a reader may hold a
 * row and the few it looks up beside it, never a list of them all.
 * Memory: about 100 bytes a row (its offset, its pooled keys and their
 * index), the strings once, and the slots: up to PROF_CMPVIEW_KEEP rows
 * parsed (about 10 KB each), so that a run of up to that many rows is
 * parsed once for all of a report's passes over its rows, and a larger
 * one is held to that many. Memory
 * rows ("phase": "memory") are checked and go to the view memory points
 * to (a view of its own, memory_rows set, that takes only them), or are
 * left out when it is NULL: the readers of time and counts never meet
 * one.
 */
#define PROF_CMPVIEW_KEEP 2048

struct prof_cmpview_at {
	long off;			/* in the spool */
	unsigned len;
	int slot;			/* -1: not parsed now */
	/* Its keys, pooled: a key is the addresses of its strings. */
	const char *w, *b, *seg;
	int count;
};

struct prof_cmpview {
	FILE *spool;
	struct prof_cmpview_at *at;
	size_t n, cap;
	/* The first row of each workload, backend, count and segment, by a
	 * hash of the pooled addresses (prof_htab64, 16 bytes a slot). */
	struct prof_htab64 index;
	struct prof_pool pool;		/* the rows' strings, each once */
	struct json_object *keep[PROF_CMPVIEW_KEEP];
	struct prof_verdict *verdicts;	/* each slot's row read (PROF_-
					 * CMPVIEW_KEEP of them, allocated
					 * when the first row is parsed) */
	long kept[PROF_CMPVIEW_KEEP];	/* the row in each slot, or -1 */
	size_t next;			/* the slot given up next */
	char *buf;			/* a row's text, read back */
	size_t cap_buf;
	int any_count;			/* some row is of instruction counts */
	struct prof_cmpview *memory;	/* where memory rows go (borrowed;
					 * NULL: nowhere) */
	int memory_rows;		/* this view takes memory rows only */
};

/*
 * Read prof-diff's comparisons document at path ("-" is stdin) once, each
 * comparison checked as prof_cmp_check_one() checks it, of run run_id
 * (prof_cmp_check_run_one()) and, with rows set (begun, and closed), one
 * comparison for each row of the results, exactly (struct prof_cmp_rows).
 * Errors name the file and the JSON path ("c.json: [3].status: ...") or
 * the line and column. Returns 0, or -1 with err filled; free v with
 * prof_cmpview_free() either way. With v NULL the document is checked
 * and nothing is kept: a pass of its own, so that the rows' keys are
 * let go before the view is made (a file, not stdin, read twice).
 */
int prof_cmpview_load(struct prof_cmpview *v, const char *path,
		      const char *run_id, struct prof_cmp_rows *rows,
		      struct prof_err *err);

/* The rows of c (closed), made one at a time (prof_cmp_row_json()), as
 * prof-report shows a run that was not compared. Returns 0, or -1. */
int prof_cmpview_from(struct prof_cmpview *v, const struct prof_cmp *c,
		      struct prof_err *err);

size_t prof_cmpview_len(const struct prof_cmpview *v);

/* Row i as a typed verdict (verdict/read.h; borrowed, see above); NULL
 * when i is out of range or the spool cannot be read back (out of
 * memory, a full disk). The one way a reader takes a row's fields. */
const struct prof_verdict *prof_cmpview_verdict(struct prof_cmpview *v,
						size_t i);

/*
 * The index of the first row of workload w and backend b, of instruction
 * counts (count set) or not, in segment key seg, or -1. A reader of every
 * segment asks for each (prof-report: the run's rows of w and b).
 */
long prof_cmpview_find(const struct prof_cmpview *v, const char *w,
		       const char *b, int count, const char *seg);

/* Whether some row is of instruction counts. */
int prof_cmpview_has_counts(const struct prof_cmpview *v);

void prof_cmpview_free(struct prof_cmpview *v);

#endif /* PROF_VERDICT_VIEW_H */
