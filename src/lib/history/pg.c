/* pg.c: the run history on PostgreSQL, a backend of history.c (its
 * operations: prof_history_pg_ops, backend.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <libpq-fe.h>

#include "backend.h"
#include "base/id.h"
#include "base/json.h"
#include "order.h"
#include "pg.h"

/*
 * The tables carry a prof_ prefix, so that a history can live in a
 * database other programs use too. Every text column that orders or
 * matches runs and series is COLLATE "C": byte order, the order SQLite
 * gives, whatever the database's locale, so that both backends list the
 * same runs in the same order.
 *
 * The schema version is prof_meta's 'schema'; PG_MIGRATIONS[k] takes a
 * history from version k to k + 1, under an advisory lock, so that many
 * writers opening a new database at once make it once. Version 2 keeps
 * each memory metric of a row and its verdict, as SQLite's version 6
 * (backend.h); version 3 the device peak's verdict, as SQLite's 7;
 * version 4 the commit's time and parents and the order by commit time,
 * as SQLite's 8 (PG_RUN_ORDER).
 * Never edit one that has shipped: add the next. A memory metric needs
 * none: after these, add_columns() gives each metric of prof_cmp_metrics[]
 * the columns prof_rows lacks of its (backend.h), those of versions 1 to
 * 3 already there.
 */
#define PG_SCHEMA 4
#define PG_LOCK "1886547558"	/* "prof" */

static const char *const PG_MIGRATIONS[PG_SCHEMA] = {
	"CREATE TABLE prof_meta ("
	" key text COLLATE \"C\" PRIMARY KEY,"
	" value text NOT NULL);"
	"CREATE TABLE prof_runs ("
	" id bigserial PRIMARY KEY,"
	" project text COLLATE \"C\" NOT NULL DEFAULT '',"
	" run_id text COLLATE \"C\" NOT NULL,"
	" commit_id text COLLATE \"C\" NOT NULL,"
	" timestamp_utc text COLLATE \"C\" NOT NULL,"
	" command text NOT NULL,"
	" results_schema integer NOT NULL,"
	" digest text NOT NULL,"
	" added_utc text NOT NULL,"
	" UNIQUE (project, run_id));"
	"CREATE INDEX prof_runs_order ON prof_runs"
	" (project, timestamp_utc, commit_id, run_id);"
	"CREATE TABLE prof_segments ("
	" segment_id text COLLATE \"C\" PRIMARY KEY,"
	" key text NOT NULL);"
	"CREATE TABLE prof_rows ("
	" run bigint NOT NULL REFERENCES prof_runs (id) ON DELETE CASCADE,"
	" workload text COLLATE \"C\" NOT NULL,"
	" backend text COLLATE \"C\" NOT NULL,"
	" segment_id text COLLATE \"C\" NOT NULL"
	"  REFERENCES prof_segments (segment_id),"
	" category text NOT NULL,"
	" workload_version bigint NOT NULL,"
	" n bigint NOT NULL,"
	" errors bigint NOT NULL,"
	" min double precision, median double precision,"
	" p90 double precision, max double precision,"
	" instructions bigint,"
	" host_peak_bytes double precision,"
	" rss_peak_bytes double precision,"
	" device_peak_bytes double precision,"
	" status text, reason text,"
	" PRIMARY KEY (run, workload, backend, segment_id));"
	"CREATE INDEX prof_rows_series ON prof_rows"
	" (workload, backend, segment_id);"
	"CREATE TABLE prof_files ("
	" project text COLLATE \"C\" NOT NULL DEFAULT '',"
	" sha256 text NOT NULL,"
	" run_id text NOT NULL,"
	" PRIMARY KEY (project, sha256));",

	"ALTER TABLE prof_rows"
	" ADD COLUMN host_allocs double precision,"
	" ADD COLUMN host_allocated_bytes double precision,"
	" ADD COLUMN host_peak_bytes_status text,"
	" ADD COLUMN host_peak_bytes_reason text,"
	" ADD COLUMN host_allocs_status text,"
	" ADD COLUMN host_allocs_reason text,"
	" ADD COLUMN host_allocated_bytes_status text,"
	" ADD COLUMN host_allocated_bytes_reason text,"
	" ADD COLUMN rss_peak_bytes_status text,"
	" ADD COLUMN rss_peak_bytes_reason text;",

	"ALTER TABLE prof_rows"
	" ADD COLUMN device_peak_allocated_bytes_status text,"
	" ADD COLUMN device_peak_allocated_bytes_reason text;",

	"ALTER TABLE prof_runs"
	" ADD COLUMN commit_time text,"
	" ADD COLUMN commit_time_utc text COLLATE \"C\","
	" ADD COLUMN parents text;"
	"CREATE INDEX prof_runs_commit_order ON prof_runs"
	" (project, " PG_RUN_ORDER ");",
};

static void pg_close(struct prof_history_backend *p);

static int
ex(struct prof_history_backend *p, const char *sql, struct prof_err *err)
{
	PGresult *r = q(p, sql, 0, NULL, err);

	PQclear(r);
	return r ? 0 : -1;
}

/* The schema version of the database: 0 when it holds no history. */
static int
version_of(struct prof_history_backend *p, long long *version,
	   struct prof_err *err)
{
	PGresult *r = q(p, "SELECT to_regclass('prof_meta') IS NULL", 0, NULL,
			err);
	int none;

	if (!r)
		return -1;
	none = PQgetvalue(r, 0, 0)[0] == 't';
	PQclear(r);
	*version = 0;
	if (none)
		return 0;
	r = q(p, "SELECT value FROM prof_meta WHERE key = 'schema'", 0, NULL,
	      err);
	if (!r)
		return -1;
	if (PQntuples(r))
		*version = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return 0;
}

static int
newer(struct prof_history_backend *p, long long version, struct prof_err *err)
{
	return prof_err_at(err, p->name, 0, 0,
			   "history schema version %lld is newer than this "
			   "prof's (%d)",
			   version, PG_SCHEMA);
}

/* How many of the memory columns (backend.h) prof_rows lacks, into
 * *due: a read of the catalog, which any role may make. */
static int
columns_due(struct prof_history_backend *p, int *due, struct prof_err *err)
{
	PGresult *r = q(p,
			"SELECT attname FROM pg_attribute WHERE attrelid = "
			"to_regclass('prof_rows') AND attnum > 0 AND "
			"NOT attisdropped",
			0, NULL, err);
	int i, k, n;

	if (!r)
		return -1;
	n = PQntuples(r);
	*due = 0;
	for (i = 0; i < PROF_HISTORY_MEM_COLS; i++) {
		for (k = 0; k < n; k++)
			if (!strcmp(PQgetvalue(r, k, 0), p->cols.name[i]))
				break;
		if (k == n)
			++*due;
	}
	PQclear(r);
	return 0;
}

/* Each memory column prof_rows lacks, added (in migrate()'s transaction;
 * one there is left as it is). */
static int
add_columns(struct prof_history_backend *p, struct prof_err *err)
{
	char sql[64 + PROF_HISTORY_MEM_COLS * (PROF_HISTORY_NAME_MAX + 48)];
	size_t len = 0;
	int i, bad;

	bad = prof_history_cat(sql, sizeof(sql), &len, "ALTER TABLE prof_rows");
	for (i = 0; i < PROF_HISTORY_MEM_COLS; i++)
		bad |= prof_history_cat(sql, sizeof(sql), &len,
					"%s ADD COLUMN IF NOT EXISTS %s %s",
					i ? "," : "", p->cols.name[i],
					prof_history_column_real(i) ?
						"double precision" :
						"text");
	if (bad)
		return prof_err_set(err, "the memory columns' ALTER TABLE is "
					 "too long");
	return ex(p, sql, err);
}

/*
 * Bring the schema to PG_SCHEMA, once however many open at once: under a
 * session's advisory lock taken before the transaction begins, so that
 * the transaction sees the tables another one made meanwhile (a lock
 * taken inside it would leave it looking at the catalog of before).
 */
static int
migrate(struct prof_history_backend *p, struct prof_err *err)
{
	long long version;
	char sql[128];
	int rc = -1;

	if (ex(p, "SELECT pg_advisory_lock(" PG_LOCK ")", err) < 0)
		return -1;
	if (ex(p, "BEGIN", err) < 0)
		goto out;
	if (version_of(p, &version, err) < 0)
		goto fail;
	if (version > PG_SCHEMA) {
		newer(p, version, err);
		goto fail;
	}
	for (; version < PG_SCHEMA; version++)
		if (ex(p, PG_MIGRATIONS[version], err) < 0)
			goto fail;
	if (add_columns(p, err) < 0)
		goto fail;
	snprintf(sql, sizeof(sql),
		 "INSERT INTO prof_meta (key, value) VALUES ('schema', '%d') "
		 "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		 PG_SCHEMA);
	if (ex(p, sql, err) < 0 || ex(p, "COMMIT", err) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	PQclear(PQexec(p->c, "ROLLBACK"));
out:
	PQclear(PQexec(p->c, "SELECT pg_advisory_unlock(" PG_LOCK ")"));
	return rc;
}

/*
 * The project a history names until the caller names one
 * (prof_history_project()): $PROF_PROJECT (checked by prof_history_open()
 * before: never cut), else "". The library asks no git: a tool that
 * defaults to the git repository's name finds it and names it.
 */
static void
default_project(char *out, size_t n)
{
	const char *env = getenv("PROF_PROJECT");

	snprintf(out, n, "%s", env ? env : "");
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static struct prof_history_backend *
pg_open(const char *addr, int create, struct prof_err *err)
{
	struct prof_history_backend *p = calloc(1, sizeof(*p));
	PQconninfoOption *opts, *o;
	char *msg = NULL;
	long long version;
	int has_password = 0, due = 0;

	if (!p) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	snprintf(p->name, sizeof(p->name), "%s", addr);
	if (prof_history_columns_make(&p->cols, "prof_rows", 1, err) < 0)
		goto fail;
	opts = PQconninfoParse(addr, &msg);
	if (!opts) {
		char line[512];

		snprintf(line, sizeof(line), "%s", msg ? msg : "out of memory");
		line[strcspn(line, "\n")] = '\0';
		PQfreemem(msg);
		prof_err_at(err, p->name, 0, 0, "%s", line);
		goto fail;
	}
	for (o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && o->val[0])
			has_password = 1;
	PQconninfoFree(opts);
	if (has_password) {
		/* Not echoed: the address is the one thing not to show. */
		prof_err_set(err, "the history's address holds a password, "
				  "which the command line would show: give "
				  "it in PGPASSFILE or PGPASSWORD instead");
		goto fail;
	}
	default_project(p->project, sizeof(p->project));
	p->c = PQconnectdb(addr);
	if (!p->c || PQstatus(p->c) != CONNECTION_OK) {
		pg_fail(p, NULL, err);
		goto fail;
	}
	PQsetNoticeProcessor(p->c, quiet, NULL);
	p->cancel = PQgetCancel(p->c);
	if (ex(p, "SET client_min_messages = warning", err) < 0 ||
	    version_of(p, &version, err) < 0)
		goto fail;
	if (version > PG_SCHEMA) {
		newer(p, version, err);
		goto fail;
	}
	if (version == 0 && !create) {
		prof_err_at(err, p->name, 0, 0,
			    "no prof history in this database (prof-history "
			    "add or import makes one)");
		goto fail;
	}
	/* One of this version without a memory metric's columns (a prof
	 * before the metric made it) is migrated as an older one is: by a
	 * role that may alter its tables (the owner's prof-history migrate). */
	if (version == PG_SCHEMA && columns_due(p, &due, err) < 0)
		goto fail;
	if ((version < PG_SCHEMA || due) && migrate(p, err) < 0)
		goto fail;
	return p;
fail:
	pg_close(p);
	return NULL;
}

static int
pg_project(struct prof_history_backend *p, const char *project,
	   struct prof_err *err)
{
	(void)err;	/* checked by prof_history_project() */
	snprintf(p->project, sizeof(p->project), "%s", project);
	return 0;
}

static int
pg_prune(struct prof_history_backend *p, const char *before, long long *pruned,
	 struct prof_err *err)
{
	const char *vals[] = {p->project, before};
	PGresult *r = q(p,
			"WITH d AS (DELETE FROM prof_runs WHERE project = $1 "
			"AND timestamp_utc < $2 RETURNING run_id), "
			"f AS (DELETE FROM prof_files WHERE project = $1 AND "
			"run_id IN (SELECT run_id FROM d)) "
			"SELECT count(*) FROM d",
			2, vals, err);

	if (!r)
		return -1;
	*pruned = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return 0;
}

static int
pg_version(const struct prof_history_backend *p)
{
	(void)p;
	return PG_SCHEMA;
}

static void
pg_close(struct prof_history_backend *p)
{
	if (!p)
		return;
	PQfreeCancel(p->cancel);
	PQfinish(p->c);
	free(p);
}

static int
pg_conflict(const struct prof_history_backend *p)
{
	return !strcmp(p->sqlstate, "40P01") ? PROF_HISTORY_DEADLOCK :
	       !strcmp(p->sqlstate, "40001") ? PROF_HISTORY_SERIALIZATION :
					       0;
}

static int
pg_begin(struct prof_history_backend *p, struct prof_err *err)
{
	p->sqlstate[0] = '\0';
	if (ex(p, "BEGIN", err) < 0)
		return -1;
	p->in_txn = 1;
	return 0;
}

static int
pg_commit(struct prof_history_backend *p, struct prof_err *err)
{
	PGresult *r = PQexec(p->c, "COMMIT");
	int rc = 0;

	/* A transaction that failed is rolled back by COMMIT, which says
	 * so only in its tag. */
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		rc = pg_fail(p, r, err);
	} else if (strcmp(PQcmdStatus(r), "COMMIT")) {
		rc = prof_err_at(err, p->name, 0, 0,
				 "the transaction was rolled back");
	}
	PQclear(r);
	p->in_txn = 0;
	if (rc < 0) {
		PQclear(PQexec(p->c, "ROLLBACK"));
		p->last_segment[0] = '\0';
	}
	return rc;
}

static void
pg_rollback(struct prof_history_backend *p)
{
	if (p && p->in_txn) {
		PQclear(PQexec(p->c, "ROLLBACK"));
		p->in_txn = 0;
	}
	if (p)
		p->last_segment[0] = '\0';
}

/* From a signal handler: PQcancel() is safe there (libpq's manual). */
static void
pg_interrupt(struct prof_history_backend *p)
{
	char buf[64];

	if (p && p->cancel)
		PQcancel(p->cancel, buf, sizeof(buf));
}

/* A double as a parameter that reads back as the same double; NULL
 * when it is not finite. */
static const char *
num(char buf[32], double v)
{
	if (!isfinite(v))
		return NULL;
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

/* A value of prof_history_row_values() (backend.h) as a parameter's text
 * (buf: room for a number's), or NULL for null. */
static const char *
value_text(const struct prof_history_value *v, char buf[32])
{
	switch (v->kind) {
	case PROF_HISTORY_TEXT:
		return v->text;
	case PROF_HISTORY_WHOLE:
		snprintf(buf, 32, "%lld", v->whole);
		return buf;
	case PROF_HISTORY_REAL:
		return num(buf, v->real);
	case PROF_HISTORY_NULL:
		break;
	}
	return NULL;
}

/* Whether the run id is there: 1 with the same digest, 2 with another,
 * 3 with a digest of the older kind (run_known() of sqlite.c). */
static int
run_known(struct prof_history_backend *p, const struct prof_runview *v,
	  struct prof_err *err)
{
	const char *vals[] = {p->project, prof_runview_str(v, "run_id")};
	PGresult *r = q(p,
			"SELECT digest FROM prof_runs WHERE project = $1 "
			"AND run_id = $2",
			2, vals, err);
	const char *old;
	int known = 0;

	if (!r)
		return -1;
	if (PQntuples(r)) {
		old = PQgetvalue(r, 0, 0);
		known = prof_history_digest_known(old, v->digest);
	}
	PQclear(r);
	return known;
}

/*
 * A run's rows go to the server in libpq's pipeline mode: each statement
 * sent without waiting for the one before (one round trip a row was what
 * an import over a network paid for), and read back after a sync every
 * PIPE_BATCH statements, few enough that neither side's socket buffer
 * fills with results unread (libpq's manual: a client that only sends can
 * block the server). Inside the add's transaction, a sync commits
 * nothing.
 */
#define PIPE_BATCH 256

/* The results of the sent statements and of the sync after them: 0, or
 * -1 with the first error (the ones after it are "aborted"). */
static int
pipe_drain(struct prof_history_backend *p, int sent, struct prof_err *err)
{
	PGresult *r;
	int rc = 0, i;

	if (!PQpipelineSync(p->c))
		return pg_fail(p, NULL, err);
	for (i = 0; i < sent; i++) {
		while ((r = PQgetResult(p->c))) {
			ExecStatusType st = PQresultStatus(r);

			if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
			    st != PGRES_PIPELINE_ABORTED && rc == 0)
				rc = pg_fail(p, r, err);
			PQclear(r);
		}
		if (PQstatus(p->c) == CONNECTION_BAD)
			return rc < 0 ? rc : pg_fail(p, NULL, err);
	}
	r = PQgetResult(p->c);
	if (PQresultStatus(r) != PGRES_PIPELINE_SYNC && rc == 0)
		rc = pg_fail(p, r, err);
	PQclear(r);
	return rc;
}

/* Send one statement of the pipeline. */
static int
pipe_send(struct prof_history_backend *p, const char *sql, int n,
	  const char *const *vals, int *sent, struct prof_err *err)
{
	if (!PQsendQueryParams(p->c, sql, n, NULL, vals, NULL, NULL, 0))
		return pg_fail(p, NULL, err);
	if (++*sent < PIPE_BATCH)
		return 0;
	*sent = 0;
	return pipe_drain(p, PIPE_BATCH, err);
}

static int
insert_rows(struct prof_history_backend *p, const struct prof_runview *v,
	    const struct prof_runverdict *verdicts, const char *run,
	    struct prof_err *err)
{
	static const char seg_sql[] =
		"INSERT INTO prof_segments (segment_id, key) VALUES ($1, $2) "
		"ON CONFLICT (segment_id) DO NOTHING";
	const struct prof_runrow *rows = NULL;
	size_t n, i;
	int sent = 0, rc = -1;

	n = prof_runview_rows(v, &rows);
	if (!PQenterPipelineMode(p->c))
		return pg_fail(p, NULL, err);
	for (i = 0; i < n; i++) {
		const struct prof_runrow *r = &rows[i];
		struct prof_history_value val[PROF_HISTORY_INSERT_COLS];
		const char *vals[1 + PROF_HISTORY_INSERT_COLS];
		char b[PROF_HISTORY_INSERT_COLS][32];
		const char *seg[] = {r->segment_id, r->segment};
		int k;

		if (strcmp(r->segment_id, p->last_segment)) {
			if (pipe_send(p, seg_sql, 2, seg, &sent, err) < 0)
				goto out;
			snprintf(p->last_segment, sizeof(p->last_segment),
				 "%s", r->segment_id);
		}
		prof_history_row_values(r, verdicts ? &verdicts[i] : NULL, val);
		vals[0] = run;
		for (k = 0; k < PROF_HISTORY_INSERT_COLS; k++)
			vals[1 + k] = value_text(&val[k], b[k]);
		if (pipe_send(p, p->cols.insert_sql,
			      1 + PROF_HISTORY_INSERT_COLS, vals, &sent,
			      err) < 0)
			goto out;
	}
	rc = 0;
out:
	/* What was sent is read back whatever came: the connection is
	 * clean (and out of pipeline mode) for the rollback. */
	if (pipe_drain(p, sent, rc < 0 ? &(struct prof_err){0} : err) < 0)
		rc = -1;
	PQexitPipelineMode(p->c);
	return rc;
}

/* prof_history_judge_rows()'s judge (backend.h): a run already there
 * takes the statuses its rows lack, channel by channel; another status
 * is refused. */
static int
judge_channel(struct prof_history_backend *p, const struct prof_runview *v,
	      const struct prof_runverdict *verdicts, int c, int *changed,
	      struct prof_err *err)
{
	static const char get_sql[] =
		"SELECT w.%s FROM prof_rows w JOIN prof_runs r ON "
		"r.id = w.run WHERE r.project = $1 AND r.run_id = $2 AND "
		"w.workload = $3 AND w.backend = $4 AND w.segment_id = $5";
	static const char set_sql[] =
		"UPDATE prof_rows SET %s = $6, %s = $7 WHERE run = "
		"(SELECT id FROM prof_runs WHERE project = $1 AND run_id = $2) "
		"AND workload = $3 AND backend = $4 AND segment_id = $5 AND "
		"%s IS NULL";
	const struct prof_runrow *rows = NULL;
	const char *run_id = prof_runview_str(v, "run_id");
	char cs[64], cr[64], get[sizeof(get_sql) + 64];
	char set[sizeof(set_sql) + 3 * 64];
	size_t n, i;

	n = prof_runview_rows(v, &rows);
	for (i = 0; i < n; i++) {
		const struct prof_runrow *r = &rows[i];
		const char *status, *reason;
		PGresult *res;
		int done;

		prof_history_channel(&verdicts[i], c, cs, cr, &status, &reason);
		if (!status)
			continue;
		snprintf(get, sizeof(get), get_sql, cs);
		snprintf(set, sizeof(set), set_sql, cs, cr, cs);
		{
			const char *vals[] = {p->project,   run_id,
					      r->workload,  r->backend,
					      r->segment_id, status,
					      reason};

			res = q(p, get, 5, vals, err);
			if (!res)
				return -1;
			if (PQntuples(res) && !PQgetisnull(res, 0, 0)) {
				const char *old = PQgetvalue(res, 0, 0);

				if (strcmp(old, status)) {
					prof_history_other_status(
						err, p->name, run_id, r, c,
						old, status);
					PQclear(res);
					return -1;
				}
				PQclear(res);
				continue;
			}
			PQclear(res);
			res = q(p, set, 7, vals, err);
		}
		if (!res)
			return -1;
		done = atoi(PQcmdTuples(res));
		PQclear(res);
		if (done > 0)
			*changed = 1;
	}
	return 0;
}

/* The run's own row, unless its run id is there (ON CONFLICT): the
 * result, with its id when it was inserted (none when it was there);
 * NULL with err. */
static PGresult *
insert_run(struct prof_history_backend *p, const struct prof_runview *v,
	   struct prof_err *err)
{
	static const char run_sql[] =
		"INSERT INTO prof_runs (project, run_id, commit_id, "
		"timestamp_utc, command, results_schema, digest, added_utc, "
		"commit_time, commit_time_utc, parents) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
		"ON CONFLICT (project, run_id) DO NOTHING RETURNING id";
	char now[32], schema[16], ctime_utc[24], parents[4096];
	const char *ctime = prof_runview_commit_time(v, ctime_utc);
	int has_parents = prof_runview_parents(v, parents, sizeof(parents));
	const char *vals[] = {
		p->project,
		prof_runview_str(v, "run_id"),
		prof_runview_str(v, "commit"),
		prof_runview_str(v, "timestamp_utc"),
		prof_runview_str(v, "command"),
		schema,
		v->digest,
		now,
		ctime,
		ctime ? ctime_utc : NULL,
		has_parents ? parents : NULL,
	};

	prof_history_now_utc(now);
	snprintf(schema, sizeof(schema), "%d", v->schema_version);
	return q(p, run_sql, 11, vals, err);
}

static int
pg_add_judged(struct prof_history_backend *p, const struct prof_runview *v,
	      const struct prof_runverdict *verdicts, int *added,
	      struct prof_err *err)
{
	int outer = p->in_txn;
	const char *undo = outer ? "ROLLBACK TO add_run; RELEASE add_run" :
				   "ROLLBACK";
	PGresult *r = NULL;
	int known, tries;

	*added = PROF_HISTORY_SAME;
	if (ex(p, outer ? "SAVEPOINT add_run" : "BEGIN", err) < 0)
		return -1;
	/*
	 * Twice at most: a run id another writer adds between the look and
	 * the insert is found by the insert (ON CONFLICT, which waits for
	 * that writer's commit) and looked at again.
	 */
	for (tries = 0; tries < 2; tries++) {
		known = run_known(p, v, err);
		if (known < 0)
			goto fail;
		if (known == 1 && verdicts) {
			int changed;

			if (prof_history_judge_rows(p, v, verdicts,
						    judge_channel, &changed,
						    err) < 0)
				goto fail;
			if (changed) {
				if (ex(p, outer ? "RELEASE add_run" : "COMMIT",
				       err) < 0)
					goto fail;
				*added = PROF_HISTORY_JUDGED;
				return 0;
			}
		}
		if (known == 1 || known == 3) {
			PQclear(PQexec(p->c, undo));
			if (known == 3)
				*added = PROF_HISTORY_UNCOMPARED;
			return 0;
		}
		if (known == 2) {
			prof_err_at(err, p->name, 0, 0,
				    "run '%s' is already there with other "
				    "content",
				    prof_runview_str(v, "run_id"));
			goto fail;
		}
		r = insert_run(p, v, err);
		if (!r)
			goto fail;
		if (PQntuples(r))
			break;
		PQclear(r);
		r = NULL;
	}
	if (!r) {
		prof_err_at(err, p->name, 0, 0, "run '%s' could not be added",
			    prof_runview_str(v, "run_id"));
		goto fail;
	}
	if (insert_rows(p, v, verdicts, PQgetvalue(r, 0, 0), err) < 0 ||
	    ex(p, outer ? "RELEASE add_run" : "COMMIT", err) < 0)
		goto fail;
	PQclear(r);
	*added = PROF_HISTORY_ADDED;
	return 0;
fail:
	PQclear(r);
	PQclear(PQexec(p->c, undo));
	p->last_segment[0] = '\0';
	return -1;
}

static int
pg_file(struct prof_history_backend *p, const char *sha256, const char *run_id,
	struct prof_err *err)
{
	const char *vals[] = {p->project, sha256, run_id};
	PGresult *r;
	int rc = 0;

	if (run_id) {
		r = q(p,
		      "INSERT INTO prof_files (project, sha256, run_id) "
		      "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
		      3, vals, err);
	} else {
		r = q(p,
		      "SELECT run_id <> '' FROM prof_files WHERE project = $1 "
		      "AND sha256 = $2",
		      2, vals, err);
		if (r && PQntuples(r))
			rc = PQgetvalue(r, 0, 0)[0] == 't' ? 1 : 2;
	}
	if (!r)
		return -1;
	PQclear(r);
	return rc;
}

/* A PostgreSQL history never races to be made (its tables are made by
 * the first add or import, under an advisory lock). */
static int
pg_raced(const struct prof_history_backend *p)
{
	(void)p;
	return 0;
}

const struct prof_history_ops prof_history_pg_ops = {
	.name = "postgresql",
	.many_projects = 1,
	.open = pg_open,
	.close = pg_close,
	.version = pg_version,
	.project = pg_project,
	.prune = pg_prune,
	.add_judged = pg_add_judged,
	.file = pg_file,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.interrupt = pg_interrupt,
	.raced = pg_raced,
	.conflict = pg_conflict,
	.projects = pg_projects,
	.order = pg_order,
	.timestamp = pg_timestamp,
	.list = pg_list,
	.trend = pg_trend,
	.walk = pg_walk,
	.export = pg_export,
};
