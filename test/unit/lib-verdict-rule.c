/* lib-verdict-rule.c: improved, the mirror of the warning rule, on
 * hand-made samples; instruction rows judged both ways. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "cmpdoc.h"
#include "verdict/verdict.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A matched time row: cur and base durations, version 1, checksum "s". */
static void
row_init(struct prof_cmp_row *r, const double *cur, size_t nc,
	 const double *base, size_t nb, double floor_ms)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->workload = "w";
	r->backend = "cpu";
	r->segment = "{}";
	r->warning_floor_ms = floor_ms;
	r->cur.version = r->base.version = 1;
	r->cur.fixture_checksum = r->base.fixture_checksum = "s";
	r->matched = 1;
	for (i = 0; i < nc; i++)
		prof_cmp_side_add(&r->cur, cur[i]);
	for (i = 0; i < nb; i++)
		prof_cmp_side_add(&r->base, base[i]);
}

/* An instruction row: three counts a side, threshold pct. */
static void
count_init(struct prof_cmp_row *r, double base, double cur, double pct)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->workload = "w";
	r->backend = "cpu";
	r->segment = "{}";
	r->instructions = 1;
	r->threshold_pct = pct;
	r->cur.version = r->base.version = 1;
	r->cur.fixture_checksum = r->base.fixture_checksum = "s";
	r->matched = 1;
	for (i = 0; i < 3; i++) {
		prof_cmp_side_add(&r->cur, cur);
		prof_cmp_side_add(&r->base, base);
	}
}

static void
row_free(struct prof_cmp_row *r)
{
	free(r->cur.v);
	free(r->base.v);
}

static const char *
judge(struct prof_cmp_row *r)
{
	if (prof_cmp_judge(r) < 0)
		return "failed";
	return prof_cmp_status_name(r->status);
}

static void
test_improved(void)
{
	static const double base[] = {10, 10, 10, 10, 10};
	static const double cur[] = {7.9, 8.0, 8.0, 8.1, 8.2};
	static const double base12[] = {12, 12, 12};
	static const double at[] = {10, 10, 10};
	struct prof_cmp_row r;

	row_init(&r, cur, N(cur), base, N(base), 1);
	is_str(judge(&r), "improved",
	       "20% faster, -2 ms over a 1 ms floor, 5 of 5 below: improved");
	is_str(r.reason,
	       "median 25.0% faster (-2.000 ms, floor 1 ms), more than the "
	       "20% threshold, 5 of 5 samples "
	       "below the baseline median",
	       "the reason says all three, faster as baseline / current "
	       "(10 / 8 = 1.25)");
	is_int((long long)r.below, 5, "5 samples below the baseline median");
	is_int((long long)r.above, 0, "none above");
	is_int((long long)r.needed, 4, "ceil(0.75 * 5) = 4 needed");
	ok(r.p_value > 0 && r.p_value < 0.05, "a p-value beside the rule");
	row_free(&r);

	row_init(&r, at, N(at), base12, N(base12), 1);
	is_str(judge(&r), "improved",
	       "a median of exactly baseline / 1.20 is improved");
	row_free(&r);
}

/* Just short of improved by each of its three conditions. */
static void
test_short(void)
{
	static const double base[] = {10, 10, 10, 10, 10};
	static const double ratio[] = {8.3, 8.4, 8.4, 8.4, 8.5};
	static const double base_small[] = {1.0, 1.0, 1.0, 1.0, 1.0};
	static const double floor_cur[] = {0.7, 0.7, 0.7, 0.7, 0.7};
	static const double count_cur[] = {8, 8, 8, 12, 12};
	static const double four_cur[] = {8, 8, 8, 8, 12};
	static const double at_median[] = {8, 8, 8, 10, 10};
	struct prof_cmp_row r;

	row_init(&r, ratio, N(ratio), base, N(base), 1);
	is_str(judge(&r), "stable",
	       "ratio: 10 / 8.4 = 1.19 is short of baseline / 1.20");
	is_str(r.reason,
	       "median 19.0% faster (-1.600 ms), within the 20% threshold",
	       "and says it is within the threshold, the same 20% as "
	       "slower's");
	row_free(&r);

	row_init(&r, floor_cur, N(floor_cur), base_small, N(base_small), 1);
	is_str(judge(&r), "stable",
	       "floor: 30% faster but -0.3 ms under a 1 ms floor");
	is_str(r.reason,
	       "median 42.9% faster but -0.300 ms is under the floor of 1 ms",
	       "the floor is the reason");
	row_free(&r);

	row_init(&r, floor_cur, N(floor_cur), base_small, N(base_small), 0.3);
	is_str(judge(&r), "improved",
	       "the same gain reaches a 0.3 ms floor (in nanoseconds)");
	row_free(&r);

	row_init(&r, count_cur, N(count_cur), base, N(base), 1);
	is_str(judge(&r), "stable",
	       "count: 20% faster but 3 of 5 below, 4 needed");
	is_str(r.reason,
	       "median 25.0% faster (-2.000 ms, floor 1 ms), more than the "
	       "20% threshold, but only 3 of 5 "
	       "samples below the baseline median (4 needed)",
	       "the count is the reason");
	row_free(&r);

	row_init(&r, four_cur, N(four_cur), base, N(base), 1);
	is_str(judge(&r), "improved", "4 of 5 below is enough");
	row_free(&r);

	row_init(&r, at_median, N(at_median), base, N(base), 1);
	is_str(judge(&r), "stable",
	       "a sample at the baseline median is not below it");
	is_int((long long)r.below, 3, "3 below, 2 at the median");
	row_free(&r);
}

static void
test_counts(void)
{
	struct prof_cmp_row r;

	count_init(&r, 1000000, 980000, 1);
	is_str(judge(&r), "improved", "2% fewer instructions at 1%: improved");
	is_str(r.reason,
	       "instructions 1,000,000 -> 980,000 (-2.00%), fewer by more than "
	       "the 1% threshold",
	       "the reason names both counts");
	row_free(&r);

	count_init(&r, 1000000, 990000, 1);
	is_str(judge(&r), "stable", "exactly -1% is not more than 1%");
	row_free(&r);

	count_init(&r, 1000000, 1020000, 1);
	is_str(judge(&r), "warning", "2% more instructions: warning");
	row_free(&r);

	count_init(&r, 1000000, 980000, 5);
	is_str(judge(&r), "stable", "-2% is within a workload's own 5%");
	row_free(&r);
}

/* improved in the comparisons document, and accepted by its check. */
static void
test_json(void)
{
	struct json_object *cur = json_object_new_object(), *base, *arr;
	struct json_object *out, *row;
	struct prof_cmp c = {0};
	struct prof_err err = {0};
	int i;

	json_object_object_add(cur, "run_id", json_object_new_string("r"));
	arr = json_object_new_array();
	json_object_object_add(cur, "samples", arr);
	base = json_object_new_object();
	json_object_object_add(base, "run_id", json_object_new_string("b"));
	json_object_object_add(base, "samples", json_object_new_array());
	for (i = 0; i < 8; i++) {
		struct json_object *s = json_object_new_object();
		int b = i >= 4;

		json_object_object_add(s, "workload",
				       json_object_new_string("w"));
		json_object_object_add(s, "workload_version",
				       json_object_new_int(1));
		json_object_object_add(s, "fixture_checksum",
				       json_object_new_string("s"));
		json_object_object_add(s, "warning_floor_ms",
				       prof_json_double(1));
		json_object_object_add(s, "backend",
				       json_object_new_string("cpu"));
		json_object_object_add(s, "segment",
				       json_object_new_string("{}"));
		json_object_object_add(s, "phase",
				       json_object_new_string("timing"));
		json_object_object_add(s, "kind", json_object_new_string("warm"));
		json_object_object_add(s, "outcome",
				       json_object_new_string("success"));
		json_object_object_add(s, "duration_ms",
				       prof_json_double(b ? 10 : 5));
		json_object_array_add(
			json_object_object_get(b ? base : cur, "samples"), s);
	}
	cmpdoc_group(&c, cur, &err);
	cmpdoc_judge(&c, base, "b.json", &err);
	out = prof_cmp_json(&c);
	row = json_object_array_get_idx(out, 0);
	is_str(prof_json_str(row, "status"), "improved",
	       "the comparison says improved");
	is_int(json_object_get_int(
		       json_object_object_get(row, "below_baseline_median")),
	       4, "below_baseline_median");
	is_int(prof_cmp_check(out, &err), 0, "and the check accepts it");
	json_object_put(out);
	prof_cmp_free(&c);
	json_object_put(cur);
	json_object_put(base);
}

int
main(void)
{
	plan(25);
	test_improved();
	test_short();
	test_counts();
	test_json();
	return done();
}
