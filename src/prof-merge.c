/* prof-merge: sample JSON lines in, one validated results document out. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "browser.h"
#include "cli.h"
#include "json.h"
#include "out.h"
#include "sample.h"
#include "spawn.h"

static const char usage_text[] =
	"usage: prof-merge [-o FILE] [--command TEXT] [--playwright FILE]...\n"
	"                  [FILE...]\n"
	"\n"
	"Read sample JSON lines (prof-time, prof-mem, prof-trace and\n"
	"browser rows; one sample per line) from each FILE in turn, or from\n"
	"stdin when there is no FILE or FILE is -, and write one results\n"
	"document:\n"
	"{schema, schema_version, run_id, timestamp_utc, command, commit,\n"
	"samples}. Every line must be a valid schema-1 sample; the first one\n"
	"that is not is reported as FILE:LINE: reason and nothing is written.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE   write the results there, atomically (default\n"
	"                      -, stdout)\n"
	"  --command TEXT      what produced the run, e.g. 'make\n"
	"                      profile-quick' (default: this prof-merge\n"
	"                      command line)\n"
	"  --run-id ID         the run's id (default: the UTC time and four\n"
	"                      random hex digits, 20261129T181500Z-1a2b)\n"
	"  --timestamp UTC     when the run started (default: now), e.g.\n"
	"                      2026-11-29T18:15:00Z\n"
	"  --commit SHA        the measured project's commit (default: `git\n"
	"                      rev-parse HEAD` in DIR, 'unknown' outside git)\n"
	"  -C, --project DIR   where the measured project is (default .)\n"
	"  --playwright FILE   browser rows (repeatable): what the browser\n"
	"                      stories write, {workload, duration_ms,\n"
	"                      metrics, fixture, backend, env: {browser}},\n"
	"                      or the older {story, duration_ms, pfm?,\n"
	"                      shapes?}, read as browser samples\n"
	"\n"
	"examples:\n"
	"  prof-time quick | prof-merge -o results.json\n"
	"  prof-merge -o run/results.json run/samples.jsonl run/memory.jsonl\n"
	"\n"
	"Exit status: 0 written, 2 bad arguments, a bad sample line, an\n"
	"unreadable input or a failed write.\n";

/* The commit of the project in dir, or "unknown". */
struct first_line {
	char text[128];
	int got;
};

static int
keep_first(void *arg, char *line, size_t len, int complete)
{
	struct first_line *f = arg;

	(void)complete;
	if (!f->got) {
		snprintf(f->text, sizeof(f->text), "%.*s", (int)len, line);
		f->got = 1;
	}
	return 0;
}

static void
git_commit(const char *dir, char *out, size_t n)
{
	char *argv[] = {"git", "-C", (char *)dir, "rev-parse", "--verify",
			"--quiet", "HEAD", NULL};
	struct first_line f = {0};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 30,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = keep_first,
		.arg = &f,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	size_t len;

	snprintf(out, n, "unknown");
	sp.stderr_fd = devnull;
	if (devnull < 0)
		return;
	if (prof_spawn_run(&sp, &res, &err) < 0)
		goto out;
	len = strlen(f.text);
	if (prof_spawn_ok(&res) && len >= 40 &&
	    strspn(f.text, "0123456789abcdef") == len)
		snprintf(out, n, "%s", f.text);
	prof_spawn_free(&res);
out:
	close(devnull);
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

enum {
	OPT_COMMAND = 256,
	OPT_RUN_ID,
	OPT_TIMESTAMP,
	OPT_COMMIT,
	OPT_PLAYWRIGHT,
	OPT_VERSION,
};

struct opts {
	const char *output;
	const char *command;
	const char *run_id;
	const char *timestamp;
	const char *commit;
	const char *project;
	char *playwright[64];
	int n_playwright;
};

typedef long (*parse_fn)(const char *buf, size_t len, const char *name,
			 struct json_object *arr, struct prof_err *err);

/* Read every input's lines into arr with parse. Returns 0 or -1 after
 * saying why. */
static int
read_inputs(char **files, int n, struct json_object *arr, parse_fn parse)
{
	struct prof_err err = {0};
	int i;

	for (i = 0; i < n; i++) {
		const char *name = strcmp(files[i], "-") ? files[i] : "<stdin>";
		char *buf = NULL;
		size_t len = 0;
		long got;

		prof_err_clear(&err);
		if (prof_json_read_file(files[i], &buf, &len, &err) < 0) {
			cli_err(&err);
			return -1;
		}
		got = parse(buf, len, name, arr, &err);
		free(buf);
		if (got < 0) {
			cli_err(&err);
			return -1;
		}
	}
	return 0;
}

static int
merge(struct opts *o, char **files, int n)
{
	char run_id[64], stamp[32], commit[128];
	struct json_object *r = NULL, *arr = NULL;
	struct prof_err err = {0};
	time_t now = time(NULL);
	struct tm tm;
	unsigned short rnd = 0;
	int rc = PROF_EXIT_FAILURE;

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
	r = prof_results_new(run_id, o->timestamp ? o->timestamp : stamp,
			     o->command, commit);
	if (!r || !json_object_object_get_ex(r, "samples", &arr)) {
		cli_say("out of memory");
		goto out;
	}
	if (n == 0 && o->n_playwright == 0) {
		static char *dash[] = {"-"};

		files = dash;
		n = 1;
	}
	if (read_inputs(files, n, arr, prof_samples_parse_lines) < 0 ||
	    read_inputs(o->playwright, o->n_playwright, arr,
			prof_browser_parse_lines) < 0)
		goto out;
	if (prof_results_check(r, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (prof_out_json(o->output, r, &err) < 0) {
		/* A failed stdout is reported once, by cli_finish(). */
		if (strcmp(o->output, "-"))
			cli_err(&err);
		goto out;
	}
	rc = PROF_EXIT_OK;
out:
	json_object_put(r);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"command", required_argument, NULL, OPT_COMMAND},
		{"run-id", required_argument, NULL, OPT_RUN_ID},
		{"timestamp", required_argument, NULL, OPT_TIMESTAMP},
		{"commit", required_argument, NULL, OPT_COMMIT},
		{"project", required_argument, NULL, 'C'},
		{"playwright", required_argument, NULL, OPT_PLAYWRIGHT},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {.output = "-", .project = "."};
	char command[4096];
	int c;

	cli_init(argv[0]);
	join_args(argc, argv, command, sizeof(command));
	o.command = command;
	while ((c = getopt_long(argc, argv, "ho:C:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case OPT_COMMAND:
			o.command = optarg;
			break;
		case OPT_RUN_ID:
			if (!optarg[0])
				return cli_fail("--run-id: empty id");
			o.run_id = optarg;
			break;
		case OPT_TIMESTAMP:
			if (!optarg[0])
				return cli_fail("--timestamp: empty time");
			o.timestamp = optarg;
			break;
		case OPT_COMMIT:
			if (!optarg[0])
				return cli_fail("--commit: empty commit");
			o.commit = optarg;
			break;
		case 'C':
			o.project = optarg;
			break;
		case OPT_PLAYWRIGHT:
			if (o.n_playwright == 64)
				return cli_fail("--playwright: at most 64 files");
			o.playwright[o.n_playwright++] = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-merge %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			fputs(usage_text, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (!o.output[0])
		return cli_fail("-o: empty file name");
	if (cli_not_input("-o", o.output, (const char *const *)argv + optind,
			  argc - optind) < 0 ||
	    cli_not_input("-o", o.output, (const char *const *)o.playwright,
			  o.n_playwright) < 0)
		return PROF_EXIT_FAILURE;
	return merge(&o, argv + optind, argc - optind);
}
