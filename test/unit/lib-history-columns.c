/* lib-history-columns.c: every memory metric of prof_cmp_metrics[] has its
 * three columns (its value, KEY_status and KEY_reason) in a new history,
 * which trend gives; a history without a metric's columns (as a prof
 * before the metric left it) gets them when it is next opened to add,
 * and the runs added then keep their values there; a reader of such a
 * file it may not change reads it and writes nothing. Over SQLite, and
 * over PostgreSQL too where $PROF_TEST_PG names a database (t7027 starts
 * a cluster for it). The tables are looked at beside the library, with
 * sqlite3 and libpq themselves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "history/history.h"
#include "model/runview.h"
#include "verdict/table.h"
#include "tap.h"

#define METRICS (PROF_CMP_MEM_N - 1)

/* A history as its tables are: where it is, its rows' table. */
struct db {
	const char *kind;	/* "sqlite", "postgresql" */
	const char *addr;
	const char *rows;	/* "rows", "prof_rows" */
};

static char dir[] = "/tmp/lib-history-columns.XXXXXX";

/* Column k of metric m into out, as the table names it (not as the
 * history does): 0 its value (.history), 1 KEY_status, 2 KEY_reason. */
static void
column(int m, int k, char out[128])
{
	if (!k)
		snprintf(out, 128, "%s", prof_cmp_metrics[m].history);
	else
		snprintf(out, 128, "%s_%s", prof_cmp_metrics[m].key,
			 k == 1 ? "status" : "reason");
}

/* Whether d's rows have column col: 1 or 0, -1 when it cannot be read. */
static int
has(const struct db *d, const char *col)
{
	const char *sql = "SELECT 1 FROM pragma_table_info('rows') "
			  "WHERE name = ?1";
	char uri[256];
	int rc = -1;

	if (!strcmp(d->kind, "sqlite")) {
		sqlite3 *db = NULL;
		sqlite3_stmt *st = NULL;

		/* immutable: nothing made beside a file read-only */
		snprintf(uri, sizeof(uri), "file:%s?mode=ro&immutable=1",
			 d->addr);
		if (sqlite3_open_v2(uri, &db,
				    SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
				    NULL) == SQLITE_OK &&
		    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
			rc = sqlite3_step(st);
			rc = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
		}
		sqlite3_finalize(st);
		sqlite3_close(db);
	} else {
		PGconn *c = PQconnectdb(d->addr);
		const char *vals[] = {col};
		PGresult *r = PQexecParams(
			c,
			"SELECT 1 FROM pg_attribute WHERE attrelid = "
			"'prof_rows'::regclass AND attname = $1 AND "
			"NOT attisdropped",
			1, NULL, vals, NULL, NULL, 0);

		if (PQresultStatus(r) == PGRES_TUPLES_OK)
			rc = PQntuples(r) > 0;
		PQclear(r);
		PQfinish(c);
	}
	return rc;
}

/* Whether d's rows have every column of metric m (want 1) or none of
 * them (want 0). */
static int
has_metric(const struct db *d, int m, int want)
{
	char col[128];
	int k;

	for (k = 0; k < 3; k++) {
		column(m, k, col);
		if (has(d, col) != want) {
			fprintf(stderr, "#   %s: column %s %s\n", d->addr, col,
				want ? "missing" : "there");
			return 0;
		}
	}
	return 1;
}

/* Metric m's columns dropped from d's rows, as a history a prof before
 * the metric made has none: 0 or -1. */
static int
drop_metric(const struct db *d, int m)
{
	char col[128], sql[512];
	int k, rc = 0;

	for (k = 0; k < 3 && !rc; k++) {
		column(m, k, col);
		snprintf(sql, sizeof(sql), "ALTER TABLE %s DROP COLUMN %s",
			 d->rows, col);
		if (!strcmp(d->kind, "sqlite")) {
			sqlite3 *db = NULL;

			rc = sqlite3_open(d->addr, &db) != SQLITE_OK ||
			     sqlite3_exec(db, sql, NULL, NULL, NULL) !=
				     SQLITE_OK;
			if (rc)
				fprintf(stderr, "#   %s: %s\n", sql,
					sqlite3_errmsg(db));
			sqlite3_close(db);
		} else {
			PGconn *c = PQconnectdb(d->addr);
			PGresult *r = PQexec(c, sql);

			rc = PQresultStatus(r) != PGRES_COMMAND_OK;
			if (rc)
				fprintf(stderr, "#   %s: %s", sql,
					PQerrorMessage(c));
			PQclear(r);
			PQfinish(c);
		}
	}
	return rc ? -1 : 0;
}

/* The run file of run id, made from test/data/results/current.json
 * under dir (path: room for 256 bytes), each of its memory samples
 * measuring every metric (m MiB where it measured none): 0 or -1. */
static int
run_file(const char *id, char *path)
{
	struct json_object *o =
		json_object_from_file("test/data/results/current.json");
	struct json_object *samples, *mem, *x;
	size_t i;
	int m, rc;

	if (!o || !json_object_object_get_ex(o, "samples", &samples))
		return -1;
	for (i = 0; i < json_object_array_length(samples); i++) {
		if (!json_object_object_get_ex(
			    json_object_array_get_idx(samples, i), "memory",
			    &mem))
			continue;
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (!json_object_object_get_ex(
				    mem, prof_cmp_metrics[m].key, &x) ||
			    !x)
				json_object_object_add(
					mem, prof_cmp_metrics[m].key,
					json_object_new_int64(m << 20));
	}
	json_object_object_add(o, "run_id", json_object_new_string(id));
	snprintf(path, 256, "%s/%s.json", dir, id);
	rc = json_object_to_file(path, o);
	json_object_put(o);
	return rc;
}

/* Add the run of run id to d (made when create): 1 when it was added. */
static int
add(const struct db *d, const char *id, int create)
{
	struct prof_err err = {0};
	struct prof_runview v = {0};
	struct prof_history *h;
	char path[256];
	int added = -1;

	if (run_file(id, path) < 0 || prof_runview_load(&v, path, 0, &err) < 0)
		return 0;
	h = prof_history_open(d->addr, create, &err);
	if (h)
		prof_history_add_judged(h, &v, NULL, &added, &err);
	if (err.reason[0])
		fprintf(stderr, "#   %s: %s\n", d->addr, err.reason);
	prof_history_close(h);
	prof_runview_free(&v);
	return added == PROF_HISTORY_ADDED;
}

/* d's trend, opened as a reader; NULL with a diagnostic. */
static struct json_object *
trend(const struct db *d)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(d->addr, 0, &err);
	struct json_object *a = NULL;

	if (h)
		a = prof_history_trend(h, NULL, &err);
	if (!a)
		fprintf(stderr, "#   %s: %s\n", d->addr, err.reason);
	prof_history_close(h);
	return a;
}

/* The values of metric m's key in the trend objects of run id, in
 * order, as text (free() it); NULL when an object lacks one of the
 * metric's keys. */
static char *
values(struct json_object *a, const char *id, int m)
{
	size_t i, n = a ? json_object_array_length(a) : 0, len = 0;
	char *out = calloc(1, 64 * n + 1), key[128];
	int k;

	for (i = 0; out && i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *x;
		const char *run = json_object_get_string(
			json_object_object_get(o, "run_id"));

		for (k = 0; k < 3; k++) {
			snprintf(key, sizeof(key), "%s%s",
				 prof_cmp_metrics[m].key,
				 k == 1 ? "_status" : k == 2 ? "_reason" : "");
			if (!json_object_object_get_ex(o, key, &x)) {
				free(out);
				return NULL;
			}
		}
		x = json_object_object_get(o, prof_cmp_metrics[m].key);
		if (run && !strcmp(run, id))
			len += (size_t)snprintf(out + len, 64, "%.40s;",
						x ? json_object_get_string(x) :
						    "null");
	}
	return out;
}

/* Whether values() found a value, not nulls only. */
static int
measured(const char *v)
{
	const char *t;

	for (t = v; t && *t; t = strchr(t, ';') + 1)
		if (strncmp(t, "null;", 5))
			return 1;
	return 0;
}

/*
 * The checks over d, empty: a new history's columns and trend
 * (METRICS + 1 checks), then each metric's columns dropped and back at
 * the next add (METRICS).
 */
static void
check(const struct db *d)
{
	struct json_object *a;
	char msg[256], id[32], *want, *got;
	int m, added;

	added = add(d, "r0", 1);
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		snprintf(msg, sizeof(msg),
			 "%s: %s's value, status and reason columns in a new "
			 "history (%s)",
			 d->kind, prof_cmp_metrics[m].key,
			 prof_cmp_metrics[m].history);
		ok(added && has_metric(d, m, 1), msg);
	}
	a = trend(d);
	for (m = 1, got = NULL; a && m < PROF_CMP_MEM_N; m++) {
		free(got);
		got = values(a, "r0", m);
		if (!got)
			break;
	}
	snprintf(msg, sizeof(msg),
		 "%s: trend gives every metric's value and verdict", d->kind);
	ok(a && got, msg);
	free(got);
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		want = values(a, "r0", m);
		snprintf(id, sizeof(id), "r%d", m);
		added = drop_metric(d, m) == 0 && has_metric(d, m, 0) &&
			add(d, id, 0);
		json_object_put(a);
		a = trend(d);
		got = values(a, id, m);
		snprintf(msg, sizeof(msg),
			 "%s: %s's columns, dropped, are back at the next add, "
			 "with the run's values",
			 d->kind, prof_cmp_metrics[m].key);
		ok(added && has_metric(d, m, 1) && want && got &&
			   !strcmp(want, got) && measured(want),
		   msg);
		free(want);
		free(got);
	}
	json_object_put(a);
}

/* A SQLite file this process may not change, without the last metric's
 * columns: read (in memory) as a history with them, and left as it was. */
static void
check_readonly(const struct db *d)
{
	struct json_object *a;
	char *got = NULL, wal[300];
	struct stat sb;
	int m = PROF_CMP_MEM_N - 1;

	ok(drop_metric(d, m) == 0 && chmod(d->addr, 0444) == 0 &&
		   (a = trend(d)) != NULL && (got = values(a, "r0", m)) &&
		   has_metric(d, m, 0),
	   "sqlite: a read-only history without a metric's columns is read, "
	   "its trend with them, and left without");
	snprintf(wal, sizeof(wal), "%s-wal", d->addr);
	ok(stat(wal, &sb) != 0, "sqlite: and nothing is made beside it");
	free(got);
	chmod(d->addr, 0644);
}

int
main(void)
{
	const char *pg = getenv("PROF_TEST_PG");
	char db[128];
	struct db lite = {"sqlite", db, "rows"};
	struct db post = {"postgresql", pg, "prof_rows"};
	int i;

	plan(2 * METRICS + 3 + (pg && pg[0] ? 2 * METRICS + 1 : 0));
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/h.sqlite", dir);
	check(&lite);
	check_readonly(&lite);
	if (pg && pg[0])
		check(&post);
	unlink(db);
	for (i = 0; i < PROF_CMP_MEM_N; i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/r%d.json", dir, i);
		unlink(path);
	}
	rmdir(dir);
	return done();
}
