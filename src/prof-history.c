/* prof-history: a run history on SQLite or PostgreSQL: add runs, import
 * folders of run files, list them, trends per row, change points. */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "base/afile.h"
#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "cli/git.h"
#include "cli/project.h"
#include "cli/runfiles.h"
#include "history/export.h"
#include "history/history.h"
#include "model/runview.h"
#include "model/sample.h"
#include "page.h"
#include "report/terminal.h"
#include "prof/sum.h"

enum {
	OPT_DB = 256,
	OPT_WORKLOAD,
	OPT_BACKEND,
	OPT_SEGMENT,
	OPT_SINCE,
	OPT_COMPARISONS,
	OPT_PROJECT,
	OPT_BEFORE,
	OPT_JSON,
	OPT_VERSION,
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-history add [--db DB] RESULTS..."),
	CLI_USAGE("prof-history add [--db DB] --comparisons FILE RESULTS"),
	CLI_USAGE("prof-history import [--db DB] DIR..."),
	CLI_USAGE("prof-history list [--db DB] [--json]"),
	CLI_USAGE("prof-history trend [--db DB] [--workload ID] [--backend B]\n" "                   [--segment ID] [--json]"),
	CLI_USAGE("prof-history changes [--db DB] [--since REV] [--workload ID]\n" "                     [--backend B] [--segment ID] [--json]"),
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
	CLI_OPTION("db", 0, "DB", OPT_DB,
		"the history: a SQLite file (created by add and\n"
		"import; a first one that fails leaves none) or\n"
		"a PostgreSQL address (its tables made by the\n"
		"first add or import; never a password in it:\n"
		"libpq reads PGPASSWORD or PGPASSFILE)"),
	CLI_OPTION("project", 0, "NAME", OPT_PROJECT,
		"the project whose runs are read and written (a\n"
		"PostgreSQL history holds many, which never see\n"
		"each other's runs; a SQLite file is one\n"
		"project's and does not store it); default\n"
		"$PROF_PROJECT, else the name of the git\n"
		"repository here"),
	CLI_OPTION("comparisons", 0, "FILE", OPT_COMPARISONS,
		"add: prof-diff's comparisons.json of the run\n"
		"added (of its run id, and of its rows only)"),
	CLI_OPTION("workload", 0, "ID", OPT_WORKLOAD,
		"only this workload"),
	CLI_OPTION("backend", 0, "B", OPT_BACKEND,
		"only this backend"),
	CLI_OPTION("segment", 0, "ID", OPT_SEGMENT,
		"only segment ids starting with ID"),
	CLI_OPTION("before", 0, "DATE", OPT_BEFORE,
		"prune: the runs before this date go"),
	CLI_FLAG("json", 0, OPT_JSON,
		"list, trend, changes: JSON on a terminal too\n"
		"(where they print a table: run, commit, times\n"
		"in units that scale, counts grouped; JSON\n"
		"whenever stdout is not a terminal)"),
	CLI_OPTION("since", 0, "REV", OPT_SINCE,
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
	CLI_STD(OPT_VERSION),
	CLI_END,
};

struct opts {
	const char *db;
	const char *since;
	const char *comparisons;
	struct prof_history_filter f;
};

/* --project, when given: the project of every call (history.h). */
static const char *project;
/* prune's --before. */
static const char *before;
/* --json: list, trend and changes print JSON on a terminal too. */
static int as_json;

/* Open the history and name its project (--project, else $PROF_PROJECT,
 * else the git repository's name: cli_project_default()) where it is
 * given or the history holds many; NULL after saying why. */
static struct prof_history *
open_history(const char *db, int create)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(db, create, &err);
	char name[4096];

	if (!h) {
		cli_err(&err);
		return NULL;
	}
	if (!project && !prof_history_many_projects(h))
		return h;
	if (cli_project_default(project, name, sizeof(name)) < 0) {
		prof_history_close(h);
		return NULL;
	}
	if (prof_history_project(h, name, &err) < 0) {
		cli_err(&err);
		prof_history_close(h);
		return NULL;
	}
	return h;
}

static int
print_json(struct json_object *o)
{
	struct prof_err err = {0};
	int rc = prof_out_json("-", o, &err);

	json_object_put(o);
	return cli_finish(rc < 0 ? PROF_EXIT_FAILURE : PROF_EXIT_OK);
}

/*
 * SIGINT, SIGTERM and SIGHUP during add and import. Until the transaction
 * is open, and once it is committed, the tool ends at once and says what
 * was stored. While it is open, the statement running is interrupted and
 * the transaction rolled back before the tool says so. The commit itself
 * runs with the signals blocked: it is never cut in half.
 */
enum { SIG_EARLY, SIG_TXN, SIG_DONE };
static volatile sig_atomic_t sig_phase, sig_got;
static struct prof_history *sig_history;
static char sig_db[1024];

static void
put_str(const char *s)
{
	ssize_t k = write(STDERR_FILENO, s, strlen(s));

	(void)k;
}

static const char *
sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
							    "SIGHUP";
}

/* Async-signal-safe: write(), _exit() and sqlite3_interrupt(), which
 * only sets a flag (SQLite's own shell calls it from its handler). */
static void
on_signal(int sig)
{
	if (sig_phase == SIG_TXN) {
		sig_got = sig;
		prof_history_interrupt(sig_history);
		return;
	}
	/* A history being made (prof_history_open) is not left half made. */
	prof_afile_unlink_all();
	put_str(cli_name);
	put_str(": interrupted by ");
	put_str(sig_name(sig));
	put_str(sig_phase == SIG_DONE ? "; the runs were stored in '" :
					"; nothing was added to '");
	put_str(sig_db);
	put_str(sig_phase == SIG_DONE ? "' before it\n" : "'\n");
	_exit(PROF_EXIT_FAILURE);
}

static const int trapped[] = {SIGINT, SIGTERM, SIGHUP};

static void
trap_signals(const char *db)
{
	struct sigaction sa;
	size_t i;

	cli_safe(db, sig_db, sizeof(sig_db));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(trapped) / sizeof(*trapped); i++)
		sigaction(trapped[i], &sa, NULL);
}

static void
block_signals(int block)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(trapped) / sizeof(*trapped); i++)
		sigaddset(&set, trapped[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* Open the history and its transaction; NULL after saying why. */
static struct prof_history *
begin(const char *db)
{
	struct prof_err err = {0};
	struct prof_history *h = open_history(db, 1);

	if (!h)
		return NULL;
	if (prof_history_begin(h, &err) < 0) {
		cli_err(&err);
		prof_history_close(h);
		return NULL;
	}
	sig_history = h;
	sig_phase = SIG_TXN;
	return h;
}

/* Commit, unless a signal came: 0, or -1 after saying why; -2, saying
 * nothing, when another process made the new history meanwhile (the
 * caller does its transaction again there: prof_history_raced()); -3,
 * saying nothing, with *errp, when another writer's transaction ended
 * this one (conflict_again() decides). */
static int
commit(struct prof_history *h, const char *db, struct prof_err *errp)
{
	struct prof_err err = {0};
	char safe[512];
	int rc = -1;

	block_signals(1);
	if (sig_got) {
		prof_history_rollback(h);
		cli_say("interrupted by %s; nothing was added to '%s'",
			sig_name(sig_got), cli_safe(db, safe, sizeof(safe)));
	} else if (prof_history_commit(h, &err) < 0) {
		if (prof_history_raced(h)) {
			rc = -2;
		} else if (prof_history_conflict(h)) {
			rc = -3;
			*errp = err;
		} else {
			cli_err(&err);
			cli_say("nothing was added to '%s'",
				cli_safe(db, safe, sizeof(safe)));
		}
	} else {
		rc = 0;
	}
	sig_phase = rc == 0 ? SIG_DONE : SIG_EARLY;
	block_signals(0);
	return rc;
}

/*
 * After a call or the commit of the transaction failed: when another
 * writer's transaction ended it (a deadlock, a serialization failure:
 * prof_history_conflict()), it is rolled back and run again, up to
 * PROF_HISTORY_TRIES times in all, after a pause (prof_history_backoff()).
 * 1 after a line that says so (the caller closes h and runs it again);
 * -1 after saying why not, at the last try (the cause, and how many
 * tries); 0 for another failure, which the caller says.
 */
static int
conflict_again(struct prof_history *h, const struct prof_err *err,
	       const char *db, int *conflicts)
{
	int why = sig_got ? 0 : prof_history_conflict(h);
	char buf[2048], safe[2048], dbs[512];

	if (!why)
		return 0;
	block_signals(1);
	prof_history_rollback(h);
	sig_phase = SIG_EARLY;
	block_signals(0);
	cli_safe(prof_err_str(err, buf, sizeof(buf)), safe, sizeof(safe));
	if (++*conflicts >= PROF_HISTORY_TRIES) {
		cli_say("%s", safe);
		cli_say("nothing was added to '%s': %d tries, each ended by "
			"another writer's transaction (the last by %s)",
			cli_safe(db, dbs, sizeof(dbs)), *conflicts,
			why == PROF_HISTORY_DEADLOCK ?
				"a deadlock, SQLSTATE 40P01" :
				"a serialization failure, SQLSTATE 40001");
		return -1;
	}
	cli_say("%s; rolled back, trying again (%d of %d)", safe,
		*conflicts + 1, PROF_HISTORY_TRIES);
	prof_history_backoff(*conflicts);
	return 1;
}

/* A new history that another process made first, each time: said. */
static void
say_raced(const char *db)
{
	char safe[512];

	cli_say("nothing was added to '%s': another process made it while "
		"this one did, twice", cli_safe(db, safe, sizeof(safe)));
}

/* An add that failed: said, and rolled back. */
static void
abandon(struct prof_history *h, const struct prof_err *err, const char *db)
{
	char safe[512];

	block_signals(1);
	prof_history_rollback(h);
	if (sig_got)
		cli_say("interrupted by %s; nothing was added to '%s'",
			sig_name(sig_got), cli_safe(db, safe, sizeof(safe)));
	else
		cli_err(err);
	sig_phase = SIG_EARLY;
	block_signals(0);
}

/*
 * The verdicts a file of export-runs keeps for its rows (.history.rows),
 * for a file added without comparisons: 0 with *verdicts (NULL when it
 * keeps none), -1 with err naming the file.
 */
static int
kept_verdicts(const struct prof_runview *v, const char *path,
	      struct prof_runverdict **verdicts, struct prof_err *err)
{
	const struct prof_runrow *rows;
	size_t nr = prof_runview_rows(v, &rows);
	int k;

	*verdicts = calloc(nr ? nr : 1, sizeof(**verdicts));
	if (!*verdicts)
		return prof_err_set(err, "out of memory");
	k = prof_runview_kept_verdicts(v, *verdicts, err);
	if (k <= 0) {
		free(*verdicts);
		*verdicts = NULL;
	}
	if (k < 0)
		prof_err_file(err, path);
	return k < 0 ? -1 : 0;
}

/* A file of add that is not a run of the history (an A/B side). */
#define LEFT_OUT (-1)

static int
cmd_add(struct opts *o, int n, char **files)
{
	struct prof_runview *v = calloc((size_t)n, sizeof(*v));
	int *added = calloc((size_t)n, sizeof(*added));
	struct prof_history *h = NULL;
	struct prof_err err = {0};
	struct json_object *cmp = NULL;
	struct prof_runverdict *verdicts = NULL;
	struct prof_runverdict **kept = calloc((size_t)n, sizeof(*kept));
	int i, rc = PROF_EXIT_FAILURE, stdin_seen = 0, tries, left = 0;
	int conflicts = 0;
	char safe[512];

	if (!v || !added || !kept) {
		free(v);
		free(added);
		free(kept);
		return cli_fail("out of memory");
	}
	trap_signals(o->db);
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
		/* A side of an A/B is not a run: said, and left out. */
		if (v[i].ab_sides) {
			cli_say("left out '%s': %s, not a run of the history "
				"(prof-history(1), \"A/B SIDES\")",
				cli_safe(files[i], safe, sizeof(safe)),
				v[i].ab_sides & PROF_RUNVIEW_AB_REFERENCE ?
					"the reference side of an interleaved "
					"A/B (prof-time --against)" :
					"the current side of an interleaved A/B "
					"(prof-time --against)");
			added[i] = LEFT_OUT;
			left++;
		} else if ((i || !o->comparisons) &&
			   kept_verdicts(&v[i], files[i], &kept[i], &err) < 0) {
			cli_err(&err);
			cli_say("nothing was added to '%s'",
				cli_safe(o->db, safe, sizeof(safe)));
			goto out;
		}
	}
	if (left == n) {
		rc = PROF_EXIT_OK;
		goto out;
	}
	/* The comparisons must be of that run, and of its rows. */
	if (o->comparisons && added[0] != LEFT_OUT) {
		const struct prof_runrow *rows;
		size_t nr = prof_runview_rows(&v[0], &rows);

		cmp = prof_json_load(o->comparisons, &err);
		verdicts = calloc(nr ? nr : 1, sizeof(*verdicts));
		if (cmp && !verdicts) {
			cli_say("out of memory");
			goto out;
		}
		if (!cmp || prof_runview_verdicts(&v[0], cmp, verdicts,
						  &err) < 0) {
			prof_err_file(&err, o->comparisons);
			cli_err(&err);
			cli_say("nothing was added to '%s'",
				cli_safe(o->db, safe, sizeof(safe)));
			goto out;
		}
	}
	/* All the files in one transaction: all of them, or none (again in
	 * the history another process made meanwhile, once; again after
	 * another writer's transaction ended it: conflict_again()). */
	for (tries = 0;;) {
		int c, k = 0;

		h = begin(o->db);
		if (!h)
			goto out;
		for (i = 0; i < n; i++) {
			if (added[i] == LEFT_OUT)
				continue;
			if (sig_got ||
			    prof_history_add_judged(h, &v[i],
						    kept[i] ? kept[i] :
						    i ? NULL : verdicts,
						    &added[i], &err) < 0) {
				k = conflict_again(h, &err, o->db, &conflicts);
				if (k == 0)
					abandon(h, &err, o->db);
				if (k <= 0)
					goto out;
				break;
			}
		}
		c = k ? -3 : commit(h, o->db, &err);
		if (c == 0)
			break;
		if (c == -3 && !k && (k = conflict_again(h, &err, o->db,
							 &conflicts)) < 0)
			goto out;
		if (c == -2 && tries)
			say_raced(o->db);
		if (c == -1 || (c == -2 && tries++))
			goto out;
		prof_history_close(h);
		h = NULL;
		memset(&err, 0, sizeof(err));
	}
	for (i = 0; i < n; i++) {
		if (added[i] == LEFT_OUT)
			continue;
		if (added[i] == PROF_HISTORY_ADDED)
			cli_say("added run '%s' (commit %.12s) to '%s'",
				prof_runview_str(&v[i], "run_id"),
				prof_runview_str(&v[i], "commit"), o->db);
		else if (added[i] == PROF_HISTORY_JUDGED)
			cli_say("run '%s' is already in '%s'; the statuses of "
				"its rows were added",
				prof_runview_str(&v[i], "run_id"), o->db);
		else if (added[i] == PROF_HISTORY_UNCOMPARED)
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
	for (i = 0; i < n; i++) {
		prof_runview_free(&v[i]);
		free(kept[i]);
	}
	free(v);
	free(added);
	free(kept);
	free(verdicts);
	json_object_put(cmp);
	return cli_finish(rc);
}

/* The SHA-256 of a regular file's bytes, in hex (sum.h's raw bytes, as
 * sha256sum gives it): 0, 1 when path is not a regular file (import skips
 * it), -1 with errno, or when a signal came (sig_got). */
static int
file_sha256(const char *path, char hex[PROF_SUM_HEX])
{
	unsigned char buf[65536];
	struct prof_sum sum;
	struct stat sb;
	ssize_t k = 0;
	int fd, rc, e;

	/* Non-blocking: a file that became a FIFO since the walk. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return 1;
	}
	if (prof_sum_init(&sum) < 0) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	/* A signal during import stops a long file (the import then ends). */
	while (!sig_got && (k = read(fd, buf, sizeof(buf))) > 0)
		prof_sum_raw(&sum, buf, (size_t)k);
	rc = sig_got || k < 0 ? -1 : 0;
	e = errno;
	prof_sum_final(&sum, hex);
	close(fd);
	errno = e;
	return rc;
}

/*
 * The verdicts of a run file of import from the comparisons.json beside
 * it, when the file is a run folder's results.json and there is one:
 * 0 with *verdicts (NULL when there is none), -1 with err.
 */
static int
folder_verdicts(const char *path, const struct prof_runview *v,
		struct json_object **cmp, struct prof_runverdict **verdicts,
		struct prof_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const struct prof_runrow *rows;
	char cpath[4096];
	size_t nr;
	struct stat sb;

	*cmp = NULL;
	*verdicts = NULL;
	if (strcmp(base, "results.json") ||
	    snprintf(cpath, sizeof(cpath), "%.*scomparisons.json",
		     (int)(base - path), path) >= (int)sizeof(cpath) ||
	    stat(cpath, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;	/* not a regular file: skipped, and said */
	nr = prof_runview_rows(v, &rows);
	*cmp = prof_json_load(cpath, err);
	if (!*cmp)
		return -1;
	*verdicts = calloc(nr ? nr : 1, sizeof(**verdicts));
	if (!*verdicts)
		return prof_err_set(err, "out of memory");
	if (prof_runview_verdicts(v, *cmp, *verdicts, err) < 0) {
		prof_err_file(err, cpath);
		return -1;
	}
	return 0;
}

/* Whether a load failed because the file is another JSON document, not
 * because it is a bad results file. */
static int
not_results(const struct prof_err *err)
{
	return err->line == 0 &&
	       (!strcmp(err->path, ".") || !strcmp(err->path, ".schema"));
}

/* import's last line: the runs added (n[0]), from n[1] results files,
 * n[2] already there, n[3] sides of an A/B and n[4] other JSON files
 * skipped, n[5] symbolic links followed, n[6] to what was read already. */
static void
say_imported(const char *db, const size_t n[7])
{
	size_t added = n[0], results = n[1], same = n[2], ab = n[3];
	size_t skipped = n[4], followed = n[5], again_links = n[6];
	char safe[512], abw[128] = "", lw[160] = "";

	if (ab)
		snprintf(abw, sizeof(abw),
			 "; %zu side%s of an interleaved A/B left out", ab,
			 ab == 1 ? "" : "s");
	if (followed || again_links)
		snprintf(lw, sizeof(lw), "; %zu symbolic link%s followed",
			 followed, followed == 1 ? "" : "s");
	if (again_links)
		snprintf(lw + strlen(lw), sizeof(lw) - strlen(lw),
			 ", %zu to what was read already",
			 again_links);
	cli_say("imported %zu run%s into '%s' from %zu results file%s "
		"(%zu already there%s; %zu other JSON file%s skipped%s)",
		added, added == 1 ? "" : "s",
		cli_safe(db, safe, sizeof(safe)), results,
		results == 1 ? "" : "s", same, abw, skipped,
		skipped == 1 ? "" : "s", lw);
}

static int
cmd_import(struct opts *o, int n, char **dirs)
{
	struct prof_history *h = NULL;
	struct prof_err err = {0};
	struct json_object *cmp = NULL;
	struct prof_runverdict *verdicts = NULL;
	size_t i, added = 0, same = 0, skipped = 0, results = 0, ab = 0;
	size_t followed = 0, again_links = 0;
	struct cli_paths found = {0};
	int rc = PROF_EXIT_FAILURE, k, c, tries = 0, conflicts = 0;
	char safe[512];

	trap_signals(o->db);
	if (cli_run_files(n, dirs, &found, &followed, &again_links) < 0)
		goto out;
again:
	added = same = skipped = results = ab = 0;
	h = begin(o->db);
	if (!h)
		goto out;
	/*
	 * One file in memory at a time; all in one transaction. A file whose
	 * bytes an import has read before is not parsed again: a folder that
	 * grows by a run a day costs the new run, not the whole record.
	 */
	for (i = 0; i < found.n; i++) {
		struct prof_runview v = {0};
		char sha[PROF_SUM_HEX];
		int one, hashed, seen = 0;

		if (sig_got) {
			abandon(h, &err, o->db);
			goto out;
		}
		memset(&err, 0, sizeof(err));
		hashed = file_sha256(found.paths[i], sha);
		if (sig_got) {
			abandon(h, &err, o->db);
			goto out;
		}
		if (hashed == 1) {
			/* No longer a regular file since the walk. */
			cli_run_file_skipped(found.paths[i]);
			continue;
		}
		if (hashed < 0) {
			prof_err_at(&err, found.paths[i], 0, 0, "%s",
				    strerror(errno));
			goto failed;
		}
		seen = prof_history_file(h, sha, NULL, &err);
		if (seen < 0)
			goto failed;
		if (seen == 1) {
			results++;
			same++;
			continue;
		}
		if (seen == 2) {
			skipped++;
			continue;
		}
		if (prof_runview_load(&v, found.paths[i], 0, &err) < 0) {
			prof_runview_free(&v);
			if (not_results(&err)) {
				skipped++;
				if (prof_history_file(h, sha, "", &err) < 0)
					goto failed;
				continue;
			}
			goto failed;
		}
		results++;
		if (v.ab_sides) {
			/* A side of an A/B is not a run (--help). */
			prof_runview_free(&v);
			ab++;
			continue;
		}
		if (folder_verdicts(found.paths[i], &v, &cmp, &verdicts,
				    &err) < 0 ||
		    (!verdicts && kept_verdicts(&v, found.paths[i], &verdicts,
						&err) < 0) ||
		    prof_history_add_judged(h, &v, verdicts, &one, &err) < 0 ||
		    prof_history_file(h, sha, prof_runview_str(&v, "run_id"),
				      &err) < 0) {
			prof_runview_free(&v);
			goto failed;
		}
		prof_runview_free(&v);
		free(verdicts);
		verdicts = NULL;
		json_object_put(cmp);
		cmp = NULL;
		if (one == PROF_HISTORY_ADDED)
			added++;
		else
			same++;
	}
	c = commit(h, o->db, &err);
	if (c == -2 && !tries++) {
		/* Another process made the history meanwhile: into that. */
		prof_history_close(h);
		h = NULL;
		goto again;
	}
	if (c == -3) {
		k = conflict_again(h, &err, o->db, &conflicts);
		if (k < 0)
			goto out;
		prof_history_close(h);
		h = NULL;
		goto again;
	}
	if (c == -2)
		say_raced(o->db);
	if (c < 0)
		goto out;
	say_imported(o->db, (size_t[]){added, results, same, ab, skipped,
					followed, again_links});
	rc = PROF_EXIT_OK;
	goto out;
failed:
	k = conflict_again(h, &err, o->db, &conflicts);
	if (k > 0) {
		prof_history_close(h);
		h = NULL;
		free(verdicts);
		verdicts = NULL;
		json_object_put(cmp);
		cmp = NULL;
		goto again;
	}
	if (k < 0)
		goto out;
	abandon(h, &err, o->db);
	if (!sig_got)
		cli_say("nothing was added to '%s'",
			cli_safe(o->db, safe, sizeof(safe)));
out:
	prof_history_close(h);
	free(verdicts);
	json_object_put(cmp);
	cli_paths_free(&found);
	return cli_finish(rc);
}

/* Each change point's "bisect": the make bisect line between its two
 * runs' commits (with CHANNEL=memory for a change of a memory metric),
 * or null when one is not known (or a commit or the workload id is not
 * one a shell line may hold as it is). */
static void
add_bisect_lines(struct json_object *a)
{
	size_t i, n = json_object_array_length(a);

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);
		const char *b = prof_json_str(c, "commit_before");
		const char *f = prof_json_str(c, "commit_after");
		const char *w = prof_json_str(c, "workload");
		const char *ch = prof_json_str(c, "channel");
		char line[1024];

		if (!b || !f || !w || !b[0] || !f[0] || !strcmp(b, f) ||
		    !strcmp(b, "unknown") || !strcmp(f, "unknown") ||
		    strspn(b, "0123456789abcdef") != strlen(b) ||
		    strspn(f, "0123456789abcdef") != strlen(f) ||
		    strspn(w, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
			    strlen(w)) {
			json_object_object_add(c, "bisect", NULL);
			continue;
		}
		/* A memory change is found by memory runs (make bisect
		 * CHANNEL=memory), a time change by the instruction counts
		 * the default channel takes. */
		snprintf(line, sizeof(line),
			 "make bisect GOOD=%s BAD=%s W=%s%s", b, f, w,
			 ch && !strcmp(ch, "memory") ? " CHANNEL=memory" :
						      "");
		json_object_object_add(c, "bisect",
				       json_object_new_string(line));
	}
}

static int
cmd_read(struct opts *o, const char *cmd)
{
	struct prof_err err = {0};
	struct prof_history *h = open_history(o->db, 0);
	struct json_object *a = NULL;

	if (!h)
		return PROF_EXIT_FAILURE;
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

			if (cli_git_commit(o->since, full) == 0 &&
			    strcmp(full, o->since))
				a = prof_history_changes(h, &o->f, full, &gerr);
		}
	}
	prof_history_close(h);
	if (!a) {
		cli_err(&err);
		return PROF_EXIT_FAILURE;
	}
	if (!strcmp(cmd, "changes"))
		add_bisect_lines(a);
	if (as_json || !isatty(STDOUT_FILENO))
		return print_json(a);
	return cli_finish(prof_terminal_table(cmd, a));
}

/* migrate: open (making the history when missing: a first transaction,
 * empty) and say the version it is at. */
static int
cmd_migrate(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = open_history(o->db, 1);
	char safe[512];
	int rc = PROF_EXIT_FAILURE;

	if (!h)
		return rc;
	if (prof_history_begin(h, &err) < 0 ||
	    prof_history_commit(h, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("'%s' is at history schema version %d",
		cli_safe(o->db, safe, sizeof(safe)), prof_history_version(h));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}

static int
cmd_prune(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = open_history(o->db, 0);
	long long n = 0;
	char safe[512];
	int rc = PROF_EXIT_FAILURE;

	if (!h)
		return rc;
	if (prof_history_prune(h, before, &n, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("pruned %lld run%s from before %s out of '%s'", n,
		n == 1 ? "" : "s", before,
		cli_safe(o->db, safe, sizeof(safe)));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}

static int
cmd_export(struct opts *o, const char *dir)
{
	struct prof_err err = {0};
	struct prof_history *h;
	long long runs = 0;
	struct stat sb;
	char safe[512], dsafe[512], run[PATH_MAX];
	const char *m;
	int rc = PROF_EXIT_FAILURE;
	DIR *d;
	struct dirent *e;

	/* Never into a run (prof_in_run()), before anything is read. */
	cli_safe(dir, safe, sizeof(safe));
	switch (prof_in_run(dir, run, sizeof(run), &m)) {
	case 1:
		return cli_fail("'%s' is a run folder (it holds '%s'): "
				"export-runs never writes into a run; give "
				"another folder", safe, m);
	case 2:
		return cli_fail("'%s' is inside the run folder '%s' (it holds "
				"'%s'): export-runs never writes into a run; "
				"give a folder outside it", safe,
				cli_safe(run, dsafe, sizeof(dsafe)), m);
	case -1:
		return cli_fail("cannot read the current folder: %s",
				strerror(errno));
	}
	/* The history first: one that cannot be read leaves no folder. */
	h = open_history(o->db, 0);
	if (!h)
		return rc;
	/* A folder of its own: nothing there is replaced. */
	if (mkdir(dir, 0777) != 0) {
		int why = errno;

		if (why != EEXIST || stat(dir, &sb) != 0 ||
		    !S_ISDIR(sb.st_mode)) {
			cli_say("cannot make the folder '%s': %s",
				cli_safe(dir, safe, sizeof(safe)),
				why == EEXIST ? "not a folder" :
						strerror(why));
			goto out;
		}
		d = opendir(dir);
		if (!d) {
			cli_say("cannot read '%s': %s",
				cli_safe(dir, safe, sizeof(safe)),
				strerror(errno));
			goto out;
		}
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				break;
		closedir(d);
		if (e) {
			cli_say("'%s' is not empty (export-runs writes into a "
				"new or empty folder)",
				cli_safe(dir, safe, sizeof(safe)));
			goto out;
		}
	}
	if (prof_history_export_runs(h, dir, &runs, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("exported %lld run%s of '%s' into '%s'", runs,
		runs == 1 ? "" : "s", cli_safe(o->db, safe, sizeof(safe)),
		cli_safe(dir, dsafe, sizeof(dsafe)));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	const char *env = getenv("PROF_HISTORY");
	struct opts o = {.db = env && env[0] ? env : "artifacts/history.sqlite"};
	const char *cmd;
	int c, filtered = 0;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	/* Options may come before or after the command (GNU getopt permutes). */
	while ((c = cli_opt_next(&g, argc, argv)) != -1) {
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
		case OPT_COMPARISONS:
			o.comparisons = optarg;
			break;
		case OPT_PROJECT:
			project = optarg;
			break;
		case OPT_BEFORE:
			before = optarg;
			break;
		case OPT_JSON:
			as_json = 1;
			break;
		case 'h':
			cli_opt_usage(option_table, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-history %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			cli_opt_usage(option_table, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (optind >= argc)
		return cli_fail("give a command: add, import, list, trend, "
				"changes, migrate, prune or export-runs");
	cmd = argv[optind++];
	if (strcmp(cmd, "add") && strcmp(cmd, "import") &&
	    strcmp(cmd, "list") && strcmp(cmd, "trend") &&
	    strcmp(cmd, "changes") && strcmp(cmd, "migrate") &&
	    strcmp(cmd, "prune") && strcmp(cmd, "export-runs"))
		return cli_fail("unknown command '%s' (add, import, list, "
				"trend, changes, migrate, prune, export-runs)",
				cmd);
	if (!strcmp(cmd, "prune") != (before != NULL))
		return cli_fail(before ? "--before is an option of prune" :
					 "prune takes --before DATE");
	if (!o.db[0] || (o.since && !o.since[0]) ||
	    (o.comparisons && !o.comparisons[0]) || (project && !project[0]))
		return cli_fail("empty argument");
	if (before && cli_date("--before", before,
			       PROF_DATE_DAY | PROF_DATE_UTC) < 0)
		return PROF_EXIT_FAILURE;
	if (project && cli_project("--project", project) < 0)
		return PROF_EXIT_FAILURE;
	if (as_json && strcmp(cmd, "list") && strcmp(cmd, "trend") &&
	    strcmp(cmd, "changes"))
		return cli_fail("--json is an option of list, trend and "
				"changes");
	if (!strcmp(cmd, "add")) {
		if (filtered || o.since)
			return cli_fail("add takes only --db, --project, "
					"--comparisons and results files");
		if (optind >= argc)
			return cli_fail("give the results files to add");
		if (o.comparisons && argc - optind > 1)
			return cli_fail("--comparisons goes with one results "
					"file");
		if (o.comparisons && !strcmp(o.comparisons, "-") &&
		    !strcmp(argv[optind], "-"))
			return cli_fail("stdin ('-') can be given once");
		return cmd_add(&o, argc - optind, argv + optind);
	}
	if (o.comparisons)
		return cli_fail("--comparisons is an option of add");
	if (!strcmp(cmd, "import")) {
		if (filtered || o.since)
			return cli_fail("import takes only --db, --project and "
					"folders");
		if (optind >= argc)
			return cli_fail("give the folders to import");
		return cmd_import(&o, argc - optind, argv + optind);
	}
	if (!strcmp(cmd, "export-runs")) {
		if (filtered || o.since)
			return cli_fail("export-runs takes only --db, --project "
					"and a folder");
		if (optind >= argc)
			return cli_fail("give the folder to export the runs "
					"into");
		if (optind + 1 < argc)
			return cli_fail("unexpected argument '%s'",
					argv[optind + 1]);
		return cmd_export(&o, argv[optind]);
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	if (strcmp(cmd, "changes") && o.since)
		return cli_fail("--since is an option of changes");
	if (!strcmp(cmd, "prune")) {
		if (filtered || o.since)
			return cli_fail("prune takes only --db, --project and "
					"--before");
		return cmd_prune(&o);
	}
	if (!strcmp(cmd, "migrate")) {
		if (filtered || o.since)
			return cli_fail("migrate takes only --db and --project");
		return cmd_migrate(&o);
	}
	if (!strcmp(cmd, "list") && filtered)
		return cli_fail("list takes only --db and --project");
	return cmd_read(&o, cmd);
}
