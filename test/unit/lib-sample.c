/* lib-sample.c: the schema-1 sample and results checks, JSON lines (read
 * through stream.h, as the tools read them), atomic writes and the segment
 * key. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/env.h"
#include "base/json.h"
#include "base/out.h"
#include "model/sample.h"
#include "model/stream.h"
#include "tap.h"

static struct json_object *
good_sample(void)
{
	struct prof_sample_meta m = {
		.workload = "w.one", .version = 3, .category = "test",
		.fixture = "f", .fixture_checksum = "abc",
		.warning_floor_ms = 2, .backend = "cpu",
	};
	struct prof_env_in in = {.backend = "cpu", .dtype = "float32"};
	struct json_object *s = prof_sample_new(&m, prof_env_collect(&in),
						"timing", "warm", 0);

	prof_sample_succeed(s, 1.23456789, NULL, "ffff");
	return s;
}

/* The error text after setting key to the JSON text value. */
static const char *
check_with(const char *key, const char *value)
{
	static char buf[1024];
	struct json_object *s = good_sample();
	struct prof_err e = {0};

	if (value)
		json_object_object_add(s, key, json_tokener_parse(value));
	else
		json_object_object_del(s, key);
	if (prof_sample_check(s, ".samples[3]", &e) == 0)
		snprintf(buf, sizeof(buf), "(valid)");
	else
		prof_err_str(&e, buf, sizeof(buf));
	json_object_put(s);
	return buf;
}

/* A results document of this schema with no samples. */
static struct json_object *
new_results(void)
{
	return json_tokener_parse(
		"{\"schema\": \"prof.results\", \"schema_version\": 2, "
		"\"run_id\": \"run-1\", "
		"\"timestamp_utc\": \"2026-11-29T00:00:00Z\", "
		"\"command\": \"test\", \"commit\": \"unknown\", "
		"\"envs\": {}, \"segments\": {}, \"samples\": []}");
}

static int
skip(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	return 0;
}

/* Read a results file, every sample checked, as the tools do (stream.h):
 * 1, or 0 with e filled. */
static int
readable(const char *path, struct prof_err *e)
{
	struct prof_stream *st = prof_stream_new();
	long n = st ? prof_stream_results(st, path, skip, NULL, e) : -1;

	prof_stream_free(st);
	return n >= 0;
}

static int
drop(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	(void)arg;
	(void)s;
	(void)index;
	(void)err;
	return 0;
}

/* Read text as the JSON-lines stream name in folder d, as a tool given
 * that name reads it (stream.h); the file is removed after. Returns the
 * number of samples, or -1 with e filled. */
static long
read_lines(const char *d, const char *name, const char *text,
	   struct prof_err *e)
{
	char cwd[4096], path[512];
	struct prof_stream *st = prof_stream_new();
	FILE *fp;
	long n = -1;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	fp = fopen(path, "w");
	if (!st || !fp || fputs(text, fp) == EOF || fclose(fp) != 0 ||
	    !getcwd(cwd, sizeof(cwd)) || chdir(d) != 0) {
		prof_stream_free(st);
		return prof_err_set(e, "cannot write %s", path);
	}
	n = prof_stream_lines(st, name, drop, NULL, e);
	if (chdir(cwd) != 0)
		n = prof_err_set(e, "cannot go back to %s", cwd);
	prof_stream_free(st);
	unlink(path);
	return n;
}

static int
count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' || strlen(de->d_name) > 2)
			n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

int
main(void)
{
	struct json_object *s, *env, *r;
	struct prof_err e = {0};
	struct prof_env_in in = {.backend = "cpu"};
	struct prof_afile af;
	char buf[1024], dir[] = "/tmp/prof-unit.XXXXXX", path[256];
	char *seg1, *seg2;
	const char *lines;
	long n;
	FILE *fp;

	plan(37);
	s = good_sample();
	ok(prof_sample_check(s, "", &e) == 0, "a built sample is valid");
	is_num(prof_sample_num(s, "duration_ms"), 1.234568, 1e-12,
	       "durations are kept to the nanosecond");
	json_object_put(s);
	is_str(check_with("duration_ms", "\"fast\""),
	       ".samples[3].duration_ms: expected a number, got a string",
	       "a string duration names its path");
	is_str(check_with("duration_ms", "null"),
	       ".samples[3].duration_ms: expected a number, got null",
	       "a success needs a duration");
	is_str(check_with("schema_version", "2"),
	       ".samples[3].schema_version: unknown schema version 2 (this prof reads 1)",
	       "an unknown schema version is rejected");
	is_str(check_with("phase", "\"warmup\""),
	       ".samples[3].phase: expected one of timing, memory, profile, browser, instructions",
	       "an unknown phase is rejected");
	is_str(check_with("workload", NULL), ".samples[3].workload: missing",
	       "a missing field is named");
	is_str(check_with("metrics", "{\"a\": [1]}"),
	       ".samples[3].metrics.a: expected a scalar (number, string or boolean), got an array",
	       "metrics are scalars");
	is_str(check_with("index", "-1"),
	       ".samples[3].index: expected an integer >= 0",
	       "a negative index is rejected");
	is_str(check_with("artifacts", "[\"a.prof\", 3]"),
	       ".samples[3].artifacts[1]: expected a string, got a number",
	       "artifacts are paths");
	is_str(check_with("memory", "{\"host_peak_bytes\": \"x\"}"),
	       ".samples[3].memory.host_peak_bytes: expected a number or null, got a string",
	       "memory numbers are numbers");
	is_str(check_with("outcome", "\"error\""),
	       ".samples[3].reason: expected a string, got null",
	       "an error needs a reason");

	if (!mkdtemp(dir))
		return 1;
	lines = "\n{\"schema_version\": 1}\n";
	n = read_lines(dir, "s.jsonl", lines, &e);
	is_str(n < 0 ? prof_err_str(&e, buf, sizeof(buf)) : "(parsed)",
	       "s.jsonl:2: .workload: missing",
	       "JSON lines: schema errors name the line");
	memset(&e, 0, sizeof(e));
	lines = "{\"schema_version\": 1,\n";
	n = read_lines(dir, "s.jsonl", lines, &e);
	is_str(n < 0 ? prof_err_str(&e, buf, sizeof(buf)) : "(parsed)",
	       "s.jsonl:1:22: unexpected end of input (truncated JSON)",
	       "JSON lines: a cut line names the line");

	r = new_results();
	json_object_object_add(r, "schema_version", json_object_new_int(1));
	json_object_array_add(json_object_object_get(r, "samples"),
			      good_sample());
	memset(&e, 0, sizeof(e));
	ok(prof_results_check_head(r, 1, &e) == 0 &&
		   prof_sample_check(json_object_array_get_idx(
					     json_object_object_get(r, "samples"),
					     0),
				     ".samples[0]", &e) == 0,
	   "a built results file is valid");
	json_object_object_add(r, "schema_version", json_object_new_int(7));
	prof_results_check_head(r, 1, &e);
	is_str(prof_err_str(&e, buf, sizeof(buf)),
	       ".schema_version: unknown schema version 7 (this prof reads 1 and 2)",
	       "results: an unknown schema version is rejected");
	json_object_object_add(r, "schema_version", json_object_new_int(1));

	snprintf(path, sizeof(path), "%s/results.json", dir);
	ok(prof_out_json(path, r, &e) == 0, "results are written");
	json_object_put(r);
	ok(readable(path, &e), "and read back");
	is_int(count_files(dir), 1, "no temporary file is left");
	/* The file was read above; replacing it is this test's purpose. */
	prof_afile_forget_input(path);
	fp = prof_afile_open(&af, path, &e);
	ok(fp != NULL, "a file read before is opened again once forgotten");
	if (!fp)
		return 1;
	fputs("{\"half\":", fp);
	prof_afile_abort(&af);
	ok(readable(path, &e), "an aborted write leaves the old file whole");
	is_int(count_files(dir), 1, "and removes its temporary file");
	snprintf(path, sizeof(path), "%s/cut.json", dir);
	prof_afile_write(path, "{\"schema\": \"prof.results\",\n \"samples\": [",
			 41, &e);
	memset(&e, 0, sizeof(e));
	ok(!readable(path, &e) && e.line == 2 && e.col > 0,
	   "a cut results file names its line and column");
	ok(prof_afile_write("/dev/null", "x", 1, &e) == 0,
	   "a device is written through");
	{
		struct stat st;

		ok(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode),
		   "and stays a device");
	}
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	ok(prof_mkdirs(path, &e) == 0, "mkdirs makes the whole path");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		return 1;

	env = prof_env_collect(&in);
	ok(prof_json_str(env, "kernel") && prof_json_str(env, "cpu_model") &&
		   prof_json_str(env, "os"),
	   "the environment has kernel, CPU model and OS");
	seg1 = prof_env_segment(env);
	json_object_object_add(env, "kernel", json_object_new_string("9.9"));
	seg2 = prof_env_segment(env);
	is_str(seg1, seg2, "the kernel release is recorded, not keyed");
	free(seg2);
	json_object_object_add(env, "backend", json_object_new_string("gpu"));
	seg2 = prof_env_segment(env);
	ok(strcmp(seg1, seg2) != 0, "the backend is keyed");
	free(seg2);
	json_object_object_add(env, "backend", json_object_new_string("cpu"));
	json_object_object_add(env, "problem_size",
			       json_object_new_string("8000"));
	seg2 = prof_env_segment(env);
	ok(strcmp(seg1, seg2) != 0, "the problem size is keyed");
	ok(seg1[0] == '{' && strstr(seg1, "\"cpu_model\":") != NULL,
	   "the segment is canonical JSON");
	free(seg1);
	free(seg2);

	/* A segment is its env's key, or says how it is not. */
	seg1 = prof_env_segment(env);
	is_int(prof_env_segment_check(env, seg1, buf, sizeof(buf)), 0,
	       "an env's own key is its key");
	json_object_object_add(env, "cpu_model",
			       json_object_new_string("Fake CPU 9000"));
	is_int(prof_env_segment_check(env, seg1, buf, sizeof(buf)), 1,
	       "another CPU model is another key");
	ok(strstr(buf, "cpu_model is \"") == buf &&
		   strstr(buf, "\" in the segment key, \"Fake CPU 9000\" in "
			       "its env") != NULL,
	   "the difference is named");
	json_object_object_add(env, "kernel", json_object_new_string("1.0"));
	is_int(prof_env_segment_check(env, "{\"os\":null}", buf, sizeof(buf)),
	       1, "a key that lacks keyed fields is not the env's");
	is_int(prof_env_segment_check(env, "[1]", buf, sizeof(buf)), 1,
	       "nor is text that is no JSON object");
	is_str(buf, "the segment key is not a JSON object", "which is said");
	free(seg1);
	json_object_put(env);
	return done();
}
