/* cmpdoc.h: the rows of results held in memory, grouped and judged as
 * prof-diff does over its streams (verdict/verdict.h): each sample taken with its
 * segment, the rows closed, the baseline's samples taken, the rows judged.
 * For the unit tests' schema-1 documents, whose samples carry their
 * segment keys themselves. */
#ifndef PROF_CMPDOC_H
#define PROF_CMPDOC_H

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/verdict.h"

static struct json_object *
cmpdoc_samples(struct json_object *doc)
{
	struct json_object *a = NULL;

	json_object_object_get_ex(doc, "samples", &a);
	return json_object_is_type(a, json_type_array) ? a : NULL;
}

/* Group results' samples into c's rows (c zeroed first) and close them;
 * the comparisons carry its run_id. Returns 0 or -1 with err. */
static __attribute__((unused)) int
cmpdoc_group(struct prof_cmp *c, struct json_object *results,
	     struct prof_err *err)
{
	struct json_object *a = cmpdoc_samples(results);
	size_t i, n = a ? json_object_array_length(a) : 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(a, i);

		if (prof_cmp_take(c, s, prof_json_str(s, "segment"), err) < 0)
			return -1;
	}
	if (prof_cmp_close(c, NULL, NULL, err) < 0)
		return -1;
	if (prof_cmp_set_run(c, prof_json_str(results, "run_id")) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
}

/* Judge c's rows against baseline, named name; NULL: its file is
 * missing. Returns 0 or -1 with err. */
static __attribute__((unused)) int
cmpdoc_judge(struct prof_cmp *c, struct json_object *baseline,
	     const char *name, struct prof_err *err)
{
	struct json_object *a = baseline ? cmpdoc_samples(baseline) : NULL;
	size_t i, n = a ? json_object_array_length(a) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(a, i);

		if (prof_cmp_base_take(c, s, prof_json_str(s, "segment"),
				       err) < 0)
			return -1;
	}
	return prof_cmp_judge_groups(c, NULL, NULL, !baseline, name, err);
}

#endif /* PROF_CMPDOC_H */
