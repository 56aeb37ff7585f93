/* lib-verdict-read.c: a comparison read into a typed verdict (read.h): a
 * time row of prof-diff's as it writes one, a memory row, nulls as NAN
 * and NULL, and phases, metrics and statuses prof-diff never writes. */
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "tap.h"
#include "verdict/read.h"

static const char time_row[] =
	"{\"run_id\": \"r1\", \"workload\": \"w.a\", \"backend\": \"cpu\","
	" \"category\": \"pipeline\", \"segment\": \"seg\","
	" \"phase\": \"timing\", \"threshold_pct\": 20, \"status\": "
	"\"warning\", \"reason\": \"median +30%\", \"delta_ms\": 3,"
	" \"delta_pct\": 30, \"ratio\": 1.3, \"p_value\": null,"
	" \"above_baseline_median\": 5, \"below_baseline_median\": 0,"
	" \"needed_above\": 4, \"judged_on\": \"duration_ms\","
	" \"drift\": null, \"current\": {\"n\": 5, \"min\": 12.8,"
	" \"median\": 13, \"p90\": 13.3, \"max\": 13.3,"
	" \"workload_version\": 1, \"fixture_checksum\": null,"
	" \"output_checksum\": \"ab\"}, \"baseline\": {\"n\": 0, \"min\":"
	" null, \"median\": null, \"p90\": null, \"max\": null}}";

static void
test_time(void)
{
	struct json_object *o = json_tokener_parse(time_row);
	struct prof_verdict v;

	is_int(prof_verdict_read(o, &v), 0, "a time row is read");
	is_str(v.workload, "w.a", "its workload");
	is_str(v.segment, "seg", "its segment");
	is_int(v.phase, PROF_VERDICT_TIME, "its phase");
	is_int(v.status, PROF_CMP_WARNING, "its status");
	is_str(v.status_name, "warning", "the status's words");
	is_num(v.ratio, 1.3, 1e-12, "its ratio");
	ok(isnan(v.p_value), "a null p-value is NAN");
	is_num(v.threshold_pct, 20, 0, "its threshold");
	is_int(v.above, 5, "samples above the baseline median");
	is_int(v.cur.n, 5, "the current side's n");
	is_num(v.cur.median, 13, 0, "and median");
	ok(!v.cur.fixture_checksum, "a null checksum is NULL");
	is_str(v.cur.output_checksum, "ab", "the output checksum");
	ok(v.base.n == 0 && isnan(v.base.median), "an empty baseline side");
	ok(!v.drift, "no drift note");
	json_object_put(o);
}

static void
test_memory_and_refusals(void)
{
	struct json_object *o = json_tokener_parse(
		"{\"workload\": \"w\", \"phase\": \"memory\", \"metric\":"
		" \"host_allocs\", \"status\": \"stable\", \"delta\": -2,"
		" \"floor\": 16}");
	struct prof_verdict v;

	is_int(prof_verdict_read(o, &v), 0, "a memory row is read");
	is_int(v.phase, PROF_VERDICT_MEMORY, "its phase");
	is_int(v.metric, PROF_CMP_MEM_ALLOCS, "its metric, from the table");
	is_num(v.delta, -2, 0, "its delta");
	ok(isnan(v.delta_ms) && v.above == -1, "absent numbers: NAN, -1");
	json_object_object_add(o, "metric", json_object_new_string("x"));
	is_int(prof_verdict_read(o, &v), -1, "a metric of no table row");
	json_object_object_add(o, "metric",
			       json_object_new_string("host_allocs"));
	json_object_object_add(o, "status", json_object_new_string("fine"));
	is_int(prof_verdict_read(o, &v), -1, "a status prof-diff never says");
	json_object_object_add(o, "phase", json_object_new_string("cold"));
	is_int(prof_verdict_read_key(o, &v), -1, "a phase it never writes");
	is_int(prof_verdict_read(NULL, &v), -1, "no object");
	json_object_put(o);
}

int
main(void)
{
	plan(25);
	test_time();
	test_memory_and_refusals();
	return done();
}
