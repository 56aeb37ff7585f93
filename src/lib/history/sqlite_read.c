/* sqlite_read.c: the SQLite backend's readers (sqlite.h): the runs in
 * order, the list, trends, the walk over every row, the export and the
 * one project of the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sqlite3.h>

#include "backend.h"
#include "base/json.h"
#include "history.h"
#include "order.h"
#include "sqlite.h"

/* Another writer's transaction never ends one here: it waits its busy
 * timeout. */
int
sq_conflict(const struct prof_history_backend *h)
{
	(void)h;
	return 0;
}

/* A column as JSON: integer, real, text or null. */
static struct json_object *
column_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		return json_object_new_int64(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return prof_json_double(sqlite3_column_double(st, i));
	case SQLITE_TEXT:
		return json_object_new_string(
			(const char *)sqlite3_column_text(st, i));
	default:
		return NULL;
	}
}

/* Every row of a prepared query as an object keyed by column names. */
static struct json_object *
rows_json(struct prof_history_backend *h, sqlite3_stmt *st,
	  struct prof_err *err)
{
	struct json_object *a = json_object_new_array();
	int rc, i, nc = sqlite3_column_count(st);

	while (a && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct json_object *o = json_object_new_object();

		for (i = 0; o && i < nc; i++)
			json_object_object_add(o, sqlite3_column_name(st, i),
					       column_json(st, i));
		json_object_array_add(a, o);
	}
	if (!a || rc != SQLITE_DONE) {
		json_object_put(a);
		db_err(h, err, NULL);
		return NULL;
	}
	return a;
}

static const char *
text_of(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t ? t : "";
}

static double
real_of(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ?
		       NAN :
		       sqlite3_column_double(st, i);
}

/* prof_history_read_row()'s view of a statement's row (backend.h). */
static const char *
cols_text(void *row, int col)
{
	return (const char *)sqlite3_column_text(row, col);
}

static double
cols_real(void *row, int col)
{
	return real_of(row, col);
}

static int
cols_integer(void *row, int col, long long *v)
{
	if (sqlite3_column_type(row, col) == SQLITE_NULL)
		return 0;
	*v = sqlite3_column_int64(row, col);
	return 1;
}

static struct prof_history_cols
stmt_cols(sqlite3_stmt *st)
{
	struct prof_history_cols c = {
		.row = st,
		.text = cols_text,
		.real = cols_real,
		.integer = cols_integer,
	};

	return c;
}

/* SQL prof_run_rank(id): the position of the run of row id in the run
 * order the reader running now reads (use_order()). */
static void
sql_run_rank(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct prof_history_backend *h = sqlite3_user_data(cx);

	(void)argc;
	sqlite3_result_int64(cx, h->order ?
					 prof_history_order_rank(
						 h->order,
						 sqlite3_value_int64(argv[0])) :
					 0);
}

/* The runs in commit-time order, as order.c takes them (a SQLite file
 * is one project's history: project is not read). */
struct prof_history_order *
sq_order(struct prof_history_backend *h, const char *project,
	 struct prof_err *err)
{
	static const char sql[] =
		"SELECT id, commit_id, parents FROM runs ORDER BY " RUN_ORDER;
	struct prof_history_order *o = prof_history_order_new();
	sqlite3_stmt *st = NULL;
	int step;

	(void)project;
	if (!o) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		if (prof_history_order_add(
			    o, sqlite3_column_int64(st, 0), text_of(st, 1),
			    (const char *)sqlite3_column_text(st, 2)) < 0)
			goto oom;
	if (step != SQLITE_DONE)
		goto dberr;
	sqlite3_finalize(st);
	return o;
dberr:
	db_err(h, err, NULL);
	goto fail;
oom:
	prof_err_set(err, "out of memory");
fail:
	sqlite3_finalize(st);
	prof_history_order_free(o);
	return NULL;
}

/*
 * The run order a reader reads the runs in (o, sorted: the facade's,
 * read again for each reader), kept in h->order for SQL prof_run_rank()
 * while the reader runs. 0, or -1 with err.
 */
static int
use_order(struct prof_history_backend *h, const struct prof_history_order *o,
	  struct prof_err *err)
{
	h->order = o;
	if (sqlite3_create_function(h->db, "prof_run_rank", 1, SQLITE_UTF8, h,
				    sql_run_rank, NULL, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	return 0;
}

/* The timestamp of the run of row id into out (room for 64 bytes). */
int
sq_timestamp(struct prof_history_backend *h, long long id, char *out,
	     struct prof_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(h->db,
			       "SELECT timestamp_utc FROM runs WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	snprintf(out, 64, "%s", rc == SQLITE_ROW ? text_of(st, 0) : "");
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_err(h, err, NULL);
	return 0;
}

/* The one project of the file: itself, named as sq_project() named it. */
struct json_object *
sq_projects(struct prof_history_backend *h, struct prof_err *err)
{
	struct json_object *a = json_object_new_array();

	if (!a ||
	    json_object_array_add(a, json_object_new_string(h->project))) {
		json_object_put(a);
		prof_err_set(err, "out of memory");
		return NULL;
	}
	return a;
}

struct json_object *
sq_list(struct prof_history_backend *h, const struct prof_history_order *o,
	struct prof_err *err)
{
	static const char sql[] =
		"SELECT r.run_id, r.commit_id AS \"commit\", r.timestamp_utc, "
		"r.command, (SELECT count(*) FROM rows w WHERE w.run = r.id) "
		"AS rows, r.results_schema AS schema_version, r.added_utc, "
		"r.commit_time, r.parents FROM runs r WHERE " R_RUN_KNOWN
		" ORDER BY " R_RUN_RANK;
	sqlite3_stmt *st = NULL;
	struct json_object *a;

	if (use_order(h, o, err) < 0)
		return NULL;
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_err(h, err, NULL);
		return NULL;
	}
	a = rows_json(h, st, err);
	sqlite3_finalize(st);
	return a;
}

static const char trend_sql[] =
	"SELECT r.run_id, r.commit_id AS \"commit\", r.timestamp_utc, "
	"w.workload, w.backend, w.segment_id, w.n, w.errors, w.min, w.median, "
	"w.p90, w.max, w.instructions, %s, r.commit_time, r.parents%s "
	"FROM rows w JOIN runs r ON r.id = w.run WHERE " R_RUN_KNOWN "%s%s%s "
	"ORDER BY %s " R_RUN_RANK ", w.workload, "
	"w.backend, w.segment_id";

static sqlite3_stmt *
trend_stmt(struct prof_history_backend *h, const struct prof_history_filter *f,
	   int by_series, struct prof_err *err)
{
	sqlite3_stmt *st = NULL;
	char sql[sizeof(trend_sql) + PROF_HISTORY_TREND_ROOM + 256];

	/*
	 * Only the filters given, so that SQLite's plan (made before the
	 * values are bound) takes the series index: "?1 IS NULL OR
	 * w.workload = ?1" scanned every row of the history, 6 s for one
	 * series among a million rows (test/bench/history-scale.sh).
	 */
	snprintf(sql, sizeof(sql), trend_sql, h->cols.trend,
		 by_series ? ", " R_RUN_RANK " AS run_rank" : "",
		 f && f->workload ? " AND w.workload = ?1" : "",
		 f && f->backend ? " AND w.backend = ?2" : "",
		 f && f->segment ?
			 " AND substr(w.segment_id, 1, length(?3)) = ?3" :
			 "",
		 by_series ? "w.workload, w.backend, w.segment_id," : "");
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_err(h, err, NULL);
		return NULL;
	}
	if (f && f->workload)
		sqlite3_bind_text(st, 1, f->workload, -1, SQLITE_STATIC);
	if (f && f->backend)
		sqlite3_bind_text(st, 2, f->backend, -1, SQLITE_STATIC);
	if (f && f->segment)
		sqlite3_bind_text(st, 3, f->segment, -1, SQLITE_STATIC);
	return st;
}

/* by_series: ordered by series first, each row with its run's position
 * in run order as run_rank (for changes), else by run. */
struct json_object *
sq_trend(struct prof_history_backend *h, const struct prof_history_filter *f,
	 int by_series, const struct prof_history_order *o,
	 struct prof_err *err)
{
	sqlite3_stmt *st;
	struct json_object *a;

	if (use_order(h, o, err) < 0)
		return NULL;
	st = trend_stmt(h, f, by_series, err);
	if (!st)
		return NULL;
	a = rows_json(h, st, err);
	sqlite3_finalize(st);
	return a;
}

/* Each row of the query fmt (the walk's or export's, backend.h: %s the
 * row's columns, h->cols.select) in run order o, to s: 0, or -1 with
 * err. */
static int
stream(struct prof_history_backend *h, const struct prof_history_order *o,
       const char *fmt, const struct prof_history_stream *s,
       struct prof_err *err)
{
	char sql[1024 + PROF_HISTORY_SELECT_ROOM];
	sqlite3_stmt *st = NULL;
	struct prof_history_cols cols;
	int rc = -1, step;

	if (use_order(h, o, err) < 0)
		return -1;
	if (snprintf(sql, sizeof(sql), fmt, h->cols.select) >= (int)sizeof(sql))
		return prof_err_set(err, "a reader's query is too long");
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	cols = stmt_cols(st);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		if (prof_history_stream_row(s, &cols, err) < 0)
			goto out;
	if (step != SQLITE_DONE) {
		db_err(h, err, NULL);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int
sq_walk(struct prof_history_backend *h, const struct prof_history_order *o,
	prof_history_fn fn, void *arg, struct prof_err *err)
{
	static const char sql[] =
		"SELECT r.run_id, r.commit_id, r.timestamp_utc, %s "
		"FROM rows w JOIN runs r ON r.id = w.run "
		"LEFT JOIN segments s ON s.segment_id = w.segment_id "
		"WHERE " R_RUN_KNOWN " "
		"ORDER BY w.workload, w.backend, w.segment_id, " R_RUN_RANK;
	const struct prof_history_stream s = {.point = fn, .arg = arg};

	return stream(h, o, sql, &s, err);
}

int
sq_export(struct prof_history_backend *h, const struct prof_history_order *o,
	  prof_history_record_fn fn, void *arg, struct prof_err *err)
{
	static const char sql[] =
		"SELECT " PROF_HISTORY_RECORD_HEAD "%s" PROF_HISTORY_RECORD_TAIL
		"FROM runs r LEFT JOIN rows w ON w.run = r.id "
		"LEFT JOIN segments s ON s.segment_id = w.segment_id "
		"WHERE " R_RUN_KNOWN " ORDER BY " R_RUN_RANK ", w.workload, "
		"w.backend, s.key";
	const struct prof_history_stream s = {.record = fn, .arg = arg};

	return stream(h, o, sql, &s, err);
}
