/* lib-verdict-own.c: the time threshold as a setting (a row's own, the
 * samples', prof-diff's), the symmetric rule, unsettled as a status, and
 * rows judged on the code's own time (wall minus run-queue delay), on
 * hand-made samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "cmpdoc.h"
#include "verdict/verdict.h"
#include "model/contend.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A diagnostic line (TAP comment). */
#define diag(...) (printf("# "), printf(__VA_ARGS__), printf("\n"))

static int
like(const char *got, const char *part, const char *name)
{
	int c = got && strstr(got, part);

	if (!ok(c, name))
		fprintf(stderr, "#   got '%s'\n#  want '...%s...'\n",
			got ? got : "(null)", part);
	return c;
}

/* A matched CPU row "w", floor 0.5 ms, threshold pct (0: the default of
 * its path), no samples yet. */
static void
row_blank(struct prof_cmp_row *r, double pct)
{
	memset(r, 0, sizeof(*r));
	r->workload = "w";
	r->backend = "cpu";
	r->segment = "{}";
	r->warning_floor_ms = 0.5;
	r->threshold_pct = pct;
	r->cur.version = r->base.version = 1;
	r->cur.fixture_checksum = r->base.fixture_checksum = "s";
	r->matched = 1;
}

/* An interleaved plan of first, up to max, n rounds. */
static void
row_ab(struct prof_cmp_row *r, long first, long max, size_t n)
{
	r->cur.ab_first = r->base.ab_first = first;
	r->cur.ab_max = r->base.ab_max = max;
	r->cur.ab_rounds = r->base.ab_rounds = (long)n;
}

static void
row_free(struct prof_cmp_row *r)
{
	free(r->cur.v);
	free(r->cur.cont);
	free(r->cur.cpu);
	free(r->cur.own);
	free(r->base.v);
	free(r->base.cont);
	free(r->base.cpu);
	free(r->base.own);
}

/* Judge r: its status; its reason into why[wn]. r is freed. */
static const char *
status(struct prof_cmp_row *r, char *why, size_t wn)
{
	const char *st = prof_cmp_judge(r) < 0 ?
				 "failed" :
				 prof_cmp_status_name(r->status);

	snprintf(why, wn, "%s", r->reason);
	row_free(r);
	return st;
}

/* n calls a side of a workload of base_ms, the current side scale times
 * it, a little spread (0.4% apart, the same pattern on both sides). */
static void
fill(struct prof_cmp_row *r, double base_ms, double scale, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double k = 1 + 0.002 * (double)(i % 5) - 0.004;

		prof_cmp_side_add(&r->cur, base_ms * scale * k);
		prof_cmp_side_add(&r->base, base_ms * k);
	}
}

static void
test_threshold(void)
{
	struct prof_cmp_row r;
	char why[512];

	/* 10% slower, tight: a warning at 5%, stable at 20% (against a
	 * baseline, the seed's default). */
	row_blank(&r, 5);
	fill(&r, 30, 1.10, 10);
	is_str(status(&r, why, sizeof(why)), "warning",
	       "10% slower against a baseline, threshold 5%: warning");
	like(why, "more than the 5% threshold", "the reason names it");
	row_blank(&r, 0);
	fill(&r, 30, 1.10, 10);
	is_str(status(&r, why, sizeof(why)), "stable",
	       "the same at the default: stable");
	like(why, "within the 20% threshold", "the default against a "
						"baseline is 20%");
	/* The mirror, with the same percentage in words: baseline /
	 * current = 1.09 is 9% faster. */
	row_blank(&r, 5);
	fill(&r, 30, 1 / 1.09, 10);
	is_str(status(&r, why, sizeof(why)), "improved",
	       "9% faster (baseline / current 1.09), threshold 5%: improved");
	like(why, "median 9.0% faster", "9% faster in words");
	row_blank(&r, 10);
	fill(&r, 30, 1 / 1.09, 10);
	is_str(status(&r, why, sizeof(why)), "stable",
	       "9% faster, threshold 10%: stable");
	like(why, "median 9.0% faster (-2.477 ms), within the 10% threshold",
	     "within the same 10% both ways");
	/* Interleaved: the looks settle by the row's threshold too. */
	row_blank(&r, 5);
	fill(&r, 30, 1.10, 20);
	row_ab(&r, 10, 40, 20);
	is_str(status(&r, why, sizeof(why)), "warning",
	       "interleaved, 10% slower, threshold 5%: warning");
	like(why, "more than the 5% threshold", "by the row's threshold");
	row_blank(&r, 0);
	fill(&r, 30, 1.02, 20);
	row_ab(&r, 10, 40, 20);
	is_str(status(&r, why, sizeof(why)), "stable",
	       "interleaved, 2% slower, the A/B default: stable");
	is_num(PROF_CMP_AB_THRESHOLD, r.threshold_pct, 0,
	       "an interleaved row without one takes the A/B default");
	like(why, "settled", "settled within it");
}

/* The looks' band: settled when the interval lies wholly beyond or
 * wholly within the threshold. */
static void
test_band(void)
{
	double cur[20], base[20];
	struct prof_cmp_calls c = {cur, NULL, NULL, NULL};
	struct prof_cmp_calls b = {base, NULL, NULL, NULL};
	struct prof_cmp_seq q;
	struct prof_cmp_look l;
	size_t i;

	for (i = 0; i < 20; i++) {
		base[i] = 20 * (1 + 0.001 * (double)(i % 7));
		cur[i] = base[i] * 1.03 * (1 + 0.001 * (double)(i % 3));
	}
	prof_cmp_seq_init(&q, 10, 40);
	prof_cmp_seq_threshold(&q, 5);
	prof_cmp_seq_look(&q, &c, &b, 20, 0.01, &l);
	ok(l.state == PROF_CMP_LOOK_WITHIN,
	   "3% slower, tight, threshold 5%: wholly within");
	prof_cmp_seq_threshold(&q, 2);
	prof_cmp_seq_look(&q, &c, &b, 20, 0.01, &l);
	ok(l.state == PROF_CMP_LOOK_SLOWER,
	   "the same, threshold 2%: wholly beyond");
	prof_cmp_seq_threshold(&q, 3.1);
	prof_cmp_seq_look(&q, &c, &b, 20, 0.01, &l);
	ok(l.state == PROF_CMP_LOOK_OPEN,
	   "the same, threshold 3.1%: the interval holds 1.031, not settled");
	diag("ratio %.4f to %.4f", l.lo, l.hi);
	prof_cmp_seq_threshold(&q, 0);
	is_num(q.band, 1 + PROF_CMP_AB_THRESHOLD / 100, 1e-12,
	       "a threshold of 0 is none: the A/B default");
}

/*
 * The sleeping regression: wall time 5 times longer, the CPU time
 * the same, one involuntary switch a call (contended, and so marked
 * queued by the old rule's guess), but almost no run-queue delay: the
 * wait is the code's own sleep. delay: whether the samples say their
 * delay; ab: an interleaved row.
 */
static const char *
sleeper(int delay, int ab, char *why, size_t wn)
{
	struct prof_cmp_row r;
	size_t i;

	row_blank(&r, 20);
	for (i = 0; i < 10; i++) {
		double k = 1 + 0.003 * (double)(i % 4);
		double cw = 50 * k, bw = 10 * k;

		prof_cmp_side_add_timed(&r.cur, cw, PROF_CONTEND_QUEUED,
					2 * k, delay ? cw - 0.02 : NAN);
		prof_cmp_side_add_timed(&r.base, bw, 0, 2 * k,
					delay ? bw - 0.01 : NAN);
	}
	if (ab)
		row_ab(&r, 10, 10, 10);
	return status(&r, why, wn);
}

/*
 * Calls that waited for a core: the current side's wall time +80%, all
 * of it run-queue delay; the code's own time the same on both sides.
 */
static const char *
queued(int ab, double own_scale, char *why, size_t wn)
{
	struct prof_cmp_row r;
	size_t i;

	row_blank(&r, 20);
	for (i = 0; i < 10; i++) {
		double k = 1 + 0.003 * (double)(i % 4);
		double own = 20 * k;

		prof_cmp_side_add_timed(&r.cur, own * own_scale + 16,
					PROF_CONTEND_QUEUED, own * own_scale,
					own * own_scale);
		prof_cmp_side_add_timed(&r.base, own + 0.1 * k, 0, own, own);
	}
	if (ab)
		row_ab(&r, 10, 10, 10);
	return status(&r, why, wn);
}

static void
test_own(void)
{
	char why[512];

	is_str(sleeper(0, 0, why, sizeof(why)), "unsettled",
	       "the sleeping regression, no delay known (today's guess): "
	       "unsettled, never stable");
	diag("%s", why);
	is_str(sleeper(1, 0, why, sizeof(why)), "warning",
	       "the sleeping regression with its delay measured: warning "
	       "(the sleep is the code's)");
	diag("%s", why);
	ok(!strstr(why, "own time ("),
	   "the queue took nothing worth a word: no own-time note");
	is_str(sleeper(1, 1, why, sizeof(why)), "warning",
	       "the same, interleaved: warning");
	diag("%s", why);
	is_str(queued(0, 1, why, sizeof(why)), "stable",
	       "+80% wall time, all of it the queue: stable on own time");
	diag("%s", why);
	like(why, "own time (the queue took 44.",
	     "the reason says which time was judged and how much the queue "
	     "took");
	like(why, "of the current calls' wall time, 0.5% of the baseline's)",
	     "on both sides");
	is_str(queued(1, 1, why, sizeof(why)), "stable",
	       "the same, interleaved: stable");
	diag("%s", why);
	is_str(queued(0, 1.3, why, sizeof(why)), "warning",
	       "own time +30% under the same queue: warning");
	diag("%s", why);
	is_str(queued(1, 1.3, why, sizeof(why)), "warning",
	       "the same, interleaved: warning");
	diag("%s", why);
}

/* A timing sample of workload w, index i, duration ms, and optionally a
 * run-queue delay (NAN: none) and a threshold (0: none). */
static struct json_object *
sample(const char *w, long i, double ms, double delay, double pct)
{
	struct json_object *s = json_object_new_object();

	json_object_object_add(s, "workload", json_object_new_string(w));
	json_object_object_add(s, "workload_version", json_object_new_int(1));
	json_object_object_add(s, "fixture_checksum",
			       json_object_new_string("f"));
	json_object_object_add(s, "warning_floor_ms",
			       json_object_new_double(0.5));
	json_object_object_add(s, "backend", json_object_new_string("cpu"));
	json_object_object_add(s, "segment", json_object_new_string("{}"));
	json_object_object_add(s, "phase", json_object_new_string("timing"));
	json_object_object_add(s, "kind", json_object_new_string("warm"));
	json_object_object_add(s, "index", json_object_new_int64(i));
	json_object_object_add(s, "outcome",
			       json_object_new_string("success"));
	json_object_object_add(s, "duration_ms", json_object_new_double(ms));
	if (isfinite(delay))
		json_object_object_add(s, "run_delay_ms",
				       json_object_new_double(delay));
	if (pct > 0)
		json_object_object_add(s, "time_threshold_pct",
				       json_object_new_double(pct));
	return s;
}

/* A results document of 8 samples of w, ms * (1 + small), each with
 * delay and pct. */
static struct json_object *
doc(const char *w, double ms, double delay, double pct)
{
	struct json_object *d = json_object_new_object();
	struct json_object *a = json_object_new_array();
	long i;

	json_object_object_add(d, "run_id", json_object_new_string("r"));
	for (i = 0; i < 8; i++)
		json_object_array_add(
			a, sample(w, i, ms * (1 + 0.001 * (double)i), delay,
				  pct));
	json_object_object_add(d, "samples", a);
	return d;
}

/* The comparison of one row of cur against base, prof-diff's
 * --time-threshold over (0: none). */
static struct json_object *
compare_docs(struct json_object *cur, struct json_object *base,
	     double override)
{
	struct prof_cmp c;
	struct prof_err err = {0};
	struct json_object *o = NULL;

	if (cmpdoc_group(&c, cur, &err) == 0) {
		c.time_threshold_pct = override;
		if (cmpdoc_judge(&c, base, "b", &err) == 0 && c.n == 1)
			o = prof_cmp_row_json(&c, 0);
	}
	prof_cmp_free(&c);
	return o;
}

static void
test_fields(void)
{
	struct json_object *base = doc("w", 30, 0.01, 0);
	struct json_object *cur = doc("w", 33, 0.01, 5);
	struct json_object *plain = doc("w", 33, NAN, 0);
	struct json_object *o;

	o = compare_docs(cur, base, 0);
	is_str(prof_json_str(o, "status"), "warning",
	       "10% slower, the samples record 5%: a warning unasked");
	is_num(prof_json_numf(o, "threshold_pct"), 5, 0,
	       "threshold_pct 5 in the comparison");
	is_str(prof_json_str(o, "judged_on"), "own_ms",
	       "judged on own time: every call said its delay");
	ok(prof_json_get(o, "queue_pct") &&
		   prof_json_numf(prof_json_get(o, "queue_pct"), "current") <
			   0.1,
	   "queue_pct: the queue's share of each side");
	json_object_put(o);
	o = compare_docs(cur, base, 20);
	is_str(prof_json_str(o, "status"), "stable",
	       "prof-diff --time-threshold 20 overrides the samples' 5");
	is_num(prof_json_numf(o, "threshold_pct"), 20, 0, "threshold_pct 20");
	json_object_put(o);
	o = compare_docs(plain, base, 0);
	is_num(prof_json_numf(o, "threshold_pct"), PROF_CMP_TIME_THRESHOLD, 0,
	       "none recorded: the baseline default, 20");
	is_str(prof_json_str(o, "judged_on"), "duration_ms",
	       "a side without delays: judged on wall time");
	json_object_put(o);
	o = compare_docs(plain, base, 5);
	is_str(prof_json_str(o, "status"), "warning",
	       "the same samples under --time-threshold 5: warning");
	json_object_put(o);
	/* Threads queued side by side (a client and its server): each
	 * call's delay above its wall time leaves no own time, so the row
	 * is judged on wall time, never on own times of 0 ("baseline 0 ms
	 * cannot be judged": incomparable). */
	json_object_put(base);
	json_object_put(cur);
	base = doc("w", 30, 40, 5);
	cur = doc("w", 30, 40, 5);
	o = compare_docs(cur, base, 0);
	is_str(prof_json_str(o, "judged_on"), "duration_ms",
	       "delays above the wall time: judged on wall time");
	ok(o && strcmp(prof_json_str(o, "status"), "incomparable"),
	   "and the row is judged, not incomparable");
	json_object_put(o);
	json_object_put(base);
	json_object_put(cur);
	json_object_put(plain);
}

static void
test_status(void)
{
	is_str(prof_cmp_status_name(PROF_CMP_UNSETTLED), "unsettled",
	       "unsettled has its own name");
	ok(prof_cmp_status_known("unsettled") &&
		   prof_cmp_status_known("stable") &&
		   !prof_cmp_status_known("settled"),
	   "and readers know it");
}

int
main(void)
{
	plan(13 + 4 + 10 + 11 + 2);
	test_threshold();
	test_band();
	test_own();
	test_fields();
	test_status();
	return done();
}
