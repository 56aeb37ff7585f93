/* lib-rwriter.c: a schema-2 results file written one sample at a time
 * (rwriter.h): its layout, its tables, its groups, "-" and failures. The
 * round trip through a reader is lib-stream's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/rwriter.h"
#include "tap.h"

static char dir[] = "/tmp/lib-rwriter.XXXXXX";

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

/* A schema-2 sample of workload w (its group's fields and its own). */
static struct json_object *
sample(const char *w, int index, const char *extra)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"workload\": \"%s\", \"workload_version\": 1, "
		 "\"category\": \"test\", \"fixture\": \"f\", "
		 "\"fixture_checksum\": \"abc\", \"warning_floor_ms\": 2, "
		 "\"backend\": \"cpu\", \"env_id\": \"e1\", "
		 "\"segment_id\": \"s1\", \"phase\": \"timing\", "
		 "\"kind\": \"warm\", \"index\": %d, \"outcome\": \"success\", "
		 "\"duration_ms\": 1.5, \"reason\": null, \"checksum\": null, "
		 "\"artifacts\": []%s}",
		 w, index, extra ? extra : "");
	return parse(text);
}

static struct json_object *
head(void)
{
	return parse("{\"schema\": \"other\", \"schema_version\": 9, "
		     "\"run_id\": \"r\", \"timestamp_utc\": "
		     "\"2026-11-29T00:00:00Z\", \"command\": \"c\", "
		     "\"commit\": \"abc\", \"samples\": [1], \"envs\": 3}");
}

/* The whole of a file, NUL-terminated; NULL if it cannot be read. */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
		buf[fread(buf, 1, (size_t)n, fp)] = '\0';
	}
	fclose(fp);
	return buf;
}

static int
files_in(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	int n = 0;

	while (dp && (de = readdir(dp)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (dp)
		closedir(dp);
	return n;
}

static void
test_empty(void)
{
	struct prof_rwriter w;
	struct prof_err e = {0};
	struct json_object *h = head();
	char path[96];
	char *text;

	ok(prof_rwriter_init(&w, &e) == 0, "init");
	snprintf(path, sizeof(path), "%s/empty.json", dir);
	ok(prof_rwriter_commit(&w, path, h, &e) == 0, "no sample: committed");
	text = slurp(path);
	is_str(text,
	       "{\n  \"schema\": \"prof.results\",\n  \"schema_version\": 2,\n"
	       "  \"run_id\": \"r\",\n  \"timestamp_utc\": "
	       "\"2026-11-29T00:00:00Z\",\n  \"command\": \"c\",\n"
	       "  \"commit\": \"abc\",\n  \"envs\": {},\n  \"segments\": {},\n"
	       "  \"groups\": {},\n  \"samples\": []\n}\n",
	       "schema and version first and ours, head's members in their "
	       "order, its tables and samples not");
	free(text);
	prof_rwriter_free(&w);
	json_object_put(h);
}

static void
test_samples(void)
{
	struct prof_rwriter w;
	struct prof_err e = {0};
	struct json_object *h = head(), *doc, *s, *g, *env;
	char path[96];
	int i;

	prof_rwriter_init(&w, &e);
	env = parse("{\"os\": \"linux\"}");
	ok(prof_rwriter_put_tables(&w, "e1", env, "s1", "{\"os\":\"linux\"}",
				   &e) == 0,
	   "tables: an env and a segment put");
	json_object_put(env);
	env = parse("{\"os\": \"other\"}");
	prof_rwriter_put_tables(&w, "e1", env, "s1", "{\"os\":\"other\"}", &e);
	json_object_put(env);
	{
		struct json_object *envs =
		    parse("{\"e1\": {\"os\": \"third\"}, "
			  "\"e2\": {\"os\": \"bsd\"}}");
		struct json_object *segs = parse("{\"s2\": \"{}\"}");

		ok(prof_rwriter_merge_tables(&w, envs, segs, &e) == 0,
		   "a reader's tables merged in");
		json_object_put(envs);
		json_object_put(segs);
	}
	for (i = 0; i < 3; i++) {
		s = sample(i < 2 ? "w.a" : "w.b", i,
			   i == 1 ? ", \"reason\": \"slow\", \"metrics\": "
				    "{\"k\": 1}"
				  : NULL);
		if (prof_rwriter_add(&w, s, &e) < 0)
			fprintf(stderr, "# add: %s\n", e.reason);
		json_object_put(s);
	}
	/* The same group, its floor an integer here and a double there. */
	s = sample("w.b", 3, NULL);
	json_object_object_add(s, "warning_floor_ms",
			       json_object_new_double(2.0));
	prof_rwriter_add(&w, s, &e);
	json_object_put(s);
	is_int(w.n, 4, "four samples added");

	snprintf(path, sizeof(path), "%s/r.json", dir);
	ok(prof_rwriter_commit(&w, path, h, &e) == 0, "committed");
	prof_rwriter_free(&w);
	doc = prof_json_load(path, &e);
	ok(doc != NULL, "the file is strict JSON");
	if (!doc) {
		json_object_put(h);
		return;
	}
	is_str(prof_json_str(json_object_object_get(
				 json_object_object_get(doc, "envs"), "e1"),
			     "os"),
	       "linux", "an id put twice keeps its first value");
	is_int(json_object_object_length(json_object_object_get(doc, "envs")),
	       2, "the merged env is there too");
	is_int(
	    json_object_object_length(json_object_object_get(doc, "segments")),
	    2, "and the merged segment");
	g = json_object_object_get(doc, "groups");
	is_int(json_object_object_length(g), 2,
	       "two workloads, two groups (5 and 5.0 are one)");
	s = json_object_object_get(doc, "samples");
	is_int((long long)json_object_array_length(s), 4,
	       "the samples, in order");
	{
		struct json_object *s0 = json_object_array_get_idx(s, 0);
		struct json_object *s1 = json_object_array_get_idx(s, 1);
		struct json_object *s2 = json_object_array_get_idx(s, 2);
		struct json_object *s3 = json_object_array_get_idx(s, 3);
		const char *g0 = prof_json_str(s0, "group_id");
		const char *g2 = prof_json_str(s2, "group_id");

		ok(g0 && !strcmp(g0, prof_json_str(s1, "group_id")) && g2 &&
		       strcmp(g0, g2) &&
		       !strcmp(g2, prof_json_str(s3, "group_id")),
		   "a sample's group_id is its workload's group");
		ok(json_object_object_get_ex(g, g0, NULL) &&
		       !strcmp(prof_json_str(json_object_object_get(g, g0),
					     "workload"),
			       "w.a"),
		   "and names a group of the table, with the shared fields");
		ok(!json_object_object_get_ex(s0, "workload", NULL) &&
		       !json_object_object_get_ex(s0, "env_id", NULL) &&
		       json_object_object_get_ex(s0, "duration_ms", NULL),
		   "a sample keeps its own fields, not its group's");
		ok(!json_object_object_get_ex(s0, "reason", NULL) &&
		       !json_object_object_get_ex(s0, "checksum", NULL) &&
		       !json_object_object_get_ex(s0, "artifacts", NULL),
		   "a null reason and checksum and empty artifacts are left "
		   "out");
		is_str(prof_json_str(s1, "reason"), "slow", "a reason is kept");
		ok(json_object_object_get_ex(s1, "metrics", NULL),
		   "and any other field of its own");
	}
	json_object_put(doc);
	json_object_put(h);
}

static void
test_dash_and_failures(void)
{
	struct prof_rwriter w;
	struct prof_err e = {0};
	struct json_object *h = head(), *s, *doc;
	char path[96], ebuf[1024];
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	prof_rwriter_init(&w, &e);
	s = sample("w.a", 0, ", \"odd \\\"key\\\"\\n\": 1");
	prof_rwriter_add(&w, s, &e);
	json_object_put(s);
	fp = open_memstream(&buf, &n);
	ok(prof_rwriter_commit_to(&w, "-", fp, h, &e) == 0,
	   "\"-\" is written to the stream the caller gives");
	fclose(fp);
	doc = buf ? json_tokener_parse(buf) : NULL;
	ok(doc && json_object_object_get_ex(
		      json_object_array_get_idx(
			  json_object_object_get(doc, "samples"), 0),
		      "odd \"key\"\n", NULL),
	   "whole, and a key that needs escapes is escaped");
	json_object_put(doc);
	free(buf);

	fp = fopen("/dev/null", "r");
	memset(&e, 0, sizeof(e));
	ok(fp && prof_rwriter_commit_to(&w, "-", fp, h, &e) < 0,
	   "a stream that cannot be written is an error");
	is_str(strncmp(prof_err_str(&e, ebuf, sizeof(ebuf)),
		       "<stdout>: write failed: ", 24)
		   ? ebuf
		   : "<stdout>: write failed: ...",
	       "<stdout>: write failed: ...", "named <stdout>");
	if (fp)
		fclose(fp);

	snprintf(path, sizeof(path), "%s/no/such/r.json", dir);
	memset(&e, 0, sizeof(e));
	ok(prof_rwriter_commit(&w, path, h, &e) < 0 && e.reason[0],
	   "a file that cannot be made is an error");
	snprintf(path, sizeof(path), "%s/no", dir);
	ok(access(path, F_OK) != 0, "and leaves nothing behind");
	prof_rwriter_free(&w);
	json_object_put(h);
}

/* The samples of 200 groups, each group's twice and apart, and a group
 * found by other bytes (5.0) twice, into a file at path; TMPDIR is tmp.
 * Returns the number of groups in the writer's table, or -1. */
static long
write_many(const char *path, const char *tmp, size_t *in_memory)
{
	struct prof_rwriter w;
	struct prof_err e = {0};
	struct json_object *h = head(), *s;
	char name[32];
	long n = -1;
	int i, bad = 0;

	setenv("TMPDIR", tmp, 1);
	if (prof_rwriter_init(&w, &e) < 0)
		goto out;
	for (i = 0; i < 404; i++) {
		snprintf(name, sizeof(name), "w.%d", i < 400 ? i % 200 : 0);
		s = sample(name, i, NULL);
		if (i >= 402)
			json_object_object_add(s, "warning_floor_ms",
					       json_object_new_double(2.0));
		bad |= prof_rwriter_add(&w, s, &e) < 0;
		json_object_put(s);
	}
	*in_memory = w.gtext.len;
	if (!bad && prof_rwriter_commit(&w, path, h, &e) == 0)
		n = (long)w.n_groups;
	prof_rwriter_free(&w);
out:
	unsetenv("TMPDIR");
	json_object_put(h);
	return n;
}

static void
test_group_store(void)
{
	char a[96], b[96], tmp[96], none[96];
	char *ta, *tb;
	size_t mem_a = 1, mem_b = 0;
	struct json_object *doc;

	snprintf(a, sizeof(a), "%s/store.json", dir);
	snprintf(b, sizeof(b), "%s/memory.json", dir);
	snprintf(tmp, sizeof(tmp), "%s/tmp", dir);
	snprintf(none, sizeof(none), "%s/no/such", dir);
	mkdir(tmp, 0700);
	is_int(write_many(a, tmp, &mem_a), 200,
	       "200 groups, each found again among the others and by other "
	       "bytes (5.0)");
	is_int((long long)mem_a, 0,
	       "their texts wait in a temporary file, not in memory");
	is_int(files_in(tmp), 0, "which is unlinked: nothing left in TMPDIR");
	is_int(write_many(b, none, &mem_b), 200,
	       "where TMPDIR cannot take it, the groups are kept in memory");
	ok(mem_b > 0, "(they were)");
	ta = slurp(a);
	tb = slurp(b);
	ok(ta && tb && !strcmp(ta, tb), "and the file is the same byte for "
					"byte");
	doc = ta ? json_tokener_parse(ta) : NULL;
	is_int(doc ? (long long)json_object_array_length(
			 json_object_object_get(doc, "samples"))
		   : -1,
	       404, "every sample, each naming its group");
	json_object_put(doc);
	free(ta);
	free(tb);
	unlink(a);
	unlink(b);
	rmdir(tmp);
}

int
main(void)
{
	char cmd[96];

	if (!mkdtemp(dir))
		return 1;
	plan(33);
	test_empty();
	test_samples();
	test_dash_and_failures();
	test_group_store();
	is_int(files_in(dir), 2, "no temporary file is left beside the files");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return done();
}
