/* check.h: the check of a comparisons document as prof-diff writes it
 * (verdict/write.c): what every reader of comparisons.json relies on. */
#ifndef PROF_VERDICT_CHECK_H
#define PROF_VERDICT_CHECK_H

#include <stddef.h>

#include "base/err.h"

struct json_object;

/*
 * Check a comparisons document as prof_cmp_json() writes it (what a
 * reader relies on). Errors name the JSON path: "[2].current.n: expected
 * a number, got a string". Returns 0 or -1.
 */
int prof_cmp_check(struct json_object *a, struct prof_err *err);

/* The check of one comparison, o, the document's [i]: what
 * prof_cmp_check() does to each (a reader that streams them). */
int prof_cmp_check_one(struct json_object *o, size_t i, struct prof_err *err);

/*
 * Whether every comparison of a checked comparisons document was made
 * from the results of run run_id; a report must never put one run's
 * header over another's rows. Returns 0, or -1 with err naming the first
 * row that was not ("[0].run_id: ...").
 */
int prof_cmp_check_run(struct json_object *a, const char *run_id,
		       struct prof_err *err);
int prof_cmp_check_run_one(struct json_object *o, size_t i, const char *run_id,
			   struct prof_err *err);

#endif /* PROF_VERDICT_CHECK_H */
