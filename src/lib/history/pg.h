/* pg.h: what the files of the PostgreSQL backend share (pg.c connects,
 * migrates and writes; pg_read.c reads): the backend's state, the run
 * order, the statement and its error, and the readers pg.c's operations
 * table names. Private to src/lib/history/pg*.c. */
#ifndef PROF_HISTORY_PG_H
#define PROF_HISTORY_PG_H

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <libpq-fe.h>

#include "backend.h"
#include "base/err.h"
#include "order.h"

/* The commit-time order of a project's runs, as SQLite's RUN_ORDER since
 * its 8, that order.c follows the commit graph from. */
#define PG_RUN_ORDER                                                           \
	"coalesce(commit_time_utc, timestamp_utc), timestamp_utc, "            \
	"commit_id, run_id"

struct prof_history_backend {
	PGconn *c;
	PGcancel *cancel;
	int in_txn;		/* between begin() and commit() */
	char project[256];	/* the project every call reads and writes */
	/* The segment id this transaction last stored (or found there), so
	 * that the rows of one segment ask for it once; "" after a
	 * rollback. */
	char last_segment[64];
	char name[1024];
	/* The SQLSTATE of the last failure since the last begin ("" for
	 * none, or one libpq gave no code for). */
	char sqlstate[6];
	/* The memory columns and their SQL (backend.h), the insert of a
	 * row among them, built once on opening. */
	struct prof_history_columns cols;
};

/* The first line of a libpq message, without its "ERROR:  ". */
static inline int
pg_fail(struct prof_history_backend *p, const PGresult *r, struct prof_err *err)
{
	const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) :
			      NULL;
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	char line[512];
	size_t k;

	snprintf(p->sqlstate, sizeof(p->sqlstate), "%s", state ? state : "");
	if (!msg)
		msg = p->c ? PQerrorMessage(p->c) : "out of memory";
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	snprintf(line, sizeof(line), "%s", msg);
	k = strcspn(line, "\n");
	line[k] = '\0';
	return prof_err_at(err, p->name, 0, 0, "%s", line[0] ? line : "error");
}

/*
 * Run one statement with text parameters (NULL: SQL null). Returns the
 * result (PQclear() it), or NULL with err filled.
 */
static inline PGresult *
q(struct prof_history_backend *p, const char *sql, int n,
  const char *const *vals, struct prof_err *err)
{
	PGresult *r = n ? PQexecParams(p->c, sql, n, NULL, vals, NULL, NULL, 0) :
			  PQexec(p->c, sql);
	ExecStatusType s = PQresultStatus(r);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_fail(p, r, err);
		PQclear(r);
		return NULL;
	}
	return r;
}

/* The readers (pg_read.c), as prof_history_pg_ops names them. */
struct prof_history_order *pg_order(struct prof_history_backend *p,
				    const char *project, struct prof_err *err);
int pg_timestamp(struct prof_history_backend *p, long long id, char *out,
		 struct prof_err *err);
struct json_object *pg_list(struct prof_history_backend *p,
			    const struct prof_history_order *o,
			    struct prof_err *err);
struct json_object *pg_trend(struct prof_history_backend *p,
			     const struct prof_history_filter *f, int by_series,
			     const struct prof_history_order *o,
			     struct prof_err *err);
int pg_walk(struct prof_history_backend *p, const struct prof_history_order *o,
	    prof_history_fn fn, void *arg, struct prof_err *err);
int pg_export(struct prof_history_backend *p,
	      const struct prof_history_order *o, prof_history_record_fn fn,
	      void *arg, struct prof_err *err);
struct json_object *pg_projects(struct prof_history_backend *p,
				struct prof_err *err);

#endif /* PROF_HISTORY_PG_H */
