/* merge_shards.c: prof-merge --shards: the results of a run's shards
 * read into one run, checked to be its shards, each once, each holding
 * its own workloads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/json.h"
#include "cli.h"
#include "merge.h"
#include "model/calib.h"
#include "model/shard.h"
#include "model/stream.h"

/* Says so and returns -1. */
static int
out_of_memory(void)
{
	cli_say("out of memory");
	return -1;
}

/* A shard's place: "i/N" with 1 <= i <= N. */
static int
parse_shard(const char *s, long *i, long *n)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*i = strtol(s, &end, 10);
	if (errno || end == s || *end != '/' || *i < 1)
		return -1;
	s = end + 1;
	*n = strtol(s, &end, 10);
	if (errno || end == s || *end || *n < 1 || *i > *n)
		return -1;
	return 0;
}

/* The results file of a shard given as a file or a run folder. */
static const char *
shard_file(const char *arg, char *buf, size_t n)
{
	struct stat sb;

	if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(buf, n, "%s/results.json", arg);
		return buf;
	}
	return arg;
}

/* A member of a run's identity as canonical text ("null" when absent). */
static char *
canon(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return prof_json_canonical(v);
}

struct shard_seen {
	char *file;
	char *run_id;
};

/*
 * The split is deterministic (prof_shard_of()): every workload of shard
 * i/n must be one of that shard's, and none may come from two shards. A
 * shard relabelled as another (shard 1's results marked 2/2) would give a
 * run with one shard's workloads twice and the other's missing. Says the
 * first that is not and returns -1; otherwise 0.
 */
static int
check_owners(struct cli_merge *m, const struct shard_seen *seen, long i, long n,
	     const char *shard, const char *file)
{
	char safe[512];
	size_t k;

	for (k = 0; k < m->workloads.n; k++) {
		int browser = m->workloads.strs[k][0] == 'b';
		const char *id = m->workloads.strs[k] + 1;
		long want = browser ? PROF_SHARD_BROWSER :
				      prof_shard_of(id, (int)n);
		long prev = prof_htab_get(&m->owner, id, strlen(id));

		cli_safe(id, safe, sizeof(safe));
		if (want != i) {
			cli_say("shard %s ('%s') holds '%s', a workload of "
				"shard %ld/%ld%s: is it another shard's "
				"results, relabelled?",
				shard, file, safe, want, n,
				browser ? " (browser rows go with shard 1)" :
					  "");
			return -1;
		}
		if (prev >= 0 && prev != i) {
			cli_say("workload '%s' comes from two shards: %ld/%ld "
				"('%s') and %s ('%s')",
				safe, prev, n, seen[prev].file, shard, file);
			return -1;
		}
		if (prof_htab_put(&m->owner, id, strlen(id), i) < 0)
			return out_of_memory();
	}
	cli_merge_forget_workloads(m);
	return 0;
}


/* What a merge of shards has found so far: each shard's file and run id
 * by its number (seen[1] to seen[want]), the first shard's file and its
 * run's identity as canonical text, each shard's calibration and engine
 * record by its shard. */
struct shards {
	struct shard_seen *seen;
	long want;			/* N; 0 until the first shard says */
	const char *file0;
	char *commit0, *mode0, *options0;
	struct json_object *calibs, *engines;
};

static void
shards_free(struct shards *sh)
{
	long i;

	for (i = 0; sh->seen && i <= sh->want; i++) {
		free(sh->seen[i].file);
		free(sh->seen[i].run_id);
	}
	free(sh->seen);
	free(sh->commit0);
	free(sh->mode0);
	free(sh->options0);
	json_object_put(sh->calibs);
	json_object_put(sh->engines);
}

/*
 * One shard's results read into the output: the state of the shard read
 * before forgotten, its samples checked once within it (across shards, by
 * their workloads: check_owners()). Returns 0, or -1 after saying why not.
 */
static int
read_shard(struct cli_merge *m, const char *file, struct prof_err *err)
{
	free(m->shard);
	m->shard = NULL;
	m->untagged = 0;
	cli_merge_forget_workloads(m);
	prof_htab64_free(&m->seen);
	prof_htab_free(&m->seen_big);
	if (m->runs)
		memset(m->runs, 0, m->cap_runs * sizeof(*m->runs));
	if (cli_merge_input(m, file, 1) < 0)
		return out_of_memory();
	if (prof_stream_results(m->st, file, cli_merge_take, m, err) < 0) {
		cli_err(err);
		return -1;
	}
	return 0;
}

/* v kept in the object *into (made when NULL) under shard. Returns 0, or
 * -1 when out of memory. */
static int
keep_under(struct json_object **into, const char *shard,
	   struct json_object *v)
{
	if (!*into)
		*into = json_object_new_object();
	if (!*into)
		return -1;
	json_object_object_add(*into, shard, json_object_get(v));
	return 0;
}

/*
 * A shard's calibration, checked, and what its engine said of it (its
 * node, its job), each kept under its shard: each shard ran on a machine
 * of its own. Returns 0, or -1 after saying why not.
 */
static int
keep_records(struct shards *sh, struct json_object *meta,
	     struct json_object *r, const char *shard, const char *file,
	     struct prof_err *err)
{
	struct json_object *cal, *eng;

	if (prof_calib_check(meta, err) < 0) {
		prof_err_file(err, file);
		cli_err(err);
		return -1;
	}
	if (json_object_object_get_ex(meta, "calibration", &cal) && cal &&
	    keep_under(&sh->calibs, shard, cal) < 0)
		return out_of_memory();
	if (json_object_object_get_ex(r, "engine", &eng) &&
	    json_object_is_type(eng, json_type_object) &&
	    keep_under(&sh->engines, shard, eng) < 0)
		return out_of_memory();
	return 0;
}

/*
 * Shard i of k (its text shard) is one of N shards (N from the first
 * when --shards 0), not there before, holding its own workloads; its
 * file and run id are kept as seen. Returns 0, or -1 after saying why
 * not.
 */
static int
place_shard(struct shards *sh, struct cli_merge *m, struct json_object *meta,
	    const char *shard, long i, long k, const char *file)
{
	if (!sh->want)
		sh->want = k;
	if (!sh->seen) {
		sh->seen = calloc((size_t)sh->want + 1, sizeof(*sh->seen));
		if (!sh->seen)
			return out_of_memory();
	}
	if (k != sh->want) {
		cli_say("shard %s ('%s') is not one of %ld shards", shard, file,
			sh->want);
		return -1;
	}
	if (sh->seen[i].file) {
		cli_say("shard %s twice: '%s' and '%s'", shard,
			sh->seen[i].file, file);
		return -1;
	}
	if (check_owners(m, sh->seen, i, k, shard, file) < 0)
		return -1;
	sh->seen[i].file = strdup(file);
	sh->seen[i].run_id = strdup(prof_json_str(meta, "run_id"));
	if (!sh->seen[i].file || !sh->seen[i].run_id)
		return out_of_memory();
	return 0;
}

/*
 * Shard i (its text shard, read from file) is of the run the first shard
 * is of: the same commit, mode and options. The first's are kept, and
 * its commit is the run's, in head. Returns 0, or -1 after saying which
 * differs.
 */
static int
same_identity(struct shards *sh, struct json_object *meta,
	      struct json_object *r, struct json_object *head,
	      const char *shard, long i, const char *file)
{
	char *commit = canon(meta, "commit"), *mode = canon(r, "mode");
	char *options = canon(r, "options");
	const char *what, *here, *there;
	int rc = -1;

	if (!commit || !mode || !options) {
		out_of_memory();
		goto out;
	}
	if (!sh->file0) {
		sh->file0 = sh->seen[i].file;
		sh->commit0 = commit;
		sh->mode0 = mode;
		sh->options0 = options;
		commit = mode = options = NULL;
		json_object_object_add(head, "commit", json_object_get(
			json_object_object_get(meta, "commit")));
		rc = 0;
		goto out;
	}
	if (strcmp(commit, sh->commit0)) {
		what = "commit";
		here = commit;
		there = sh->commit0;
	} else if (strcmp(mode, sh->mode0)) {
		what = "mode";
		here = mode;
		there = sh->mode0;
	} else if (strcmp(options, sh->options0)) {
		what = "options";
		here = options;
		there = sh->options0;
	} else {
		rc = 0;
		goto out;
	}
	cli_say("shard %s ('%s') is of another run than '%s': %s %s != %s",
		shard, file, sh->file0, what, here, there);
out:
	free(commit);
	free(mode);
	free(options);
	return rc;
}

/* Says which of shards 1/N to N/N are missing (the first eight) and
 * returns -1; 0 when none is. */
static int
say_missing(const struct shards *sh)
{
	char list[512] = "";
	long i, missing = 0;

	for (i = 1; i <= sh->want; i++) {
		size_t used = strlen(list);

		if (sh->seen[i].file)
			continue;
		if (missing++ < 8)
			snprintf(list + used, sizeof(list) - used, "%s%ld/%ld",
				 used ? ", " : "", i, sh->want);
	}
	if (!missing)
		return 0;
	cli_say("shard%s %s%s missing", missing == 1 ? "" : "s", list,
		missing > 8 ? ", ..." : "");
	return -1;
}

/* The whole run into head: its mode and options, no shard, each shard's
 * run id and engine record; and each shard's calibration. Returns 0, or
 * -1 when out of memory (said). */
static int
add_run(struct shards *sh, struct json_object *head)
{
	struct json_object *run = json_object_new_object();
	struct json_object *shards = json_object_new_object();
	char text[64];
	long i;

	if (!run || !shards) {
		json_object_put(run);
		json_object_put(shards);
		return out_of_memory();
	}
	json_object_object_add(run, "mode", json_tokener_parse(
		sh->mode0 ? sh->mode0 : "null"));
	json_object_object_add(run, "options", json_tokener_parse(
		sh->options0 ? sh->options0 : "{}"));
	json_object_object_add(run, "shard", NULL);
	for (i = 1; i <= sh->want; i++) {
		snprintf(text, sizeof(text), "%ld/%ld", i, sh->want);
		json_object_object_add(shards, text, json_object_new_string(
			sh->seen[i].run_id));
	}
	json_object_object_add(run, "shards", shards);
	if (sh->engines)
		json_object_object_add(run, "engines", sh->engines);
	sh->engines = NULL;
	json_object_object_add(head, "run", run);
	if (sh->calibs)
		json_object_object_add(head, "shard_calibrations", sh->calibs);
	sh->calibs = NULL;
	return 0;
}

int
cli_merge_shards(struct cli_merge *m, char **files, int n,
		 struct json_object *head)
{
	struct shards sh = {.want = m->shards > 0 ? m->shards : 0};
	struct prof_err err = {0};
	char path[4096];
	int rc = -1, f;

	for (f = 0; f < n; f++) {
		const char *file = shard_file(files[f], path, sizeof(path));
		struct json_object *meta, *r = NULL;
		const char *shard;
		long i, k;

		prof_err_clear(&err);
		if (read_shard(m, file, &err) < 0)
			goto out;
		meta = prof_stream_meta(m->st);
		json_object_object_get_ex(meta, "run", &r);
		shard = prof_json_str(r, "shard");
		if (parse_shard(shard, &i, &k) < 0) {
			cli_say("'%s' is not a shard's results (run.shard is "
				"%s)",
				file, shard ? shard : "missing");
			goto out;
		}
		if (keep_records(&sh, meta, r, shard, file, &err) < 0 ||
		    place_shard(&sh, m, meta, shard, i, k, file) < 0 ||
		    same_identity(&sh, meta, r, head, shard, i, file) < 0)
			goto out;
	}
	if (say_missing(&sh) < 0 || add_run(&sh, head) < 0)
		goto out;
	rc = 0;
out:
	shards_free(&sh);
	return rc;
}
