/* lib-gbench.c: Google Benchmark's JSON output read as timing samples
 * (gbench.h): the rule from a benchmark's name to a workload id, each
 * repetition a sample with its times per iteration in ms, and the files
 * prof cannot judge refused by JSON path. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/gbench.h"
#include "tap.h"

static char ebuf[512];

/* The id of name, or "(refused: why)". */
static const char *
id_of(const char *name)
{
	static char id[256];
	char why[160] = "";

	if (prof_gbench_id(name, id, sizeof(id), why, sizeof(why)) < 0)
		snprintf(id, sizeof(id), "(refused: %s)", why);
	return id;
}

/* prof_gbench_samples() of a document whose benchmarks are the text
 * given: the count, or -1 with the error in ebuf. */
static long
samples(const char *benchmarks, struct json_object *arr, int *foreign)
{
	char text[4096];
	struct json_object *doc;
	struct prof_err e = {0};
	long n;

	snprintf(text, sizeof(text),
		 "{\"context\": {\"host_name\": \"no-such-host.invalid\", "
		 "\"library_build_type\": \"release\", \"num_cpus\": 4}, "
		 "\"benchmarks\": [%s]}",
		 benchmarks);
	doc = json_tokener_parse(text);
	ebuf[0] = '\0';
	n = prof_gbench_samples(doc, arr, foreign, &e);
	if (n < 0)
		prof_err_str(&e, ebuf, sizeof(ebuf));
	json_object_put(doc);
	return n;
}

/* One repetition's entry, as JSON text (one of four kept at a time). */
static const char *
rep(const char *name, int i, const char *real, const char *unit)
{
	static char buf[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]),
		 "{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": "
		 "\"iteration\", \"repetition_index\": %d, \"iterations\": "
		 "100, \"real_time\": %s, \"cpu_time\": %s, \"time_unit\": "
		 "\"%s\"}",
		 name, name, i, real, real, unit);
	return buf[k];
}

/* Two entries as one list's text. */
static const char *
two(const char *a, const char *b)
{
	static char buf[1100];

	snprintf(buf, sizeof(buf), "%s, %s", a, b);
	return buf;
}

static void
test_id(void)
{
	is_str(id_of("BM_crc32/4096"), "BM_crc32.4096",
	       "'/' between a family and its arguments becomes '.'");
	is_str(id_of("BM_copy/threads:2"), "BM_copy.threads-2",
	       "':' becomes '-'");
	is_str(id_of("BM_sort<int>/64"), "BM_sort_int_.64",
	       "any other byte becomes '_'");
	is_str(id_of("_hidden"), "gbench._hidden",
	       "a name that starts with no letter or digit gets gbench.");
	ok(!strncmp(id_of(""), "(refused: ", 10), "an empty name is refused");
}

static void
test_samples(void)
{
	struct json_object *arr = json_object_new_array(), *s;
	int foreign = 0;
	long n = samples(
	    two(rep("BM_a/8", 0, "2500", "us"), rep("BM_a/8", 1, "3", "ms")),
	    arr, &foreign);

	is_int(n, 2, "one sample per repetition");
	s = json_object_array_get_idx(arr, 0);
	ok(!strcmp(prof_json_str(s, "workload"), "BM_a.8") &&
	       !strcmp(prof_json_str(s, "fixture"), "BM_a/8") &&
	       !strcmp(prof_json_str(s, "category"), "gbench") &&
	       !strcmp(prof_json_str(s, "phase"), "timing"),
	   "workload its id, fixture its name, category gbench");
	is_num(prof_json_numf(s, "duration_ms"), 2.5, 1e-9,
	       "real_time per iteration, in ms from us");
	is_num(prof_json_numf(json_object_array_get_idx(arr, 1), "duration_ms"),
	       3, 1e-9, "and from ms");
	is_str(prof_json_str(s, "checksum_reason"), PROF_GBENCH_NO_CHECKSUM,
	       "no output checksum, and why");
	is_int(foreign, 1, "a file of another host is foreign");
	json_object_put(arr);

	arr = json_object_new_array();
	samples(rep("BM_a", 0, "1", "min"), arr, &foreign);
	is_str(ebuf, ".benchmarks[0].time_unit: expected ns, us, ms or s",
	       "a time unit prof does not know is refused by path");
	samples("{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", "
		"\"run_type\": \"aggregate\", \"aggregate_name\": \"mean\"}",
		arr, &foreign);
	ok(strstr(ebuf, ".benchmarks[0].run_type: 'BM_a_mean' is an aggregate "
			"(mean) without its repetitions") == ebuf,
	   "aggregates without their repetitions are refused");
	samples(two(rep("BM_x/1", 0, "1", "ms"), rep("BM_x.1", 0, "1", "ms")),
		arr, &foreign);
	is_str(ebuf,
	       ".benchmarks[1].name: 'BM_x/1' and 'BM_x.1' are both workload "
	       "'BM_x.1': rename one",
	       "two names of one id are refused");
	json_object_put(arr);

	/* Below the nanosecond: kept, not rounded (2.45 ns against 2.55
	 * is 4%, not 2 against 3). */
	arr = json_object_new_array();
	samples(two(rep("BM_f", 0, "2.45", "ns"), rep("BM_f", 1, "0.3", "ns")),
		arr, &foreign);
	is_str(json_object_to_json_string(json_object_object_get(
		       json_object_array_get_idx(arr, 0), "duration_ms")),
	       "2.45e-06", "2.45 ns is 2.45e-06 ms, as written");
	is_str(json_object_to_json_string(json_object_object_get(
		       json_object_array_get_idx(arr, 0), "cpu_ms")),
	       "2.45e-06", "its CPU time too");
	is_num(prof_json_numf(json_object_array_get_idx(arr, 1), "duration_ms"),
	       3e-7, 1e-15, "0.3 ns is kept, not 0");
	json_object_put(arr);
}

/* The filter of a name, or "(too long)". */
static const char *
filter_of(const char *name, size_t n)
{
	static char out[256];

	if (prof_gbench_filter(name, out, n) < 0)
		snprintf(out, sizeof(out), "(too long)");
	return out;
}

static void
test_filter(void)
{
	is_str(filter_of("BM_crc32/4096", 256), "^BM_crc32/4096$",
	       "a plain name, anchored");
	is_str(filter_of("BM_set[3]", 256), "^BM_set[[]3[]]$",
	       "'[' and ']' in brackets (std::regex refuses \\[)");
	is_str(filter_of("BM_map{2}", 256), "^BM_map[{]2[}]$",
	       "'{' and '}' too");
	is_str(filter_of("a.b(c)|d?e*f+g$", 256),
	       "^a[.]b[(]c[)][|]d[?]e[*]f[+]g[$]$",
	       "every other special character in brackets");
	is_str(filter_of("x\\y^z", 256), "^x\\\\y\\^z$",
	       "'\\' and '^' escaped");
	is_str(filter_of("BM_[", 8), "(too long)", "one that does not fit");
}

/* prof_gbench_answer() of samples of these benchmark names. */
static const char *
answer(const char *asked, const char *const *names)
{
	static char why[512];
	struct json_object *arr = json_object_new_array();
	int i;

	for (i = 0; names[i]; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "fixture",
				       json_object_new_string(names[i]));
		json_object_array_add(arr, s);
	}
	if (prof_gbench_answer(arr, asked, why, sizeof(why)) == 0)
		snprintf(why, sizeof(why), "(asked)");
	json_object_put(arr);
	return why;
}

static void
test_answer(void)
{
	static const char *const same[] = {"BM_a", "BM_a", NULL};
	static const char *const other[] = {"BM_z", NULL};
	static const char *const three[] = {"BM_a", "BM_b", "BM_c", NULL};

	is_str(answer("BM_a", same), "(asked)", "repetitions of the one asked");
	is_str(answer("BM_a", other), "it answered for 'BM_z'",
	       "another benchmark is named");
	is_str(answer("BM_b", three),
	       "it answered for 3 benchmarks: 'BM_a', 'BM_b', 'BM_c'",
	       "three benchmarks are named, in order");
}

int
main(void)
{
	plan(26);
	test_id();
	test_samples();
	test_filter();
	test_answer();
	return done();
}
