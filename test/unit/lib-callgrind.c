/* lib-callgrind.c: callgrind dumps read, and instruction rows judged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "cmpdoc.h"
#include "verdict/verdict.h"
#include "model/callgrind.h"
#include "tap.h"

#define DATA "test/data/callgrind/"

/* A dump of the given text in a file of its own; returns its path. */
static const char *
dump_of(const char *text)
{
	static char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/tmp/lib-callgrind.%d.out", (int)getpid());
	fp = fopen(path, "w");
	if (!fp || fputs(text, fp) < 0 || fclose(fp))
		abort();
	return path;
}

/* Numbers of the count phase's reader beyond their ranges (issue 28). */
static void
test_read_ranges(void)
{
	struct prof_callgrind_dump d;
	struct prof_err err = {0};
	char buf[1024], want[1024];
	const char *p;

	p = dump_of("# callgrind format\nversion: 1\n"
		    "pid: 99999999999999999999\nevents: Ir\ntotals: 5\n");
	is_int(prof_callgrind_read(p, &d, &err), -1,
	       "a pid beyond 64 bits is refused");
	snprintf(want, sizeof(want), "%s:3: pid: 99999999999999999999 is out "
		 "of range (expected a whole number from 0 to "
		 "9223372036854775807)", p);
	is_str(prof_err_str(&err, buf, sizeof(buf)), want, "with its line");
	memset(&err, 0, sizeof(err));
	p = dump_of("# callgrind format\nversion: 1\nevents: Ir\n"
		    "totals: 9223372036854775808\n");
	is_int(prof_callgrind_read(p, &d, &err), -1,
	       "a totals: beyond 64 bits is refused, not taken as no count");
	snprintf(want, sizeof(want), "%s:4: totals: 9223372036854775808 is "
		 "out of range (expected a whole number from 0 to "
		 "9223372036854775807)", p);
	is_str(prof_err_str(&err, buf, sizeof(buf)), want, "with its line");
	unlink(p);
}

static void
test_read(void)
{
	struct prof_callgrind_dump d;
	struct prof_err err = {0};
	char buf[1024];

	is_int(prof_callgrind_read(DATA "call-0.out", &d, &err), 0,
	       "a client-request dump is read");
	is_int(d.ir, 52748683, "its Ir is the totals: line");
	is_int(d.pid, 4358, "its pid");
	is_int(d.part, 1, "its part");
	is_str(d.trigger, "Client Request: prof-call-0",
	       "its trigger names the call");

	is_int(prof_callgrind_read(DATA "final.out", &d, &err), 0,
	       "a final dump with a wrapped-around summary is read");
	is_int(d.ir, 0, "totals: wins over a wrapped summary:");

	is_int(prof_callgrind_read(DATA "events.out", &d, &err), 0,
	       "Ir need not be the first event");
	is_int(d.ir, 20, "the Ir column of summary: when there is no totals:");

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_read(DATA "noir.out", &d, &err), -1,
	       "a dump without Ir is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       DATA "noir.out:4: no Ir event (run callgrind without "
		    "--toggle-collect options that drop it)",
	       "naming the file and line");

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_read(DATA "cut.out", &d, &err), -1,
	       "a dump cut short is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       DATA "cut.out: no totals: or summary: line (a dump cut short?)",
	       "saying so");

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_read(DATA "notcg.out", &d, &err), -1,
	       "another file is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       DATA "notcg.out:1: not a callgrind output file", "at line 1");

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_read(DATA "missing.out", &d, &err), -1,
	       "a missing file is an error");
	test_read_ranges();
}

static void
test_sum(void)
{
	struct prof_err err = {0};
	long long ir;
	int files, pids;
	char buf[1024];

	is_int(prof_callgrind_sum("test/data/callgrind", "call-", &ir, &files,
				  &pids, &err),
	       0, "a folder of dumps is summed");
	is_int(ir, 52748683, "the sum of the one matching file");
	is_int(files * 10 + pids, 11, "one file, one pid");

	memset(&err, 0, sizeof(err));
	is_int(prof_callgrind_sum("test/data/callgrind", "nothing.", &ir,
				  &files, &pids, &err),
	       -1, "no dump at all is an error");
	is_str(prof_err_str(&err, buf, sizeof(buf)),
	       "test/data/callgrind: no callgrind dump 'nothing.*' was written",
	       "saying which");
}

/* A matched instruction row. */
static void
count_row(struct prof_cmp_row *r, double base, double cur, double threshold)
{
	memset(r, 0, sizeof(*r));
	r->workload = "w";
	r->backend = "cpu";
	r->segment = "{}";
	r->instructions = 1;
	r->threshold_pct = threshold;
	r->cur.version = r->base.version = 1;
	r->cur.fixture_checksum = r->base.fixture_checksum = "s";
	r->matched = 1;
	prof_cmp_side_add(&r->cur, cur);
	prof_cmp_side_add(&r->cur, cur);
	prof_cmp_side_add(&r->base, base);
	prof_cmp_side_add(&r->base, base);
}

static void
row_free(struct prof_cmp_row *r)
{
	free(r->cur.v);
	free(r->base.v);
}

static void
test_rule(void)
{
	struct prof_cmp_row r;

	count_row(&r, 1000000, 1020000, 1);
	prof_cmp_judge(&r);
	is_str(prof_cmp_status_name(r.status), "warning",
	       "2% more instructions is a warning at 1%");
	is_str(r.reason,
	       "instructions 1,000,000 -> 1,020,000 (+2.00%), more than the 1% "
	       "threshold",
	       "the reason names both counts and the change");
	row_free(&r);

	count_row(&r, 1000000, 1000000, 1);
	prof_cmp_judge(&r);
	is_str(prof_cmp_status_name(r.status), "stable",
	       "the same count is stable");
	is_str(r.reason,
	       "instructions 1,000,000 -> 1,000,000 (+0.00%), within the 1% "
	       "threshold",
	       "and says so");
	row_free(&r);

	count_row(&r, 1000000, 1010000, 1);
	prof_cmp_judge(&r);
	is_str(prof_cmp_status_name(r.status), "stable",
	       "exactly the threshold is not more than it");
	row_free(&r);

	count_row(&r, 1000000, 1020000, 5);
	prof_cmp_judge(&r);
	is_str(prof_cmp_status_name(r.status), "stable",
	       "2% is within a workload's own 5%");
	row_free(&r);

	count_row(&r, 1000000, 500000, 1);
	prof_cmp_judge(&r);
	is_str(r.reason,
	       "instructions 1,000,000 -> 500,000 (-50.00%), fewer by more than "
	       "the 1% threshold",
	       "half the instructions are improved");
	row_free(&r);

	count_row(&r, 1000000, 1020000, 1);
	r.base.version = 2;
	prof_cmp_judge(&r);
	is_str(prof_cmp_status_name(r.status), "incomparable",
	       "another workload version is incomparable");
	row_free(&r);
}

/* A sample of workload w: a timing one (count < 0) or a count. */
static struct json_object *
sample(const char *seg, const char *phase, double ms, long long count)
{
	struct json_object *s = json_object_new_object();

	json_object_object_add(s, "workload", json_object_new_string("w"));
	json_object_object_add(s, "workload_version", json_object_new_int(1));
	json_object_object_add(s, "category", json_object_new_string("t"));
	json_object_object_add(s, "fixture_checksum",
			       json_object_new_string("s"));
	json_object_object_add(s, "warning_floor_ms", prof_json_double(1));
	json_object_object_add(s, "backend", json_object_new_string("cpu"));
	json_object_object_add(s, "segment", json_object_new_string(seg));
	json_object_object_add(s, "phase", json_object_new_string(phase));
	json_object_object_add(s, "kind", json_object_new_string("warm"));
	json_object_object_add(s, "duration_ms", prof_json_double(ms));
	json_object_object_add(s, "outcome", json_object_new_string("success"));
	if (count >= 0) {
		json_object_object_add(s, "instructions",
				       json_object_new_int64(count));
		json_object_object_add(s, "count_threshold_pct",
				       prof_json_double(2.5));
	}
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

static void
test_rows(void)
{
	struct json_object *cur = doc(), *base = doc(), *out, *row;
	struct prof_cmp c = {0};
	struct prof_err err = {0};

	add(cur, sample("{}", "timing", 5, -1));
	add(cur, sample("{}", "timing", 5, -1));
	add(cur, sample("{\"valgrind\":\"3.19.0\"}", "instructions", 9, 1000));
	add(cur, sample("{\"valgrind\":\"3.19.0\"}", "instructions", 9, 1030));
	add(base, sample("{}", "timing", 5, -1));
	cmpdoc_group(&c, cur, &err);
	is_int((long long)c.n, 2, "time and instructions are two rows");
	cmpdoc_judge(&c, base, "b.json", &err);
	out = prof_cmp_json(&c);
	/* Rows sort by segment: the valgrind key comes first. */
	row = json_object_array_get_idx(out, 0);
	is_str(prof_json_str(row, "phase"), "instructions",
	       "the count row says so");
	is_num(prof_json_number(json_object_object_get(row, "threshold_pct")),
	       2.5, 0, "with the samples' threshold");
	is_num(prof_json_number(json_object_object_get(
		       json_object_object_get(row, "current"), "median")),
	       1000, 0, "its count is the lower median of the calls "
	       "(prof_stats_count_index(): the fewer of two)");
	is_str(prof_json_str(row, "reason"),
	       "no baseline row for this segment (the baseline has no "
	       "instruction counts of this workload)",
	       "a baseline with time only is new for counts");
	is_str(prof_json_str(json_object_array_get_idx(out, 1), "status"),
	       "stable", "the time row is judged as before");
	is_int(prof_cmp_check(out, &err), 0, "the comparisons check");
	json_object_put(out);

	add(base, sample("{\"valgrind\":\"3.19.0\"}", "instructions", 9, 985));
	cmpdoc_judge(&c, base, "b.json", &err);
	out = prof_cmp_json(&c);
	row = json_object_array_get_idx(out, 0);
	is_str(prof_json_str(row, "status"), "stable",
	       "+1.5% is within 2.5%");
	is_num(prof_json_number(json_object_object_get(row,
						       "delta_instructions")),
	       15, 0, "delta_instructions");
	ok(json_object_object_get(row, "delta_ms") == NULL &&
		   json_object_object_get(row, "p_value") == NULL,
	   "no delta_ms and no p-value on a count row");
	json_object_put(out);
	prof_cmp_free(&c);
	json_object_put(base);

	base = doc();
	add(base, sample("{\"valgrind\":\"3.18.1\"}", "instructions", 9, 1000));
	cmpdoc_group(&c, cur, &err);
	cmpdoc_judge(&c, base, "b.json", &err);
	out = prof_cmp_row_json(&c, 0);
	is_str(prof_json_str(out, "status"), "new",
	       "another valgrind version is another segment");
	json_object_put(out);
	prof_cmp_free(&c);
	json_object_put(base);
	json_object_put(cur);
}

int
main(void)
{
	plan(44);
	test_read();
	test_sum();
	test_rule();
	test_rows();
	return done();
}
