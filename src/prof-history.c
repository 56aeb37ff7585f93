/* prof-history: a run history on SQLite: add runs, list them, trends per
 * row, change points. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "history.h"
#include "json.h"
#include "out.h"
#include "runview.h"
#include "spawn.h"

static const char usage_text[] =
	"usage: prof-history add [--db FILE] RESULTS...\n"
	"       prof-history list [--db FILE]\n"
	"       prof-history trend [--db FILE] [--workload ID] [--backend B]\n"
	"                          [--segment ID]\n"
	"       prof-history changes [--db FILE] [--since REV] [--workload ID]\n"
	"                            [--backend B] [--segment ID]\n"
	"\n"
	"Keep every run in a SQLite database (default\n"
	"artifacts/history.sqlite; $PROF_HISTORY when set) and read trends\n"
	"and change points from it. Runs are in the order of their\n"
	"timestamps.\n"
	"\n"
	"  add      store each results file (schema 1 or 2; - is stdin) in\n"
	"           one transaction: one row per workload x backend x segment\n"
	"           with n, errors, min, median, p90, max of the warm timing\n"
	"           samples that succeeded, the median instruction count and\n"
	"           the memory peaks. A run id already there is left as it\n"
	"           is. Every file is checked before anything is stored.\n"
	"  list     the runs as JSON: run_id, commit, timestamp_utc, command,\n"
	"           rows, schema_version, added_utc\n"
	"  trend    one JSON object per run and row: run_id, commit,\n"
	"           timestamp_utc, workload, backend, segment_id, n, errors,\n"
	"           min, median, p90, max, instructions, host_peak_bytes\n"
	"  changes  the change points of each row's series of run medians (a\n"
	"           penalized L1 step fit; see the README): commits (A..B),\n"
	"           run_before, run_after, median_before, median_after,\n"
	"           change_pct, runs_before, runs_after, index\n"
	"\n"
	"options:\n"
	"  --db FILE        the history database (created by add)\n"
	"  --workload ID    only this workload\n"
	"  --backend B      only this backend\n"
	"  --segment ID     only segment ids starting with ID\n"
	"  --since REV      only changes whose first run after the step is at\n"
	"                   or after the first run of commit REV (a commit\n"
	"                   prefix, or a revision git can name here)\n"
	"\n"
	"example:\n"
	"  prof-history add artifacts/profiling/*/results.json\n"
	"  prof-history trend --workload pipeline.svg_dense_circles |\n"
	"      jq -r '.[] | \"\\(.commit[:8]) \\(.median)\"'\n"
	"\n"
	"Exit status: 0 done, 2 bad arguments, a malformed results file, a\n"
	"file that is not a history database or a corrupt one (nothing\n"
	"stored is changed), or a failed write.\n";

enum {
	OPT_DB = 256,
	OPT_WORKLOAD,
	OPT_BACKEND,
	OPT_SEGMENT,
	OPT_SINCE,
	OPT_VERSION,
};

struct opts {
	const char *db;
	const char *since;
	struct prof_history_filter f;
};

static int
print_json(struct json_object *o)
{
	struct prof_err err = {0};
	int rc = prof_out_json("-", o, &err);

	json_object_put(o);
	return cli_finish(rc < 0 ? PROF_EXIT_FAILURE : PROF_EXIT_OK);
}

static int
cmd_add(struct opts *o, int n, char **files)
{
	struct prof_runview *v = calloc((size_t)n, sizeof(*v));
	struct prof_history *h = NULL;
	struct prof_err err = {0};
	int i, rc = PROF_EXIT_FAILURE, stdin_seen = 0;

	if (!v)
		return cli_fail("out of memory");
	/* Every file is read and checked before the database is touched. */
	for (i = 0; i < n; i++) {
		if (!strcmp(files[i], "-") && stdin_seen++) {
			cli_say("stdin ('-') can be given once");
			goto out;
		}
		if (prof_runview_load(&v[i], files[i], 0, &err) < 0) {
			cli_err(&err);
			cli_say("nothing was added to '%s'", o->db);
			goto out;
		}
	}
	h = prof_history_open(o->db, 1, &err);
	if (!h) {
		cli_err(&err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		int added;

		if (prof_history_add(h, &v[i], &added, &err) < 0) {
			cli_err(&err);
			goto out;
		}
		if (added == PROF_HISTORY_ADDED)
			cli_say("added run '%s' (commit %.12s) to '%s'",
				prof_runview_str(&v[i], "run_id"),
				prof_runview_str(&v[i], "commit"), o->db);
		else if (added == PROF_HISTORY_UNCOMPARED)
			cli_say("run '%s' is already in '%s', added by an "
				"older prof-history whose digest cannot be "
				"compared with this file; nothing changed",
				prof_runview_str(&v[i], "run_id"), o->db);
		else
			cli_say("run '%s' is already in '%s'; nothing changed",
				prof_runview_str(&v[i], "run_id"), o->db);
	}
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	for (i = 0; i < n; i++)
		prof_runview_free(&v[i]);
	free(v);
	return cli_finish(rc);
}

/* The first stdout line of git, kept. */
static int
first_line(void *arg, char *line, size_t len, int complete)
{
	char *out = arg;

	(void)complete;
	if (!out[0])
		snprintf(out, 128, "%.*s", (int)len, line);
	return 0;
}

/* A full commit id for rev from git, if git knows it here; 0 or -1. */
static int
git_commit(const char *rev, char out[128])
{
	char spec[512];
	char *argv[] = {"git", "rev-parse", "--verify", "-q", spec, NULL};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 30,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = first_line,
		.arg = out,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int rc = -1;

	out[0] = '\0';
	if (snprintf(spec, sizeof(spec), "%s^{commit}", rev) >=
		    (int)sizeof(spec) ||
	    prof_spawn_run(&sp, &res, &err) < 0)
		return -1;
	if (prof_spawn_ok(&res) && out[0])
		rc = 0;
	prof_spawn_free(&res);
	return rc;
}

static int
cmd_read(struct opts *o, const char *cmd)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(o->db, 0, &err);
	struct json_object *a = NULL;

	if (!h) {
		cli_err(&err);
		return PROF_EXIT_FAILURE;
	}
	if (!strcmp(cmd, "list")) {
		a = prof_history_list(h, &err);
	} else if (!strcmp(cmd, "trend")) {
		a = prof_history_trend(h, &o->f, &err);
	} else {
		a = prof_history_changes(h, &o->f, o->since, &err);
		if (!a && o->since) {
			/* Not a commit prefix there: a revision git names? */
			char full[128];
			struct prof_err gerr = {0};

			if (git_commit(o->since, full) == 0 &&
			    strcmp(full, o->since))
				a = prof_history_changes(h, &o->f, full, &gerr);
		}
	}
	prof_history_close(h);
	if (!a) {
		cli_err(&err);
		return PROF_EXIT_FAILURE;
	}
	return print_json(a);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, OPT_DB},
		{"workload", required_argument, NULL, OPT_WORKLOAD},
		{"backend", required_argument, NULL, OPT_BACKEND},
		{"segment", required_argument, NULL, OPT_SEGMENT},
		{"since", required_argument, NULL, OPT_SINCE},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	const char *env = getenv("PROF_HISTORY");
	struct opts o = {.db = env && env[0] ? env : "artifacts/history.sqlite"};
	const char *cmd;
	int c, filtered = 0;

	cli_init(argv[0]);
	/* Options may come before or after the command (GNU getopt permutes). */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			o.db = optarg;
			break;
		case OPT_WORKLOAD:
			o.f.workload = optarg;
			filtered = 1;
			break;
		case OPT_BACKEND:
			o.f.backend = optarg;
			filtered = 1;
			break;
		case OPT_SEGMENT:
			o.f.segment = optarg;
			filtered = 1;
			break;
		case OPT_SINCE:
			o.since = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-history %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			fputs(usage_text, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (optind >= argc)
		return cli_fail("give a command: add, list, trend or changes");
	cmd = argv[optind++];
	if (strcmp(cmd, "add") && strcmp(cmd, "list") && strcmp(cmd, "trend") &&
	    strcmp(cmd, "changes"))
		return cli_fail("unknown command '%s' (add, list, trend, "
				"changes)", cmd);
	if (!o.db[0] || (o.since && !o.since[0]))
		return cli_fail("empty argument");
	if (!strcmp(cmd, "add")) {
		if (filtered || o.since)
			return cli_fail("add takes only --db and results files");
		if (optind >= argc)
			return cli_fail("give the results files to add");
		return cmd_add(&o, argc - optind, argv + optind);
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	if (strcmp(cmd, "changes") && o.since)
		return cli_fail("--since is an option of changes");
	if (!strcmp(cmd, "list") && filtered)
		return cli_fail("list takes only --db");
	return cmd_read(&o, cmd);
}
