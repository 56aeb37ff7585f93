/*
 * history-int.h: what prof-history's verbs share (src/report/history-*.c,
 * prof-history.c): the options, the history opened for the project, and
 * the transaction of add and import with its signals. Inside src/report
 * and prof-history.c only.
 *
 * history-txn.c     opening, the transaction, SIGINT/SIGTERM/SIGHUP
 * history-add.c     add: each results file checked, then stored at once
 * history-import.c  import: the folders' results files, one transaction
 * history-read.c    list, trend, changes, migrate, prune, export-runs
 */
#ifndef PROF_HISTORY_INT_H
#define PROF_HISTORY_INT_H

#include <stddef.h>

#include "base/err.h"
#include "history/history.h"
#include "model/runview.h"

/* The command line, as the option table binds it (prof-history.c). */
struct history_opts {
	const char *db;
	const char *since;	 /* changes' --since */
	const char *comparisons; /* add's --comparisons */
	const char *project;	 /* --project, when given */
	const char *before;	 /* prune's --before */
	int json;		 /* --json: JSON on a terminal too */
	struct prof_history_filter f;
};

/* The verbs: each returns the tool's exit status (cli_finish()'s). */
int history_cmd_add(const struct history_opts *o, int n, char **files);
int history_cmd_import(const struct history_opts *o, int n, char **dirs);
int history_cmd_read(const struct history_opts *o, const char *cmd);
int history_cmd_migrate(const struct history_opts *o);
int history_cmd_prune(const struct history_opts *o);
int history_cmd_export(const struct history_opts *o, const char *dir);

/*
 * Open o->db and name its project (--project, else $PROF_PROJECT, else
 * the git repository's name: cli_project_default()) where it is given or
 * the history holds many; NULL after saying why.
 */
struct prof_history *history_open(const struct history_opts *o, int create);

/*
 * SIGINT, SIGTERM and SIGHUP during add and import (history-txn.c). Until
 * the transaction is open, and once it is committed, the tool ends at
 * once and says what was stored. While it is open, the statement running
 * is interrupted and the transaction rolled back before the tool says so.
 * The commit itself runs with the signals blocked: it is never cut in
 * half. history_txn_trap() sets the handlers (db: what they name).
 */
void history_txn_trap(const char *db);
/* The signal that came while the transaction was open, or 0. */
int history_txn_signalled(void);

/* Open the history and its transaction; NULL after saying why. */
struct prof_history *history_txn_begin(const struct history_opts *o);

/*
 * Commit, unless a signal came: 0, or -1 after saying why; -2, saying
 * nothing, when another process made the new history meanwhile (the
 * caller does its transaction again there: prof_history_raced()); -3,
 * saying nothing, with *errp, when another writer's transaction ended
 * this one (history_txn_again() decides).
 */
int history_txn_commit(struct prof_history *h, const char *db,
		       struct prof_err *errp);

/*
 * After a call or the commit of the transaction failed: when another
 * writer's transaction ended it (a deadlock, a serialization failure:
 * prof_history_conflict()), it is rolled back and run again, up to
 * PROF_HISTORY_TRIES times in all, after a pause (prof_history_backoff()).
 * 1 after a line that says so (the caller closes h and runs it again);
 * -1 after saying why not, at the last try (the cause, and how many
 * tries); 0 for another failure, which the caller says.
 */
int history_txn_again(struct prof_history *h, const struct prof_err *err,
		      const char *db, int *conflicts);

/* A new history that another process made first, each time: said. */
void history_txn_raced(const char *db);

/* An add that failed: said, and rolled back. */
void history_txn_abandon(struct prof_history *h, const struct prof_err *err,
			 const char *db);

/*
 * The verdicts a file of export-runs keeps for its rows (.history.rows),
 * for a file added without comparisons: 0 with *verdicts (NULL when it
 * keeps none), -1 with err naming the file.
 */
int history_kept_verdicts(const struct prof_runview *v, const char *path,
			  struct prof_runverdict **verdicts,
			  struct prof_err *err);

#endif /* PROF_HISTORY_INT_H */
