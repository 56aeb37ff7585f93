/* lib-browser.c: browser rows read as samples (browser.h): both forms,
 * the defaults a row leaves out, indexes counted per workload, and errors
 * that name the file, the line and the path. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/browser.h"
#include "tap.h"

static char ebuf[512];

/* prof_browser_parse_lines() of text into arr: the count, or the error in
 * ebuf and -1. */
static long
parse(const char *text, struct json_object *arr)
{
	struct prof_err e = {0};
	long n =
	    prof_browser_parse_lines(text, strlen(text), "rows.jsonl", arr, &e);

	ebuf[0] = '\0';
	if (n < 0)
		prof_err_str(&e, ebuf, sizeof(ebuf));
	return n;
}

static const char *
at(struct json_object *arr, size_t i, const char *key)
{
	return prof_json_str(json_object_array_get_idx(arr, i), key);
}

static double
num_at(struct json_object *arr, size_t i, const char *key)
{
	return prof_json_numf(json_object_array_get_idx(arr, i), key);
}

static void
test_forms(void)
{
	struct json_object *arr = json_object_new_array(), *env = NULL;
	long n = parse(
	    "{\"workload\":\"browser.boot\",\"fixture\":\"viewer\","
	    "\"duration_ms\":95.5,\"metrics\":{\"script_ms\":3.25},"
	    "\"env\":{\"browser\":\"Chromium 1.2\",\"viewport\":"
	    "\"1280x800\"}}\n"
	    "{\"workload\":\"browser.boot\",\"fixture\":\"viewer\","
	    "\"outcome\":\"error\",\"reason\":\"Timeout\",\"duration_ms\":"
	    "null}\n"
	    "\n"
	    "{\"story\": \"boot\", \"duration_ms\": 812.5, \"pfm\": 3}\n",
	    arr);

	is_int(n, 3, "three rows, the blank line skipped");
	ok(!strcmp(at(arr, 0, "phase"), "browser") &&
	       !strcmp(at(arr, 0, "category"), "browser") &&
	       !strcmp(at(arr, 0, "backend"), "chromium"),
	   "a browser sample, chromium by default");
	is_num(num_at(arr, 0, "duration_ms"), 95.5, 0, "its duration");
	json_object_object_get_ex(json_object_array_get_idx(arr, 0), "env",
				  &env);
	ok(!strcmp(prof_json_str(env, "browser"), "Chromium 1.2") &&
	       !strcmp(prof_json_str(env, "problem_size"), "1280x800"),
	   "the browser in its env, the viewport as the problem size");
	is_int((long long)num_at(arr, 0, "index"), 0,
	       "the first row of a workload is index 0");
	is_int((long long)num_at(arr, 1, "index"), 1, "the next is index 1");
	ok(!strcmp(at(arr, 1, "outcome"), "error") &&
	       !strcmp(at(arr, 1, "reason"), "Timeout"),
	   "an error row with its reason");
	ok(!strcmp(at(arr, 2, "workload"), "browser.boot") &&
	       !strcmp(at(arr, 2, "fixture"), "playwright-existing"),
	   "the older form: browser.<story>, fixture playwright-existing");
	json_object_put(arr);
}

static void
test_errors(void)
{
	struct json_object *arr = json_object_new_array();

	is_int(parse("{\"workload\":\"w\",\"duration_ms\":1}\n"
		     "{\"workload\":\"w\",\"duration_ms\":-1}\n",
		     arr),
	       -1, "a negative duration is refused");
	is_str(ebuf, "rows.jsonl:2: .duration_ms: expected a number >= 0",
	       "by file, line and path");
	parse("{\"duration_ms\":1}\n", arr);
	is_str(ebuf,
	       "rows.jsonl:1: .workload: missing (a row needs workload, or "
	       "the older story)",
	       "a row needs a workload");
	parse("{\"workload\":\"w\",\"duration_ms\":null}\n", arr);
	is_str(ebuf, "rows.jsonl:1: .duration_ms: expected a number, got null",
	       "null only on an error row");
	parse("{\"workload\":\"w\",\"duration_ms\":1,\"outcome\":\"maybe\"}\n",
	      arr);
	is_str(ebuf, "rows.jsonl:1: .outcome: expected success or error",
	       "an outcome is success or error");
	parse(
	    "{\"workload\":\"w\",\"duration_ms\":1,\"metrics\":{\"a\":[1]}}\n",
	    arr);
	is_str(ebuf,
	       "rows.jsonl:1: .metrics.a: expected a scalar metric, got an "
	       "array",
	       "metrics are scalars");
	json_object_put(arr);
}

int
main(void)
{
	plan(14);
	test_forms();
	test_errors();
	return done();
}
