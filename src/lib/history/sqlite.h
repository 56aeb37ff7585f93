/* sqlite.h: what the files of the SQLite backend share (sqlite.c opens,
 * migrates and writes; sqlite_read.c reads): the backend's state, the
 * run order and the readers sqlite.c's operations table names. Private
 * to src/lib/history/sqlite*.c. */
#ifndef PROF_HISTORY_SQLITE_H
#define PROF_HISTORY_SQLITE_H

#include <json-c/json.h>
#include <sqlite3.h>

#include "backend.h"
#include "base/err.h"
#include "order.h"

struct prof_history_backend {
	sqlite3 *db;
	int readonly;
	char path[4096];
	/* Where a history being made goes: path, or where path's symbolic
	 * link leads (link_target()). */
	char file[4096];
	/* A history being made: its temporary sibling, linked into place by
	 * the first commit (see make_pending()); "" once it is there. */
	char pending[4096 + 32];
	int raced;		/* another process made it first */
	char project[256];	/* as named (prof_history_project()) */
	/* The run order of the reader running now (use_order(), the
	 * facade's: borrowed); SQL prof_run_rank(id) gives a run's
	 * position in it. */
	const struct prof_history_order *order;
	/* The memory columns and their SQL (backend.h), the insert of a
	 * row among them, built once on opening. */
	struct prof_history_columns cols;
};

/*
 * The order of runs, whatever the order they were added in: by timestamp,
 * then commit, then run id (for runs of one second).
 */
#define RUN_ORDER_V3 "timestamp_utc, commit_id, run_id"
/*
 * Since version 8: by the commit's time first (commit_time_utc, where the
 * run file gave commit_time; else the run's own timestamp), so a
 * later-made run of an older commit falls where its commit does. This
 * is the commit-time order that order.c follows the commit graph
 * from: the readers order by R_RUN_RANK, a run's position in that, and
 * read the runs of that order only (R_RUN_KNOWN: not one another process
 * added after it was read, as PostgreSQL's join leaves those out).
 */
#define RUN_ORDER "coalesce(commit_time_utc, timestamp_utc), " RUN_ORDER_V3
#define R_RUN_RANK "prof_run_rank(r.id)"
#define R_RUN_KNOWN R_RUN_RANK " > 0"

/* Fill err with the database's last error; returns -1. */
static inline int
db_err(struct prof_history_backend *h, struct prof_err *err, const char *what)
{
	const char *msg = h->db ? sqlite3_errmsg(h->db) : "out of memory";

	prof_err_at(err, h->path, 0, 0, "%s%s%s", what ? what : "",
		    what ? ": " : "", msg);
	return -1;
}

/* The readers (sqlite_read.c), as prof_history_sqlite_ops names them. */
int sq_conflict(const struct prof_history_backend *h);
struct json_object *sq_projects(struct prof_history_backend *h,
				struct prof_err *err);
struct prof_history_order *sq_order(struct prof_history_backend *h,
				    const char *project, struct prof_err *err);
int sq_timestamp(struct prof_history_backend *h, long long id, char *out,
		 struct prof_err *err);
struct json_object *sq_list(struct prof_history_backend *h,
			    const struct prof_history_order *o,
			    struct prof_err *err);
struct json_object *sq_trend(struct prof_history_backend *h,
			     const struct prof_history_filter *f, int by_series,
			     const struct prof_history_order *o,
			     struct prof_err *err);
int sq_walk(struct prof_history_backend *h, const struct prof_history_order *o,
	    prof_history_fn fn, void *arg, struct prof_err *err);
int sq_export(struct prof_history_backend *h,
	      const struct prof_history_order *o, prof_history_record_fn fn,
	      void *arg, struct prof_err *err);

#endif /* PROF_HISTORY_SQLITE_H */
