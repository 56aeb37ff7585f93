/* lib-runview.c: a results file streamed into its rows (runview.h): the
 * rows of test/data/results/current.json (its README says what each
 * workload holds), the top level, the second walk, the digest, errors,
 * and each row's verdicts from a comparisons document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "base/out.h"
#include "verdict/verdict.h"
#include "model/runview.h"
#include "model/sample.h"
#include "model/stream.h"
#include "tap.h"

#define DATA "test/data/results/"

static char dir[] = "/tmp/lib-runview.XXXXXX";

static const struct prof_runrow *
row_of(const struct prof_runview *v, const char *w, const char *b)
{
	const struct prof_runrow *rows;
	size_t i, n = prof_runview_rows(v, &rows);

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].workload, w) && !strcmp(rows[i].backend, b))
			return &rows[i];
	return NULL;
}

/* The digest of the file at path, or the error. */
static void
digest_of(const char *path, char *out, size_t n)
{
	struct prof_runview v = {0};
	struct prof_err e = {0};

	if (prof_runview_load(&v, path, 0, &e) == 0)
		snprintf(out, n, "%s", v.digest);
	else
		prof_err_str(&e, out, n);
	prof_runview_free(&v);
}

/* The error of loading path, or "(loaded)". */
static const char *
load_error(const char *path)
{
	static char buf[1024];
	struct prof_runview v = {0};
	struct prof_err e = {0};

	if (prof_runview_load(&v, path, 0, &e) == 0)
		snprintf(buf, sizeof(buf), "(loaded)");
	else
		prof_err_str(&e, buf, sizeof(buf));
	prof_runview_free(&v);
	return buf;
}

struct walk {
	size_t n, v2, stop_at;
};

static int
each(void *arg, struct json_object *s, struct prof_err *err)
{
	struct walk *w = arg;

	w->n++;
	w->v2 += json_object_object_get_ex(s, "segment_id", NULL) &&
		 json_object_object_get_ex(s, "env_id", NULL) &&
		 !json_object_object_get_ex(s, "segment", NULL);
	if (w->stop_at && w->n == w->stop_at)
		return prof_err_set(err, "stop here");
	return 0;
}

static void
test_rows(struct prof_runview *v)
{
	const struct prof_runrow *rows, *r;
	size_t n = prof_runview_rows(v, &rows), i, sorted = 1;

	is_int((long long)prof_runview_count(v), 40, "every sample counted");
	is_int(v->schema_version, 1, "of schema version 1");
	is_str(prof_runview_str(v, "run_id"), "20261129T181500Z-c0de",
	       "a top-level string");
	is_str(prof_runview_str(v, "no_such_key"), "", "a missing one is \"\"");
	ok(prof_runview_env(v) && prof_json_str(prof_runview_env(v), "os"),
	   "the first sample's env");
	is_int((long long)n, 11, "a row per workload x backend x segment");
	for (i = 1; i < n; i++) {
		int c = strcmp(rows[i - 1].workload, rows[i].workload);

		if (!c)
			c = strcmp(rows[i - 1].backend, rows[i].backend);
		if (!c)
			c = strcmp(rows[i - 1].segment, rows[i].segment);
		sorted &= c < 0;
	}
	ok(sorted, "sorted by workload, backend and segment key, once each");

	r = row_of(v, "w.warning", "cpu");
	ok(r && r->n == 5 && r->st.min == 12.8 && r->st.median == 13 &&
	       r->st.p90 == 13.3 && r->st.max == 13.3,
	   "w.warning: its five warm timings, not the cold, memory and "
	   "profile samples");
	ok(r && r->host_peak_bytes == 10485760 &&
	       r->rss_peak_bytes == 20971520 && isnan(r->device_peak_bytes),
	   "the memory sample's peaks; no device number: NAN");
	ok(r && r->n_artifacts == 1 &&
	       !strcmp(r->artifacts[0], "w.warning.prof"),
	   "the artifacts its samples name");
	ok(r && r->instructions == -1 && r->n_counts == 0 && r->errors == 0,
	   "not counted, no error");
	ok(r && !strcmp(prof_runview_segment(v, r->segment_id), r->segment),
	   "a row's segment id names its key");
	is_str(prof_runview_segment(v, "0000000000000000"), "",
	       "an unknown segment id: \"\"");

	r = row_of(v, "w.half", "cpu");
	ok(r && r->n == 4 && r->st.median == 12.75,
	   "w.half: an even n's median is the mean of the middle two");
	r = row_of(v, "w.crash", "cpu");
	ok(r && r->n == 0 && r->errors == 1 && r->st.n == 0,
	   "w.crash: a row of one error sample, no statistics");
	r = row_of(v, "w.gpu", "gpu");
	ok(r && prof_runview_row(v, "w.gpu", "gpu", r->segment) ==
		    (long)(r - rows),
	   "a row found by workload, backend and segment key");
	ok(r && prof_runview_row(v, "w.gpu", "cpu", r->segment) == -1 &&
	       prof_runview_row(v, "w.nope", "gpu", r->segment) == -1,
	   "and -1 for none");
	r = row_of(v, "browser.boot", "chromium");
	ok(r == &rows[0] && r->n > 0,
	   "browser rows are rows too, sorted first");
}

static void
test_walk(struct prof_runview *v)
{
	struct walk w = {0};
	struct prof_err e = {0};
	char buf[512];

	ok(prof_runview_each(v, each, &w, &e) == 0, "walked again");
	is_int((long long)w.n, 40, "every sample");
	is_int((long long)w.v2, 40,
	       "each whole, in the schema-2 form (segment_id and env_id)");
	memset(&w, 0, sizeof(w));
	w.stop_at = 3;
	ok(prof_runview_each(v, each, &w, &e) < 0 && w.n == 3,
	   "the callback's error stops the walk");
	is_str(strstr(prof_err_str(&e, buf, sizeof(buf)), "stop here")
		   ? "stop here"
		   : buf,
	       "stop here", "and is the walk's error");
}

static void
test_digest(void)
{
	char a[128], b[128], path[96];
	struct prof_err e = {0};
	struct json_object *doc = prof_json_load(DATA "current.json", &e), *s;
	FILE *fp;

	digest_of(DATA "current.json", a, sizeof(a));
	ok(!strncmp(a, "v2:", 3) && strlen(a) == 3 + 64,
	   "the digest: v2: and a SHA-256");
	digest_of(DATA "current.json", b, sizeof(b));
	is_str(b, a, "the same file, the same digest");
	if (!doc)
		return;
	snprintf(path, sizeof(path), "%s/plain.json", dir);
	fp = fopen(path, "w");
	if (fp) {
		fputs(
		    json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN),
		    fp);
		fclose(fp);
	}
	digest_of(path, b, sizeof(b));
	is_str(b, a, "the same run written another way, the same digest");
	s = json_object_array_get_idx(json_object_object_get(doc, "samples"),
				      0);
	json_object_object_add(s, "duration_ms", json_object_new_double(12.9));
	snprintf(path, sizeof(path), "%s/changed.json", dir);
	prof_out_json(path, doc, &e);
	digest_of(path, b, sizeof(b));
	ok(strcmp(a, b) != 0, "one duration changed, another digest");
	json_object_put(doc);
}

static void
test_errors(void)
{
	ok(strstr(load_error(DATA "schema-bad.json"),
		  DATA "schema-bad.json: .samples[2].duration_ms: ") ==
	       load_error(DATA "schema-bad.json"),
	   "a schema error names the file and the JSON path");
	ok(strstr(load_error(DATA "truncated.json"),
		  DATA "truncated.json:89:10: ") ==
	       load_error(DATA "truncated.json"),
	   "a cut file names its line and column");
	ok(strstr(load_error(DATA "no-such.json"), DATA "no-such.json: ") ==
	       load_error(DATA "no-such.json"),
	   "a missing file names itself");
}

static int
take_current(void *arg, struct json_object *s, long index,
	     struct prof_err *err)
{
	(void)index;
	return prof_cmp_take(arg, s, prof_json_str(s, "segment_id"), err);
}

static int
take_baseline(void *arg, struct json_object *s, long index,
	      struct prof_err *err)
{
	(void)index;
	return prof_cmp_base_take(arg, s, prof_json_str(s, "segment_id"),
				  err);
}

static const char *
segment_of(void *st, const char *id)
{
	return prof_stream_segment(st, id);
}

static void
test_verdicts(struct prof_runview *v)
{
	struct prof_err e = {0};
	struct prof_stream *cur = prof_stream_new(), *base = prof_stream_new();
	struct json_object *cmp = NULL, *first;
	struct prof_cmp c = {0};
	const struct prof_runrow *rows;
	struct prof_runverdict *out;
	size_t n = prof_runview_rows(v, &rows);
	long i;
	char buf[1024];

	out = calloc(n, sizeof(*out));
	/* prof-diff's walk: both files streamed into the rows. */
	if (cur && base && out &&
	    prof_stream_results(cur, DATA "current.json", take_current, &c,
				&e) >= 0 &&
	    prof_cmp_close(&c, segment_of, cur, &e) == 0 &&
	    prof_cmp_set_run(&c, prof_json_str(prof_stream_meta(cur),
					       "run_id")) == 0 &&
	    prof_stream_results(base, DATA "baseline.json", take_baseline, &c,
				&e) >= 0 &&
	    prof_cmp_judge_groups(&c, segment_of, base, 0,
				  DATA "baseline.json", &e) == 0)
		cmp = prof_cmp_json(&c);
	ok(cmp && prof_runview_verdicts(v, cmp, out, &e) == 0,
	   "verdicts from prof-diff's comparisons of the run");
	i = (long)(row_of(v, "w.warning", "cpu") - rows);
	is_str(out[i].status, "warning", "w.warning: warning");
	ok(out[i].reason && out[i].count_status == NULL,
	   "with its reason, and no count verdict");
	i = (long)(row_of(v, "w.new", "cpu") - rows);
	is_str(out[i].status, "new", "w.new: new");
	i = (long)(row_of(v, "w.under_floor", "cpu") - rows);
	is_str(out[i].status, "stable", "w.under_floor: stable");

	first = cmp ? json_object_array_get_idx(cmp, 0) : NULL;
	if (first)
		json_object_object_add(first, "run_id",
				       json_object_new_string("other"));
	memset(&e, 0, sizeof(e));
	ok(cmp && prof_runview_verdicts(v, cmp, out, &e) < 0,
	   "comparisons of another run are refused");
	is_str(prof_err_str(&e, buf, sizeof(buf)),
	       "[0].run_id: a comparison of run 'other', not of the "
	       "results' run '20261129T181500Z-c0de'",
	       "naming the path and both runs");
	json_object_put(cmp);
	prof_cmp_free(&c);
	prof_stream_free(cur);
	prof_stream_free(base);
	free(out);
}

int
main(void)
{
	struct prof_runview v = {0};
	struct prof_err e = {0};
	char cmd[96];

	if (!mkdtemp(dir))
		return 1;
	plan(38);
	ok(prof_runview_load(&v, DATA "current.json", 0, &e) == 0,
	   "current.json loads");
	test_rows(&v);
	test_walk(&v);
	test_digest();
	test_errors();
	test_verdicts(&v);
	prof_runview_free(&v);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return done();
}
