/* prof-merge: sample JSON lines in, one validated results document out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/id.h"
#include "base/json.h"
#include "base/spawn.h"
#include "base/utf8.h"
#include "cli/cli.h"
#include "cli/merge.h"
#include "model/calib.h"
#include "model/rwriter.h"
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

/*
 * The results' head: the run's id, its time, the command and the commit
 * (and the commit's time and parents), as the options give them or by
 * default. Returns 0, or -1 after saying why not.
 */
static int
add_head(const struct opts *o, struct json_object *head)
{
	char run_id[64], stamp[32], commit[128];
	time_t now = time(NULL);
	struct tm tm;
	unsigned short rnd = 0;

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
			return -1;
		}
		json_object_object_add(head, "parents", parents);
	}
	return 0;
}

/*
 * The sample streams files into the output (stdin when there is none and
 * no other input: others), each of the run the first to name one names,
 * which is the run's in head. err as merge() keeps it. Returns 0, or -1
 * after saying why not.
 */
static int
read_streams(struct cli_merge *m, char **files, int n, int others,
	     struct json_object *head, struct prof_err *err)
{
	static char *dash[] = {"-"};
	struct cli_merge_first_run first_run = {0};
	struct json_object *r = NULL;
	int rc = -1, i;

	if (n == 0 && !others) {
		files = dash;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		prof_err_clear(err);
		if (cli_merge_input(m, files[i], 0) < 0) {
			cli_say("out of memory");
			goto out;
		}
		if (prof_stream_lines(m->st, files[i], cli_merge_take, m, err) <
		    0) {
			cli_err(err);
			goto out;
		}
		if (cli_merge_same_run(m, &first_run) < 0)
			goto out;
		/* The run the first stream names is the run's. */
		if (!json_object_object_get_ex(head, "run", NULL) &&
		    json_object_object_get_ex(prof_stream_meta(m->st), "run",
					      &r))
			json_object_object_add(head, "run", json_object_get(r));
	}
	rc = 0;
out:
	json_object_put(first_run.run);
	return rc;
}

/* The run's inputs merged into one results document at o->output. */
static int
merge(struct opts *o, char **files, int n)
{
	struct json_object *head = json_object_new_object(), *cs;
	struct cli_merge m = {.shards = o->shards};
	struct prof_err err = {0};
	int rc = PROF_EXIT_FAILURE, i;

	m.st = prof_stream_new();
	m.calib = json_object_new_array();
	if (!head || !m.st || !m.calib) {
		cli_say("out of memory");
		goto out;
	}
	prof_stream_on_record(m.st, cli_merge_take_calib, &m);
	if (prof_rwriter_init(&m.w, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (add_head(o, head) < 0)
		goto out;
	if (o->shards && n == 0) {
		cli_say("--shards: give each shard's results file or run "
			"folder");
		goto out;
	}
	if (o->shards ? cli_merge_shards(&m, files, n, head) < 0 :
			read_streams(&m, files, n,
				     o->n_playwright || o->n_gbench, head,
				     &err) < 0)
		goto out;
	for (i = 0; i < o->n_playwright; i++)
		if (cli_merge_playwright(&m, o->playwright[i]) < 0)
			goto out;
	for (i = 0; i < o->n_gbench; i++)
		if (cli_merge_gbench(&m, o->gbench[i]) < 0)
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
	cli_merge_free(&m);
	json_object_put(head);
	return cli_finish(rc);
}

/* 0 when arg passes valid, else 2 after "OPT: 'ARG' is not a valid WHAT:
 * why". */
static int
check_valid(const char *opt, const char *what, const char *arg,
	    int (*valid)(const char *, char *, size_t))
{
	char why[160], safe[256];

	if (valid(arg, why, sizeof(why)))
		return 0;
	return cli_fail("%s: '%s' is not a valid %s: %s", opt,
			cli_safe(arg, safe, sizeof(safe)), what, why);
}

/* Option c of the tool's switch, with its argument arg, checked into o.
 * Returns 0, or 2 after a message. */
static int
take_option(struct opts *o, int c, char *arg)
{
	char bad[160];
	long long v;

	switch (c) {
	case OPT_COMMAND:
		if (!prof_utf8_valid(arg, bad, sizeof(bad)))
			return cli_fail("--command: %s", bad);
		o->command = arg;
		break;
	case OPT_RUN_ID:
		if (check_valid("--run-id", "run id", arg, prof_id_valid))
			return PROF_EXIT_FAILURE;
		o->run_id = arg;
		break;
	case OPT_TIMESTAMP:
		if (!arg[0])
			return cli_fail("--timestamp: empty time");
		if (cli_date("--timestamp", arg, PROF_DATE_UTC) < 0)
			return PROF_EXIT_FAILURE;
		o->timestamp = arg;
		break;
	case OPT_COMMIT:
		if (!arg[0])
			return cli_fail("--commit: empty commit");
		if (check_valid("--commit", "commit", arg, prof_commit_valid))
			return PROF_EXIT_FAILURE;
		o->commit = arg;
		break;
	case OPT_COMMIT_TIME:
		if (!arg[0])
			return cli_fail("--commit-time: '': empty");
		if (cli_date("--commit-time", arg,
			     PROF_DATE_UTC | PROF_DATE_OFFSET) < 0)
			return PROF_EXIT_FAILURE;
		o->commit_time = arg;
		break;
	case OPT_PARENTS:
		if (parents_check(arg, bad, sizeof(bad)) < 0)
			return cli_fail("--parents: %s", bad);
		o->parents = arg;
		break;
	case OPT_SHARDS:
		if (cli_number("--shards", arg, 0, 10000, &v) < 0)
			return PROF_EXIT_FAILURE;
		o->shards = v ? (long)v : -1;
		break;
	case OPT_PLAYWRIGHT:
		if (o->n_playwright == 64)
			return cli_fail("--playwright: at most 64 files");
		o->playwright[o->n_playwright++] = arg;
		break;
	case OPT_ENGINE:
		return parse_engine(o, arg);
	case OPT_GBENCH:
		if (o->n_gbench == 64)
			return cli_fail("--gbench: at most 64 files");
		o->gbench[o->n_gbench++] = arg;
		break;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	struct opts o = {.output = "-", .project = "."};
	char command[4096];
	int c;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	join_args(argc, argv, command, sizeof(command));
	o.command = command;
	while ((c = cli_opt_parse(&g, argc, argv, &o)) != -1)
		if (take_option(&o, c, optarg))
			return PROF_EXIT_FAILURE;
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
