/* check.c: the check of a comparisons document, as verdict/write.c writes
 * it: what every reader of comparisons.json relies on. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/id.h"
#include "base/json.h"
#include "base/range.h"
#include "verdict/check.h"
#include "verdict/table.h"

/* Checking a comparisons document: each helper fills err and returns -1. */
static int
want(struct json_object *o, const char *prefix, const char *key,
     json_type type, int nullable, struct prof_err *err)
{
	struct json_object *v = NULL;
	char path[256];

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return prof_err_path(err, path, "missing");
	if (!v && nullable)
		return 0;
	if (type == json_type_double ? !prof_json_is_number(v) :
				       !json_object_is_type(v, type))
		return prof_err_path(err, path, "expected %s%s, got %s",
				     type == json_type_double ? "a number" :
				     type == json_type_int    ? "an integer" :
				     type == json_type_object ? "an object" :
								"a string",
				     nullable ? " or null" : "",
				     prof_json_type_name(v));
	return 0;
}

/* The number at key of o (checked by want(); null passes) within [lo,
 * hi], by prof_range_double(). */
static int
want_range(struct json_object *o, const char *prefix, const char *key,
	   double lo, double hi, const char *what, struct prof_err *err)
{
	struct json_object *v = json_object_object_get(o, key);

	if (!v || !prof_range_double(prof_json_number(v), lo, hi, what, "",
				     err))
		return 0;
	snprintf(err->path, sizeof(err->path), "%s.%s", prefix, key);
	return -1;
}

static int
check_side(struct json_object *o, const char *prefix, const char *key,
	   struct prof_err *err)
{
	static const char *const nums[] = {"min", "median", "p90", "max", NULL};
	struct json_object *s = NULL;
	char path[256];
	size_t i;

	if (want(o, prefix, key, json_type_object, 0, err))
		return -1;
	json_object_object_get_ex(o, key, &s);
	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (want(s, path, "n", json_type_int, 0, err) ||
	    want_range(s, path, "n", 0, 1e15, "a sample count", err))
		return -1;
	for (i = 0; nums[i]; i++)
		if (want(s, path, nums[i], json_type_double, 1, err))
			return -1;
	return 0;
}

static int check_warning(struct json_object *o, const char *prefix,
			 struct prof_err *err);

int
prof_cmp_check_one(struct json_object *o, size_t i, struct prof_err *err)
{
	static const char *const strs[] = {"run_id", "workload", "backend",
					   "segment", "status", "reason",
					   NULL};
	static const char *const nums[] = {"delta_ms", "ratio", "p_value",
					   NULL};
	char prefix[64];
	const char *st;
	size_t j;

	snprintf(prefix, sizeof(prefix), "[%zu]", i);
	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, prefix,
				     "expected a comparison object, got %s",
				     prof_json_type_name(o));
	for (j = 0; strs[j]; j++)
		if (want(o, prefix, strs[j], json_type_string, 0, err))
			return -1;
	for (j = 0; nums[j]; j++)
		if (want(o, prefix, nums[j], json_type_double, 1, err))
			return -1;
	if (want_range(o, prefix, "p_value", 0, 1, "a p-value", err) ||
	    want_range(o, prefix, "ratio", 0, HUGE_VAL, "a ratio", err))
		return -1;
	if ((json_object_object_get_ex(o, "drift", NULL) &&
	     want(o, prefix, "drift", json_type_string, 1, err)) ||
	    check_side(o, prefix, "current", err) ||
	    check_side(o, prefix, "baseline", err))
		return -1;
	for (j = 0; j < 2; j++) {
		const char *key = j ? "backend" : "workload";
		char why[160], path[96];

		if (prof_id_valid(prof_json_str(o, key), why, sizeof(why)))
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix, key);
		return prof_err_path(err, path, "not a valid %s: %s",
				     j ? "backend" : "workload id", why);
	}
	st = prof_json_str(o, "status");
	if (!prof_cmp_status_known(st)) {
		char path[96];

		snprintf(path, sizeof(path), "%s.status", prefix);
		return prof_err_path(err, path,
				     "expected one of new, incomparable, "
				     "stable, warning, improved, unsettled");
	}
	if (!strcmp(st, "warning") && check_warning(o, prefix, err))
		return -1;
	return 0;
}

int
prof_cmp_check(struct json_object *a, struct prof_err *err)
{
	size_t i, n;

	if (!json_object_is_type(a, json_type_array))
		return prof_err_path(err, ".",
				     "expected an array of comparisons, got %s",
				     prof_json_type_name(a));
	n = json_object_array_length(a);
	for (i = 0; i < n; i++)
		if (prof_cmp_check_one(json_object_array_get_idx(a, i), i,
				       err) < 0)
			return -1;
	return 0;
}

/* A warning says by how much: its numbers are never null (a CI line
 * would print "nan ms, +nan%"). A row of counts has no time delta. */
static int
check_warning(struct json_object *o, const char *prefix,
	      struct prof_err *err)
{
	static const char *const keys[] = {"ratio", "delta_ms",
					   "current.median",
					   "baseline.median", NULL};
	static const char *const mem_keys[] = {"delta", "current.median",
					       "baseline.median", NULL};
	const char *phase = prof_json_str(o, "phase");
	int count = phase && !strcmp(phase, "instructions");
	const char *const *ks = phase && !strcmp(phase, "memory") ? mem_keys :
								      keys;
	size_t j;

	for (j = 0; ks[j]; j++) {
		const char *dot = strchr(ks[j], '.');
		struct json_object *v = o;
		char path[128];

		if (count && (!strcmp(ks[j], "ratio") ||
			      !strcmp(ks[j], "delta_ms")))
			continue;
		if (dot) {
			char side[16];

			snprintf(side, sizeof(side), "%.*s",
				 (int)(dot - ks[j]), ks[j]);
			v = json_object_object_get(o, side);
		}
		v = json_object_object_get(v, dot ? dot + 1 : ks[j]);
		if (v)
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix, ks[j]);
		return prof_err_path(err, path,
				     "a warning row needs a number, got null");
	}
	return 0;
}

int
prof_cmp_check_run_one(struct json_object *o, size_t i, const char *run_id,
		       struct prof_err *err)
{
	const char *id = prof_json_str(o, "run_id");
	char path[64];

	if (id && run_id && !strcmp(id, run_id))
		return 0;
	snprintf(path, sizeof(path), "[%zu].run_id", i);
	return prof_err_path(err, path,
			     "a comparison of run '%.80s', not of the "
			     "results' run '%.80s'",
			     id ? id : "", run_id ? run_id : "");
}

int
prof_cmp_check_run(struct json_object *a, const char *run_id,
		   struct prof_err *err)
{
	size_t i, n = json_object_array_length(a);

	for (i = 0; i < n; i++)
		if (prof_cmp_check_run_one(json_object_array_get_idx(a, i), i,
					   run_id, err) < 0)
			return -1;
	return 0;
}
