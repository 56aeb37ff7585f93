/* lib-segcal.c: a fleet baseline's calibration, one per segment
 * (segcal.h): the check of segment_calibrations, by path, and the
 * baseline as the drift guard sees it for a run of one segment. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/segcal.h"
#include "tap.h"

static char ebuf[1024];

/* A calibration of kernel k whose times are all ms, as JSON text (one of
 * four kept at a time). */
static const char *
cal(const char *k, int ms)
{
	static char buf[4][160];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]),
		 "{\"kernel\": \"%s\", \"points\": [], \"min_ms\": %d, "
		 "\"median_ms\": %d, \"max_ms\": %d, \"spread_pct\": 0}",
		 k, ms, ms, ms);
	return buf[i];
}

static struct json_object *
parse(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	if (!o) {
		fprintf(stderr, "# bad test JSON: %s\n", text);
		exit(1);
	}
	return o;
}

/* prof_segcal_check() of a document given as text: "(valid)" or the
 * error with its path. */
static const char *
check(const char *text)
{
	struct json_object *r = parse(text);
	struct prof_err e = {0};

	if (prof_segcal_check(r, &e) == 0)
		snprintf(ebuf, sizeof(ebuf), "(valid)");
	else
		prof_err_str(&e, ebuf, sizeof(ebuf));
	json_object_put(r);
	return ebuf;
}

/* The kernel of the calibration prof_segcal_reference() gives for a run
 * whose segments are run_segs: the kernel, "null" or "(none)" (no view). */
static const char *
reference_kernel(struct json_object *base, const char *run_segs)
{
	struct json_object *rs = parse(run_segs), *bs = NULL, *view, *c;

	json_object_object_get_ex(base, "segments", &bs);
	view = prof_segcal_reference(base, bs, rs);
	json_object_put(rs);
	if (!view)
		return "(none)";
	if (!json_object_object_get_ex(view, "calibration", &c))
		snprintf(ebuf, sizeof(ebuf), "(absent)");
	else if (!c)
		snprintf(ebuf, sizeof(ebuf), "null");
	else
		snprintf(ebuf, sizeof(ebuf), "%s", prof_json_str(c, "kernel"));
	json_object_put(view);
	return ebuf;
}

static void
test_check(void)
{
	char text[512];

	is_str(check("{}"), "(valid)", "no segment_calibrations is fine");
	is_str(check("{\"segment_calibrations\": null}"), "(valid)",
	       "nor is null");
	snprintf(text, sizeof(text),
		 "{\"segment_calibrations\": {\"s1\": %s, \"s2\": null}}",
		 cal("k", 2));
	is_str(check(text), "(valid)",
	       "a calibration or null under each segment");
	is_str(check("{\"segment_calibrations\": [1]}"),
	       ".segment_calibrations: expected an object or null, got an "
	       "array",
	       "segment_calibrations is an object");
	is_str(check("{\"segment_calibrations\": {\"ab12\": {\"kernel\": "
		     "\"k\", \"points\": [], \"min_ms\": 1, \"median_ms\": "
		     "\"2\", \"max_ms\": 3, \"spread_pct\": 0}}}"),
	       ".segment_calibrations.ab12.median_ms: expected a number, got "
	       "a string",
	       "each is checked as a calibration, under its segment's path");
	is_str(check("{\"segment_calibrations\": {\"s9\": 3}}"),
	       ".segment_calibrations.s9: expected an object or null, got a "
	       "number",
	       "a calibration that is no object names its segment");
}

static void
test_reference(void)
{
	struct json_object *plain, *fleet, *view;
	char text[1200];

	/* A baseline of one machine: itself, the same object. */
	snprintf(text, sizeof(text), "{\"calibration\": %s}", cal("one", 3));
	plain = parse(text);
	view = prof_segcal_reference(plain, NULL, NULL);
	ok(view == plain, "a baseline without segment_calibrations is itself");
	json_object_put(view);
	json_object_put(plain);
	ok(prof_segcal_reference(NULL, NULL, NULL) == NULL,
	   "no baseline, no view");

	/* A fleet's: segments b1 (key A) and b2 (key B), each calibrated. */
	snprintf(text, sizeof(text),
		 "{\"segments\": {\"b1\": \"A\", \"b2\": \"B\"}, "
		 "\"calibration\": %s, \"shard_calibrations\": {\"1/2\": %s}, "
		 "\"segment_calibrations\": {\"b1\": %s, \"b2\": %s}, "
		 "\"samples\": []}",
		 cal("last-added", 9), cal("sh", 1), cal("kA", 2),
		 cal("kB", 4));
	fleet = parse(text);
	is_str(reference_kernel(fleet, "{\"r7\": \"B\"}"), "kB",
	       "a run of segment B is judged against B's machine, never the "
	       "one added last");
	is_str(reference_kernel(fleet, "{\"r1\": \"A\"}"), "kA",
	       "and a run of A against A's");
	is_str(reference_kernel(fleet, "{\"r1\": \"Z\", \"r2\": \"B\"}"), "kB",
	       "the first of the run's segments that the baseline has");
	is_str(reference_kernel(fleet, "{\"r1\": \"Z\"}"), "null",
	       "a segment the baseline lacks: no calibration to judge by");
	view = prof_segcal_reference(fleet, NULL, NULL);
	ok(view &&
	       !json_object_object_get_ex(view, "shard_calibrations", NULL) &&
	       json_object_object_get_ex(view, "samples", NULL),
	   "the view keeps the other members, without shard_calibrations");
	json_object_put(view);
	json_object_put(fleet);
}

int
main(void)
{
	plan(13);
	test_check();
	test_reference();
	return done();
}
