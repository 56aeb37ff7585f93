/* pg_read.c: the PostgreSQL backend's readers (pg.h): the project's
 * runs in order, the list, trends, the walk over every row, the export
 * and the projects of the database. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <libpq-fe.h>

#include "backend.h"
#include "base/json.h"
#include "history.h"
#include "order.h"
#include "pg.h"

/*
 * The readers that stream every row (walk, export) are given the run
 * order (order.h) as the runs' row ids in that order, one array
 * parameter ($1 in PG_RANK), and order by k.rank, a run's position in
 * it: a join any role that may read can make, with nothing written (list
 * and trend put their rows in that order themselves: ranked_json()).
 */
#define PG_RANK                                                                \
	"JOIN unnest($1::bigint[]) WITH ORDINALITY AS k (id, rank) "           \
	"ON k.id = r.id "

/* The type oids a result's columns are told apart by (pg_type.h). */
enum { OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_FLOAT4 = 700,
       OID_FLOAT8 = 701 };

/* A value of a result as JSON, by its column's type: integer, real,
 * text or null, as sqlite.c's column_json() gives them. */
static struct json_object *
value_json(const PGresult *r, int row, int col)
{
	const char *s;

	if (PQgetisnull(r, row, col))
		return NULL;
	s = PQgetvalue(r, row, col);
	switch (PQftype(r, col)) {
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return json_object_new_int64(strtoll(s, NULL, 10));
	case OID_FLOAT4:
	case OID_FLOAT8:
		return prof_json_double(strtod(s, NULL));
	default:
		return json_object_new_string(s);
	}
}

struct prof_history_order *
pg_order(struct prof_history_backend *p, const char *project,
	 struct prof_err *err)
{
	const char *vals[] = {project ? project : p->project};
	PGresult *r = q(p,
			"SELECT id, commit_id, parents FROM prof_runs "
			"WHERE project = $1 ORDER BY " PG_RUN_ORDER,
			1, vals, err);
	struct prof_history_order *o;
	int i;

	if (!r)
		return NULL;
	o = prof_history_order_new();
	for (i = 0; o && i < PQntuples(r); i++)
		if (prof_history_order_add(
			    o, strtoll(PQgetvalue(r, i, 0), NULL, 10),
			    PQgetvalue(r, i, 1),
			    PQgetisnull(r, i, 2) ? NULL : PQgetvalue(r, i, 2)) <
		    0) {
			prof_history_order_free(o);
			o = NULL;
		}
	PQclear(r);
	if (!o)
		prof_err_set(err, "out of memory");
	return o;
}

int
pg_timestamp(struct prof_history_backend *p, long long id, char *out,
	     struct prof_err *err)
{
	char ids[32];
	const char *vals[] = {ids};
	PGresult *r;

	snprintf(ids, sizeof(ids), "%lld", id);
	r = q(p, "SELECT timestamp_utc FROM prof_runs WHERE id = $1", 1, vals,
	      err);
	if (!r)
		return -1;
	snprintf(out, 64, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
	PQclear(r);
	return 0;
}

/* The run order as PG_RANK's parameter: "{id,id,...}", the row ids in run
 * order (free() it). NULL with err when out of memory. */
static char *
rank_param(const struct prof_history_order *o, struct prof_err *err)
{
	size_t i, n = prof_history_order_n(o), len = 0;
	char *a = malloc(3 + 21 * n), digits[24];

	if (!a) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	a[len++] = '{';
	for (i = 0; i < n; i++) {
		/* Row ids are positive (bigserial). */
		unsigned long long v =
			(unsigned long long)prof_history_order_id(o, i);
		size_t k = 0;

		if (i)
			a[len++] = ',';
		do {
			digits[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k)
			a[len++] = digits[--k];
	}
	a[len++] = '}';
	a[len] = '\0';
	return a;
}

/*
 * list and trend read few rows or the runs only: their rows are put in
 * run order here rather than by the server (PG_RANK's array of every
 * run would cost more than the rows). A row of the result, by its run's
 * position and its series.
 */
struct ranked {
	long long rank;
	const char *workload, *backend, *segment_id;	/* "" for list */
	int row;
};

static int
by_run_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int c;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->workload, y->workload)) ||
	    (c = strcmp(x->backend, y->backend)))
		return c;
	return strcmp(x->segment_id, y->segment_id);
}

static int
by_series_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int c;

	if ((c = strcmp(x->workload, y->workload)) ||
	    (c = strcmp(x->backend, y->backend)) ||
	    (c = strcmp(x->segment_id, y->segment_id)))
		return c;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static const char *
column_or_empty(const PGresult *r, int row, int col)
{
	return col < 0 ? "" : PQgetvalue(r, row, col);
}

/*
 * The rows of a query (parameters vals) as JSON objects, in run order o:
 * its column run_row is each row's run's row id, and is left out; a run
 * not in o (added since o was read) is left out too, as PG_RANK's join
 * leaves it. With by_series, by workload, backend and segment_id first
 * (byte order, as COLLATE "C"), each object with its run's position as
 * run_rank; else by run, then series.
 */
static struct json_object *
ranked_json(struct prof_history_backend *p, const char *sql, int n,
	    const char *const *vals, const struct prof_history_order *o,
	    int by_series, struct prof_err *err)
{
	PGresult *r = q(p, sql, n, vals, err);
	struct json_object *a = NULL, *obj;
	struct ranked *rk = NULL;
	int i, j, k = 0, nr, nc, id_col, wc, bc, sc;

	if (!r)
		return NULL;
	nr = PQntuples(r);
	nc = PQnfields(r);
	id_col = PQfnumber(r, "run_row");
	wc = PQfnumber(r, "workload");
	bc = PQfnumber(r, "backend");
	sc = PQfnumber(r, "segment_id");
	rk = malloc((nr ? (size_t)nr : 1) * sizeof(*rk));
	a = json_object_new_array();
	if (!rk || !a)
		goto oom;
	for (i = 0; i < nr; i++) {
		long long rank = prof_history_order_rank(
			o, strtoll(PQgetvalue(r, i, id_col), NULL, 10));

		if (!rank)
			continue;
		rk[k].rank = rank;
		rk[k].workload = column_or_empty(r, i, wc);
		rk[k].backend = column_or_empty(r, i, bc);
		rk[k].segment_id = column_or_empty(r, i, sc);
		rk[k++].row = i;
	}
	qsort(rk, (size_t)k, sizeof(*rk),
	      by_series ? by_series_cmp : by_run_cmp);
	for (i = 0; i < k; i++) {
		obj = json_object_new_object();
		if (!obj)
			goto oom;
		for (j = 0; j < nc; j++)
			if (j != id_col)
				json_object_object_add(
					obj, PQfname(r, j),
					value_json(r, rk[i].row, j));
		if (by_series)
			json_object_object_add(
				obj, "run_rank",
				json_object_new_int64(rk[i].rank));
		json_object_array_add(a, obj);
	}
	free(rk);
	PQclear(r);
	return a;
oom:
	prof_err_set(err, "out of memory");
	free(rk);
	json_object_put(a);
	PQclear(r);
	return NULL;
}

struct json_object *
pg_list(struct prof_history_backend *p, const struct prof_history_order *o,
	struct prof_err *err)
{
	static const char sql[] =
		"SELECT r.run_id, r.commit_id AS \"commit\", r.timestamp_utc, "
		"r.command, (SELECT count(*) FROM prof_rows w WHERE "
		"w.run = r.id) AS \"rows\", r.results_schema AS "
		"schema_version, r.added_utc, r.commit_time, r.parents, "
		"r.id AS run_row FROM prof_runs r WHERE r.project = $1";
	const char *vals[] = {p->project};

	return ranked_json(p, sql, 1, vals, o, 0, err);
}

/* %s: the trend's memory columns, p->cols.trend (backend.h). */
static const char trend_sql[] =
	"SELECT r.run_id, r.commit_id AS \"commit\", r.timestamp_utc, "
	"w.workload, w.backend, w.segment_id, w.n, w.errors, w.min, w.median, "
	"w.p90, w.max, w.instructions, %s, r.commit_time, r.parents, "
	"r.id AS run_row "
	"FROM prof_rows w JOIN prof_runs r ON r.id = w.run "
	"WHERE r.project = $1 "
	"AND ($2::text IS NULL OR w.workload = $2) "
	"AND ($3::text IS NULL OR w.backend = $3) "
	"AND ($4::text IS NULL OR substr(w.segment_id, 1, length($4)) = $4)";

struct json_object *
pg_trend(struct prof_history_backend *p, const struct prof_history_filter *f,
	 int by_series, const struct prof_history_order *o,
	 struct prof_err *err)
{
	const char *vals[] = {p->project, f ? f->workload : NULL,
			      f ? f->backend : NULL, f ? f->segment : NULL};
	char sql[sizeof(trend_sql) + PROF_HISTORY_TREND_ROOM];

	snprintf(sql, sizeof(sql), trend_sql, p->cols.trend);
	return ranked_json(p, sql, 4, vals, o, by_series, err);
}

static double
real_at(const PGresult *r, int col)
{
	return PQgetisnull(r, 0, col) ? NAN : strtod(PQgetvalue(r, 0, col), NULL);
}

static const char *
text_at(const PGresult *r, int col)
{
	return PQgetisnull(r, 0, col) ? NULL : PQgetvalue(r, 0, col);
}

/* prof_history_read_row()'s view of a single-row result (backend.h). */
static const char *
cols_text(void *row, int col)
{
	return text_at(row, col);
}

static double
cols_real(void *row, int col)
{
	return real_at(row, col);
}

static int
cols_integer(void *row, int col, long long *v)
{
	if (PQgetisnull(row, 0, col))
		return 0;
	*v = strtoll(PQgetvalue(row, 0, col), NULL, 10);
	return 1;
}

static struct prof_history_cols
result_cols(PGresult *r)
{
	struct prof_history_cols c = {
		.row = r,
		.text = cols_text,
		.real = cols_real,
		.integer = cols_integer,
	};

	return c;
}

/* Each row of the query fmt (the walk's or export's, backend.h: %s the
 * row's columns, p->cols.select; $1 the run order o, $2 the project) to
 * s, row by row (libpq's single-row mode): memory does not grow with the
 * history. 0, or -1 with err. */
static int
stream(struct prof_history_backend *p, const struct prof_history_order *o,
       const char *fmt, const struct prof_history_stream *s,
       struct prof_err *err)
{
	char sql[1024 + PROF_HISTORY_SELECT_ROOM];
	char *ids;
	const char *vals[2];
	PGresult *r;
	int rc = 0, stopped = 0, sent;

	if (snprintf(sql, sizeof(sql), fmt, p->cols.select) >= (int)sizeof(sql))
		return prof_err_set(err, "a reader's query is too long");
	ids = rank_param(o, err);
	if (!ids)
		return -1;
	vals[0] = ids;
	vals[1] = p->project;
	sent = PQsendQueryParams(p->c, sql, 2, NULL, vals, NULL, NULL, 0) &&
	       PQsetSingleRowMode(p->c);
	free(ids);
	if (!sent)
		return pg_fail(p, NULL, err);
	while ((r = PQgetResult(p->c))) {
		ExecStatusType st = PQresultStatus(r);

		if (st == PGRES_SINGLE_TUPLE && !stopped) {
			struct prof_history_cols cols = result_cols(r);

			if (prof_history_stream_row(s, &cols, err) < 0) {
				/* The rest is read and dropped: the
				 * connection is clean for what comes next. */
				rc = -1;
				stopped = 1;
			}
		} else if (st != PGRES_SINGLE_TUPLE &&
			   st != PGRES_TUPLES_OK && !stopped) {
			rc = pg_fail(p, r, err);
			stopped = 1;
		}
		PQclear(r);
	}
	return rc;
}

int
pg_walk(struct prof_history_backend *p, const struct prof_history_order *o,
	prof_history_fn fn, void *arg, struct prof_err *err)
{
	static const char sql[] =
		"SELECT r.run_id, r.commit_id, r.timestamp_utc, %s "
		"FROM prof_rows w JOIN prof_runs r ON r.id = w.run " PG_RANK
		"LEFT JOIN prof_segments s ON s.segment_id = w.segment_id "
		"WHERE r.project = $2 "
		"ORDER BY w.workload, w.backend, w.segment_id, k.rank";
	const struct prof_history_stream s = {.point = fn, .arg = arg};

	return stream(p, o, sql, &s, err);
}

/* prof_history_export(): row by row, as the walk is. */
int
pg_export(struct prof_history_backend *p, const struct prof_history_order *o,
	  prof_history_record_fn fn, void *arg, struct prof_err *err)
{
	static const char sql[] =
		"SELECT " PROF_HISTORY_RECORD_HEAD "%s" PROF_HISTORY_RECORD_TAIL
		"FROM prof_runs r " PG_RANK
		"LEFT JOIN prof_rows w ON w.run = r.id "
		"LEFT JOIN prof_segments s ON s.segment_id = w.segment_id "
		"WHERE r.project = $2 "
		"ORDER BY k.rank, w.workload, w.backend, s.key COLLATE \"C\"";
	const struct prof_history_stream s = {.record = fn, .arg = arg};

	return stream(p, o, sql, &s, err);
}

struct json_object *
pg_projects(struct prof_history_backend *p, struct prof_err *err)
{
	PGresult *r = q(p,
			"SELECT project FROM prof_runs GROUP BY project "
			"ORDER BY project",
			0, NULL, err);
	struct json_object *a;
	int i;

	if (!r)
		return NULL;
	a = json_object_new_array();
	for (i = 0; a && i < PQntuples(r); i++)
		json_object_array_add(a, json_object_new_string(
						 PQgetvalue(r, i, 0)));
	PQclear(r);
	if (!a)
		prof_err_set(err, "out of memory");
	return a;
}
