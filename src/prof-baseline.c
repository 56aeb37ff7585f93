/* prof-baseline: promote a results file to a named baseline, refusing runs
 * that are unfit to compare against. */
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "base/afile.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/id.h"
#include "base/json.h"
#include "cli/cli.h"
#include "verdict/verdict.h"
#include "model/calib.h"
#include "model/rwriter.h"
#include "model/sample.h"
#include "model/segcal.h"
#include "model/stream.h"

struct opts {
	const char *from, *name, *dir;
	int add, force;
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-baseline --from RESULTS --name NAME [--output DIR]"),
	CLI_USAGE("prof-baseline --from RESULTS --name NAME --add|--force [--output DIR]"),
	CLI_TEXT(
	"Promote the results file RESULTS (- for stdin, schema 1 or 2) to the\n"
	"baseline DIR/NAME.json (schema 2), written atomically; later runs\n"
	"compare against it with prof-diff --baseline DIR/NAME.json. Commit\n"
	"it on its own, made from the machine class it names (CI data for\n"
	"cpu-ci); CI never promotes."),
	CLI_TEXT(
	"A baseline that is there is never replaced by accident: without\n"
	"--add or --force, a NAME that names one is refused (exit 2, nothing\n"
	"written), saying how many workloads it holds and the run has."),
	CLI_TEXT(
	"With --add, the run's rows are added to the baseline that is there:\n"
	"its samples of the rows the run has (workload x segment x phase:\n"
	"timing, memory, instructions, ...) are replaced by the run's, those\n"
	"of other rows (other workloads, other CPU models of a fleet of CI\n"
	"runners) are kept. A segment that the run and the baseline share\n"
	"takes the run's calibration. Without a baseline there, --add\n"
	"promotes. With --force, the run replaces the baseline whole."),
	CLI_TEXT(
	"It refuses, writing nothing, a run with an error sample, with no\n"
	"samples, with a sample that asked for the GPU but ran on the CPU\n"
	"(env.backend_requested gpu, env.backend cpu), with mixed schema\n"
	"versions, with a workload whose output checksum differs between\n"
	"two calls of one row (workload x backend x segment: every later\n"
	"run of the row would be incomparable against it), or that is one\n"
	"shard of a run (run.shard \"1/3\": it holds that shard's workloads\n"
	"only; merge the shards with prof-merge --shards and promote the\n"
	"merged run), --add or not (exit 1); a run whose calibration spread\n"
	"says the machine was unsteady (above 10%: its times may be noise),\n"
	"unless --force (exit 1); and a NAME that is not a valid\n"
	"name (exit 2): 1 to 200 letters, digits, '.', '_' and '-', the\n"
	"first a letter or a digit, as for workload ids."),
	CLI_GROUP("options:"),
	CLI_STRING("from", 0, "RESULTS", struct opts, from,
		"the results file, e.g.\n"
		"artifacts/profiling/RUN/results.json"),
	CLI_STRING("name", 0, "NAME", struct opts, name,
		"the baseline's name, e.g. cpu-ci ('.json' is\n"
		"added unless NAME ends with it)"),
	CLI_STRING("output", 'o', "DIR", struct opts, dir,
		"the baselines folder (default baselines; created\n"
		"when missing)"),
	CLI_TRUE("add", 0, struct opts, add,
		"add the run's rows to DIR/NAME.json"),
	CLI_TRUE("force", 0, struct opts, force,
		"replace DIR/NAME.json whole; promote a run on\n"
		"an unsteady machine"),
	CLI_TEXT(
	"example:\n"
	"  prof-baseline --from ci/results.json --name cpu-ci"),
	CLI_TEXT(
	"Exit status: 0 promoted, 1 refused, the run is unfit (the reason is\n"
	"printed), 2 bad arguments (a bad NAME included, or one that names a\n"
	"baseline without --add or --force), a malformed results file, an\n"
	"output that is the input, or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

/* What promotion learns of a run as it streams by. */
struct promo {
	struct prof_stream *st;
	struct prof_rwriter *w;
	long samples, errors;
	long first_error;
	char first_error_text[1024];
	/* Env ids in the order first named, with their first sample. */
	struct prof_htab env_index;
	char **env_ids;
	long *env_first;
	char **env_workload;
	size_t n_envs, cap_envs;
	/* --add: the run's segment keys (by id while reading the run). */
	struct prof_htab run_segments;
	char **seg_ids;
	size_t n_segs, cap_segs;
	/* --add: the run's rows, workload x segment x phase (row_key(): by
	 * segment id while reading the run, by segment key after). */
	struct prof_htab run_rows;
	char **row_keys;
	size_t *row_lens;
	size_t n_rows, cap_rows;
	/* The workloads of the run and of the baseline that is there. */
	struct prof_htab run_workloads, old_workloads;
	/* --add: the old baseline's samples kept and dropped. */
	long kept, replaced;
	/* Each row's first output checksum (row key -> index in sums), and
	 * the first row whose calls disagree. */
	struct prof_htab rows;
	struct row_sum *sums;
	size_t n_sums, cap_sums;
	char *unsteady;
};

/* The first output checksum of a row's calls, and where it was. */
struct row_sum {
	char *sum;
	long index;
};

static int
remember(char ***arr, size_t n, size_t *cap, const char *s)
{
	if (PROF_GROW(*arr, n + 1, *cap) < 0)
		return -1;
	(*arr)[n] = strdup(s);
	return (*arr)[n] ? 0 : -1;
}

/*
 * A row of a baseline as --add replaces it: segment (an id or a key),
 * workload and phase joined by NUL bytes into buf. Returns its length,
 * or -1 when it does not fit (ids are at most 200 bytes each).
 */
static int
row_key(char *buf, size_t n, const char *seg, struct json_object *s)
{
	const char *w = prof_sample_str(s, "workload");
	const char *ph = prof_sample_str(s, "phase");
	int len = snprintf(buf, n, "%s%c%s%c%s", seg ? seg : "", '\0',
			   w ? w : "", '\0', ph ? ph : "");

	return len < 0 || len >= (int)n ? -1 : len;
}

/* Count the workload of sample s into set (its size is the count). */
static int
count_workload(struct prof_htab *set, struct json_object *s)
{
	const char *w = prof_sample_str(s, "workload");

	if (!w || prof_htab_get(set, w, strlen(w)) >= 0)
		return 0;
	return prof_htab_put(set, w, strlen(w), (long)set->n);
}

/* A checksum for a message: its first 12 digits, as prof-diff's. */
static const char *
short_sum(const char *sum, char *buf, size_t n)
{
	snprintf(buf, n, "%.12s", sum);
	return buf;
}

/*
 * The output checksum of a sample that a comparison row is made of (a
 * warm timing or browser success, or a count: prof_cmp_aggregated(),
 * prof_cmp_counted()) against the row's first: the first row whose calls
 * disagree is kept for unfit(). Memory: one entry a row.
 */
static int
check_output(struct promo *p, struct json_object *s, long index)
{
	const char *w = prof_sample_str(s, "workload");
	const char *b = prof_sample_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	const char *sum = prof_sample_str(s, "checksum");
	int count = prof_cmp_counted(s);
	char key[1024], a[16], c[16];
	int len;
	long k;

	if (!sum || !w || !b || !sid || (!count && !prof_cmp_aggregated(s)))
		return 0;
	/* Counts and times are rows of their own, as in prof-diff. */
	len = snprintf(key, sizeof(key), "%s%c%s%c%s%c%d", w, '\0', b, '\0',
		       sid, '\0', count);
	if (len < 0 || len >= (int)sizeof(key))
		return 0;	/* ids are at most 200 bytes each */
	k = prof_htab_get(&p->rows, key, (size_t)len);
	if (k >= 0) {
		const struct row_sum *r = &p->sums[k];
		char text[1024];

		if (p->unsteady || !strcmp(r->sum, sum))
			return 0;
		snprintf(text, sizeof(text),
			 "the output of %s (%s%s) changes from call to call: "
			 "checksum %s at .samples[%ld], %s at .samples[%ld]; "
			 "every later run of the row would be incomparable "
			 "against it",
			 w, b, count ? ", instructions" : "",
			 short_sum(r->sum, a, sizeof(a)), r->index,
			 short_sum(sum, c, sizeof(c)), index);
		p->unsteady = strdup(text);
		return p->unsteady ? 0 : -1;
	}
	if (PROF_GROW(p->sums, p->n_sums + 1, p->cap_sums) < 0)
		return -1;
	p->sums[p->n_sums].sum = strdup(sum);
	p->sums[p->n_sums].index = index;
	if (!p->sums[p->n_sums].sum)
		return -1;
	if (prof_htab_put(&p->rows, key, (size_t)len, (long)p->n_sums) < 0) {
		free(p->sums[p->n_sums].sum);
		return -1;
	}
	p->n_sums++;
	return 0;
}

/* The run's row of sample s (by segment id), remembered once. */
static int
take_row(struct promo *p, const char *sid, struct json_object *s)
{
	char key[4096];
	int len = row_key(key, sizeof(key), sid, s);

	if (len < 0 || prof_htab_get(&p->run_rows, key, (size_t)len) >= 0)
		return 0;
	/* The lengths beside the keys, in as much room. */
	if (p->n_rows == p->cap_rows &&
	    (PROF_GROW(p->row_keys, p->n_rows + 1, p->cap_rows) < 0 ||
	     PROF_RESIZE(p->row_lens, p->cap_rows) < 0))
		return -1;
	p->row_keys[p->n_rows] = malloc((size_t)len);
	if (!p->row_keys[p->n_rows])
		return -1;
	memcpy(p->row_keys[p->n_rows], key, (size_t)len);
	p->row_lens[p->n_rows] = (size_t)len;
	if (prof_htab_put(&p->run_rows, key, (size_t)len, (long)p->n_rows) < 0) {
		free(p->row_keys[p->n_rows]);
		return -1;
	}
	p->n_rows++;
	return 0;
}

/* A sample of the run: counted, checked for refusals, kept. */
static int
take_run(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct promo *p = arg;
	const char *eid = prof_json_str(s, "env_id");
	const char *sid = prof_json_str(s, "segment_id");

	p->samples++;
	if (check_output(p, s, index) < 0 ||
	    count_workload(&p->run_workloads, s) < 0 || take_row(p, sid, s) < 0)
		return prof_err_set(err, "out of memory");
	if (prof_sample_is(s, "outcome", "error") && !p->errors++) {
		p->first_error = index;
		snprintf(p->first_error_text, sizeof(p->first_error_text),
			 "%s, %s): %s", prof_sample_str(s, "workload"),
			 prof_sample_str(s, "backend"),
			 prof_sample_str(s, "reason"));
	}
	if (prof_htab_get(&p->env_index, eid, strlen(eid)) < 0) {
		size_t cap = p->cap_envs;

		if (remember(&p->env_ids, p->n_envs, &p->cap_envs, eid) < 0)
			return prof_err_set(err, "out of memory");
		if ((p->cap_envs != cap || !p->env_first) &&
		    PROF_RESIZE(p->env_first, p->cap_envs) < 0)
			return prof_err_set(err, "out of memory");
		p->env_first[p->n_envs] = index;
		if (PROF_RESIZE(p->env_workload, p->cap_envs) < 0)
			return prof_err_set(err, "out of memory");
		p->env_workload[p->n_envs] =
			strdup(prof_sample_str(s, "workload"));
		if (prof_htab_put(&p->env_index, eid, strlen(eid),
				  (long)p->n_envs) < 0)
			return prof_err_set(err, "out of memory");
		p->n_envs++;
	}
	if (prof_htab_get(&p->run_segments, sid, strlen(sid)) < 0) {
		if (remember(&p->seg_ids, p->n_segs, &p->cap_segs, sid) < 0 ||
		    prof_htab_put(&p->run_segments, sid, strlen(sid),
				  (long)p->n_segs) < 0)
			return prof_err_set(err, "out of memory");
		p->n_segs++;
	}
	return prof_rwriter_add(p->w, s, err);
}

/* The first reason to refuse a read run, or 0. */
static int
unfit(struct promo *p, char *why, size_t n)
{
	struct json_object *run = NULL;
	const char *shard;
	size_t i;

	if (p->samples == 0) {
		snprintf(why, n, "the run has no samples");
		return 1;
	}
	if (p->errors) {
		snprintf(why, n,
			 "the run has %ld error sample%s; the first, "
			 ".samples[%ld] (%s",
			 p->errors, p->errors == 1 ? "" : "s", p->first_error,
			 p->first_error_text);
		return 1;
	}
	for (i = 0; i < p->n_envs; i++) {
		struct json_object *env =
			prof_stream_env(p->st, p->env_ids[i]);

		if (prof_sample_is(env, "backend_requested", "gpu") &&
		    prof_sample_is(env, "backend", "cpu")) {
			snprintf(why, n,
				 ".samples[%ld] (%s) asked for the GPU but ran "
				 "on the CPU",
				 p->env_first[i],
				 p->env_workload[i] ? p->env_workload[i] : "?");
			return 1;
		}
	}
	if (p->unsteady) {
		snprintf(why, n, "%s", p->unsteady);
		return 1;
	}
	/* A shard holds its own workloads only: as a baseline, the other
	 * shards' workloads would be new against it for good. */
	json_object_object_get_ex(prof_stream_meta(p->st), "run", &run);
	shard = prof_json_str(run, "shard");
	if (shard) {
		long si, sn;
		char tail;

		if (sscanf(shard, "%ld/%ld%c", &si, &sn, &tail) != 2 ||
		    si < 1 || sn < si)
			sn = 0;
		snprintf(why, n,
			 "it is shard %.64s of a run and holds that shard's "
			 "workloads only; merge the shards' results first "
			 "(prof-merge --shards %ld, make merge-shards) and "
			 "promote the merged run",
			 shard, sn);
		return 1;
	}
	return 0;
}

/* --add: a sample of the old baseline stays unless the run has its row
 * (workload x segment x phase). */
static int
take_old(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct promo *p = arg;
	const char *seg = prof_stream_segment(p->st,
					      prof_json_str(s, "segment_id"));
	char key[8192];
	int len;

	(void)index;
	if (!seg)
		return prof_err_set(err, "the baseline names a segment_id "
					 "before its segments; put segments "
					 "before samples");
	if (count_workload(&p->old_workloads, s) < 0)
		return prof_err_set(err, "out of memory");
	len = row_key(key, sizeof(key), seg, s);
	if (len >= 0 && prof_htab_get(&p->run_rows, key, (size_t)len) >= 0) {
		p->replaced++;
		return 0;
	}
	p->kept++;
	return prof_rwriter_add(p->w, s, err);
}

/* The baseline that is there, read for its workloads only. */
static int
count_old(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct promo *p = arg;

	(void)index;
	if (count_workload(&p->old_workloads, s) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
}

static void
promo_free(struct promo *p)
{
	size_t i;

	for (i = 0; i < p->n_envs; i++) {
		free(p->env_ids[i]);
		free(p->env_workload[i]);
	}
	free(p->env_ids);
	free(p->env_workload);
	free(p->env_first);
	prof_strv_free(p->seg_ids, p->n_segs);
	prof_strv_free(p->row_keys, p->n_rows);
	free(p->row_lens);
	prof_htab_free(&p->run_rows);
	prof_htab_free(&p->run_workloads);
	prof_htab_free(&p->old_workloads);
	for (i = 0; i < p->n_sums; i++)
		free(p->sums[i].sum);
	free(p->sums);
	free(p->unsteady);
	prof_htab_free(&p->rows);
	prof_htab_free(&p->env_index);
	prof_htab_free(&p->run_segments);
	prof_stream_free(p->st);
}

/*
 * --add: the calibration of each segment of the new baseline (segcal.h).
 * The old baseline's segments that stay keep theirs (its
 * segment_calibrations, or its calibration for a baseline of one
 * machine); the run's segments get the run's. Added to head. Returns 0,
 * or -1 with err.
 */
static int
segment_calibrations(struct promo *p, struct json_object *head,
		     struct json_object *old_meta, struct prof_err *err)
{
	struct json_object *map = json_object_new_object(), *old_map = NULL;
	struct json_object *old_cal = NULL, *run_cal = NULL, *cal;
	size_t i;

	if (!map)
		return prof_err_set(err, "out of memory");
	json_object_object_get_ex(old_meta, "segment_calibrations", &old_map);
	json_object_object_get_ex(old_meta, "calibration", &old_cal);
	json_object_object_get_ex(head, "calibration", &run_cal);
	json_object_object_foreach(prof_stream_segments(p->st), sid, key)
	{
		const char *k = json_object_get_string(key);

		if (k && prof_htab_get(&p->run_segments, k, strlen(k)) >= 0)
			continue;	/* the run's now */
		if (!old_map || !json_object_object_get_ex(old_map, sid, &cal))
			cal = old_map ? NULL : old_cal;
		json_object_object_add(map, sid, json_object_get(cal));
	}
	for (i = 0; i < p->n_segs; i++)
		json_object_object_add(map, p->seg_ids[i],
				       json_object_get(run_cal));
	json_object_object_add(head, "segment_calibrations", map);
	return 0;
}

/* --add: the run's segment ids become segment keys, so that an old
 * baseline of either schema is matched by key. */
static int
key_segments(struct promo *p, struct prof_err *err)
{
	size_t i;

	prof_htab_free(&p->run_segments);
	for (i = 0; i < p->n_segs; i++) {
		const char *seg = prof_stream_segment(p->st, p->seg_ids[i]);

		if (seg && prof_htab_put(&p->run_segments, seg, strlen(seg),
					 (long)i) < 0)
			return prof_err_set(err, "out of memory");
	}
	/* A row key begins with its segment id: the same with the key. */
	prof_htab_free(&p->run_rows);
	for (i = 0; i < p->n_rows; i++) {
		const char *k = p->row_keys[i];
		const char *seg = prof_stream_segment(p->st, k);
		size_t idlen = strlen(k);
		char key[8192];
		int len;

		len = snprintf(key, sizeof(key), "%s", seg ? seg : k);
		if (len < 0 || (size_t)len + p->row_lens[i] - idlen >
				       sizeof(key))
			continue;
		memcpy(key + len, k + idlen, p->row_lens[i] - idlen);
		if (prof_htab_put(&p->run_rows, key,
				  (size_t)len + p->row_lens[i] - idlen,
				  (long)i) < 0)
			return prof_err_set(err, "out of memory");
	}
	return 0;
}

/*
 * A baseline is at path and neither --add nor --force was given: one line
 * that says what it holds against the run, and how to go on. Exit 2.
 */
static int
refuse_existing(struct promo *p, const char *path, const char *run_id)
{
	struct prof_err err = {0};
	struct prof_stream *st = prof_stream_new();
	char safe[4200], rid[512];
	size_t had, has = p->run_workloads.n;

	if (!st) {
		cli_say("out of memory");
		return PROF_EXIT_FAILURE;
	}
	cli_safe(path, safe, sizeof(safe));
	cli_safe(run_id ? run_id : "?", rid, sizeof(rid));
	if (prof_stream_results(st, path, count_old, p, &err) < 0) {
		cli_say("'%s' is there and does not read as a baseline (%s): "
			"give --force (make: FORCE=1) to replace it",
			safe, err.reason);
		prof_stream_free(st);
		return PROF_EXIT_FAILURE;
	}
	prof_stream_free(st);
	had = p->old_workloads.n;
	cli_say("'%s' is there with %zu workload%s, run '%s' has %zu: give "
		"--add (make: ADD=1) to add the run's rows to it, or --force "
		"(FORCE=1) to replace it",
		safe, had, had == 1 ? "" : "s", rid, has);
	return PROF_EXIT_FAILURE;
}

/* baseline_path: DIR/NAME, ".json" added unless NAME ends in it; -1
 * (said) when it does not fit. */
static int
baseline_path(char *path, size_t size, const char *dir, const char *name)
{
	char why[1200];
	size_t nlen = strlen(name);

	if (snprintf(path, size, "%s/%s%s", dir, name,
		     nlen > 5 && !strcmp(name + nlen - 5, ".json") ? "" :
								    ".json") >=
	    (int)size) {
		cli_say("--output: '%s': path too long",
			cli_safe(dir, why, sizeof(why)));
		return -1;
	}
	return 0;
}

/* read_run: the run FROM read into P (its writer set up), then refused
 * when it is unfit or, unless FORCE, unsteady (UNSTEADY says why, "" when
 * steady); PROF_EXIT_OK, or the exit code (said). */
static int
read_run(struct promo *p, struct prof_rwriter *w, const char *from,
	 int force, char *unsteady, size_t size)
{
	struct prof_err err = {0};
	char why[1200];

	p->st = prof_stream_new();
	p->w = w;
	if (!p->st || prof_rwriter_init(w, &err) < 0) {
		cli_say("out of memory");
		return PROF_EXIT_FAILURE;
	}
	if (prof_stream_results(p->st, from, take_run, p, &err) < 0) {
		if (prof_stream_mixed(p->st)) {
			cli_say("refusing '%s': %s", from, err.reason);
			return PROF_EXIT_ERRORED;
		}
		cli_err(&err);
		return PROF_EXIT_FAILURE;
	}
	if (unfit(p, why, sizeof(why))) {
		char safe[2048];

		/* An error sample's reason is a worker's stderr: one line. */
		cli_say("refusing '%s': %s", from,
			cli_safe(why, safe, sizeof(safe)));
		return PROF_EXIT_ERRORED;
	}
	if (prof_calib_unsteady(prof_stream_meta(p->st), unsteady, size) &&
	    !force) {
		cli_say("refusing '%s': %s, so its times may be noise; run it "
			"again on a calm machine, or give --force (make: "
			"FORCE=1) to promote it all the same",
			cli_safe(from, why, sizeof(why)), unsteady);
		return PROF_EXIT_ERRORED;
	}
	return PROF_EXIT_OK;
}

/* merge_old: --add over the baseline at PATH: its samples read (those of
 * the run's rows replaced), its tables and segment calibrations merged
 * into the writer beside HEAD's; PROF_EXIT_OK, or the exit code (said). */
static int
merge_old(struct promo *p, const char *path, struct json_object *head)
{
	struct prof_err err = {0};

	if (key_segments(p, &err) < 0)
		goto fail;
	prof_stream_free(p->st);
	p->st = prof_stream_new();
	if (!p->st) {
		cli_say("out of memory");
		return PROF_EXIT_FAILURE;
	}
	if (prof_stream_results(p->st, path, take_old, p, &err) < 0)
		goto fail;
	/* The baseline read is the one replaced, on purpose. */
	prof_afile_forget_input(path);
	if (prof_calib_check(prof_stream_meta(p->st), &err) < 0 ||
	    prof_segcal_check(prof_stream_meta(p->st), &err) < 0) {
		prof_err_file(&err, path);
		goto fail;
	}
	if (prof_rwriter_merge_tables(p->w, prof_stream_envs(p->st),
				      prof_stream_segments(p->st), &err) < 0 ||
	    segment_calibrations(p, head, prof_stream_meta(p->st), &err) < 0)
		goto fail;
	return PROF_EXIT_OK;
fail:
	cli_err(&err);
	return PROF_EXIT_FAILURE;
}

static int
promote(const char *from, const char *name, const char *dir, int add,
	int force)
{
	struct promo p = {0};
	struct prof_rwriter w = {0};
	struct json_object *head = NULL;
	struct prof_err err = {0};
	char path[4096], unsteady[256] = "";
	int rc = PROF_EXIT_FAILURE, old_exists = 0;
	struct stat sb;

	if (baseline_path(path, sizeof(path), dir, name) < 0)
		goto out;
	if (cli_not_input("--name", path, &from, 1) < 0 ||
	    cli_trap_signals(path) < 0)
		goto out;
	rc = read_run(&p, &w, from, force, unsteady, sizeof(unsteady));
	if (rc != PROF_EXIT_OK)
		goto out;
	rc = PROF_EXIT_FAILURE;
	if (!add && !force && stat(path, &sb) == 0) {
		rc = refuse_existing(&p, path,
				     prof_json_str(prof_stream_meta(p.st),
						   "run_id"));
		goto out;
	}
	head = json_object_get(prof_stream_meta(p.st));
	if (prof_rwriter_merge_tables(&w, prof_stream_envs(p.st),
				      prof_stream_segments(p.st), &err) < 0)
		goto fail;
	old_exists = add && stat(path, &sb) == 0;
	if (old_exists && merge_old(&p, path, head) != PROF_EXIT_OK)
		goto out;
	if (prof_mkdirs(dir, &err) < 0 ||
	    prof_rwriter_commit(&w, path, head, &err) < 0)
		goto fail;
	if (old_exists)
		cli_say("added run '%s' (%ld samples) to '%s': %ld samples "
			"of its rows replaced, %ld of other rows kept%s%s",
			prof_json_str(head, "run_id"), p.samples, path,
			p.replaced, p.kept, unsteady[0] ? "; " : "", unsteady);
	else
		cli_say("promoted run '%s' (%ld samples) to '%s'%s%s",
			prof_json_str(head, "run_id"), p.samples, path,
			unsteady[0] ? "; " : "", unsteady);
	rc = PROF_EXIT_OK;
	goto out;
fail:
	cli_err(&err);
out:
	json_object_put(head);
	prof_rwriter_free(&w);
	promo_free(&p);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct opts o = {.dir = "baselines"};
	char why[256];

	cli_init(argv[0]);
	if (cli_opt_parse_all(option_table, argc, argv, &o) < 0)
		return PROF_EXIT_FAILURE;
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	if (!o.from || !o.from[0])
		return cli_fail("give the results file: --from RESULTS");
	if (!o.name)
		return cli_fail("give the baseline's name: --name NAME");
	if (!o.dir[0])
		return cli_fail("--output: empty folder name");
	if (!prof_id_valid(o.name, why, sizeof(why))) {
		char safe[512];

		/* A bad argument (2), not an unfit run (1); the name is
		 * escaped, so a newline in it cannot split the message. */
		return cli_fail("--name: '%s' is not a valid baseline name: %s",
				cli_safe(o.name, safe, sizeof(safe)), why);
	}
	return promote(o.from, o.name, o.dir, o.add, o.force);
}
