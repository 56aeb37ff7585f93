/* lib-compare.c: grouping, statistics and the status rules of
 * src/lib/verdict/. */
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

/* A matched row: cur and base durations, both version 1, checksum "s". */
/* The p90 of the values n .. 1 (n <= 20): its nearest rank, 1-based. */
static double
p90_of(size_t n)
{
	double v[20];
	struct prof_stats st;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (double)(n - i);
	prof_stats_compute(v, n, &st);
	return st.p90;
}

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

static void
row_free(struct prof_cmp_row *r)
{
	free(r->cur.v);
	free(r->base.v);
}

/* Judge and return the status. */
static enum prof_cmp_status
judge(struct prof_cmp_row *r)
{
	if (prof_cmp_judge(r) < 0)
		return PROF_CMP_UNJUDGED;
	return r->status;
}

static void
test_stats(void)
{
	static const double odd[] = {5, 1, 4, 2, 3};
	static const double even[] = {4, 1, 3, 2};
	static const double ten[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	static const double one[] = {7.5};
	double twenty[20];
	struct prof_cmp_row r;
	size_t i;

	row_init(&r, odd, N(odd), NULL, 0, 1);
	prof_cmp_judge(&r);
	is_num(r.cur.st.median, 3, 0, "median of odd n is the middle value");
	is_num(r.cur.st.p90, 5, 0,
	       "p90 of n=5 is sorted[ceil(4.5)-1] = sorted[4]");
	is_num(r.cur.st.min, 1, 0, "min of n=5");
	is_num(r.cur.st.max, 5, 0, "max of n=5");
	row_free(&r);

	row_init(&r, even, N(even), NULL, 0, 1);
	prof_cmp_judge(&r);
	is_num(r.cur.st.median, 2.5, 0,
	       "median of even n is the mean of the two middle values");
	is_num(r.cur.st.p90, 4, 0,
	       "p90 of n=4 is sorted[ceil(3.6)-1] = sorted[3]");
	row_free(&r);

	row_init(&r, ten, N(ten), NULL, 0, 1);
	prof_cmp_judge(&r);
	is_num(r.cur.st.median, 5.5, 0, "median of n=10");
	is_num(r.cur.st.p90, 9, 0, "p90 of n=10 is sorted[8], nearest rank");
	row_free(&r);

	row_init(&r, one, N(one), NULL, 0, 1);
	prof_cmp_judge(&r);
	is_num(r.cur.st.median, 7.5, 0, "median of n=1");
	is_num(r.cur.st.p90, 7.5, 0, "p90 of n=1 is sorted[0]");
	row_free(&r);

	for (i = 0; i < 20; i++)
		twenty[i] = (double)(20 - i);
	row_init(&r, twenty, 20, NULL, 0, 1);
	prof_cmp_judge(&r);
	is_num(r.cur.st.p90, 18, 0, "p90 of n=20 is sorted[17]");
	is_int((long long)r.needed, 15, "ceil(0.75 * 20) = 15");
	row_free(&r);

	is_num(p90_of(9), 9, 0, "p90 of n=9 is sorted[8]");
	is_num(p90_of(11), 10, 0,
	       "p90 of n=11 is sorted[ceil(9.9)-1] = sorted[9]");
}

static void
test_warning(void)
{
	static const double cur[] = {12.8, 13.0, 13.0, 13.1, 13.3};
	static const double base[] = {9.8, 10.0, 10.0, 10.1, 10.2};
	static const double cur_small[] = {1.28, 1.3, 1.3, 1.31, 1.33};
	static const double base_small[] = {0.98, 1.0, 1.0, 1.01, 1.02};
	static const double half[] = {9.0, 9.5, 16.0, 17.0};
	static const double base4[] = {9.9, 10.0, 10.0, 10.1};
	struct prof_cmp_row r;

	row_init(&r, cur, N(cur), base, N(base), 1);
	is_int(judge(&r), PROF_CMP_WARNING,
	       "30% slower, +3 ms over a 1 ms floor, 5 of 5 above: warning");
	is_str(r.reason,
	       "median 30.0% slower (+3.000 ms >= floor 1 ms), more than the "
	       "20% threshold, 5 of 5 samples "
	       "above the baseline median",
	       "the warning says why");
	is_num(r.ratio, 1.3, 1e-12, "ratio of the medians");
	is_num(r.delta_ms, 3, 1e-12, "delta of the medians");
	is_int((long long)r.above, 5, "5 samples above the baseline median");
	is_int((long long)r.needed, 4, "ceil(0.75 * 5) = 4 needed");
	ok(r.p_value > 0 && r.p_value < 0.05, "a p-value beside the rule");
	row_free(&r);

	row_init(&r, cur_small, N(cur_small), base_small, N(base_small), 1);
	is_int(judge(&r), PROF_CMP_STABLE,
	       "30% slower but +0.3 ms under a 1 ms floor: stable");
	is_str(r.reason,
	       "median 30.0% slower but +0.300 ms is under the floor of 1 ms",
	       "the floor is the reason");
	row_free(&r);

	row_init(&r, half, N(half), base4, N(base4), 1);
	is_int(
	    judge(&r), PROF_CMP_STABLE,
	    "27.5% slower but only 2 of 4 above the baseline median: stable");
	is_int((long long)r.needed, 3, "ceil(0.75 * 4) = 3 needed");
	is_int((long long)r.above, 2, "2 above");
	is_num(r.cur.st.median, 12.75, 1e-12,
	       "even-n median of the current side");
	is_str(r.reason,
	       "median 27.5% slower (+2.750 ms >= floor 1 ms), more than the "
	       "20% threshold, but only 2 of 4 "
	       "samples above the baseline median (3 needed)",
	       "the count is the reason");
	row_free(&r);
}

static void
test_boundaries(void)
{
	static const double base[] = {10, 10, 10};
	static const double at[] = {12, 12, 12};
	static const double over[] = {12.01, 12.01, 12.01};
	static const double base_tiny[] = {0.2, 0.2, 0.2};
	static const double cur_tiny[] = {0.3, 0.3, 0.3};
	static const double base4[] = {10, 10, 10, 10};
	static const double three_of_four[] = {13, 13, 13, 9};
	static const double base5[] = {10, 10, 10, 10, 10};
	static const double four_of_five[] = {13, 13, 13, 13, 9};
	static const double three_of_five[] = {13, 13, 13, 9, 9};
	static const double faster[] = {8, 8, 8};
	struct prof_cmp_row r;

	row_init(&r, at, N(at), base, N(base), 1);
	is_int(judge(&r), PROF_CMP_STABLE, "a ratio of exactly 1.20 is stable");
	is_str(r.reason,
	       "median 20.0% slower (+2.000 ms), within the 20% threshold",
	       "within the threshold");
	row_free(&r);

	row_init(&r, over, N(over), base, N(base), 1);
	is_int(judge(&r), PROF_CMP_WARNING, "a ratio just over 1.20 warns");
	row_free(&r);

	row_init(&r, at, N(at), base, N(base), 2);
	r.cur.v[0] = r.cur.v[1] = r.cur.v[2] = 12.5;
	is_int(judge(&r), PROF_CMP_WARNING,
	       "a delta of 2.5 ms reaches a 2 ms floor");
	row_free(&r);

	row_init(&r, cur_tiny, N(cur_tiny), base_tiny, N(base_tiny), 0.1);
	is_int(judge(&r), PROF_CMP_WARNING,
	       "0.3 - 0.2 reaches a 0.1 ms floor (compared in nanoseconds)");
	row_free(&r);

	row_init(&r, three_of_four, N(three_of_four), base4, N(base4), 1);
	is_int(judge(&r), PROF_CMP_WARNING, "n=4: 3 above is enough");
	row_free(&r);

	row_init(&r, four_of_five, N(four_of_five), base5, N(base5), 1);
	is_int(judge(&r), PROF_CMP_WARNING, "n=5: 4 above is enough");
	row_free(&r);

	row_init(&r, three_of_five, N(three_of_five), base5, N(base5), 1);
	is_int(judge(&r), PROF_CMP_STABLE, "n=5: 3 above is not");
	row_free(&r);

	row_init(&r, faster, N(faster), base, N(base), 1);
	is_int(judge(&r), PROF_CMP_IMPROVED,
	       "20% faster, -2 ms over a 1 ms floor, 3 of 3 below: improved");
	is_str(r.reason,
	       "median 25.0% faster (-2.000 ms, floor 1 ms), more than the "
	       "20% threshold, 3 of 3 samples "
	       "below the baseline median",
	       "improved says why");
	row_free(&r);

	row_init(&r, base, N(base), base, N(base), 1);
	is_int(judge(&r), PROF_CMP_STABLE, "the same numbers are stable");
	is_str(r.reason, "median unchanged", "unchanged says so");
	row_free(&r);
}

static void
test_incomparable(void)
{
	static const double cur[] = {13, 13, 13};
	static const double base[] = {10, 10, 10};
	static const double zero[] = {0, 0, 0};
	struct prof_cmp_row r;

	row_init(&r, cur, N(cur), base, N(base), 1);
	r.cur.version = 2;
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "another workload version is incomparable");
	is_str(r.reason, "workload version 2 != baseline 1", "version reason");
	ok(isnan(r.p_value) && isnan(r.ratio) && isnan(r.delta_ms),
	   "no ratio, delta or p-value when incomparable");
	row_free(&r);

	row_init(&r, cur, N(cur), base, N(base), 1);
	r.cur.fixture_checksum = "0123456789abcdef";
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "another fixture checksum is incomparable");
	is_str(r.reason, "fixture checksum 0123456789ab != baseline s",
	       "checksum reason");
	row_free(&r);

	row_init(&r, cur, N(cur), base, N(base), 1);
	r.base.fixture_checksum = NULL;
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "a known against an unknown checksum is incomparable");
	row_free(&r);

	row_init(&r, cur, N(cur), zero, N(zero), 1);
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "a baseline median of 0 is incomparable");
	is_str(r.reason, "baseline median 0 ms is not positive", "zero reason");
	row_free(&r);

	row_init(&r, cur, N(cur), NULL, 0, 1);
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "a baseline row without samples is incomparable");
	row_free(&r);

	row_init(&r, NULL, 0, base, N(base), 1);
	r.cur.errors = 3;
	is_int(judge(&r), PROF_CMP_INCOMPARABLE,
	       "a current row without samples is incomparable");
	is_str(r.reason, "no successful warm samples in this run (3 errored)",
	       "errored reason");
	row_free(&r);

	row_init(&r, cur, N(cur), NULL, 0, 1);
	r.matched = 0;
	is_int(judge(&r), PROF_CMP_NEW, "no baseline row is new");
	is_str(r.reason,
	       "no baseline row for this segment (the workload is not in the "
	       "baseline)",
	       "new reason");
	ok(isnan(r.p_value), "no p-value for a new row");
	r.base_other_segments = 2;
	judge(&r);
	is_str(r.reason,
	       "no baseline row for this segment (the baseline has this "
	       "workload in 2 other segments)",
	       "new reason with other segments");
	row_free(&r);
}

static void
test_p_value(void)
{
	static const double cur[] = {11, 12, 13, 14, 15};
	static const double base[] = {1, 2, 3, 4, 5};
	struct prof_cmp_row r;

	row_init(&r, cur, N(cur), base, N(base), 1);
	judge(&r);
	/* All 5 above all 5, no ties: exact two-sided p = 2 / C(10, 5). */
	is_num(r.p_value, 2.0 / 252.0, 1e-12, "exact Mann-Whitney p-value");
	row_free(&r);
}

/* A minimal sample for the grouping tests. */
static struct json_object *
sample(const char *w, const char *seg, const char *phase, const char *kind,
       double ms, int version)
{
	struct json_object *s = json_object_new_object();

	json_object_object_add(s, "workload", json_object_new_string(w));
	json_object_object_add(s, "workload_version",
			       json_object_new_int(version));
	json_object_object_add(s, "category", json_object_new_string("test"));
	json_object_object_add(s, "fixture_checksum",
			       json_object_new_string("s"));
	json_object_object_add(s, "warning_floor_ms", prof_json_double(1));
	json_object_object_add(
	    s, "backend",
	    json_object_new_string(strcmp(seg, "gpu") ? "cpu" : "gpu"));
	json_object_object_add(s, "segment", json_object_new_string(seg));
	json_object_object_add(s, "phase", json_object_new_string(phase));
	json_object_object_add(s, "kind", json_object_new_string(kind));
	json_object_object_add(s, "duration_ms",
			       ms < 0 ? NULL : prof_json_double(ms));
	json_object_object_add(
	    s, "outcome", json_object_new_string(ms < 0 ? "error" : "success"));
	return s;
}

static struct json_object *
doc(void)
{
	struct json_object *d = json_object_new_object();

	json_object_object_add(d, "run_id", json_object_new_string("r1"));
	json_object_object_add(d, "samples", json_object_new_array());
	return d;
}

static void
add(struct json_object *d, struct json_object *s)
{
	json_object_array_add(json_object_object_get(d, "samples"), s);
}

/* The comparison of row (w, seg) of c, as prof-diff writes it; borrowed
 * until the next call (NULL: none). */
static struct json_object *found;

static struct json_object *
find(struct prof_cmp *c, const char *w, const char *seg)
{
	size_t i;

	json_object_put(found);
	found = NULL;
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].workload, w) &&
		    !strcmp(c->rows[i].segment, seg))
			return found = prof_cmp_row_json(c, i);
	return NULL;
}

/* A number of a comparison's side ("current"), or -1. */
static long long
side_int(struct json_object *o, const char *side, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(json_object_object_get(o, side),
					     key, &v))
		return -1;
	return json_object_get_int64(v);
}

static void
test_grouping(void)
{
	struct json_object *cur = doc(), *base = doc(), *out, *row, *v;
	struct prof_err err = {0};
	struct prof_cmp c = {0};
	struct json_object *r;
	int i;

	v = sample("a", "cpu", "timing", "warm", 1, 1);
	ok(prof_cmp_aggregated(v) == 1,
	   "timing + warm + success is aggregated");
	json_object_put(v);
	for (i = 0; i < 5; i++)
		add(cur, sample("b", "cpu", "timing", "warm", 13, 1));
	add(cur, sample("b", "cpu", "timing", "cold", 100, 1));
	add(cur, sample("b", "cpu", "timing", "warm", -1, 1));
	add(cur, sample("b", "cpu", "memory", "warm", 100, 1));
	add(cur, sample("b", "cpu", "profile", "warm", 100, 1));
	add(cur, sample("a", "cpu", "browser", "warm", 5, 1));
	add(cur, sample("a", "cpu", "browser", "warm", 6, 1));
	add(cur, sample("b", "gpu", "timing", "warm", 1, 1));
	add(cur, sample("z", "cpu", "timing", "warm", -1, 1));
	for (i = 0; i < 5; i++)
		add(base, sample("b", "cpu", "timing", "warm", 10, 1));
	add(base, sample("a", "cpu", "browser", "warm", 5, 1));
	add(base, sample("z", "cpu", "timing", "warm", 1, 1));

	ok(cmpdoc_group(&c, cur, &err) == 0, "grouping works");
	is_int((long long)c.n, 4, "one row per workload x backend x segment");
	is_str(c.rows[0].workload, "a", "rows are sorted by workload");
	is_str(c.rows[1].segment, "cpu", "then by backend");
	is_str(c.rows[2].segment, "gpu", "b on the GPU is its own row");
	r = find(&c, "b", "cpu");
	is_int(side_int(r, "current", "n"), 5,
	       "cold, error, memory and profile samples are not aggregated");
	is_int(side_int(r, "current", "errors"), 1, "the error is counted");
	r = find(&c, "a", "cpu");
	is_int(side_int(r, "current", "n"), 2, "browser rows are aggregated");
	r = find(&c, "z", "cpu");
	is_int(side_int(r, "current", "n"), 0,
	       "a workload whose samples all errored is a row with n = 0");
	r = find(&c, "a", "cpu");
	is_str(prof_json_str(r, "status"), "unjudged",
	       "grouping judges nothing");

	ok(cmpdoc_judge(&c, base, "base.json", &err) == 0,
	   "judging works");
	r = find(&c, "b", "cpu");
	is_str(prof_json_str(r, "status"), "warning", "b on the CPU warns");
	r = find(&c, "b", "gpu");
	is_str(prof_json_str(r, "status"), "new",
	       "b on the GPU, which the baseline lacks, is new");
	is_str(prof_json_str(r, "reason"),
	       "no baseline row for this segment (the baseline has this "
	       "workload in 1 other segment)",
	       "the baseline has b in one other segment");
	r = find(&c, "a", "cpu");
	is_str(prof_json_str(r, "status"), "stable", "a is stable");
	r = find(&c, "z", "cpu");
	is_str(prof_json_str(r, "status"), "incomparable",
	       "z, all errored, is incomparable");
	json_object_put(found);
	found = NULL;

	out = prof_cmp_json(&c);
	ok(out && prof_cmp_check(out, &err) == 0,
	   "the comparisons pass their own check");
	/* Rows moved to a temporary file and read back one at a time make
	 * the same comparisons; where none can be made they stay. */
	{
		const char *text = json_object_to_json_string(out);
		const char *tmp = getenv("TMPDIR");
		char *keep_tmp = tmp ? strdup(tmp) : NULL;
		int pass, same = 0, spilled = 0;

		for (pass = 0; pass < 2; pass++) {
			struct prof_cmp c2 = {0};
			struct json_object *o2;

			if (pass)
				setenv("TMPDIR", "/nonexistent/prof", 1);
			if (cmpdoc_group(&c2, cur, &err) < 0 ||
			    prof_cmp_spill(&c2, &err) < 0)
				break;
			spilled += c2.spilled << pass;
			if (cmpdoc_judge(&c2, base, "base.json", &err) < 0)
				break;
			o2 = prof_cmp_json(&c2);
			same += o2 && !strcmp(json_object_to_json_string(o2),
					      text);
			json_object_put(o2);
			prof_cmp_free(&c2);
		}
		if (keep_tmp)
			setenv("TMPDIR", keep_tmp, 1);
		else
			unsetenv("TMPDIR");
		free(keep_tmp);
		is_int(spilled, 1, "rows spill to TMPDIR, and stay where it "
				   "cannot be written");
		is_int(same, 2, "spilled or not, the same comparisons");
	}
	row = json_object_array_get_idx(out, 1);
	is_str(prof_json_str(row, "status"), "warning", "JSON status");
	v = json_object_object_get(json_object_object_get(row, "current"), "n");
	is_int(json_object_get_int(v), 5, "JSON current.n");
	v = json_object_object_get(json_object_object_get(row, "baseline"),
				   "median");
	is_num(prof_json_number(v), 10, 0, "JSON baseline.median");
	row = json_object_array_get_idx(out, 2);
	ok(json_object_object_get(row, "p_value") == NULL &&
	       json_object_object_get_ex(row, "p_value", NULL),
	   "p_value is null when the baseline side is empty");
	json_object_object_add(json_object_object_get(row, "current"), "n",
			       json_object_new_string("5"));
	prof_err_clear(&err);
	ok(prof_cmp_check(out, &err) < 0 &&
	       !strcmp(err.path, "[2].current.n") &&
	       !strcmp(err.reason, "expected an integer, got a string"),
	   "a broken comparison names its path");
	json_object_put(out);

	ok(cmpdoc_judge(&c, NULL, "nope.json", &err) == 0,
	   "judging against a missing file works");
	for (i = 0; i < (int)c.n; i++) {
		r = prof_cmp_row_json(&c, (size_t)i);
		if (strcmp(prof_json_str(r, "status"), "incomparable") ||
		    strcmp(prof_json_str(r, "reason"),
			   "baseline file 'nope.json' not found")) {
			json_object_put(r);
			break;
		}
		json_object_put(r);
	}
	is_int(i, (long long)c.n,
	       "a missing baseline file makes every row incomparable");
	prof_cmp_free(&c);
	json_object_put(cur);
	json_object_put(base);
}

int
main(void)
{
	plan(83);
	test_stats();
	test_warning();
	test_boundaries();
	test_incomparable();
	test_p_value();
	test_grouping();
	return done();
}
