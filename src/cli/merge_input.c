/* merge_input.c: prof-merge's inputs into one results document: sample
 * streams, browser rows and Google Benchmark's JSON, each sample checked
 * to be there once, and the streams checked to be of one run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/id.h"
#include "base/json.h"
#include "base/pool.h"
#include "model/browser.h"
#include "model/calib.h"
#include "model/gbench.h"
#include "model/lines.h"
#include "model/sample.h"
#include "model/stream.h"
#include "cli.h"
#include "merge.h"

/* Places are kept as input << PLACE_BITS | line (or sample index). */
#define PLACE_BITS 40

/* The shard text of the input being read, from its run (known before its
 * samples in the files prof-merge writes, and in key order too). */
static int
shard_of_input(struct cli_merge *m)
{
	struct json_object *r = NULL;
	const char *shard;

	json_object_object_get_ex(prof_stream_meta(m->st), "run", &r);
	shard = prof_json_str(r, "shard");
	if (!shard || strlen(shard) > 64) {
		m->untagged = 1;
		return 0;
	}
	m->shard = strdup(shard);
	return m->shard ? 0 : -1;
}

/* --shards: note the workload of a sample of the shard being read, for
 * check_owners(): 'b' before the id of a browser row's, 'w' before any
 * other's. Returns 0, or -1 when out of memory. */
static int
note_workload(struct cli_merge *m, struct json_object *s)
{
	const char *id = prof_json_str(s, "workload");
	const char *phase = prof_json_str(s, "phase");
	char key[1024];
	int len;

	if (!id)
		return 0;
	len = snprintf(key, sizeof(key), "%c%s",
		       phase && !strcmp(phase, "browser") ? 'b' : 'w', id);
	if (len >= (int)sizeof(key))
		return 0;
	return prof_pool_str(&m->workloads, key) ? 0 : -1;
}

void
cli_merge_forget_workloads(struct cli_merge *m)
{
	prof_pool_free(&m->workloads);
}

/* A new input: its name kept for the places of messages. Returns 0, or
 * -1 when out of memory. */
int
cli_merge_input(struct cli_merge *m, const char *name, int doc)
{
	if (PROF_GROW(m->names, m->n_names + 1, m->cap_names) < 0)
		return -1;
	m->names[m->n_names] = strdup(strcmp(name, "-") ? name : "<stdin>");
	if (!m->names[m->n_names])
		return -1;
	m->n_names++;
	m->doc = doc;
	return 0;
}

/* A place as a message gives it: "f.jsonl:3", or "f.json: .samples[2]". */
static void
place_text(const struct cli_merge *m, int64_t place, int doc, char *buf,
	   size_t n)
{
	size_t input = (size_t)(place >> PLACE_BITS);
	long at = place & ((1L << PLACE_BITS) - 1);
	const char *name = input < m->n_names ? m->names[input] : "?";

	if (doc)
		snprintf(buf, n, "%s: .%s[%ld]", name,
			 doc == 2 ? "benchmarks" : "samples", at);
	else
		snprintf(buf, n, "%s:%ld", name, at);
}

/* The number of a group (gkey, len bytes: workload, backend, segment,
 * phase and kind), new ones numbered in turn, with room for its run.
 * Returns it, or -1 when out of memory. */
static long
group_of(struct cli_merge *m, const char *gkey, int len)
{
	long g;

	/* A group's samples mostly come one after another. */
	if (len == m->last_glen && !memcmp(gkey, m->last_gkey, (size_t)len))
		g = m->last_g;
	else
		g = prof_htab_get(&m->groups, gkey, (size_t)len);
	if (g < 0) {
		g = m->n_groups++;
		if (prof_htab_put(&m->groups, gkey, (size_t)len, g) < 0)
			return -1;
	}
	if ((size_t)g >= m->cap_runs) {
		size_t had = m->cap_runs;

		if (PROF_GROW(m->runs, (size_t)g + 1, m->cap_runs) < 0)
			return -1;
		memset(m->runs + had, 0,
		       (m->cap_runs - had) * sizeof(*m->runs));
	}
	memcpy(m->last_gkey, gkey, (size_t)len);
	m->last_glen = len;
	m->last_g = g;
	return g;
}

/*
 * Sample index of group g, met at place: 1 with the place it was met
 * before in *prev, or 0 when it is new (and now kept: in the group's run
 * when it is the run's next, else in seen or seen_big); -1 when out of
 * memory.
 */
static int
seen_before(struct cli_merge *m, long g, int64_t index, int64_t place,
	    int64_t *prev)
{
	struct cli_merge_run *r = &m->runs[g];
	int64_t key[2] = {g, index};
	int found;

	if (index >= 0 && index < r->n) {
		/* In the group's run. */
		*prev = r->at + index * r->step;
		return 1;
	}
	if (g < (1L << 23) && index >= 0 && index < (1LL << PLACE_BITS)) {
		uint64_t k64 = (uint64_t)g << PLACE_BITS | (uint64_t)index;

		found = prof_htab64_get(&m->seen, k64, prev);
		if (!found && index == r->n &&
		    (!r->n || (r->n == 1 && place > r->at) ||
		     (r->n > 1 && (place - r->at) % r->step == 0 &&
		      (place - r->at) / r->step == r->n))) {
			/* The run's next (an index seen out of it is in
			 * seen, looked up first). */
			if (!r->n)
				r->at = place;
			else if (r->n == 1)
				r->step = place - r->at;
			r->n++;
		} else if (!found &&
			   prof_htab64_put(&m->seen, k64, place) < 0) {
			return -1;
		}
		return found;
	}
	*prev = prof_htab_get(&m->seen_big, key, sizeof(key));
	if (*prev >= 0)
		return 1;
	return prof_htab_put(&m->seen_big, key, sizeof(key), (long)place) < 0 ?
		       -1 : 0;
}

/* What a sample's group is, in the order its key joins them. */
enum { GF_WORKLOAD, GF_BACKEND, GF_SEGMENT, GF_PHASE, GF_KIND, GF_N };
static const char *const group_fields[GF_N] = {
	"workload", "backend", "segment_id", "phase", "kind",
};

/* The key of sample s's group: its fields (each into f) joined by NUL
 * bytes into buf of n. Its length, or -1 when s lacks one of them or the
 * key does not fit (ids are at most 200 bytes each). */
static int
group_key(struct json_object *s, const char **f, char *buf, size_t n)
{
	size_t len = 0, size, k;

	for (k = 0; k < GF_N; k++) {
		f[k] = prof_json_str(s, group_fields[k]);
		if (!f[k])
			return -1;
		size = strlen(f[k]) + 1;
		if (len + size > n)
			return -1;
		memcpy(buf + len, f[k], size);
		len += size;
	}
	return (int)len - 1;
}

/*
 * A sample is one call: its run, workload, backend, segment, phase, kind
 * and index say which. The same twice (a stream given twice, or two runs
 * of the same selection) would double n and shrink every p-value on no
 * new evidence: refused, naming both places. The run is one per merge
 * (the streams of two runs are refused when their run lines say so, and
 * --shards checks each shard's own samples, its workloads being its
 * own). Memory: one small entry a sample. at is the sample's line, or its
 * index in a document. Returns 0, or -1 with err.
 */
static int
check_once(struct cli_merge *m, struct json_object *s, long at,
	   struct prof_err *err)
{
	const char *f[GF_N];
	struct json_object *v = NULL;
	char gkey[1024], here[8600], there[4200];
	int64_t index, prev = 0, place;
	long g;
	int len, found;

	len = group_key(s, f, gkey, sizeof(gkey));
	if (len < 0 || !json_object_object_get_ex(s, "index", &v))
		return 0;
	g = group_of(m, gkey, len);
	if (g < 0)
		return prof_err_set(err, "out of memory");
	index = json_object_get_int64(v);
	place = (int64_t)(m->n_names - 1) << PLACE_BITS |
		(at & ((1L << PLACE_BITS) - 1));
	found = seen_before(m, g, index, place, &prev);
	if (found < 0)
		return prof_err_set(err, "out of memory");
	if (!found)
		return 0;
	place_text(m, prev, m->doc, there, sizeof(there));
	snprintf(here, sizeof(here),
		 "a second sample of '%s' (%s, %s, %s, index %lld): the first "
		 "is at %s; an input given twice, or two runs? (a run's "
		 "shards merge with --shards)",
		 f[GF_WORKLOAD], f[GF_BACKEND], f[GF_PHASE], f[GF_KIND],
		 (long long)index, there);
	if (m->doc) {
		char path[64];

		snprintf(path, sizeof(path), ".%s[%ld]",
			 m->doc == 2 ? "benchmarks" : "samples", at);
		return prof_err_path(err, path, "%s", here);
	}
	return prof_err_set(err, "%s", here);
}

/* A record line of a stream that is the drift guard's (calib.h): kept
 * for the results' "calibration". */
int
cli_merge_take_calib(void *arg, struct json_object *rec,
		     struct prof_err *err)
{
	struct cli_merge *m = arg;

	if (!prof_calib_is_record(rec))
		return 0;
	return prof_calib_take(m->calib, rec, err) < 0 ? -1 : 1;
}

/* A sample of an input into the output, with its shard when merging
 * shards. */
int
cli_merge_take(void *arg, struct json_object *s, long index,
	       struct prof_err *err)
{
	struct cli_merge *m = arg;

	if (check_once(m, s, index, err) < 0)
		return -1;
	if (!m->shards)
		return prof_rwriter_add(&m->w, s, err);
	if (note_workload(m, s) < 0)
		return prof_err_set(err, "out of memory");
	if (!m->shard && !m->untagged && shard_of_input(m) < 0)
		return prof_err_set(err, "out of memory");
	if (m->shard && !json_object_object_get_ex(s, "shard", NULL))
		json_object_object_add(s, "shard",
				       json_object_new_string(m->shard));
	return prof_rwriter_add(&m->w, s, err);
}

/* The line of the next row of a browser rows file after line (its
 * samples are its lines that are not blank, in order, as
 * prof_json_lines() reads them); pos is where line ended. */
static long
next_row(const char *buf, size_t len, size_t *pos, long line)
{
	while (*pos < len) {
		const char *nl = memchr(buf + *pos, '\n', len - *pos);
		size_t end = nl ? (size_t)(nl - buf) : len, i;

		for (i = *pos; i < end; i++)
			if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r')
				break;
		*pos = end + 1;
		line++;
		if (i < end)
			return line;
	}
	return line + 1;
}

/*
 * One sample of a file read whole (Playwright rows, Google Benchmark's
 * JSON) into the output, made schema 2: its env and segment ids, the
 * check that it is not there twice (at: its place for check_once();
 * line, when not 0, the line an error names), its tables and itself.
 * 0; -1 when it was refused or could not be written (said); -2 when out
 * of memory.
 */
static int
add_whole(struct cli_merge *m, struct json_object *s, long at, long line,
	  const char *name)
{
	struct json_object *env = json_object_object_get(s, "env"), *s2;
	const char *seg = prof_json_str(s, "segment");
	char eid[PROF_ID_SIZE], sid[PROF_ID_SIZE];
	struct prof_err err = {0};
	int rc = -1;

	if (prof_sample_json_id(env, eid) < 0 || prof_sample_id(seg, sid) < 0)
		return -2;
	s2 = prof_lines_sample2(s, eid, sid);
	if (!s2)
		return -2;
	if (check_once(m, s2, at, &err) < 0) {
		prof_err_file(&err, name);
		if (line) {
			err.line = (int)line;
			err.col = 0;
		}
		cli_err(&err);
	} else if (prof_rwriter_put_tables(&m->w, eid, env, sid, seg,
					   &err) < 0 ||
		   prof_rwriter_add(&m->w, s2, &err) < 0) {
		cli_err(&err);
	} else {
		rc = 0;
	}
	json_object_put(s2);
	return rc;
}

/* Browser rows: read whole (a few per story), made schema-2 samples. */
int
cli_merge_playwright(struct cli_merge *m, const char *path)
{
	struct json_object *arr = json_object_new_array();
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct prof_err err = {0};
	char *buf = NULL;
	size_t len = 0, i, pos = 0;
	long line = 0;
	int rc = -1;

	if (!arr)
		goto oom;
	if (prof_json_read_file(path, &buf, &len, &err) < 0 ||
	    prof_browser_parse_lines(buf, len, name, arr, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (cli_merge_input(m, name, 0) < 0)
		goto oom;
	for (i = 0; i < json_object_array_length(arr); i++) {
		int k;

		/* One row, one place: the line names it. */
		line = next_row(buf, len, &pos, line);
		k = add_whole(m, json_object_array_get_idx(arr, i), line, line,
			      name);
		if (k == -2)
			goto oom;
		if (k < 0)
			goto out;
	}
	rc = 0;
	goto out;
oom:
	cli_say("out of memory");
out:
	json_object_put(arr);
	free(buf);
	return rc;
}

/* Where cli_merge_gbench()'s samples go. */
struct gb_sink {
	struct cli_merge *m;
	const char *name;
	int said;		/* add_whole() said why it failed */
};

static int
gb_take(void *arg, struct json_object *s, long entry, struct prof_err *err)
{
	struct gb_sink *k = arg;
	int rc = add_whole(k->m, s, entry, 0, k->name);

	if (rc == 0)
		return 0;
	if (rc == -2)
		cli_say("out of memory");
	k->said = 1;
	return prof_err_set(err, "refused");
}

/*
 * Google Benchmark's JSON, streamed (gbench.h): each repetition's sample
 * made schema 2 as it is read, in memory bounded by one entry and a few
 * bytes a benchmark. A file written on another host keeps its machine's
 * facts null, and says so.
 */
int
cli_merge_gbench(struct cli_merge *m, const char *path)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct gb_sink k = {.m = m, .name = name};
	struct prof_stream *st = prof_stream_new();
	struct prof_err err = {0};
	char host[256], safe[256];
	int foreign = 0;
	long n;

	if (!st || cli_merge_input(m, name, 2) < 0) {
		prof_stream_free(st);
		cli_say("out of memory");
		return -1;
	}
	n = prof_gbench_stream(st, path, gb_take, &k, &foreign, host,
			       sizeof(host), &err);
	prof_stream_free(st);
	if (n < 0) {
		if (!k.said)
			cli_err(&err);
		return -1;
	}
	if (foreign)
		cli_say("'%s': written on host '%s', not here: its OS, "
			"distribution and CPU model are recorded as null",
			name, cli_safe(host, safe, sizeof(safe)));
	return 0;
}

/* A run line's shard, for a message. */
static const char *
shard_text(struct json_object *run, char *buf, size_t n)
{
	const char *shard = prof_json_str(run, "shard");

	if (shard)
		snprintf(buf, n, "shard %.64s", shard);
	else
		snprintf(buf, n, "no shard");
	return buf;
}

/*
 * The streams merged as one run must be of one run: where the stream just
 * read and the first to say so both give a run line, the same shard (or
 * none) and, where both name one, the same run id. Streams of shards are
 * merged shard by shard, and the shards' results with --shards. Says why
 * not and returns -1; otherwise 0.
 */
int
cli_merge_same_run(struct cli_merge *m, struct cli_merge_first_run *f)
{
	struct json_object *meta = prof_stream_meta(m->st), *r = NULL;
	const char *id = prof_json_str(meta, "run_id"), *id0, *a, *b;
	char ta[96], tb[96];

	if (!json_object_object_get_ex(meta, "run", &r) || !r)
		return 0;
	if (!f->run) {
		f->run = json_object_new_object();
		if (!f->run) {
			cli_say("out of memory");
			return -1;
		}
		json_object_object_add(f->run, "run_id",
				       id ? json_object_new_string(id) : NULL);
		json_object_object_add(
			f->run, "shard",
			json_object_get(json_object_object_get(r, "shard")));
		f->input = m->n_names - 1;
		return 0;
	}
	a = prof_json_str(r, "shard");
	b = prof_json_str(f->run, "shard");
	if ((a || b) && (!a || !b || strcmp(a, b))) {
		cli_say("streams of two runs: '%s' (%s) and '%s' (%s); merge "
			"each shard's streams on their own, then the shards' "
			"results with --shards",
			m->names[m->n_names - 1], shard_text(r, ta, sizeof(ta)),
			m->names[f->input], shard_text(f->run, tb, sizeof(tb)));
		return -1;
	}
	id0 = prof_json_str(f->run, "run_id");
	if (id && id0 && strcmp(id, id0)) {
		cli_say("streams of two runs: '%s' (run '%s') and '%s' (run "
			"'%s'); a run's shards merge with --shards",
			m->names[m->n_names - 1], id, m->names[f->input], id0);
		return -1;
	}
	return 0;
}

void
cli_merge_free(struct cli_merge *m)
{
	size_t k;

	prof_rwriter_free(&m->w);
	prof_stream_free(m->st);
	json_object_put(m->calib);
	cli_merge_forget_workloads(m);
	prof_htab_free(&m->owner);
	prof_htab_free(&m->groups);
	prof_htab64_free(&m->seen);
	prof_htab_free(&m->seen_big);
	free(m->runs);
	for (k = 0; k < m->n_names; k++)
		free(m->names[k]);
	free(m->names);
	free(m->shard);
}
