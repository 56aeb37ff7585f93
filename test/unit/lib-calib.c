/* lib-calib.c: the machine-drift guard: the kernel's record, the checks of
 * records and of a results file's calibration, the summary and the drift
 * notes (calib.h). No time is asserted, only the shape of what is made. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/calib.h"
#include "tap.h"

static char ebuf[1024];

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

/* prof_calib_take() of a record given as text: "(taken)" or the error. */
static const char *
take(struct json_object *acc, const char *text)
{
	struct json_object *r = parse(text);
	struct prof_err e = {0};

	if (prof_calib_take(acc, r, &e) == 0)
		snprintf(ebuf, sizeof(ebuf), "(taken)");
	else
		prof_err_str(&e, ebuf, sizeof(ebuf));
	json_object_put(r);
	return ebuf;
}

/* prof_calib_check() of a results document given as text. */
static const char *
check(const char *text)
{
	struct json_object *r = parse(text);
	struct prof_err e = {0};

	if (prof_calib_check(r, &e) == 0)
		snprintf(ebuf, sizeof(ebuf), "(valid)");
	else
		prof_err_str(&e, ebuf, sizeof(ebuf));
	json_object_put(r);
	return ebuf;
}

static double
num(struct json_object *o, const char *key)
{
	struct json_object *v = json_object_object_get(o, key);

	return v ? prof_json_number(v) : NAN;
}

/* A calibration object of the kernel (or another) with this median. */
static void
calibration(char *buf, size_t n, const char *kernel, double median,
	    double spread)
{
	snprintf(buf, n,
		 "{\"kernel\": \"%s\", \"points\": [{\"at\": \"start\", "
		 "\"int_ms\": 1, \"mem_ms\": 1, \"ms\": 2}], \"n\": 1, "
		 "\"min_ms\": %g, \"median_ms\": %g, \"max_ms\": %g, "
		 "\"spread_pct\": %g, \"machine\": null}",
		 kernel, median, median, median, spread);
}

/* A results (or baseline) document of one run id with one calibration. */
static struct json_object *
doc(const char *run_id, const char *kernel, double median, double spread)
{
	char cal[512], text[768];

	calibration(cal, sizeof(cal), kernel, median, spread);
	snprintf(text, sizeof(text),
		 "{\"run_id\": \"%s\", \"calibration\": %s}", run_id, cal);
	return parse(text);
}

static void
test_records(void)
{
	struct prof_calib c = {0};
	struct prof_calib_machine m;
	struct json_object *acc = json_object_new_array(), *r, *o;
	struct prof_err e = {0};

	r = parse("{\"record\": \"calibration\"}");
	ok(prof_calib_is_record(r), "a calibration line is a record");
	json_object_put(r);
	r = parse("{\"record\": \"machine\"}");
	ok(prof_calib_is_record(r), "so is a machine line");
	json_object_put(r);
	r = parse("{\"record\": \"context\"}");
	ok(!prof_calib_is_record(r), "a schema-2 context line is not ours");
	json_object_put(r);
	r = parse("{\"workload\": \"w\"}");
	ok(!prof_calib_is_record(r), "nor is a sample");
	json_object_put(r);

	ok(prof_calib_measure(&c, "start") == NULL,
	   "a kernel not made ready measures nothing");
	ok(prof_calib_init(&c, &e) == 0, "init");
	o = prof_calib_measure(&c, "between");
	ok(o && !strcmp(prof_json_str(o, "record"), "calibration") &&
	       !strcmp(prof_json_str(o, "kernel"), PROF_CALIB_KERNEL) &&
	       !strcmp(prof_json_str(o, "at"), "between"),
	   "a measurement is a calibration record of the kernel, at its place");
	ok(o && num(o, "int_ms") > 0 && num(o, "mem_ms") > 0 &&
	       fabs(num(o, "ms") - num(o, "int_ms") - num(o, "mem_ms")) <= 2e-6,
	   "ms is int_ms + mem_ms (to the microsecond it is rounded to)");
	is_int(o ? prof_calib_take(acc, o, &e) : -1, 0,
	       "and passes its own check");
	json_object_put(o);
	prof_calib_free(&c);
	ok(prof_calib_measure(&c, "end") == NULL, "free makes it not ready");

	prof_calib_machine_start(&m);
	o = prof_calib_machine_json(&m);
	ok(o && !strcmp(prof_json_str(o, "record"), "machine") &&
	       json_object_object_get_ex(o, "load_avg", NULL) &&
	       json_object_object_get_ex(o, "steal_pct", NULL) &&
	       json_object_object_get_ex(o, "governor", NULL) &&
	       json_object_object_get_ex(o, "aslr", NULL),
	   "the machine record has load_avg, steal_pct, governor and aslr");
	is_int(o ? prof_calib_take(acc, o, &e) : -1, 0,
	       "and passes its own check");
	json_object_put(o);
	is_int((long long)json_object_array_length(acc), 2,
	       "each record taken is appended");
	json_object_put(acc);
}

static void
test_take(void)
{
	struct json_object *acc = json_object_new_array();

	is_str(take(acc, "{\"record\": \"calibration\", \"kernel\": \"k\", "
			 "\"at\": \"start\", \"int_ms\": 2, \"mem_ms\": 3, "
			 "\"ms\": 5}"),
	       "(taken)", "a good point is taken");
	is_str(take(acc, "{\"record\": \"calibration\", \"at\": \"start\", "
			 "\"int_ms\": 2, \"mem_ms\": 3, \"ms\": 5}"),
	       ".kernel: missing", "a point names its kernel");
	is_str(take(acc, "{\"record\": \"calibration\", \"kernel\": \"k\", "
			 "\"at\": \"start\", \"int_ms\": \"2\", \"mem_ms\": 3, "
			 "\"ms\": 5}"),
	       ".int_ms: expected a number, got a string",
	       "a time is a number");
	is_str(take(acc, "{\"record\": \"calibration\", \"kernel\": \"k\", "
			 "\"at\": \"start\", \"int_ms\": 2, \"mem_ms\": -3, "
			 "\"ms\": 5}"),
	       ".mem_ms: expected a number >= 0", "and not negative");
	is_str(take(acc, "{\"record\": \"calibration\", \"kernel\": \"k\", "
			 "\"at\": \"start\", \"int_ms\": 2, \"mem_ms\": 3, "
			 "\"ms\": 1e9}"),
	       ".ms: 1e+09 ms is not a plausible time of the calibration "
	       "kernel (expected from 0.001 to 60000 ms)",
	       "and plausible");
	is_str(take(acc, "{\"record\": \"machine\", \"load_avg\": [1, \"x\"], "
			 "\"steal_pct\": 0, \"governor\": null, \"aslr\": 2}"),
	       ".load_avg: expected numbers, got a string",
	       "a load average is numbers");
	is_str(take(acc, "{\"record\": \"machine\", \"load_avg\": null, "
			 "\"steal_pct\": 150, \"governor\": null, "
			 "\"aslr\": 2}"),
	       ".steal_pct: 150% is not a plausible steal (expected from 0 "
	       "to 100%)",
	       "a steal is a share of time");
	is_str(take(acc, "{\"record\": \"machine\", \"load_avg\": null, "
			 "\"steal_pct\": null, \"governor\": null}"),
	       ".aslr: missing", "every machine field is there, null or not");
	is_str(take(acc, "{\"record\": \"machine\", \"load_avg\": null, "
			 "\"steal_pct\": null, \"governor\": null, "
			 "\"aslr\": 1.5}"),
	       ".aslr: expected an integer or null, got a number",
	       "aslr is an integer");
	is_int((long long)json_object_array_length(acc), 1,
	       "a bad record is not appended");
	json_object_put(acc);
}

static void
test_summary(void)
{
	static const char *const recs[] = {
	    "{\"record\": \"calibration\", \"kernel\": \"k\", \"at\": "
	    "\"start\", \"int_ms\": 2, \"mem_ms\": 2, \"ms\": 4}",
	    "{\"record\": \"machine\", \"load_avg\": [0.5, 0.4, 0.3], "
	    "\"steal_pct\": 1, \"governor\": \"performance\", \"aslr\": 2}",
	    "{\"record\": \"calibration\", \"kernel\": \"k\", \"at\": "
	    "\"between\", \"int_ms\": 3, \"mem_ms\": 3, \"ms\": 6}",
	    "{\"record\": \"calibration\", \"kernel\": \"other\", \"at\": "
	    "\"between\", \"int_ms\": 50, \"mem_ms\": 50, \"ms\": 100}",
	    "{\"record\": \"machine\", \"load_avg\": [9, 9, 9], "
	    "\"steal_pct\": 3, \"governor\": \"powersave\", \"aslr\": 0}",
	    "{\"record\": \"calibration\", \"kernel\": \"k\", \"at\": "
	    "\"end\", \"int_ms\": 2.5, \"mem_ms\": 2.5, \"ms\": 5}",
	};
	struct json_object *acc = json_object_new_array(), *s, *m, *r;
	struct prof_err e = {0};
	size_t i;

	ok(prof_calib_summary(acc) == NULL, "no point, no summary");
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		r = parse(recs[i]);
		prof_calib_take(acc, r, &e);
		json_object_put(r);
	}
	s = prof_calib_summary(acc);
	ok(s != NULL, "a summary of the points");
	if (!s) {
		json_object_put(acc);
		return;
	}
	is_str(prof_json_str(s, "kernel"), "k", "of the first point's kernel");
	is_int(json_object_get_int(json_object_object_get(s, "n")), 3,
	       "another kernel's point is not counted in");
	is_int((long long)json_object_array_length(
		   json_object_object_get(s, "points")),
	       3, "each point kept, in order");
	is_str(prof_json_str(json_object_array_get_idx(
				 json_object_object_get(s, "points"), 2),
			     "at"),
	       "end", "with its place");
	ok(num(s, "min_ms") == 4 && num(s, "median_ms") == 5 &&
	       num(s, "max_ms") == 6,
	   "min, median and max of ms");
	is_num(num(s, "spread_pct"), 40, 1e-9,
	       "spread = (max - min) / median x 100");
	m = json_object_object_get(s, "machine");
	ok(m && !json_object_object_get_ex(m, "record", NULL) &&
	       !strcmp(prof_json_str(m, "governor"), "performance") &&
	       prof_json_number(json_object_array_get_idx(
		   json_object_object_get(m, "load_avg"), 0)) == 0.5,
	   "the machine: the first record's state, without its record key");
	is_num(num(m, "steal_pct"), 3, 0, "and the largest steal");
	r = json_object_new_object();
	json_object_object_add(r, "calibration", json_object_get(s));
	is_str(check(json_object_to_json_string(r)), "(valid)",
	       "a summary passes the results' check");
	json_object_put(r);
	json_object_put(s);
	json_object_put(acc);

	acc = json_object_new_array();
	r = parse(recs[0]);
	prof_calib_take(acc, r, &e);
	json_object_put(r);
	r = parse(recs[2]);
	prof_calib_take(acc, r, &e);
	json_object_put(r);
	s = prof_calib_summary(acc);
	is_num(s ? num(s, "median_ms") : NAN, 5, 0,
	       "an even count's median is the mean of the middle two");
	ok(s && json_object_object_get(s, "machine") == NULL,
	   "no machine record: machine null");
	json_object_put(s);
	json_object_put(acc);
}

static void
test_check(void)
{
	char cal[512], text[1200];

	is_str(check("{}"), "(valid)", "no calibration is fine");
	is_str(check("{\"calibration\": null}"), "(valid)", "nor is null");
	is_str(check("{\"calibration\": 3}"),
	       ".calibration: expected an object or null, got a number",
	       "a calibration is an object");
	is_str(check("{\"calibration\": {\"kernel\": \"k\", \"points\": [], "
		     "\"min_ms\": 1, \"median_ms\": \"2\", \"max_ms\": 3, "
		     "\"spread_pct\": 0}}"),
	       ".calibration.median_ms: expected a number, got a string",
	       "its numbers are numbers, by path");
	is_str(check("{\"calibration\": {\"kernel\": \"k\", \"points\": [], "
		     "\"min_ms\": 1, \"median_ms\": 2, \"max_ms\": 3, "
		     "\"spread_pct\": 2e6}}"),
	       ".calibration.spread_pct: 2e+06% is not a plausible spread "
	       "(expected from 0 to 1e+06%)",
	       "a spread within bounds");
	is_str(check("{\"calibration\": {\"kernel\": \"k\", \"points\": {}, "
		     "\"min_ms\": 1, \"median_ms\": 2, \"max_ms\": 3, "
		     "\"spread_pct\": 0}}"),
	       ".calibration.points: expected an array, got an object",
	       "points are an array");
	is_str(check("{\"calibration\": {\"kernel\": \"k\", \"points\": "
		     "[{\"at\": \"start\", \"int_ms\": 1, \"mem_ms\": 1}], "
		     "\"min_ms\": 1, \"median_ms\": 2, \"max_ms\": 3, "
		     "\"spread_pct\": 0}}"),
	       ".calibration.points[0].ms: missing",
	       "each point is checked, by index");
	calibration(cal, sizeof(cal), "k", 5, 0);
	snprintf(text, sizeof(text),
		 "{\"shard_calibrations\": {\"1/2\": %s, \"2/2\": "
		 "{\"kernel\": 7}}}",
		 cal);
	is_str(check(text),
	       ".shard_calibrations.2/2.kernel: expected a string, got a "
	       "number",
	       "a shard's calibration is checked under its shard");
	is_str(check("{\"shard_calibrations\": []}"),
	       ".shard_calibrations: expected an object or null, got an array",
	       "shard_calibrations is an object");
}

static void
test_drift(void)
{
	struct json_object *base = doc("b", "k", 5, 2), *cur;
	struct prof_calib_drift d;
	char cal[512], text[2048];

	cur = doc("c", "k", 5.4, 2);
	prof_calib_drift(cur, base, &d);
	ok(!d.drift && fabs(d.ratio - 1.08) < 1e-12 && d.note[0] == '\0',
	   "8% slower is within the 10%: no note, the ratio kept");
	json_object_put(cur);

	cur = doc("c", "k", 6, 2);
	prof_calib_drift(cur, base, &d);
	is_str(d.note,
	       "machine 20% slower than when the baseline was taken: timing "
	       "warnings may be noise; instruction counts and `make "
	       "compare` are not affected",
	       "20% slower: a note");
	ok(d.drift && d.spread_pct == 2, "drift, and the current spread kept");
	json_object_put(cur);

	cur = doc("c", "k", 4, 2);
	prof_calib_drift(cur, base, &d);
	ok(d.drift && strstr(d.note, "machine 20% faster than") == d.note,
	   "20% faster: a note too");
	json_object_put(cur);

	cur = doc("c", "k", 5, 25);
	prof_calib_drift(cur, base, &d);
	ok(d.drift && strstr(d.note, "machine unsteady during this run "
				     "(calibration spread 25%): ") == d.note,
	   "a spread above 10%: unsteady, whatever the baseline");
	json_object_put(cur);

	cur = doc("c", "k", 7, 25);
	prof_calib_drift(cur, base, &d);
	ok(d.drift && strstr(d.note, "machine 40% slower than when the "
				     "baseline was taken and machine "
				     "unsteady") == d.note,
	   "both, in one note");
	json_object_put(cur);

	cur = doc("c", "other", 9, 2);
	prof_calib_drift(cur, base, &d);
	ok(!d.drift && isnan(d.ratio),
	   "another kernel is not compared: ratio unknown");
	json_object_put(cur);

	cur = doc("b", "k", 9, 2);
	prof_calib_drift(cur, base, &d);
	ok(!d.drift && isnan(d.ratio) && isnan(d.spread_pct),
	   "the baseline's own run (make compare's reference) never drifts");
	json_object_put(cur);

	cur = parse("{\"run_id\": \"c\"}");
	prof_calib_drift(cur, base, &d);
	ok(!d.drift && isnan(d.ratio), "no calibration: nothing to say");
	prof_calib_drift(base, NULL, &d);
	ok(!d.drift && isnan(d.ratio) && d.spread_pct == 2,
	   "no baseline: only the run's own spread is judged");
	json_object_put(cur);

	/* A merge of shards: each shard against the baseline. */
	{
		char a[512], b[512];
		struct json_object *notes;

		calibration(a, sizeof(a), "k", 5.2, 2);
		calibration(b, sizeof(b), "k", 7, 2);
		snprintf(text, sizeof(text),
			 "{\"run_id\": \"c\", \"shard_calibrations\": "
			 "{\"1/2\": %s, \"2/2\": %s, \"3/3\": null}}",
			 a, b);
		cur = parse(text);
		notes = prof_calib_drift_shards(cur, base);
		is_int(notes ? json_object_object_length(notes) : -1, 1,
		       "shards: only the one that drifts has a note");
		ok(notes && prof_json_str(notes, "2/2") &&
		       strstr(prof_json_str(notes, "2/2"),
			      "shard 2/2: machine 40% slower than") ==
			   prof_json_str(notes, "2/2"),
		   "named by its shard");
		json_object_put(notes);

		/* The baseline a merge of shards too: the median of its
		 * shards' medians (5.2, 6, 7: 6) is the reference. */
		calibration(cal, sizeof(cal), "k", 6, 2);
		snprintf(text, sizeof(text),
			 "{\"run_id\": \"b2\", \"shard_calibrations\": "
			 "{\"1/3\": %s, \"2/3\": %s, \"3/3\": %s}}",
			 a, cal, b);
		json_object_put(base);
		base = parse(text);
		json_object_put(cur);
		cur = doc("c", "k", 6.3, 2);
		prof_calib_drift(cur, base, &d);
		is_num(
		    d.ratio, 6.3 / 6, 1e-12,
		    "a baseline of shards: the median of its shards' medians");
		notes = prof_calib_drift_shards(cur, base);
		is_int(notes ? json_object_object_length(notes) : -1, 0,
		       "a run that is no merge of shards: no shard notes");
		json_object_put(notes);
		json_object_put(cur);
	}
	json_object_put(base);
}

#define MACHINE "{\"record\": \"machine\", \"load_avg\": null, " \
		"\"steal_pct\": null, \"governor\": null, \"aslr\": 2"

/* The CPU pressure of the machine record (calib.h), read from a made-up
 * /proc (PROF_PROC_ROOT, contend.h), and its checks. */
static void
test_pressure(void)
{
	char root[] = "/tmp/lib-calib.XXXXXX", path[300];
	struct prof_calib_machine m;
	struct json_object *o, *p, *acc = json_object_new_array();
	struct prof_err e = {0};
	FILE *fp;

	if (!mkdtemp(root))
		exit(1);
	setenv("PROF_PROC_ROOT", root, 1);
	prof_calib_machine_start(&m);
	o = prof_calib_machine_json(&m);
	ok(o && json_object_object_get_ex(o, "cpu_pressure", &p) && !p,
	   "no /proc/pressure/cpu: cpu_pressure null");
	json_object_put(o);
	snprintf(path, sizeof(path), "%s/pressure", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/pressure/cpu", root);
	fp = fopen(path, "w");
	fputs("some avg10=2.50 avg60=1.00 avg300=0.50 total=1000000\n"
	      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	      fp);
	fclose(fp);
	prof_calib_machine_start(&m);
	o = prof_calib_machine_json(&m);
	p = o ? json_object_object_get(o, "cpu_pressure") : NULL;
	ok(p && num(json_object_object_get(p, "start"), "some_avg10") == 2.5 &&
		   num(json_object_object_get(p, "end"), "some_total_us") ==
			   1000000 &&
		   num(p, "some_pct") == 0,
	   "the pressure at start and end (avg10, total) and over the run");
	is_int(o ? prof_calib_take(acc, o, &e) : -1, 0,
	       "the record with it is taken");
	json_object_put(o);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pressure", root);
	rmdir(path);
	rmdir(root);
	unsetenv("PROF_PROC_ROOT");
	is_str(take(acc, MACHINE ", \"cpu_pressure\": null}"), "(taken)",
	       "cpu_pressure null is taken");
	is_str(take(acc, MACHINE ", \"cpu_pressure\": 3}"),
	       ".cpu_pressure: expected an object or null, got a number",
	       "cpu_pressure is an object");
	is_str(take(acc, MACHINE ", \"cpu_pressure\": {\"start\": "
			 "{\"some_avg10\": 1, \"some_total_us\": 5}}}"),
	       ".cpu_pressure.end: missing", "with a start and an end");
	is_str(take(acc, MACHINE ", \"cpu_pressure\": {\"start\": "
			 "{\"some_avg10\": 101, \"some_total_us\": 5}, "
			 "\"end\": {\"some_avg10\": 1, "
			 "\"some_total_us\": 5}, \"some_pct\": 0}}"),
	       ".cpu_pressure.start.some_avg10: 101% is above 100%",
	       "a share is at most 100%");
	is_str(take(acc, MACHINE ", \"cpu_pressure\": {\"start\": "
			 "{\"some_avg10\": 1, \"some_total_us\": -5}, "
			 "\"end\": {\"some_avg10\": 1, "
			 "\"some_total_us\": 5}, \"some_pct\": 0}}"),
	       ".cpu_pressure.start.some_total_us: expected an integer >= 0",
	       "a total is a whole number of microseconds");
	json_object_put(acc);
}

int
main(void)
{
	plan(67);
	test_records();
	test_take();
	test_summary();
	test_check();
	test_drift();
	test_pressure();
	return done();
}
