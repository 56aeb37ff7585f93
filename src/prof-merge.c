/* prof-merge: sample JSON lines in, one validated results document out. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/htab.h"
#include "base/id.h"
#include "base/json.h"
#include "base/spawn.h"
#include "base/utf8.h"
#include "browser.h"
#include "cli/cli.h"
#include "model/calib.h"
#include "model/gbench.h"
#include "model/lines.h"
#include "model/rwriter.h"
#include "model/sample.h"
#include "model/shard.h"
#include "model/stream.h"

enum {
	OPT_COMMAND = 256,
	OPT_RUN_ID,
	OPT_TIMESTAMP,
	OPT_COMMIT,
	OPT_COMMIT_TIME,
	OPT_PARENTS,
	OPT_PLAYWRIGHT,
	OPT_SHARDS,
	OPT_GBENCH,
	OPT_ENGINE,
};

struct opts {
	long shards;			/* --shards N; 0: not merging shards */
	const char *output;
	const char *command;
	const char *run_id;
	const char *timestamp;
	const char *commit;
	const char *commit_time;
	const char *parents;	/* --parents as given (checked); NULL: none */
	const char *project;
	char *playwright[64];
	int n_playwright;
	char *gbench[64];
	int n_gbench;
	struct json_object *engine;	/* --engine KEY=VALUE...; NULL: none */
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-merge [-o FILE] [--command TEXT] [--playwright FILE]...\n" "           [--gbench FILE]... [FILE...]"),
	CLI_USAGE("prof-merge --shards N [-o FILE] SHARD..."),
	CLI_TEXT(
	"Read sample JSON lines (prof-time, prof-mem, prof-trace and\n"
	"browser rows; one sample per line) from each FILE in turn, or from\n"
	"stdin when there is no FILE or FILE is -, and write one results\n"
	"document of schema 2:\n"
	"{schema, schema_version, run_id, timestamp_utc, command, commit,\n"
	"run, envs, segments, groups, samples}: each environment and segment\n"
	"key once, in envs and segments; what all samples of a workload x\n"
	"backend x env x segment share once, in groups; each sample with its\n"
	"group_id and its own fields (see the README's \"The data\"). Lines\n"
	"of schema 1 and 2 are read alike. Every line must\n"
	"be a valid sample (or a context or run line), each segment the key\n"
	"of its env; the first one that is\n"
	"not is reported as FILE:LINE: reason and nothing is written. The\n"
	"samples are streamed: memory holds one sample, the tables and a\n"
	"small entry a sample."),
	CLI_TEXT(
	"The inputs are one run. A sample is its run, workload, backend,\n"
	"segment, phase, kind and index: a second one (a stream given twice,\n"
	"two runs of one selection) is refused with both places, exit 2; so\n"
	"are streams whose run lines say they are of two runs (two shards,\n"
	"or two run ids): a run's shards merge shard by shard, then with\n"
	"--shards. The phases of one run merge."),
	CLI_TEXT(
	"With --shards N, each SHARD is the results file (or the run folder)\n"
	"of one shard of a run split with prof-time --shard I/N; together\n"
	"they must be one run (the same commit, mode and options), with\n"
	"shards 1/N to N/N each there once, each holding its own workloads\n"
	"(the split is a hash of the workload id; browser rows go with\n"
	"shard 1) and no workload in two, or the first that is not is\n"
	"named ('shard 2/4 missing') with exit 2. Each sample gets its\n"
	"\"shard\", run.shards maps each shard to its run id."),
	CLI_TEXT(
	"Calibration and machine records (prof-time's machine-drift guard,\n"
	"{\"record\":\"calibration\",...}) become the results' top-level\n"
	"\"calibration\": its points, their median and spread, the machine.\n"
	"A merge of shards keeps each shard's calibration under its shard,\n"
	"in \"shard_calibrations\", since each ran on a machine of its own."),
	CLI_GROUP("options:"),
	CLI_STRING("output", 'o', "FILE", struct opts, output,
		"write the results there, atomically (default\n"
		"-, stdout)"),
	CLI_OPTION("command", 0, "TEXT", OPT_COMMAND,
		"what produced the run, e.g. 'make\n"
		"profile-quick' (default: this prof-merge\n"
		"command line)"),
	CLI_OPTION("run-id", 0, "ID", OPT_RUN_ID,
		"the run's id (default: the UTC time and four\n"
		"random hex digits, 20261129T181500Z-1a2b);\n"
		"letters, digits, '.', '_' and '-'"),
	CLI_OPTION("timestamp", 0, "UTC", OPT_TIMESTAMP,
		"when the run started (default: now): RFC 3339\n"
		"UTC to the second, e.g. 2026-11-29T18:15:00Z"),
	CLI_OPTION("commit", 0, "SHA", OPT_COMMIT,
		"the measured project's commit (default: `git\n"
		"rev-parse HEAD` in DIR, 'unknown' outside git);\n"
		"printable ASCII"),
	CLI_OPTION("commit-time", 0, "ISO8601", OPT_COMMIT_TIME,
		"the commit's time, as `git log -1 --format=%cI`\n"
		"writes it (2026-11-29T18:15:00+01:00), kept\n"
		"as commit_time: the history orders runs by it"),
	CLI_OPTION("parents", 0, "SHAS", OPT_PARENTS,
		"the commit's parents, space-separated hex (as\n"
		"`git log -1 --format=%P`; empty for a root\n"
		"commit), kept as the array parents"),
	CLI_STRING("project", 'C', "DIR", struct opts, project,
		"where the measured project is (default .)"),
	CLI_OPTION("shards", 0, "N", OPT_SHARDS,
		"merge the results of the N shards of one run\n"
		"(0: N as the first shard says)"),
	CLI_OPTION("engine", 0, "KEY=VALUE", OPT_ENGINE,
		"what the engine that ran the run says of it\n"
		"(repeatable; run.engine.KEY): the variable\n"
		"its shard came from (shard_from), its node,\n"
		"job id, GPUs; a merge of shards keeps each\n"
		"shard's under run.engines"),
	CLI_OPTION("playwright", 0, "FILE", OPT_PLAYWRIGHT,
		"browser rows (repeatable): what the browser\n"
		"stories write, {workload, duration_ms,\n"
		"metrics, fixture, backend, env: {browser}},\n"
		"or the older {story, duration_ms, pfm?,\n"
		"shapes?}, read as browser samples"),
	CLI_OPTION("gbench", 0, "FILE", OPT_GBENCH,
		"Google Benchmark JSON (--benchmark_out,\n"
		"repeatable): each repetition a timing sample\n"
		"of the workload its name gives (BM_crc32/4096\n"
		"is BM_crc32.4096), per-iteration real time as\n"
		"duration_ms, the context as the env; a file\n"
		"of aggregates only is refused"),
	CLI_TEXT(
	"examples:\n"
	"  prof-time quick | prof-merge -o results.json\n"
	"  prof-merge -o run/results.json run/samples.jsonl run/memory.jsonl\n"
	"  prof-merge --shards 4 -o all/results.json shard-*/results.json\n"
	"  ./bench --benchmark_repetitions=10 --benchmark_out=b.json &&\n"
	"    prof-merge --gbench b.json -o results.json"),
	CLI_TEXT(
	"Exit status: 0 written, 2 bad arguments, a bad sample line, an\n"
	"unreadable input, shards that are not one whole run, or a failed\n"
	"write."),
	CLI_STANDARD,
	CLI_END,
};

/* The commit of the project in dir, or "unknown". */
static void
git_commit(const char *dir, char *out, size_t n)
{
	char *argv[] = {"git", "-C", (char *)dir, "rev-parse", "--verify",
			"--quiet", "HEAD", NULL};
	char text[128];
	size_t len;

	snprintf(out, n, "unknown");
	if (prof_spawn_line(argv, 0, text, sizeof(text)) < 0)
		return;
	len = strlen(text);
	if (len >= 40 && strspn(text, "0123456789abcdef") == len)
		snprintf(out, n, "%s", text);
}

/* argv joined by spaces, for the default command. */
static void
join_args(int argc, char **argv, char *out, size_t n)
{
	size_t off = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < argc && off < n; i++) {
		const char *a = i ? argv[i] : "prof-merge";
		int k = snprintf(out + off, n - off, "%s%s", i ? " " : "", a);

		if (k < 0)
			break;
		off += (size_t)k;
	}
}

/* A workload of the shard being read: browser rows go with shard 1. */
struct shard_wl {
	char *id;
	int browser;
};

/* What one merge keeps: the output, and for --shards each shard's file. */
/* A group's indexes 0 to n - 1, index i at place at + i * step. */
struct run {
	int64_t at, step, n;
};

struct merge {
	struct opts *o;
	struct prof_stream *st;
	struct json_object *calib;	/* the streams' calibration and
					 * machine records, in order */
	struct prof_rwriter w;
	char *shard;			/* the shard of the input being read */
	int untagged;			/* its run came after its samples:
					 * they are written as they are */
	/* --shards: the workloads of the input being read (here: id and
	 * kind -> index in wl), and the shard each workload of the inputs
	 * read before came from (owner: id -> shard). */
	struct prof_htab here, owner;
	struct shard_wl *wl;
	size_t n_wl, cap_wl;
	/* Each sample's identity (its group of workload, backend, segment,
	 * phase and kind, and its index) -> its place (input << 40 | line
	 * or sample index), to refuse a sample given twice: in seen, group
	 * << 40 | index; in seen_big, an identity that does not fit 64 bits
	 * (an index from 2^40 on). The groups, and the inputs' names for
	 * the message. A group's indexes 0, 1, ... at places evenly apart
	 * (its samples one after another, or every so many lines) are kept
	 * as a run, 24 bytes a group, not an entry each: in runs. */
	struct prof_htab groups, seen_big;
	struct prof_htab64 seen;
	struct run *runs;
	size_t cap_runs;
	char last_gkey[1024];	/* the group of the sample before */
	int last_glen;
	long last_g;
	long n_groups;
	char **names;
	size_t n_names, cap_names;
	int doc;			/* the input is a results document (1)
					 * or Google Benchmark's JSON (2) */
};

/* Places are kept as input << PLACE_BITS | line (or sample index). */
#define PLACE_BITS 40

/* The shard text of the input being read, from its run (known before its
 * samples in the files prof-merge writes, and in key order too). */
static int
shard_of_input(struct merge *m)
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
 * check_owners(). Returns 0, or -1 when out of memory. */
static int
note_workload(struct merge *m, struct json_object *s)
{
	const char *id = prof_json_str(s, "workload");
	const char *phase = prof_json_str(s, "phase");
	int browser = phase && !strcmp(phase, "browser");
	char key[1024];
	int len;

	if (!id)
		return 0;
	len = snprintf(key, sizeof(key), "%s%c%d", id, '\0', browser);
	if (len >= (int)sizeof(key) || prof_htab_get(&m->here, key,
						       (size_t)len) >= 0)
		return 0;
	if (PROF_GROW(m->wl, m->n_wl + 1, m->cap_wl) < 0)
		return -1;
	m->wl[m->n_wl].id = strdup(id);
	m->wl[m->n_wl].browser = browser;
	if (!m->wl[m->n_wl].id)
		return -1;
	if (prof_htab_put(&m->here, key, (size_t)len, (long)m->n_wl) < 0) {
		free(m->wl[m->n_wl].id);
		return -1;
	}
	m->n_wl++;
	return 0;
}

/* Forget the workloads of the shard read last. */
static void
forget_workloads(struct merge *m)
{
	size_t k;

	for (k = 0; k < m->n_wl; k++)
		free(m->wl[k].id);
	m->n_wl = 0;
	prof_htab_free(&m->here);
	memset(&m->here, 0, sizeof(m->here));
}

/* A new input: its name kept for the places of messages. Returns 0, or
 * -1 when out of memory. */
static int
new_input(struct merge *m, const char *name, int doc)
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
place_text(const struct merge *m, int64_t place, int doc, char *buf, size_t n)
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
check_once(struct merge *m, struct json_object *s, long at,
	   struct prof_err *err)
{
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	const char *phase = prof_json_str(s, "phase");
	const char *kind = prof_json_str(s, "kind");
	struct json_object *v = NULL;
	char gkey[1024], here[8600], there[4200];
	int64_t key[2], prev, place;
	struct run *r;
	long g;
	int len, found;

	if (!w || !b || !sid || !phase || !kind ||
	    !json_object_object_get_ex(s, "index", &v))
		return 0;
	len = snprintf(gkey, sizeof(gkey), "%s%c%s%c%s%c%s%c%s", w, '\0', b,
		       '\0', sid, '\0', phase, '\0', kind);
	if (len < 0 || len >= (int)sizeof(gkey))
		return 0;	/* ids are at most 200 bytes each */
	/* A group's samples mostly come one after another. */
	if (len == m->last_glen && !memcmp(gkey, m->last_gkey, (size_t)len))
		g = m->last_g;
	else
		g = prof_htab_get(&m->groups, gkey, (size_t)len);
	if (g < 0) {
		g = m->n_groups++;
		if (prof_htab_put(&m->groups, gkey, (size_t)len, g) < 0)
			return prof_err_set(err, "out of memory");
	}
	if ((size_t)g >= m->cap_runs) {
		size_t had = m->cap_runs;

		if (PROF_GROW(m->runs, (size_t)g + 1, m->cap_runs) < 0)
			return prof_err_set(err, "out of memory");
		memset(m->runs + had, 0, (m->cap_runs - had) * sizeof(*m->runs));
	}
	memcpy(m->last_gkey, gkey, (size_t)len);
	m->last_glen = len;
	m->last_g = g;
	key[0] = g;
	key[1] = json_object_get_int64(v);
	place = (int64_t)(m->n_names - 1) << PLACE_BITS |
		(at & ((1L << PLACE_BITS) - 1));
	r = &m->runs[g];
	if (key[1] >= 0 && key[1] < r->n) {
		/* In the group's run. */
		found = 1;
		prev = r->at + key[1] * r->step;
	} else if (g < (1L << 23) && key[1] >= 0 &&
		   key[1] < (1LL << PLACE_BITS)) {
		uint64_t k64 = (uint64_t)g << PLACE_BITS | (uint64_t)key[1];

		found = prof_htab64_get(&m->seen, k64, &prev);
		if (!found && key[1] == r->n &&
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
			return prof_err_set(err, "out of memory");
		}
	} else {
		prev = prof_htab_get(&m->seen_big, key, sizeof(key));
		found = prev >= 0;
		if (!found && prof_htab_put(&m->seen_big, key, sizeof(key),
					    (long)place) < 0)
			return prof_err_set(err, "out of memory");
	}
	if (!found)
		return 0;
	place_text(m, prev, m->doc, there, sizeof(there));
	snprintf(here, sizeof(here),
		 "a second sample of '%s' (%s, %s, %s, index %lld): the first "
		 "is at %s; an input given twice, or two runs? (a run's "
		 "shards merge with --shards)",
		 w, b, phase, kind, (long long)key[1], there);
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
static int
take_calib(void *arg, struct json_object *rec, struct prof_err *err)
{
	struct merge *m = arg;

	if (!prof_calib_is_record(rec))
		return 0;
	return prof_calib_take(m->calib, rec, err) < 0 ? -1 : 1;
}

/* A sample of an input into the output, with its shard when merging
 * shards. */
static int
take(void *arg, struct json_object *s, long index, struct prof_err *err)
{
	struct merge *m = arg;

	if (check_once(m, s, index, err) < 0)
		return -1;
	if (!m->o->shards)
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
add_whole(struct merge *m, struct json_object *s, long at, long line,
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
static int
read_playwright(struct merge *m, const char *path)
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
	if (new_input(m, name, 0) < 0)
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

/* Where read_gbench()'s samples go. */
struct gb_sink {
	struct merge *m;
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
static int
read_gbench(struct merge *m, const char *path)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct gb_sink k = {.m = m, .name = name};
	struct prof_stream *st = prof_stream_new();
	struct prof_err err = {0};
	char host[256], safe[256];
	int foreign = 0;
	long n;

	if (!st || new_input(m, name, 2) < 0) {
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
check_owners(struct merge *m, const struct shard_seen *seen, long i, long n,
	     const char *shard, const char *file)
{
	char safe[512];
	size_t k;

	for (k = 0; k < m->n_wl; k++) {
		const char *id = m->wl[k].id;
		long want = m->wl[k].browser ? PROF_SHARD_BROWSER :
					       prof_shard_of(id, (int)n);
		long prev = prof_htab_get(&m->owner, id, strlen(id));

		cli_safe(id, safe, sizeof(safe));
		if (want != i) {
			cli_say("shard %s ('%s') holds '%s', a workload of "
				"shard %ld/%ld%s: is it another shard's "
				"results, relabelled?",
				shard, file, safe, want, n,
				m->wl[k].browser ? " (browser rows go with "
						   "shard 1)" : "");
			return -1;
		}
		if (prev >= 0 && prev != i) {
			cli_say("workload '%s' comes from two shards: %ld/%ld "
				"('%s') and %s ('%s')",
				safe, prev, n, seen[prev].file, shard, file);
			return -1;
		}
		if (prof_htab_put(&m->owner, id, strlen(id), i) < 0) {
			cli_say("out of memory");
			return -1;
		}
	}
	forget_workloads(m);
	return 0;
}

/*
 * --shards N: every input is one shard's results; together they must be
 * one run (the same commit, mode and options), shards 1/N to N/N, each
 * once. The first that is not is named, exit 2.
 */
static int
merge_shards(struct merge *m, char **files, int n, struct json_object *head)
{
	struct shard_seen *seen = NULL;
	char *commit0 = NULL, *mode0 = NULL, *options0 = NULL;
	struct json_object *run = NULL, *shards = NULL, *calibs = NULL, *cal;
	struct json_object *engines = NULL, *eng;
	struct prof_err err = {0};
	const char *file0 = NULL;
	long want = m->o->shards > 0 ? m->o->shards : 0, i, k, missing = 0;
	char path[4096], text[64], list[512] = "";
	int rc = -1, f;

	for (f = 0; f < n; f++) {
		const char *file = shard_file(files[f], path, sizeof(path));
		struct json_object *meta, *r = NULL;
		const char *shard;
		char *commit, *mode, *options;
		int same;

		/* Each is read into the output and checked after. */
		free(m->shard);
		m->shard = NULL;
		m->untagged = 0;
		forget_workloads(m);
		prof_err_clear(&err);
		/* Samples are checked once within a shard; across shards,
		 * by their workloads (check_owners()). */
		prof_htab64_free(&m->seen);
		prof_htab_free(&m->seen_big);
		if (m->runs)
			memset(m->runs, 0, m->cap_runs * sizeof(*m->runs));
		if (new_input(m, file, 1) < 0)
			goto oom;
		if (prof_stream_results(m->st, file, take, m, &err) < 0) {
			cli_err(&err);
			goto out;
		}
		meta = prof_stream_meta(m->st);
		json_object_object_get_ex(meta, "run", &r);
		shard = prof_json_str(r, "shard");
		if (parse_shard(shard, &i, &k) < 0) {
			cli_say("'%s' is not a shard's results (run.shard is "
				"%s)",
				file, shard ? shard : "missing");
			goto out;
		}
		/* Each shard ran on a machine of its own: its calibration
		 * is kept under its shard. */
		if (prof_calib_check(meta, &err) < 0) {
			prof_err_file(&err, file);
			cli_err(&err);
			goto out;
		}
		if (json_object_object_get_ex(meta, "calibration", &cal) &&
		    cal) {
			if (!calibs && !(calibs = json_object_new_object()))
				goto oom;
			json_object_object_add(calibs, shard,
					       json_object_get(cal));
		}
		/* And what its engine said of it (its node, its job). */
		if (json_object_object_get_ex(r, "engine", &eng) &&
		    json_object_is_type(eng, json_type_object)) {
			if (!engines && !(engines = json_object_new_object()))
				goto oom;
			json_object_object_add(engines, shard,
					       json_object_get(eng));
		}
		if (!want)
			want = k;	/* --shards 0: N from the first shard */
		if (!seen) {
			seen = calloc((size_t)want + 1, sizeof(*seen));
			if (!seen)
				goto oom;
		}
		if (k != want) {
			cli_say("shard %s ('%s') is not one of %ld shards",
				shard, file, want);
			goto out;
		}
		if (seen[i].file) {
			cli_say("shard %s twice: '%s' and '%s'", shard,
				seen[i].file, file);
			goto out;
		}
		if (check_owners(m, seen, i, k, shard, file) < 0)
			goto out;

		seen[i].file = strdup(file);
		seen[i].run_id = strdup(prof_json_str(meta, "run_id"));
		commit = canon(meta, "commit");
		mode = canon(r, "mode");
		options = canon(r, "options");
		if (!seen[i].file || !seen[i].run_id || !commit || !mode ||
		    !options) {
			free(commit);
			free(mode);
			free(options);
			goto oom;
		}
		if (!file0) {
			file0 = seen[i].file;
			commit0 = commit;
			mode0 = mode;
			options0 = options;
			json_object_object_add(
				head, "commit",
				json_object_get(
					json_object_object_get(meta, "commit")));
			continue;
		}
		same = !strcmp(commit, commit0) && !strcmp(mode, mode0) &&
		       !strcmp(options, options0);
		if (!same) {
			cli_say("shard %s ('%s') is of another run than '%s': "
				"%s %s != %s",
				shard, file, file0,
				strcmp(commit, commit0) ? "commit" :
				strcmp(mode, mode0)	? "mode" :
							  "options",
				strcmp(commit, commit0) ? commit :
				strcmp(mode, mode0)	? mode :
							  options,
				strcmp(commit, commit0) ? commit0 :
				strcmp(mode, mode0)	? mode0 :
							  options0);
			free(commit);
			free(mode);
			free(options);
			goto out;
		}
		free(commit);
		free(mode);
		free(options);
	}
	for (i = 1; i <= want; i++) {
		size_t used = strlen(list);

		if (seen[i].file)
			continue;
		if (missing++ < 8)
			snprintf(list + used, sizeof(list) - used, "%s%ld/%ld",
				 used ? ", " : "", i, want);
	}
	if (missing) {
		cli_say("shard%s %s%s missing", missing == 1 ? "" : "s", list,
			missing > 8 ? ", ..." : "");
		goto out;
	}
	run = json_object_new_object();
	shards = json_object_new_object();
	if (!run || !shards)
		goto oom;
	json_object_object_add(run, "mode",
			       json_tokener_parse(mode0 ? mode0 : "null"));
	json_object_object_add(run, "options",
			       json_tokener_parse(options0 ? options0 : "{}"));
	json_object_object_add(run, "shard", NULL);
	for (i = 1; i <= want; i++) {
		snprintf(text, sizeof(text), "%ld/%ld", i, want);
		json_object_object_add(shards, text,
				       json_object_new_string(seen[i].run_id));
	}
	json_object_object_add(run, "shards", shards);
	shards = NULL;
	if (engines)
		json_object_object_add(run, "engines", engines);
	engines = NULL;
	json_object_object_add(head, "run", run);
	run = NULL;
	if (calibs)
		json_object_object_add(head, "shard_calibrations", calibs);
	calibs = NULL;
	rc = 0;
	goto out;
oom:
	cli_say("out of memory");
out:
	json_object_put(run);
	json_object_put(shards);
	json_object_put(calibs);
	json_object_put(engines);
	for (i = 0; seen && i <= want; i++) {
		free(seen[i].file);
		free(seen[i].run_id);
	}
	free(seen);
	free(commit0);
	free(mode0);
	free(options0);
	return rc;
}
/* The run line of the first stream that has one, and its input. */
struct first_run {
	struct json_object *run;	/* {run_id, shard} */
	size_t input;
};

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
static int
same_run(struct merge *m, struct first_run *f)
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

/* Each space-separated word of --parents' text p, in turn: fn(arg, the
 * word, NUL-ended); stops at the first fn that returns -1. */
static int
parents_each(const char *p, int (*fn)(void *, const char *), void *arg)
{
	char sha[128];
	size_t n;

	for (; *p; p += n) {
		n = strcspn(p, " ");
		if (n == 0) {
			n = 1;
			continue;
		}
		snprintf(sha, sizeof(sha), "%.*s", (int)(n < 100 ? n : 100), p);
		if (fn(arg, n >= 100 ? NULL : sha) < 0)
			return -1;
	}
	return 0;
}

struct parent_why {
	char *why;
	size_t n;
};

static int
parent_ok(void *arg, const char *sha)
{
	struct parent_why *w = arg;

	if (!sha) {
		snprintf(w->why, w->n, "a parent longer than 64 hex digits");
		return -1;
	}
	return prof_parent_valid(sha, w->why, w->n) ? 0 : -1;
}

/* 0 when each word of p is a parent (prof_parent_valid()), else -1 with
 * why the first is not. */
static int
parents_check(const char *p, char *why, size_t n)
{
	struct parent_why w = {why, n};

	return parents_each(p, parent_ok, &w);
}

static int
parent_add(void *arg, const char *sha)
{
	struct json_object *s = json_object_new_string(sha);

	if (!s || json_object_array_add(arg, s) < 0) {
		json_object_put(s);
		return -1;
	}
	return 0;
}

/* The array of checked --parents' words (an empty one for ""); NULL when
 * out of memory. */
static struct json_object *
parents_json(const char *p)
{
	struct json_object *a = json_object_new_array();

	if (a && parents_each(p, parent_add, a) < 0) {
		json_object_put(a);
		a = NULL;
	}
	return a;
}

/*
 * The run's own engine record (--engine) as run.engine: in a copy of the
 * run the streams gave (theirs stay as read), or in a run of its own.
 * Returns 0, or -1 when out of memory.
 */
static int
add_engine(struct json_object *head, struct json_object *engine)
{
	struct json_object *r = NULL, *copy = NULL;

	if (json_object_object_get_ex(head, "run", &r) && r) {
		if (json_object_deep_copy(r, &copy, NULL) < 0)
			return -1;
	} else if (!(copy = json_object_new_object())) {
		return -1;
	}
	json_object_object_add(copy, "engine", json_object_get(engine));
	json_object_object_add(head, "run", copy);
	return 0;
}

/*
 * --engine KEY=VALUE: KEY a name (letters, digits, '_'), VALUE printable
 * text of at most 200 bytes; each kept once (a second KEY replaces the
 * first). Returns 0, or 2 after a message.
 */
static int
parse_engine(struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[64], safe[256];
	size_t k, n;

	n = eq ? (size_t)(eq - arg) : 0;
	for (k = 0; k < n; k++)
		if (!(arg[k] >= 'a' && arg[k] <= 'z') &&
		    !(arg[k] >= 'A' && arg[k] <= 'Z') &&
		    !(arg[k] >= '0' && arg[k] <= '9') && arg[k] != '_')
			break;
	if (!eq || !n || k < n || n >= sizeof(key))
		return cli_fail("--engine: '%s' is not KEY=VALUE (KEY "
				"letters, digits and '_')",
				cli_safe(arg, safe, sizeof(safe)));
	for (k = 1; eq[k]; k++)
		if ((unsigned char)eq[k] < 0x20 || eq[k] == 0x7f)
			break;
	if (eq[k] || k - 1 > 200 || !prof_utf8_valid(eq + 1, NULL, 0))
		return cli_fail("--engine: '%s': the value is not printable "
				"text of at most 200 bytes",
				cli_safe(arg, safe, sizeof(safe)));
	memcpy(key, arg, n);
	key[n] = '\0';
	if (!o->engine && !(o->engine = json_object_new_object()))
		return cli_fail("out of memory");
	json_object_object_add(o->engine, key, json_object_new_string(eq + 1));
	return 0;
}

static int
merge(struct opts *o, char **files, int n)
{
	char run_id[64], stamp[32], commit[128];
	struct json_object *head = json_object_new_object(), *r = NULL, *cs;
	struct merge m = {.o = o};
	struct prof_err err = {0};
	struct first_run first_run = {0};
	time_t now = time(NULL);
	struct tm tm;
	unsigned short rnd = 0;
	int rc = PROF_EXIT_FAILURE, i;
	size_t k;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!o->run_id) {
		char t[32];

		if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			rnd = (unsigned short)(getpid() ^ now);
		strftime(t, sizeof(t), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(run_id, sizeof(run_id), "%s-%04x", t, rnd);
	} else {
		snprintf(run_id, sizeof(run_id), "%s", o->run_id);
	}
	if (o->commit)
		snprintf(commit, sizeof(commit), "%s", o->commit);
	else
		git_commit(o->project, commit, sizeof(commit));
	m.st = prof_stream_new();
	m.calib = json_object_new_array();
	if (!head || !m.st || !m.calib) {
		cli_say("out of memory");
		goto out;
	}
	prof_stream_on_record(m.st, take_calib, &m);
	if (prof_rwriter_init(&m.w, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	json_object_object_add(head, "run_id", json_object_new_string(run_id));
	json_object_object_add(head, "timestamp_utc",
			       json_object_new_string(o->timestamp ?
							      o->timestamp :
							      stamp));
	json_object_object_add(head, "command",
			       prof_json_text_new(o->command,
						  strlen(o->command), 0));
	json_object_object_add(head, "commit", json_object_new_string(commit));
	if (o->commit_time)
		json_object_object_add(head, "commit_time",
				       json_object_new_string(o->commit_time));
	if (o->parents) {
		struct json_object *parents = parents_json(o->parents);

		if (!parents) {
			cli_say("out of memory");
			goto out;
		}
		json_object_object_add(head, "parents", parents);
	}
	if (o->shards) {
		if (n == 0) {
			cli_say("--shards: give each shard's results file or "
				"run folder");
			goto out;
		}
		if (merge_shards(&m, files, n, head) < 0)
			goto out;
	} else {
		if (n == 0 && o->n_playwright == 0 && o->n_gbench == 0) {
			static char *dash[] = {"-"};

			files = dash;
			n = 1;
		}
		for (i = 0; i < n; i++) {
			prof_err_clear(&err);
			if (new_input(&m, files[i], 0) < 0) {
				cli_say("out of memory");
				goto out;
			}
			if (prof_stream_lines(m.st, files[i], take, &m, &err) <
			    0) {
				cli_err(&err);
				goto out;
			}
			if (same_run(&m, &first_run) < 0)
				goto out;
			/* The run the first stream names is the run's. */
			if (!json_object_object_get_ex(head, "run", NULL) &&
			    json_object_object_get_ex(
				    prof_stream_meta(m.st), "run", &r))
				json_object_object_add(head, "run",
						       json_object_get(r));
		}
	}
	for (i = 0; i < o->n_playwright; i++)
		if (read_playwright(&m, o->playwright[i]) < 0)
			goto out;
	for (i = 0; i < o->n_gbench; i++)
		if (read_gbench(&m, o->gbench[i]) < 0)
			goto out;
	if (o->engine && add_engine(head, o->engine) < 0) {
		cli_say("out of memory");
		goto out;
	}
	/* The machine-drift guard's measurements, at the top level. */
	cs = prof_calib_summary(m.calib);
	if (cs)
		json_object_object_add(head, "calibration", cs);
	if (prof_rwriter_merge_tables(&m.w, prof_stream_envs(m.st),
				      prof_stream_segments(m.st), &err) < 0 ||
	    prof_rwriter_commit(&m.w, o->output, head, &err) < 0) {
		/* A failed stdout is reported once, by cli_finish(). */
		if (strcmp(o->output, "-"))
			cli_err(&err);
		goto out;
	}
	rc = PROF_EXIT_OK;
out:
	prof_rwriter_free(&m.w);
	prof_stream_free(m.st);
	json_object_put(m.calib);
	forget_workloads(&m);
	free(m.wl);
	prof_htab_free(&m.owner);
	prof_htab_free(&m.groups);
	prof_htab64_free(&m.seen);
	prof_htab_free(&m.seen_big);
	free(m.runs);
	for (k = 0; k < m.n_names; k++)
		free(m.names[k]);
	free(m.names);
	json_object_put(first_run.run);
	free(m.shard);
	json_object_put(head);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	struct opts o = {.output = "-", .project = "."};
	char command[4096], bad[160];
	int c;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	join_args(argc, argv, command, sizeof(command));
	o.command = command;
	while ((c = cli_opt_parse(&g, argc, argv, &o)) != -1) {
		switch (c) {
		case OPT_COMMAND:
			if (!prof_utf8_valid(optarg, bad, sizeof(bad)))
				return cli_fail("--command: %s", bad);
			o.command = optarg;
			break;
		case OPT_RUN_ID: {
			char why[160], safe[256];

			if (!prof_id_valid(optarg, why, sizeof(why)))
				return cli_fail("--run-id: '%s' is not a valid "
						"run id: %s",
						cli_safe(optarg, safe,
							 sizeof(safe)),
						why);
			o.run_id = optarg;
			break;
		}
		case OPT_TIMESTAMP:
			if (!optarg[0])
				return cli_fail("--timestamp: empty time");
			if (cli_date("--timestamp", optarg, PROF_DATE_UTC) < 0)
				return PROF_EXIT_FAILURE;
			o.timestamp = optarg;
			break;
		case OPT_COMMIT: {
			char safe[256];

			if (!optarg[0])
				return cli_fail("--commit: empty commit");
			if (!prof_commit_valid(optarg, bad, sizeof(bad)))
				return cli_fail("--commit: '%s' is not a valid "
						"commit: %s",
						cli_safe(optarg, safe,
							 sizeof(safe)),
						bad);
			o.commit = optarg;
			break;
		}
		case OPT_COMMIT_TIME:
			if (!optarg[0])
				return cli_fail("--commit-time: '': empty");
			if (cli_date("--commit-time", optarg,
				     PROF_DATE_UTC | PROF_DATE_OFFSET) < 0)
				return PROF_EXIT_FAILURE;
			o.commit_time = optarg;
			break;
		case OPT_PARENTS:
			if (parents_check(optarg, bad, sizeof(bad)) < 0)
				return cli_fail("--parents: %s", bad);
			o.parents = optarg;
			break;
		case OPT_SHARDS: {
			long long v;

			if (cli_number("--shards", optarg, 0, 10000, &v) < 0)
				return PROF_EXIT_FAILURE;
			o.shards = v ? (long)v : -1;
			break;
		}
		case OPT_PLAYWRIGHT:
			if (o.n_playwright == 64)
				return cli_fail("--playwright: at most 64 files");
			o.playwright[o.n_playwright++] = optarg;
			break;
		case OPT_ENGINE:
			if (parse_engine(&o, optarg))
				return PROF_EXIT_FAILURE;
			break;
		case OPT_GBENCH:
			if (o.n_gbench == 64)
				return cli_fail("--gbench: at most 64 files");
			o.gbench[o.n_gbench++] = optarg;
			break;
		}
	}
	if (!o.output[0])
		return cli_fail("-o: empty file name");
	if (cli_not_input("-o", o.output, (const char *const *)argv + optind,
			  argc - optind) < 0 ||
	    cli_not_input("-o", o.output, (const char *const *)o.playwright,
			  o.n_playwright) < 0 ||
	    cli_not_input("-o", o.output, (const char *const *)o.gbench,
			  o.n_gbench) < 0)
		return PROF_EXIT_FAILURE;
	if (cli_trap_signals(o.output) < 0)
		return PROF_EXIT_FAILURE;
	c = merge(&o, argv + optind, argc - optind);
	json_object_put(o.engine);
	return c;
}
