/* lib-verdict-read.c: a comparison read into a typed verdict (read.h): a
 * time row of prof-diff's as it writes one, a memory row, nulls as NAN
 * and NULL, an interleaved row's facts, a time row's contention and
 * queue, a memory row's determinism and spread, prof-why's explanations
 * and allocation sites, a new row's baseline segments, and phases,
 * metrics and statuses prof-diff never writes. */
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

static const char ab_row[] =
	"{\"workload\": \"w\", \"phase\": \"timing\", \"status\": "
	"\"unsettled\", \"judged_on\": \"cpu_ms\", \"interleaved\": "
	"{\"repeat\": 10, \"max_repeat\": 40, \"samples_a_side\": 40,"
	" \"settled\": false, \"uncontended_only\": true, \"judged_on\":"
	" \"cpu_ms\", \"wall_ratio_low\": 0.9, \"wall_ratio_high\": 1.2,"
	" \"judged_current\": 38, \"judged_baseline\": 39, \"ratio_low\":"
	" null, \"ratio_high\": null, \"confidence\": 0.95},"
	" \"contended\": {\"current\": 3, \"baseline\": null},"
	" \"queue_pct\": {\"current\": 12.5, \"baseline\": null},"
	" \"time_functions\": [{\"name\": \"f\", \"file\": \"a.c\","
	" \"file_before\": null, \"state\": \"changed\", \"self_before\": 1,"
	" \"self_after\": 3, \"inclusive_before\": 2, \"inclusive_after\": 4,"
	" \"share\": 0.5, \"inclusive_share\": null}],"
	" \"time_artifacts\": {\"before\": \"b.prof\", \"after\": \"a.prof\","
	" \"listing\": null, \"unit\": \"ns per call\", \"total_before\": 10,"
	" \"total_after\": 20}, \"baseline_segments\": [\"s1\", \"s2\"],"
	" \"current\": {\"n\": 40}, \"baseline\": {\"n\": 40}}";

static const char mem_row[] =
	"{\"workload\": \"w\", \"phase\": \"memory\", \"metric\":"
	" \"host_peak_bytes\", \"unit\": \"bytes\", \"rule\": \"ratio\","
	" \"status\": \"warning\", \"deterministic\": {\"current\": false,"
	" \"baseline\": true}, \"spread\": {\"current\": {\"index\": 1,"
	" \"min\": 10, \"max\": 30}, \"baseline\": null},"
	" \"memory_sites\": [{\"name\": \"g\", \"file\": \"b.c\", \"state\":"
	" \"new\", \"bytes_before\": 0, \"bytes_after\": 64,"
	" \"allocs_before\": 0, \"allocs_after\": 1, \"max_live_before\": 0,"
	" \"max_live_after\": 64, \"share\": 1}], \"memory_sites_artifacts\":"
	" {\"before\": \"b.dhat.json\", \"after\": \"a.dhat.json\", \"by\":"
	" \"bytes\", \"scope_before\": \"run\", \"scope_after\": \"run\","
	" \"bytes_before\": 0, \"bytes_after\": 64}}";

static void
test_extras(void)
{
	struct json_object *o = json_tokener_parse(ab_row);
	struct prof_verdict v;
	struct prof_verdict_fn f;
	struct prof_verdict_site site;

	is_int(prof_verdict_read(o, &v), 0, "an interleaved row is read");
	ok(v.ab.present && v.ab.repeat == 10 && v.ab.max_repeat == 40 &&
		   v.ab.samples_a_side == 40,
	   "its plan and samples a side");
	ok(!v.ab.settled && v.ab.uncontended_only, "settled, uncontended");
	is_str(v.ab.judged_on, "cpu_ms", "what it was judged on");
	ok(isnan(v.ab.ratio_low) && v.ab.confidence == 0.95,
	   "null bounds NAN, the confidence");
	ok(v.cur.contended == 3 && v.base.contended == -1,
	   "contended calls a side, null -1");
	ok(v.cur.queue_pct == 12.5 && isnan(v.base.queue_pct),
	   "the queue's share a side");
	ok(v.why[PROF_VERDICT_WHY_TIME].present &&
		   v.why[PROF_VERDICT_WHY_TIME].n == 1 &&
		   !v.why[PROF_VERDICT_WHY_COUNT].present,
	   "a time explanation and no count one");
	ok(!strcmp(v.why[PROF_VERDICT_WHY_TIME].key, "time_functions") &&
		   !strcmp(v.why[PROF_VERDICT_WHY_COUNT].key, "functions"),
	   "each under its key in the comparisons");
	is_int(prof_verdict_fn(&v, PROF_VERDICT_WHY_TIME, 0, &f), 0,
	       "its function is read");
	ok(f.self_after == 3 && f.incl_before == 2 && f.share == 0.5 &&
		   isnan(f.incl_share) && !f.file_before,
	   "with its counts and shares");
	is_int(prof_verdict_fn(&v, PROF_VERDICT_WHY_TIME, 1, &f), -1,
	       "one past the end");
	ok(v.why[PROF_VERDICT_WHY_TIME].has_artifacts &&
		   v.why[PROF_VERDICT_WHY_TIME].total_after == 20 &&
		   !v.why[PROF_VERDICT_WHY_TIME].listing,
	   "its files and totals");
	ok(v.has_baseline_segments && v.n_baseline_segments == 2 &&
		   !strcmp(prof_verdict_baseline_segment(&v, 1), "s2") &&
		   !prof_verdict_baseline_segment(&v, 2),
	   "the baseline's segments");
	json_object_put(o);

	o = json_tokener_parse(mem_row);
	is_int(prof_verdict_read(o, &v), 0, "a memory row with sites");
	ok(v.cur.deterministic == 0 && v.base.deterministic == 1,
	   "determinism a side");
	ok(v.cur.spread.known && v.cur.spread.index == 1 &&
		   v.cur.spread.max == 30 && !v.base.spread.known,
	   "the spread a side");
	is_str(v.rule, "ratio", "its rule");
	ok(v.sites.n == 1 && v.sites.has_artifacts &&
		   v.sites.total[PROF_VERDICT_BYTES_AFTER] == 64 &&
		   v.sites.total[PROF_VERDICT_LIVE_AFTER] == -1 && !v.sites.note,
	   "its sites' files and totals");
	is_int(prof_verdict_site(&v, 0, &site), 0, "its site is read");
	ok(!strcmp(site.state, "new") &&
		   site.v[PROF_VERDICT_ALLOCS_AFTER] == 1 && site.share == 1,
	   "with its counts");
	ok(prof_verdict_count(v.sites.total[PROF_VERDICT_LIVE_AFTER]) == 0 &&
		   prof_verdict_count(site.v[PROF_VERDICT_BYTES_AFTER]) == 64,
	   "a null count says 0 on a page, any other itself");
	is_int(prof_verdict_site(&v, 1, &site), -1, "one past the end");
	json_object_put(o);
}

int
main(void)
{
	plan(48);
	test_time();
	test_memory_and_refusals();
	test_extras();
	return done();
}
