/* lib-memory-rule.c: the rules of memory rows (verdict/verdict.h) on hand-made
 * samples: just over and just under each threshold and floor, both ways;
 * determinism per call index; memory rows grouped from samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/channels.h"
#include "verdict/read.h"
#include "verdict/verdict.h"
#include "tap.h"

/* A matched memory row of metric m: nc current and nb baseline values,
 * value i at call index i (or all at index 0 when same_index). */
static void
row_init(struct prof_cmp_row *r, enum prof_cmp_mem m, const double *cur,
	 size_t nc, const double *base, size_t nb, int same_index)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->workload = "w";
	r->backend = "cpu";
	r->segment = "{}";
	r->warning_floor_ms = 1;
	r->memory = m;
	r->threshold_pct = prof_cmp_metrics[m].threshold_pct;
	r->cur.version = r->base.version = 1;
	r->cur.fixture_checksum = r->base.fixture_checksum = "s";
	r->matched = 1;
	for (i = 0; i < nc; i++)
		prof_cmp_side_add_at(&r->cur, cur[i], same_index ? 0 : (long)i);
	for (i = 0; i < nb; i++)
		prof_cmp_side_add_at(&r->base, base[i],
				     same_index ? 0 : (long)i);
}

static void
row_free(struct prof_cmp_row *r)
{
	free(r->cur.v);
	free(r->cur.at);
	free(r->base.v);
	free(r->base.at);
}

/* The status of metric m with one value a side. */
static enum prof_cmp_status
one(enum prof_cmp_mem m, double cur, double base)
{
	struct prof_cmp_row r;
	enum prof_cmp_status st;

	row_init(&r, m, &cur, 1, &base, 1, 0);
	st = prof_cmp_judge(&r) < 0 ? PROF_CMP_UNJUDGED : r.status;
	row_free(&r);
	return st;
}

static void
test_exact(void)
{
	/* Heap peak: 1% and 4096 bytes. From 1 MiB, 1% is 10485.76. */
	is_int(one(PROF_CMP_MEM_PEAK, 1048576 + 10486, 1048576),
	       PROF_CMP_WARNING, "heap peak just over 1% (and the floor): "
				 "warning");
	is_int(one(PROF_CMP_MEM_PEAK, 1048576 + 10485, 1048576),
	       PROF_CMP_STABLE, "heap peak just under 1%: stable");
	is_int(one(PROF_CMP_MEM_PEAK, 1048576 - 10486, 1048576),
	       PROF_CMP_IMPROVED, "heap peak just over 1% less: improved");
	is_int(one(PROF_CMP_MEM_PEAK, 1048576 - 10485, 1048576),
	       PROF_CMP_STABLE, "heap peak just under 1% less: stable");
	/* Small: +100% but under or at the floor of 4096 bytes. */
	is_int(one(PROF_CMP_MEM_PEAK, 4096 + 4095, 4096), PROF_CMP_STABLE,
	       "heap peak doubled less a byte, 4095 bytes under the floor: "
	       "stable");
	is_int(one(PROF_CMP_MEM_PEAK, 4096 + 4096, 4096), PROF_CMP_WARNING,
	       "heap peak doubled, 4096 bytes at the floor: warning");
	is_int(one(PROF_CMP_MEM_PEAK, 8192 - 4095, 8192), PROF_CMP_STABLE,
	       "heap peak less by 4095 bytes: under the floor, stable");
	is_int(one(PROF_CMP_MEM_PEAK, 8192 - 4096, 8192), PROF_CMP_IMPROVED,
	       "heap peak less by 4096 bytes: improved");
	/* Allocations: 1% and 16 allocations. */
	is_int(one(PROF_CMP_MEM_ALLOCS, 1616, 1600), PROF_CMP_STABLE,
	       "allocations +16 of 1600, exactly 1%: not more, stable");
	is_int(one(PROF_CMP_MEM_ALLOCS, 1617, 1600), PROF_CMP_WARNING,
	       "allocations +17 of 1600: warning");
	is_int(one(PROF_CMP_MEM_ALLOCS, 1583, 1600), PROF_CMP_IMPROVED,
	       "allocations -17 of 1600: improved");
	is_int(one(PROF_CMP_MEM_ALLOCS, 1584, 1600), PROF_CMP_STABLE,
	       "allocations -16 of 1600, exactly 1%: stable");
	is_int(one(PROF_CMP_MEM_ALLOCS, 115, 100), PROF_CMP_STABLE,
	       "allocations +15%, 15 under the floor of 16: stable");
	is_int(one(PROF_CMP_MEM_ALLOCS, 116, 100), PROF_CMP_WARNING,
	       "allocations +16, at the floor: warning");
	is_int(one(PROF_CMP_MEM_ALLOCS, 84, 100), PROF_CMP_IMPROVED,
	       "allocations -16, at the floor: improved");
	is_int(one(PROF_CMP_MEM_ALLOCS, 85, 100), PROF_CMP_STABLE,
	       "allocations -15: stable");
	/* 0 is a value: a call that allocated nothing. */
	is_int(one(PROF_CMP_MEM_ALLOCS, 0, 0), PROF_CMP_STABLE,
	       "no allocations on both sides: stable");
	is_int(one(PROF_CMP_MEM_ALLOCS, 16, 0), PROF_CMP_WARNING,
	       "16 allocations from none: warning");
	is_int(one(PROF_CMP_MEM_BYTES, 4095, 0), PROF_CMP_STABLE,
	       "4095 bytes allocated from none: under the floor, stable");
	is_int(one(PROF_CMP_MEM_BYTES, 0, 4096), PROF_CMP_IMPROVED,
	       "no bytes allocated instead of 4096: improved");
}

static void
test_rss(void)
{
	static const double base[] = {100e6, 100e6, 100e6, 100e6};
	double cur[5];
	struct prof_cmp_row r;
	size_t i;

	/* Ratio 1.20 and 1 MiB: just over and just under both. */
	is_int(one(PROF_CMP_MEM_RSS, 120e6 + 1, 100e6), PROF_CMP_WARNING,
	       "RSS ratio just over 1.20: warning");
	is_int(one(PROF_CMP_MEM_RSS, 120e6, 100e6), PROF_CMP_STABLE,
	       "RSS ratio exactly 1.20: stable");
	is_int(one(PROF_CMP_MEM_RSS, 100e6 / 1.2, 100e6), PROF_CMP_IMPROVED,
	       "RSS at the baseline / 1.20: improved");
	is_int(one(PROF_CMP_MEM_RSS, 100e6 / 1.2 + 1, 100e6), PROF_CMP_STABLE,
	       "RSS just above the baseline / 1.20: stable");
	is_int(one(PROF_CMP_MEM_RSS, 2e6 + 1048575, 2e6), PROF_CMP_STABLE,
	       "RSS +52% but a byte under the floor of 1 MiB: stable");
	is_int(one(PROF_CMP_MEM_RSS, 2e6 + 1048576, 2e6), PROF_CMP_WARNING,
	       "RSS +52%, 1 MiB: warning");
	is_int(one(PROF_CMP_MEM_RSS, 4e6 - 1048575, 4e6), PROF_CMP_STABLE,
	       "RSS -26% but a byte under the floor: stable");
	is_int(one(PROF_CMP_MEM_RSS, 4e6 - 1048576, 4e6), PROF_CMP_IMPROVED,
	       "RSS -26%, 1 MiB less: improved");
	/* The share: ceil(0.75 * 4) = 3 samples above the baseline median. */
	for (i = 0; i < 4; i++)
		cur[i] = i < 2 ? 100e6 : 200e6;
	cur[1] = 200e6;	/* three above, median 200e6 */
	row_init(&r, PROF_CMP_MEM_RSS, cur, 4, base, 4, 0);
	prof_cmp_judge(&r);
	is_int(r.status, PROF_CMP_WARNING, "RSS: 3 of 4 above: warning");
	row_free(&r);
	/* A memory median is one of the values (the lower middle), so
	 * with the median over the ratio at most the lower half of the
	 * other samples is not above: 5 samples, ceil(0.75 * 5) = 4. */
	cur[0] = 100e6;
	cur[1] = 100e6;
	cur[2] = 250e6;
	cur[3] = 250e6;
	cur[4] = 250e6;	/* median 250e6: three above */
	row_init(&r, PROF_CMP_MEM_RSS, cur, 5, base, 4, 0);
	prof_cmp_judge(&r);
	is_int(r.status, PROF_CMP_STABLE, "RSS: 3 of 5 above: stable");
	ok(strstr(r.reason, "only 3 of 5 samples above") != NULL,
	   "and the reason says the share");
	row_free(&r);
	cur[0] = cur[1] = cur[2] = 50e6;
	cur[3] = 100e6;
	row_init(&r, PROF_CMP_MEM_RSS, cur, 4, base, 4, 0);
	prof_cmp_judge(&r);
	is_int(r.status, PROF_CMP_IMPROVED, "RSS: 3 of 4 below: improved");
	row_free(&r);
}

static void
test_determinism(void)
{
	static const double base[] = {1000, 1000};
	static const double agree[] = {1200, 1200};
	/* (a memory median is the lower middle value: 1250) */
	static const double differ[] = {1250, 1300};
	struct prof_cmp_row r;
	struct prof_cmp c = {0};
	struct json_object *a, *o;

	/* Two runs, call index 0 in both, agree: exact, warning. */
	row_init(&r, PROF_CMP_MEM_ALLOCS, agree, 2, base, 2, 1);
	prof_cmp_judge(&r);
	is_int(r.status, PROF_CMP_WARNING,
	       "allocations the same per call index: judged exactly");
	ok(!r.cur.nondet && !r.base.nondet, "both sides deterministic");
	row_free(&r);
	/* Disagreeing at index 0: its spread, and the ratio rule. */
	row_init(&r, PROF_CMP_MEM_ALLOCS, differ, 2, base, 2, 1);
	prof_cmp_judge(&r);
	ok(r.cur.nondet && r.cur.nd_index == 0 && r.cur.nd_lo == 1250 &&
		   r.cur.nd_hi == 1300,
	   "allocations 1250 and 1300 at call 0: not deterministic, spread "
	   "1250 to 1300");
	is_int(r.status, PROF_CMP_WARNING,
	       "judged by ratio instead (1250 / 1000 > 1.20)");
	is_str(r.reason,
	       "not deterministic: call 0 of the current side gave 1,250 to "
	       "1,300 allocations, so judged by ratio, not exactly: "
	       "allocations 1,000 -> 1,250 (ratio 1.250, +250 >= "
	       "floor 16), 2 of 2 samples above the baseline median",
	   "the reason gives the spread and the rule");
	row_free(&r);
	/* The same values at different call indices are deterministic. */
	row_init(&r, PROF_CMP_MEM_ALLOCS, differ, 2, base, 2, 0);
	prof_cmp_judge(&r);
	ok(!r.cur.nondet, "1250 at call 0 and 1300 at call 1: "
			  "deterministic");
	row_free(&r);
	/* Not deterministic, and within the ratio: stable, never exact. */
	{
		static const double near[] = {1010, 1030};

		row_init(&r, PROF_CMP_MEM_ALLOCS, near, 2, base, 2, 1);
		prof_cmp_judge(&r);
		is_int(r.status, PROF_CMP_STABLE,
		       "not deterministic +2%: stable by the ratio rule, not "
		       "a warning by the exact one");
		row_free(&r);
	}
	/* The JSON of such a row, grouped from samples: two calls at
	 * index 0 a side. */
	{
		struct prof_err e = {0};
		int bad = 0;
		size_t i;

		for (i = 0; i < 4; i++) {
			char buf[512];
			struct json_object *s;

			snprintf(buf, sizeof(buf),
				 "{\"workload\":\"w\",\"workload_version\":1,"
				 "\"backend\":\"cpu\",\"phase\":\"memory\","
				 "\"kind\":\"warm\",\"index\":%zu,\"call\":0,"
				 "\"outcome\":\"success\",\"duration_ms\":1,"
				 "\"fixture_checksum\":\"s\","
				 "\"warning_floor_ms\":1,\"memory\":"
				 "{\"host_allocs\":%g}}",
				 i % 2, i < 2 ? differ[i % 2] : base[i % 2]);
			s = json_tokener_parse(buf);
			if (i == 2)
				bad |= prof_cmp_close(&c, NULL, NULL, &e);
			bad |= (i < 2 ? prof_cmp_take :
					prof_cmp_base_take)(&c, s, "{}", &e);
			json_object_put(s);
		}
		bad |= prof_cmp_judge_groups(&c, NULL, NULL, 0, "b", &e);
		ok(!bad && c.n == 1, "1250 and 1300 at call 0, grouped");
	}
	a = prof_cmp_json(&c);
	o = a ? json_object_array_get_idx(a, 0) : NULL;
	is_str(prof_json_str(o, "phase"), "memory", "phase memory");
	is_str(prof_json_str(o, "metric"), "host_allocs", "its metric");
	is_str(prof_json_str(o, "rule"), "ratio", "judged by ratio");
	is_num(prof_json_numf(o, "delta"), 250, 0, "delta in allocations");
	ok(json_object_get_boolean(json_object_object_get(
		   json_object_object_get(o, "deterministic"), "current")) ==
		   0,
	   "deterministic.current false");
	is_num(prof_json_numf(json_object_object_get(
				      json_object_object_get(o, "spread"),
				      "current"),
			      "max"),
	       1300, 0, "spread.current.max");
	json_object_put(a);
	prof_cmp_free(&c);
}

/* Samples as prof-mem writes them, grouped and judged. */
static struct json_object *
mem_sample(const char *w, long long peak, long long allocs, long long bytes,
	   long long rss)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"workload\":\"%s\",\"workload_version\":1,"
		 "\"backend\":\"cpu\",\"segment\":\"{}\",\"phase\":\"memory\","
		 "\"kind\":\"warm\",\"index\":0,\"outcome\":\"success\","
		 "\"duration_ms\":1,\"fixture_checksum\":\"s\","
		 "\"warning_floor_ms\":1,\"memory\":{\"host_peak_bytes\":%lld,"
		 "\"host_allocs\":%lld,\"host_allocated_bytes\":%lld,"
		 "\"rss_peak_bytes\":%lld}}",
		 w, peak, allocs, bytes, rss);
	return json_tokener_parse(buf);
}

static void
test_grouping(void)
{
	struct prof_cmp c = {0};
	struct prof_cmp_rows k;
	struct prof_err e = {0};
	int rc;
	struct json_object *cur = mem_sample("w.copy", 2097152, 2, 2097152,
					     10000000);
	struct json_object *base = mem_sample("w.copy", 1048576, 1, 1048576,
					      9000000);
	struct json_object *a;
	const char *want[] = {"host_peak_bytes", "host_allocs",
			      "host_allocated_bytes", "rss_peak_bytes"};
	const char *status[] = {"warning", "stable", "warning", "stable"};
	size_t i;

	ok(prof_cmp_take(&c, cur, "{}", &e) == 0 &&
		   prof_cmp_close(&c, NULL, NULL, &e) == 0 &&
		   prof_cmp_set_run(&c, "r") == 0 &&
		   prof_cmp_base_take(&c, base, "{}", &e) == 0 &&
		   prof_cmp_judge_groups(&c, NULL, NULL, 0, "b", &e) == 0,
	   "memory samples grouped and judged");
	is_int((long long)c.n, 4, "one row per metric");
	a = prof_cmp_json(&c);
	for (i = 0; i < 4 && a; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		char name[128];

		snprintf(name, sizeof(name), "row %zu: %s %s", i, want[i],
			 status[i]);
		ok(o && !strcmp(prof_json_str(o, "metric"), want[i]) &&
			   !strcmp(prof_json_str(o, "status"), status[i]),
		   name);
	}
	ok(a && prof_cmp_check(a, &e) == 0, "prof_cmp_check() takes them");
	prof_cmp_rows_begin(&k);
	rc = prof_cmp_rows_sample(&k, cur, "{}", &e);
	if (!rc)
		rc = prof_cmp_rows_close(&k, NULL, NULL, &e);
	for (i = 0; !rc && a && i < json_object_array_length(a); i++)
		rc = prof_cmp_rows_take(&k, json_object_array_get_idx(a, i), i,
					&e);
	ok(a && !rc && prof_cmp_rows_end(&k, &e) == 0,
	   "the rows check, as prof-report makes it, finds each row once");
	prof_cmp_rows_free(&k);
	json_object_put(a);
	json_object_put(cur);
	json_object_put(base);
	prof_cmp_free(&c);
}

/* Time and memory read together (prof_channels_time_memory()),
 * of the rows read as verdicts. */
static void
test_disagree(void)
{
	struct json_object *t = json_tokener_parse(
		"{\"status\":\"stable\",\"ratio\":1.029}");
	struct json_object *m = json_tokener_parse(
		"{\"status\":\"warning\",\"ratio\":2,"
		"\"phase\":\"memory\",\"metric\":\"host_peak_bytes\"}");
	struct json_object *s = json_tokener_parse(
		"{\"status\":\"stable\",\"ratio\":1,"
		"\"phase\":\"memory\",\"metric\":\"host_allocs\"}");
	struct json_object *f = json_tokener_parse(
		"{\"status\":\"improved\",\"ratio\":0.5}");
	struct json_object *w = json_tokener_parse(
		"{\"status\":\"warning\",\"ratio\":1.3}");
	struct json_object *aw = json_tokener_parse(
		"{\"status\":\"warning\",\"ratio\":1.5,"
		"\"phase\":\"memory\",\"metric\":\"host_allocs\"}");
	struct json_object *ai = json_tokener_parse(
		"{\"status\":\"improved\",\"ratio\":0.5,"
		"\"phase\":\"memory\",\"metric\":\"host_allocs\"}");
	struct json_object *bi = json_tokener_parse(
		"{\"status\":\"improved\",\"ratio\":0.5,"
		"\"phase\":\"memory\",\"metric\":\"host_allocated_bytes\"}");
	struct prof_verdict tv, mv, sv, fv, wv, awv, aiv, biv;
	char buf[512];

	prof_verdict_read(t, &tv);
	prof_verdict_read(m, &mv);
	prof_verdict_read(s, &sv);
	prof_verdict_read(f, &fv);
	prof_verdict_read(w, &wv);
	prof_verdict_read(aw, &awv);
	prof_verdict_read(ai, &aiv);
	prof_verdict_read(bi, &biv);

	ok(prof_channels_time_memory(&tv, &mv, "**", buf, sizeof(buf)) == 1,
	   "time stable, heap peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, heap peak +100% (**warning**): more "
	       "memory in the same time, which another machine, allocator or "
	       "a larger input may not forgive",
	       "in facts and what they can mean");
	ok(prof_channels_time_memory(&tv, &sv, "**", buf, sizeof(buf)) == 0 &&
		   !buf[0],
	   "a stable memory row says nothing");
	ok(prof_channels_time_memory(&fv, &mv, "", buf, sizeof(buf)) == 1 &&
		   strstr(buf, "time bought with memory") != NULL,
	   "faster and more memory: time bought with memory");
	ok(prof_channels_time_memory(&tv, &awv, "", buf, sizeof(buf)) == 1,
	   "time stable, allocations warning: they disagree");
	is_str(buf,
	       "time stable +2.9%, allocations +50% (warning): more "
	       "allocations in the same time, which another machine, "
	       "allocator or a larger input may not forgive",
	       "more allocations in the same time, in the metric's words");
	ok(prof_channels_time_memory(&tv, &aiv, "", buf, sizeof(buf)) == 1,
	   "time stable, allocations improved: they disagree");
	is_str(buf,
	       "time stable +2.9%, allocations -50% (improved): fewer "
	       "allocations in the same time",
	       "fewer allocations in the same time");
	ok(prof_channels_time_memory(&fv, &awv, "", buf, sizeof(buf)) == 1,
	   "time improved, allocations warning: they disagree");
	is_str(buf,
	       "time improved 50%, allocations +50% (warning): faster but "
	       "with more allocations: time bought with allocations",
	       "time bought with allocations");
	ok(prof_channels_time_memory(&wv, &biv, "", buf, sizeof(buf)) == 1,
	   "time warning, bytes allocated improved: they disagree");
	is_str(buf,
	       "time warning +30.0%, bytes allocated -50% (improved): fewer "
	       "bytes allocated but slower: allocated bytes bought with time",
	       "fewer bytes allocated but slower");
	json_object_put(aw);
	json_object_put(ai);
	json_object_put(bi);
	json_object_put(w);
	json_object_put(t);
	json_object_put(m);
	json_object_put(s);
	json_object_put(f);
}

int
main(void)
{
	plan(66);
	test_disagree();
	test_exact();
	test_rss();
	test_determinism();
	test_grouping();
	return done();
}
