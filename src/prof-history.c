/* prof-history: a run history on SQLite or PostgreSQL: add runs, import
 * folders of run files, list them, trends per row, change points. The
 * verbs are src/report/history-*.c (history-int.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/history-int.h"

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-history add [--db DB] RESULTS..."),
	CLI_USAGE("prof-history add [--db DB] --comparisons FILE RESULTS"),
	CLI_USAGE("prof-history import [--db DB] DIR..."),
	CLI_USAGE("prof-history list [--db DB] [--json]"),
	CLI_USAGE("prof-history trend [--db DB] [--workload ID] [--backend B]\n"
		  "                   [--segment ID] [--json]"),
	CLI_USAGE("prof-history changes [--db DB] [--since REV] [--workload ID]\n"
		  "                     [--backend B] [--segment ID] [--json]"),
	CLI_USAGE("prof-history migrate [--db DB]"),
	CLI_USAGE("prof-history prune [--db DB] --before DATE"),
	CLI_USAGE("prof-history export-runs [--db DB] DIR"),
	CLI_TEXT(
	"Every command also takes --project NAME."),
	CLI_TEXT(
	"Keep every run in a SQLite file (default artifacts/history.sqlite;\n"
	"$PROF_HISTORY when set) or a PostgreSQL database (DB a libpq\n"
	"address: postgresql://HOST/NAME, postgres://..., or key=value\n"
	"such as 'host=H dbname=N'), and read trends and change points from\n"
	"it; every verb gives the same output over either. Runs are in run\n"
	"order, whatever the order they were added in: each after the runs\n"
	"of its commit's ancestors in the history (by the parents the runs\n"
	"keep), else by commit time (a run without one by its timestamp),\n"
	"then timestamp, commit and run id. list, trend and changes print\n"
	"JSON, or an aligned table when stdout is a terminal (--json: JSON\n"
	"there too)."),
	CLI_TEXT(
	"  add      store each results file (schema 1 or 2; - is stdin) in\n"
	"           one transaction: one row per workload x backend x segment\n"
	"           with n, errors, min, median, p90, max of the warm timing\n"
	"           samples that succeeded, the instruction count (the\n"
	"           lower median of the counted calls, as every output\n"
	"           shows it) and each memory metric (the median its\n"
	"           comparison judged). A run id already there\n"
	"           is left as it is. Every file is checked before anything\n"
	"           is stored.\n"
	"           With --comparisons, each row also stores its status\n"
	"           (improved, warning, stable, new, incomparable) and\n"
	"           reason; without, they are null. A run already there\n"
	"           takes the statuses it lacks.\n"
	"  import   add every results file under the folders (files named\n"
	"           *.json whose schema is prof.results, at any depth; other\n"
	"           JSON files are skipped, and so is, with a line on stderr,\n"
	"           one that is not a regular file: a FIFO, a device, a\n"
	"           symbolic link) in one transaction: the run\n"
	"           files are the record and the history an index that\n"
	"           import rebuilds. Runs already there (same run id, same\n"
	"           content) are left as they are, so importing a folder\n"
	"           again, or an overlapping one, changes nothing. A\n"
	"           results.json with a comparisons.json beside it (a run\n"
	"           folder) is added with its statuses. A side of an\n"
	"           interleaved A/B (make compare's results.json and\n"
	"           baseline.json, make bisect's time steps: samples with\n"
	"           an \"ab\" side) is not a run of the history: left out,\n"
	"           and counted; add leaves one out too, and says so\n"
	"  list     the runs: run_id, commit, timestamp_utc, command,\n"
	"           rows, schema_version, added_utc, commit_time, parents\n"
	"  trend    one object per run and row: run_id, commit,\n"
	"           timestamp_utc, workload, backend, segment_id, n, errors,\n"
	"           min, median, p90, max, instructions, host_peak_bytes,\n"
	"           status and reason (null: added without comparisons),\n"
	"           host_allocs, host_allocated_bytes, rss_peak_bytes,\n"
	"           device_peak_allocated_bytes and each memory metric's\n"
	"           KEY_status and KEY_reason, then commit_time and parents\n"
	"           (space-separated; null: the run file had none)\n"
	"  changes  the change points of each row's series of run medians (a\n"
	"           penalized L1 step fit; see the README): commits (A..B),\n"
	"           run_before, run_after, median_before, median_after,\n"
	"           change_pct, runs_before, runs_after, index,\n"
	"           status_before, status_after, reason_after (the two runs'\n"
	"           verdicts, \"improved\" among them), channel (time, or\n"
	"           memory: each memory metric is a series too), metric,\n"
	"           unit, and bisect: the make bisect line that finds\n"
	"           the commit (CHANNEL=memory for a memory change; null\n"
	"           when a side's commit is unknown)\n"
	"  migrate  bring the history to this prof's schema version (made\n"
	"           when missing) and say which it is at: what every\n"
	"           other command does on opening, for a database owner to\n"
	"           run before writers that may not change the schema\n"
	"  prune    remove the project's runs from before DATE (their\n"
	"           timestamps; YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ), in one\n"
	"           transaction, with their rows; an import of files that\n"
	"           still hold them adds them again (the files are the\n"
	"           record)\n"
	"  export-runs\n"
	"           write each run of the project as a results file,\n"
	"           DIR/RUN_ID.json (DIR new or empty, never a run folder\n"
	"           or inside one), that import reads\n"
	"           back to the same history: its rows' statistics as the\n"
	"           fewest samples that give them, its digest and statuses\n"
	"           in .history (a history keeps no samples: the files are\n"
	"           for a history, not for a baseline)"),
	CLI_GROUP("options:"),
	CLI_STRING("db", 0, "DB", struct history_opts, db,
		"the history: a SQLite file (created by add and\n"
		"import; a first one that fails leaves none) or\n"
		"a PostgreSQL address (its tables made by the\n"
		"first add or import; never a password in it:\n"
		"libpq reads PGPASSWORD or PGPASSFILE)"),
	CLI_STRING("project", 0, "NAME", struct history_opts, project,
		"the project whose runs are read and written (a\n"
		"PostgreSQL history holds many, which never see\n"
		"each other's runs; a SQLite file is one\n"
		"project's and does not store it); default\n"
		"$PROF_PROJECT, else the name of the git\n"
		"repository here"),
	CLI_STRING("comparisons", 0, "FILE", struct history_opts,
		   comparisons,
		"add: prof-diff's comparisons.json of the run\n"
		"added (of its run id, and of its rows only)"),
	CLI_STRING("workload", 0, "ID", struct history_opts, f.workload,
		"only this workload"),
	CLI_STRING("backend", 0, "B", struct history_opts, f.backend,
		"only this backend"),
	CLI_STRING("segment", 0, "ID", struct history_opts, f.segment,
		"only segment ids starting with ID"),
	CLI_STRING("before", 0, "DATE", struct history_opts, before,
		"prune: the runs before this date go"),
	CLI_TRUE("json", 0, struct history_opts, json,
		"list, trend, changes: JSON on a terminal too\n"
		"(where they print a table: run, commit, times\n"
		"in units that scale, counts grouped; JSON\n"
		"whenever stdout is not a terminal)"),
	CLI_STRING("since", 0, "REV", struct history_opts, since,
		"only changes whose first run after the step is at\n"
		"or after the first run of commit REV (a commit\n"
		"prefix, or a revision git can name here)"),
	CLI_TEXT(
	"example:\n"
	"  prof-history add artifacts/profiling/*/results.json\n"
	"  prof-history trend --workload pipeline.svg_dense_circles |\n"
	"      jq -r '.[] | \"\\(.commit[:8]) \\(.median)\"'"),
	CLI_TEXT(
	"Exit status: 0 done, 2 bad arguments, a malformed results file,\n"
	"comparisons that are not of it, a file that is not a history\n"
	"database or a corrupt one, SIGINT, SIGTERM or SIGHUP during add or\n"
	"import (nothing stored is changed then), or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

/* The verbs, as the messages name them. */
static const char *const verbs[] = {
	"add", "import", "list", "trend", "changes", "migrate", "prune",
	"export-runs",
};

static int
known(const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (!strcmp(cmd, verbs[i]))
			return 1;
	return 0;
}

/* The options every verb checks, before its own: 0, or -1 after saying
 * why. */
static int
check_options(const struct history_opts *o, const char *cmd)
{
	if (!strcmp(cmd, "prune") != (o->before != NULL)) {
		cli_say(o->before ? "--before is an option of prune" :
				    "prune takes --before DATE");
		return -1;
	}
	if (!o->db[0] || (o->since && !o->since[0]) ||
	    (o->comparisons && !o->comparisons[0]) ||
	    (o->project && !o->project[0])) {
		cli_say("empty argument");
		return -1;
	}
	if (o->before && cli_date("--before", o->before,
				  PROF_DATE_DAY | PROF_DATE_UTC) < 0)
		return -1;
	if (o->project && cli_project("--project", o->project) < 0)
		return -1;
	if (o->json && strcmp(cmd, "list") && strcmp(cmd, "trend") &&
	    strcmp(cmd, "changes")) {
		cli_say("--json is an option of list, trend and changes");
		return -1;
	}
	return 0;
}

/* The verbs that take files or a folder: add, import, export-runs;
 * n arguments after the verb. */
static int
run_with_files(const struct history_opts *o, const char *cmd, int n,
	       char **args)
{
	int other = o->f.workload || o->f.backend || o->f.segment || o->since;

	if (!strcmp(cmd, "add")) {
		if (other)
			return cli_fail("add takes only --db, --project, "
					"--comparisons and results files");
		if (n == 0)
			return cli_fail("give the results files to add");
		if (o->comparisons && n > 1)
			return cli_fail("--comparisons goes with one results "
					"file");
		if (o->comparisons && !strcmp(o->comparisons, "-") &&
		    !strcmp(args[0], "-"))
			return cli_fail("stdin ('-') can be given once");
		return history_cmd_add(o, n, args);
	}
	if (o->comparisons)
		return cli_fail("--comparisons is an option of add");
	if (!strcmp(cmd, "import")) {
		if (other)
			return cli_fail("import takes only --db, --project and "
					"folders");
		if (n == 0)
			return cli_fail("give the folders to import");
		return history_cmd_import(o, n, args);
	}
	if (other)
		return cli_fail("export-runs takes only --db, --project "
				"and a folder");
	if (n == 0)
		return cli_fail("give the folder to export the runs into");
	if (n > 1)
		return cli_fail("unexpected argument '%s'", args[1]);
	return history_cmd_export(o, args[0]);
}

/* The verbs that take no argument after them. */
static int
run_alone(const struct history_opts *o, const char *cmd)
{
	int filtered = o->f.workload || o->f.backend || o->f.segment;

	if (strcmp(cmd, "changes") && o->since)
		return cli_fail("--since is an option of changes");
	if (!strcmp(cmd, "prune")) {
		if (filtered)
			return cli_fail("prune takes only --db, --project and "
					"--before");
		return history_cmd_prune(o);
	}
	if (!strcmp(cmd, "migrate")) {
		if (filtered)
			return cli_fail("migrate takes only --db and --project");
		return history_cmd_migrate(o);
	}
	if (!strcmp(cmd, "list") && filtered)
		return cli_fail("list takes only --db and --project");
	return history_cmd_read(o, cmd);
}

int
main(int argc, char **argv)
{
	const char *env = getenv("PROF_HISTORY");
	struct history_opts o = {
		.db = env && env[0] ? env : "artifacts/history.sqlite"};
	const char *cmd;

	cli_init(argv[0]);
	/* Options may come before or after the command (GNU getopt permutes). */
	if (cli_opt_parse_all(option_table, argc, argv, &o) < 0)
		return PROF_EXIT_FAILURE;
	if (optind >= argc)
		return cli_fail("give a command: add, import, list, trend, "
				"changes, migrate, prune or export-runs");
	cmd = argv[optind++];
	if (!known(cmd))
		return cli_fail("unknown command '%s' (add, import, list, "
				"trend, changes, migrate, prune, export-runs)",
				cmd);
	if (check_options(&o, cmd) < 0)
		return PROF_EXIT_FAILURE;
	if (!strcmp(cmd, "add") || !strcmp(cmd, "import") ||
	    !strcmp(cmd, "export-runs"))
		return run_with_files(&o, cmd, argc - optind, argv + optind);
	if (o.comparisons)
		return cli_fail("--comparisons is an option of add");
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	return run_alone(&o, cmd);
}
