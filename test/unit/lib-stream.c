/* lib-stream.c: the hash table, the stream reader of results files and
 * JSON lines, and the schema-2 writers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/env.h"
#include "base/htab.h"
#include "base/json.h"
#include "model/lines.h"
#include "model/rwriter.h"
#include "model/sample.h"
#include "model/stream.h"
#include "tap.h"

/* The segment key of an empty env ({}): every keyed field null; as
 * text, and as a JSON string in a document. */
#define KEY0 \
	"{" "\"backend\":null," "\"browser\":null," "\"compiler\":null," \
	"\"compiler_major\":null," "\"cpu_model\":null," \
	"\"cuda_driver\":null," "\"cuda_runtime\":null," "\"device\":null," \
	"\"device_cc\":null," "\"device_memory_bytes\":null," \
	"\"device_sms\":null," "\"distro\":null," \
	"\"distro_version\":null," "\"dtype\":null," "\"machine\":null," \
	"\"os\":null," "\"problem_size\":null," "\"tile\":null" "}"
#define KEY0_JSON \
	"\"{" "\\\"backend\\\":null," "\\\"browser\\\":null," \
	"\\\"compiler\\\":null," "\\\"compiler_major\\\":null," \
	"\\\"cpu_model\\\":null," "\\\"cuda_driver\\\":null," \
	"\\\"cuda_runtime\\\":null," "\\\"device\\\":null," \
	"\\\"device_cc\\\":null," "\\\"device_memory_bytes\\\":null," \
	"\\\"device_sms\\\":null," "\\\"distro\\\":null," \
	"\\\"distro_version\\\":null," "\\\"dtype\\\":null," \
	"\\\"machine\\\":null," "\\\"os\\\":null," \
	"\\\"problem_size\\\":null," "\\\"tile\\\":null" "}\""

static char dir[] = "/tmp/lib-stream.XXXXXX";

static const char *
write_file(const char *name, const char *text)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];
	FILE *fp;

	snprintf(p, 512, "%s/%s", dir, name);
	fp = fopen(p, "w");
	fputs(text, fp);
	fclose(fp);
	return p;
}

struct seen {
	int n;
	char ids[8][64];
	int keep;		/* keep the samples in kept */
	struct json_object *kept[8];
	struct prof_stream *st;
};

static int
take(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct seen *v = arg;

	(void)index;
	(void)err;
	if (v->n < 8) {
		snprintf(v->ids[v->n], sizeof(v->ids[0]), "%s %s",
			 prof_json_str(s, "env_id"),
			 prof_json_str(s, "segment_id"));
		if (v->keep)
			v->kept[v->n] = json_object_get(s);
	}
	v->n++;
	return 0;
}

/* The same JSON text (a double 1.0 reads back as the integer 1). */
static int
same(struct json_object *a, struct json_object *b)
{
	char *x = prof_json_canonical(a), *y = prof_json_canonical(b);
	int rc = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return rc;
}

static struct json_object *
sample(const char *workload)
{
	struct prof_sample_meta m = {
		.workload = workload, .version = 1, .category = "test",
		.fixture = "f", .warning_floor_ms = 1, .backend = "cpu",
	};
	struct prof_env_in in = {.backend = "cpu", .dtype = "float32"};
	struct json_object *s = prof_sample_new(&m, prof_env_collect(&in),
						"timing", "warm", 0);

	prof_sample_succeed(s, 1.5, NULL, NULL);
	return s;
}

/* A sample read and let go. */
static int
drop(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	return 0;
}

/* The caller's taker of record lines: takes "note" lines, counted in arg;
 * a "bad" one fills err. */
static int
take_note(void *arg, struct json_object *rec, struct prof_err *err)
{
	const char *r = prof_json_str(rec, "record");

	if (!strcmp(r, "bad"))
		return prof_err_path(err, ".note", "expected a note");
	if (strcmp(r, "note"))
		return 0;
	++*(int *)arg;
	return 1;
}

int
main(void)
{
	struct prof_htab h = {0};
	struct prof_err e = {0};
	struct seen v = {0};
	struct prof_stream *st;
	struct prof_lines w;
	struct prof_rwriter rw;
	struct json_object *s, *doc, *written[3];
	char key[32], buf[1024], id[PROF_ID_SIZE];
	const char *p;
	long n, i, bad = 0;
	FILE *fp;

	plan(26);
	if (!mkdtemp(dir))
		return 1;

	/* The hash table. */
	for (i = 0; i < 5000; i++) {
		n = snprintf(key, sizeof(key), "w%ld%cb", i, '\0');
		prof_htab_put(&h, key, (size_t)n, i);
	}
	for (i = 0; i < 5000; i++) {
		n = snprintf(key, sizeof(key), "w%ld%cb", i, '\0');
		bad += prof_htab_get(&h, key, (size_t)n) != i;
	}
	is_int(bad, 0, "htab: 5000 keys with NUL bytes, each found");
	is_int(prof_htab_get(&h, "w1", 2), -1, "htab: a prefix is another key");
	prof_htab_free(&h);

	/* Ids: plain SHA-256 of the text. */
	prof_sample_id("abc", id);
	is_str(id, "ba7816bf8f01cfea", "an id is SHA-256's first 16 hex digits");

	/* A schema-2 file whose tables come after its samples. */
	p = write_file("late.json",
		       "{\"samples\": [\n"
		       "{\"workload\":\"w.a\",\"workload_version\":1,"
		       "\"category\":\"t\",\"fixture\":\"f\","
		       "\"warning_floor_ms\":1,\"backend\":\"cpu\","
		       "\"env_id\":\"e1\",\"segment_id\":\"s1\",\"phase\":"
		       "\"timing\",\"kind\":\"warm\",\"index\":0,"
		       "\"duration_ms\":2,\"outcome\":\"success\"}\n],\n"
		       "\"schema\":\"prof.results\",\"schema_version\":2,"
		       "\"run_id\":\"r\",\"timestamp_utc\":"
		       "\"2026-11-29T00:00:00Z\",\"command\":"
		       "\"c\",\"commit\":\"abc\",\"envs\":{\"e1\":{}},"
		       "\"segments\":{\"s1\":" KEY0_JSON "}}\n");
	st = prof_stream_new();
	v.st = st;
	n = prof_stream_results(st, p, take, &v, &e);
	is_int(n, 1, "tables after the samples: the sample is read");
	is_str(v.ids[0], "e1 s1", "by its ids");
	is_str(prof_stream_segment(st, "s1"), KEY0,
	       "the segment is looked up when the walk is done");
	is_int(prof_stream_version(st), 2, "schema version 2");
	prof_stream_free(st);

	/* The same with an id no table holds. */
	p = write_file("noid.json",
		       "{\"schema\":\"prof.results\",\"schema_version\":2,"
		       "\"run_id\":\"r\",\"timestamp_utc\":"
		       "\"2026-11-29T00:00:00Z\",\"command\":"
		       "\"c\",\"commit\":\"abc\",\"envs\":{},\"segments\":{},"
		       "\"samples\":[{\"workload\":\"w.a\","
		       "\"workload_version\":1,\"category\":\"t\",\"fixture\":"
		       "\"f\",\"warning_floor_ms\":1,\"backend\":\"cpu\","
		       "\"env_id\":\"e1\",\"segment_id\":\"s1\",\"phase\":"
		       "\"timing\",\"kind\":\"warm\",\"index\":0,"
		       "\"duration_ms\":2,\"outcome\":\"success\"}]}");
	st = prof_stream_new();
	memset(&v, 0, sizeof(v));
	v.st = st;
	memset(&e, 0, sizeof(e));
	n = prof_stream_results(st, p, take, &v, &e);
	prof_err_str(&e, buf, sizeof(buf));
	ok(n < 0 && strstr(buf, ".samples[0].env_id: no such id in .envs"),
	   "an id no table holds is an error with its path");
	prof_stream_free(st);

	/* Lines: a run line, one context line per pair, samples by id. */
	snprintf(buf, sizeof(buf), "%s/s.jsonl", dir);
	fp = fopen(buf, "w");
	prof_lines_init(&w, fp);
	prof_lines_run(&w, "run-1", "quick", NULL, "1/2");
	for (i = 0; i < 3; i++) {
		s = sample(i < 2 ? "w.a" : "w.b");
		prof_lines_write(&w, s, &e);
		json_object_put(s);
	}
	prof_lines_free(&w);
	fclose(fp);
	st = prof_stream_new();
	memset(&v, 0, sizeof(v));
	v.st = st;
	n = prof_stream_lines(st, buf, take, &v, &e);
	is_int(n, 3, "lines: three samples read back");
	is_int(json_object_object_length(prof_stream_envs(st)), 1,
	       "one environment");
	is_str(prof_json_str(json_object_object_get(prof_stream_meta(st),
						    "run"),
			     "shard"),
	       "1/2", "the run line gives the run's shard");
	{
		char text[4096];
		size_t len;
		int contexts = 0;

		fp = fopen(buf, "r");
		len = fread(text, 1, sizeof(text) - 1, fp);
		text[len] = '\0';
		fclose(fp);
		for (p = text; (p = strstr(p, "\"record\":\"context\"")); p++)
			contexts++;
		is_int(contexts, 1, "one context line for the pair");
		p = strstr(text, "\"env\":{");
		ok(p && !strstr(p + 1, "\"env\":{"),
		   "the env is written once, in the context line");
	}

	/* Record lines that are neither context nor run go to the caller's
	 * taker: unknown without one, and where the taker says they are not
	 * its; an error of the taker's names the line. */
	{
		char notes[1100];
		int taken = 0;
		struct prof_stream *ns;

		snprintf(notes, sizeof(notes), "%s/n.jsonl", dir);
		fp = fopen(notes, "w");
		fputs("{\"record\":\"note\"}\n{\"record\":\"note\"}\n", fp);
		fclose(fp);
		ns = prof_stream_new();
		prof_err_clear(&e);
		n = prof_stream_lines(ns, notes, drop, NULL, &e);
		prof_err_str(&e, buf, sizeof(buf));
		ok(n < 0 && strstr(buf, "n.jsonl:1: .record: unknown record 'note'"),
		   "a record line without a taker is unknown");
		prof_stream_on_record(ns, take_note, &taken);
		prof_err_clear(&e);
		n = prof_stream_lines(ns, notes, drop, NULL, &e);
		ok(n == 0 && taken == 2, "the taker takes each of its lines");
		fp = fopen(notes, "w");
		fputs("{\"record\":\"note\"}\n{\"record\":\"bad\"}\n", fp);
		fclose(fp);
		prof_err_clear(&e);
		n = prof_stream_lines(ns, notes, drop, NULL, &e);
		prof_err_str(&e, buf, sizeof(buf));
		ok(n < 0 && strstr(buf, "n.jsonl:2: .note: expected a note"),
		   "the taker's error names the line and the path");
		prof_stream_free(ns);
	}

	/* A results file written one sample at a time reads back. */
	prof_rwriter_init(&rw, &e);
	prof_rwriter_merge_tables(&rw, prof_stream_envs(st),
				  prof_stream_segments(st), &e);
	prof_stream_free(st);
	st = prof_stream_new();
	{
		struct json_object *head = json_object_new_object();

		json_object_object_add(head, "run_id",
				       json_object_new_string("r"));
		json_object_object_add(head, "timestamp_utc",
				       json_object_new_string(
					       "2026-11-29T00:00:00Z"));
		json_object_object_add(head, "command",
				       json_object_new_string("c"));
		json_object_object_add(head, "commit",
				       json_object_new_string("abc"));
		for (i = 0; i < 3; i++) {
			struct json_object *env;
			const char *seg;
			char eid[PROF_ID_SIZE], sid[PROF_ID_SIZE];
			struct json_object *s2;

			s = sample(i < 2 ? "w.c" : "w.d");
			json_object_object_add(s, "index",
					       json_object_new_int64(i));
			/* 1 and 1.0 (a file gives a double back as an
			 * integer): one group. */
			if (i == 1)
				json_object_object_add(
					s, "warning_floor_ms",
					json_object_new_int64(1));
			env = json_object_object_get(s, "env");
			seg = prof_json_str(s, "segment");
			prof_sample_json_id(env, eid);
			prof_sample_id(seg, sid);
			s2 = prof_lines_sample2(s, eid, sid);
			prof_rwriter_put_tables(&rw, eid, env, sid, seg, &e);
			prof_rwriter_add(&rw, s2, &e);
			/* What a reader gives back: the whole sample,
			 * less the null and empty fields. */
			json_object_object_del(s2, "reason");
			json_object_object_del(s2, "checksum");
			json_object_object_del(s2, "artifacts");
			written[i] = s2;
			json_object_put(s);
		}
		snprintf(buf, sizeof(buf), "%s/r.json", dir);
		ok(prof_rwriter_commit(&rw, buf, head, &e) == 0,
		   "rwriter: committed");
		json_object_put(head);
	}
	prof_rwriter_free(&rw);
	doc = prof_json_load(buf, &e);
	is_int(json_object_object_length(json_object_object_get(doc,
								 "groups")),
	       2, "rwriter: two workloads, two groups");
	s = json_object_array_get_idx(json_object_object_get(doc, "samples"),
				      0);
	ok(json_object_object_get_ex(s, "group_id", NULL) &&
		   !json_object_object_get_ex(s, "workload", NULL) &&
		   !json_object_object_get_ex(s, "env_id", NULL) &&
		   !json_object_object_get_ex(s, "reason", NULL) &&
		   !json_object_object_get_ex(s, "artifacts", NULL),
	   "a sample keeps its group_id and its own fields");
	json_object_put(doc);
	memset(&v, 0, sizeof(v));
	v.keep = 1;
	n = prof_stream_results(st, buf, take, &v, &e);
	is_int(n, 3, "the stream reads the grouped samples");
	for (i = bad = 0; i < 3; i++) {
		bad += !same(v.kept[i], written[i]);
		json_object_put(v.kept[i]);
		json_object_put(written[i]);
	}
	is_int(bad, 0, "each joined with its group: as it was written");
	prof_stream_free(st);

	/* Grouped samples: the table first, the id known, no field twice. */
	{
		static const char head[] =
			"{\"schema\":\"prof.results\",\"schema_version\":2,"
			"\"run_id\":\"r\","
			"\"timestamp_utc\":\"2026-11-29T00:00:00Z\","
			"\"command\":\"c\",\"commit\":\"abc\","
			"\"envs\":{\"e1\":{}},"
			"\"segments\":{\"s1\":" KEY0_JSON "},";
		static const char group[] =
			"\"groups\":{\"g1\":{\"workload\":\"w.a\","
			"\"workload_version\":1,\"category\":\"t\","
			"\"fixture\":\"f\",\"warning_floor_ms\":1,"
			"\"backend\":\"cpu\",\"env_id\":\"e1\","
			"\"segment_id\":\"s1\"}}";
		static const char own[] =
			"\"phase\":\"timing\",\"kind\":\"warm\","
			"\"index\":0,\"duration_ms\":2,"
			"\"outcome\":\"success\"}]";
		static const struct {
			const char *sample, *want;
			int groups_first;
		} cases[] = {
			{"\"group_id\":\"g1\",", NULL, 1},
			{"\"group_id\":\"g1\",",
			 ".samples[0].group_id: no such id in .groups (which "
			 "must come before .samples)",
			 0},
			{"\"group_id\":\"g1\",\"backend\":\"cpu\",",
			 ".samples[0].backend: also in its group (.groups.g1)",
			 1},
		};
		char text[2048];
		size_t k;

		for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			snprintf(text, sizeof(text), "%s%s%s\"samples\":[{%s%s%s%s}",
				 head, cases[k].groups_first ? group : "",
				 cases[k].groups_first ? "," : "",
				 cases[k].sample, own,
				 cases[k].groups_first ? "" : ",",
				 cases[k].groups_first ? "" : group);
			p = write_file("grouped.json", text);
			st = prof_stream_new();
			memset(&v, 0, sizeof(v));
			memset(&e, 0, sizeof(e));
			n = prof_stream_results(st, p, take, &v, &e);
			prof_err_str(&e, buf, sizeof(buf));
			if (!cases[k].want)
				ok(n == 1 && !strcmp(v.ids[0], "e1 s1"),
				   "a grouped sample is read with its group's "
				   "ids");
			else
				ok(n < 0 && strstr(buf, cases[k].want),
				   cases[k].want);
			prof_stream_free(st);
		}
	}
	/* A regular file's groups are read again from it for each sample
	 * (where they are, not their text, is kept); a pipe's are kept:
	 * both join the same, an escaped id too, and a duplicate id is an
	 * error at its place either way. */
	{
		static const char doc_fmt[] =
			"{\"schema\":\"prof.results\",\"schema_version\":2,"
			"\"run_id\":\"r\","
			"\"timestamp_utc\":\"2026-11-29T00:00:00Z\","
			"\"command\":\"c\",\"commit\":\"abc\","
			"\"envs\":{\"e1\":{}},"
			"\"segments\":{\"s1\":" KEY0_JSON "},\n"
			"\"groups\":{\"g\\u0031\": {\"workload\":\"w.a\","
			"\"workload_version\":1,\"category\":\"t\","
			"\"fixture\":\"f\",\"warning_floor_ms\":1,"
			"\"backend\":\"cpu\",\"env_id\":\"e1\","
			"\"segment_id\":\"s1\"},\n %s"
			"\"g2\":{\"workload\":\"w.b\","
			"\"workload_version\":1,\"category\":\"t\","
			"\"fixture\":\"f\",\"warning_floor_ms\":1,"
			"\"backend\":\"cpu\",\"env_id\":\"e1\","
			"\"segment_id\":\"s1\"}},"
			"\"samples\":[{\"group_id\":\"g2\",\"phase\":"
			"\"timing\",\"kind\":\"warm\",\"index\":0,"
			"\"duration_ms\":2,\"outcome\":\"success\"},"
			"{\"group_id\":\"g1\",\"phase\":\"timing\",\"kind\":"
			"\"warm\",\"index\":0,\"duration_ms\":3,\"outcome\":"
			"\"success\"}]}";
		char text[4096], got[2][256];
		int pass, twice;

		for (twice = 0; twice < 2; twice++) {
			snprintf(text, sizeof(text), doc_fmt,
				 twice ? "\"g1\":{},\n" : "");
			p = write_file("groups.json", text);
			for (pass = 0; pass < 2; pass++) {
				int fds[2], saved = dup(0);
				pid_t pid = -1;

				st = prof_stream_new();
				memset(&v, 0, sizeof(v));
				memset(&e, 0, sizeof(e));
				v.keep = 1;
				if (pass) {
					/* stdin a pipe, written by a child */
					if (pipe(fds) < 0)
						return 1;
					pid = fork();
					if (pid == 0) {
						close(fds[0]);
						if (write(fds[1], text,
							  strlen(text)) < 0)
							_exit(1);
						_exit(0);
					}
					close(fds[1]);
					dup2(fds[0], 0);
					close(fds[0]);
					clearerr(stdin);
				}
				n = prof_stream_results(st, pass ? "-" : p,
							take, &v, &e);
				if (pass) {
					waitpid(pid, NULL, 0);
					dup2(saved, 0);
					clearerr(stdin);
				}
				close(saved);
				prof_err_str(&e, got[pass], sizeof(got[0]));
				if (!twice && n == 2)
					snprintf(got[pass], sizeof(got[0]),
						 "%s %s",
						 prof_json_str(v.kept[0],
							       "workload"),
						 prof_json_str(v.kept[1],
							       "workload"));
				for (i = 0; i < v.n && i < 8; i++)
					json_object_put(v.kept[i]);
				prof_stream_free(st);
			}
			if (!twice)
				ok(!strcmp(got[0], "w.b w.a") &&
					   !strcmp(got[1], got[0]),
				   "groups joined from a file (read again) "
				   "and from a pipe (kept), an escaped id "
				   "too");
			else
				ok(strstr(got[0], ":3:2: duplicate key "
						  "\"g1\"") &&
					   strstr(got[1], ":3:2: duplicate "
							  "key \"g1\""),
				   "a duplicate group id is an error at its "
				   "place, from a file and from a pipe");
			if (strcmp(got[1], got[0]))
				printf("# file: %s; pipe: %s\n", got[0],
				       got[1]);
		}
	}
	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	if (system(buf) != 0)
		return 1;
	return tap_failed ? 1 : 0;
}
