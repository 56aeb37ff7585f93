/* sqlite.c: the run history on SQLite, a backend of history.c (its
 * operations: prof_history_sqlite_ops, backend.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sqlite3.h>

#include "backend.h"
#include "base/afile.h"
#include "base/id.h"
#include "base/json.h"
#include "base/utf8.h"
#include "history.h"
#include "model/sample.h"
#include "order.h"
#include "sqlite.h"

static void sq_close(struct prof_history_backend *h);
static int sq_commit(struct prof_history_backend *h, struct prof_err *err);
static void sq_rollback(struct prof_history_backend *h);

/*
 * The forward migrations: MIGRATIONS[k] takes a history from schema
 * version k to k + 1. Version 1 held the timing rows; version 2 added the
 * instruction counts and memory peaks; version 3 renames the segments by
 * the id results files give them (prof_sample_id(): SHA-256 of the key;
 * versions 1 and 2 hashed it another way) and orders runs by RUN_ORDER;
 * version 4 remembers the run files import has read (prof_history_file);
 * version 5 keeps each row's verdict against the run's baseline (status
 * and reason, as comparisons.json says them; null for runs added without
 * it); version 6 keeps each memory metric of a row and its verdict
 * (backend.h: host_allocs and host_allocated_bytes beside the peaks,
 * and KEY_status, KEY_reason of each metric); version 7 the verdict of
 * the CUDA device allocator's peak, a memory row since (its value was
 * device_peak_bytes from version 2 on); version 8 the commit's time and
parents (commit_time as the file gave it, commit_time_utc the same moment
in UTC, parents space-separated; null for files without them) and orders
runs by RUN_ORDER's commit time. Never edit one that has shipped:
 * add the next. A memory metric needs none: after these, add_columns()
 * gives each metric of prof_cmp_metrics[] the columns the rows lack of
 * its (backend.h), those of versions 2, 6 and 7 already there.
 */
static const char *const MIGRATIONS[PROF_HISTORY_SCHEMA] = {
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" run_id TEXT NOT NULL UNIQUE,"
	" commit_id TEXT NOT NULL,"
	" timestamp_utc TEXT NOT NULL,"
	" command TEXT NOT NULL,"
	" results_schema INTEGER NOT NULL,"
	" digest TEXT NOT NULL,"
	" added_utc TEXT NOT NULL);"
	"CREATE INDEX runs_order ON runs (timestamp_utc, id);"
	"CREATE TABLE segments ("
	" segment_id TEXT PRIMARY KEY,"
	" key TEXT NOT NULL);"
	"CREATE TABLE rows ("
	" run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	" workload TEXT NOT NULL,"
	" backend TEXT NOT NULL,"
	" segment_id TEXT NOT NULL REFERENCES segments (segment_id),"
	" category TEXT NOT NULL,"
	" workload_version INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" errors INTEGER NOT NULL,"
	" min REAL, median REAL, p90 REAL, max REAL,"
	" PRIMARY KEY (run, workload, backend, segment_id));"
	"CREATE INDEX rows_series ON rows (workload, backend, segment_id);",

	"ALTER TABLE rows ADD COLUMN instructions INTEGER;"
	"ALTER TABLE rows ADD COLUMN host_peak_bytes REAL;"
	"ALTER TABLE rows ADD COLUMN rss_peak_bytes REAL;"
	"ALTER TABLE rows ADD COLUMN device_peak_bytes REAL;",

	"INSERT OR IGNORE INTO segments (segment_id, key) "
	" SELECT prof_segment_id(key), key FROM segments;"
	"UPDATE rows SET segment_id = (SELECT prof_segment_id(s.key) "
	" FROM segments s WHERE s.segment_id = rows.segment_id);"
	"DELETE FROM segments WHERE segment_id <> prof_segment_id(key);"
	"DROP INDEX runs_order;"
	"CREATE INDEX runs_order ON runs (" RUN_ORDER_V3 ");",

	"CREATE TABLE files ("
	" sha256 TEXT PRIMARY KEY,"
	" run_id TEXT NOT NULL);",

	"ALTER TABLE rows ADD COLUMN status TEXT;"
	"ALTER TABLE rows ADD COLUMN reason TEXT;",

	"ALTER TABLE rows ADD COLUMN host_allocs REAL;"
	"ALTER TABLE rows ADD COLUMN host_allocated_bytes REAL;"
	"ALTER TABLE rows ADD COLUMN host_peak_bytes_status TEXT;"
	"ALTER TABLE rows ADD COLUMN host_peak_bytes_reason TEXT;"
	"ALTER TABLE rows ADD COLUMN host_allocs_status TEXT;"
	"ALTER TABLE rows ADD COLUMN host_allocs_reason TEXT;"
	"ALTER TABLE rows ADD COLUMN host_allocated_bytes_status TEXT;"
	"ALTER TABLE rows ADD COLUMN host_allocated_bytes_reason TEXT;"
	"ALTER TABLE rows ADD COLUMN rss_peak_bytes_status TEXT;"
	"ALTER TABLE rows ADD COLUMN rss_peak_bytes_reason TEXT;",

	"ALTER TABLE rows ADD COLUMN device_peak_allocated_bytes_status TEXT;"
	"ALTER TABLE rows ADD COLUMN device_peak_allocated_bytes_reason TEXT;",

	"ALTER TABLE runs ADD COLUMN commit_time TEXT;"
	"ALTER TABLE runs ADD COLUMN commit_time_utc TEXT;"
	"ALTER TABLE runs ADD COLUMN parents TEXT;"
	"DROP INDEX runs_order;"
	"CREATE INDEX runs_order ON runs (" RUN_ORDER ");",
};

/* SQL prof_segment_id(key): the segment id of a key, for migration 3. */
static void
sql_segment_id(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *key = (const char *)sqlite3_value_text(argv[0]);
	char id[PROF_ID_SIZE];

	(void)argc;
	if (!key || prof_sample_id(key, id) < 0) {
		sqlite3_result_error_nomem(cx);
		return;
	}
	sqlite3_result_text(cx, id, -1, SQLITE_TRANSIENT);
}

static int
exec(struct prof_history_backend *h, const char *sql, struct prof_err *err)
{
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	return 0;
}

/* One integer from a query; -1 with err on failure. */
static int
query_int(struct prof_history_backend *h, const char *sql, long long *out,
	  struct prof_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return db_err(h, err, NULL);
	}
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* Refuse what is not a healthy history, before writing anything. */
static int
check_file(struct prof_history_backend *h, long long *version,
	   struct prof_err *err)
{
	long long app, tables;
	sqlite3_stmt *st = NULL;
	const char *res;
	int rc;

	/* One read transaction: the three are of one state of the file, not
	 * of before and after another process's migration. */
	if (exec(h, "BEGIN", err) < 0)
		return -1;
	if (query_int(h, "PRAGMA application_id", &app, err) < 0 ||
	    query_int(h, "PRAGMA user_version", version, err) < 0 ||
	    query_int(h, "SELECT count(*) FROM sqlite_master", &tables, err) <
		    0 ||
	    exec(h, "COMMIT", err) < 0) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	/* Another program's file, even an empty one, is never taken over. */
	if (app != PROF_HISTORY_APP_ID && (app || tables || *version))
		return prof_err_at(err, h->path, 0, 0,
				   "a SQLite database, but not a prof history");
	if (*version > PROF_HISTORY_SCHEMA)
		return prof_err_at(err, h->path, 0, 0,
				   "history schema version %lld is newer than "
				   "this prof's (%d)",
				   *version, PROF_HISTORY_SCHEMA);
	if (sqlite3_prepare_v2(h->db, "PRAGMA quick_check", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_err(h, err, NULL);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_err(h, err, NULL);
	}
	res = (const char *)sqlite3_column_text(st, 0);
	if (!res || strcmp(res, "ok")) {
		prof_err_at(err, h->path, 0, 0,
			    "database disk image is malformed (%s)",
			    res ? res : "?");
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

/*
 * The memory columns (backend.h: a value and a verdict per metric of
 * prof_cmp_metrics[]) the rows lack, into *due; with add, each of them
 * added (inside migrate()'s transaction). 0, or -1 with err.
 */
static int
add_columns(struct prof_history_backend *h, int add, int *due,
	    struct prof_err *err)
{
	static const char has_sql[] =
		"SELECT 1 FROM pragma_table_info('rows') WHERE name = ?1";
	char sql[PROF_HISTORY_NAME_MAX + 64];
	sqlite3_stmt *st = NULL;
	int i, step, rc = -1;

	*due = 0;
	if (sqlite3_prepare_v2(h->db, has_sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	for (i = 0; i < PROF_HISTORY_MEM_COLS; i++) {
		const char *name = h->cols.name[i];

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		step = sqlite3_step(st);
		if (step == SQLITE_ROW)
			continue;
		if (step != SQLITE_DONE) {
			db_err(h, err, NULL);
			goto out;
		}
		++*due;
		snprintf(sql, sizeof(sql), "ALTER TABLE rows ADD COLUMN %s %s",
			 name, prof_history_column_real(i) ? "REAL" : "TEXT");
		if (add && exec(h, sql, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Whether a history of schema version (this prof's or older) needs
 * migrate(): 1 or 0, or -1 with err. */
static int
migration_due(struct prof_history_backend *h, long long version,
	      struct prof_err *err)
{
	int due;

	if (version < PROF_HISTORY_SCHEMA)
		return 1;
	if (add_columns(h, 0, &due, err) < 0)
		return -1;
	return due > 0;
}

/* Bring the history to PROF_HISTORY_SCHEMA, with every memory column. */
static int
migrate(struct prof_history_backend *h, struct prof_err *err)
{
	long long version;
	char sql[64];
	int due;

	if (exec(h, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* Another process may have migrated while we waited for the lock. */
	if (query_int(h, "PRAGMA user_version", &version, err) < 0)
		goto fail;
	for (; version < PROF_HISTORY_SCHEMA; version++)
		if (exec(h, MIGRATIONS[version], err) < 0)
			goto fail;
	if (add_columns(h, 1, &due, err) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
		 PROF_HISTORY_SCHEMA);
	if (exec(h, sql, err) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d",
		 PROF_HISTORY_APP_ID);
	if (exec(h, sql, err) < 0 || exec(h, "COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Whether this process may change the file: it, and its folder (for the
 * WAL files), writable; a file with no write bit counts as read-only even
 * for root. */
static int
writable(const char *path, const struct stat *sb)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');

	if (!(sb->st_mode & 0222) || access(path, W_OK) != 0)
		return 0;
	if (!slash)
		return access(".", W_OK) == 0;
	snprintf(dir, sizeof(dir), "%.*s",
		 slash == path ? 1 : (int)(slash - path), path);
	return access(dir, W_OK) == 0;
}

/*
 * Open a file this process may not change, read-only and with no file
 * beside it: as "immutable" (no locks, no -wal or -shm made) unless a
 * writer's -wal with content is there, whose pages must be read too.
 */
static int
open_readonly(struct prof_history_backend *h, const char *path,
	      struct prof_err *err)
{
	static const char hex[] = "0123456789ABCDEF";
	char uri[3 * 4096 + 64], wal[4096 + 8];
	struct stat sb;
	size_t o = 0;
	const unsigned char *p;
	int immutable;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	immutable = stat(wal, &sb) != 0 || sb.st_size == 0;
	o += (size_t)snprintf(uri, sizeof(uri), "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p)) {
			uri[o++] = (char)*p;
		} else {
			uri[o++] = '%';
			uri[o++] = hex[*p >> 4];
			uri[o++] = hex[*p & 15];
		}
	}
	snprintf(uri + o, sizeof(uri) - o, "?mode=ro%s",
		 immutable ? "&immutable=1" : "");
	if (sqlite3_open_v2(uri, &h->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			    NULL) != SQLITE_OK)
		return db_err(h, err, "cannot open");
	return 0;
}

/* Move a read-only history into memory, where it can be migrated. */
static int
to_memory(struct prof_history_backend *h, struct prof_err *err)
{
	sqlite3 *mem = NULL;
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return prof_err_set(err, "out of memory");
	}
	b = sqlite3_backup_init(mem, "main", h->db, "main");
	if (!b) {
		sqlite3_close(mem);
		return db_err(h, err, NULL);
	}
	sqlite3_backup_step(b, -1);
	rc = sqlite3_backup_finish(b);
	if (rc != SQLITE_OK) {
		prof_err_at(err, h->path, 0, 0, "%s", sqlite3_errmsg(mem));
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(h->db);
	h->db = mem;
	return 0;
}

static int
add_functions(struct prof_history_backend *h, struct prof_err *err)
{
	if (sqlite3_create_function(h->db, "prof_segment_id", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    sql_segment_id, NULL, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	return 0;
}

/*
 * A history that is not there yet is made whole in a temporary sibling
 * ("<dir>/.<name>.tmp.XXXXXX", in rollback-journal mode, so that the file
 * alone holds it: the schema, synced), where its first transaction runs
 * too; prof_history_commit() links it into place (publish()). A creation
 * or a first transaction that fails (a full disk, a bad file of an
 * import, an interrupt) leaves nothing, never an empty or a half-made
 * history. Returns 0 with h->db open on the sibling, or -1 with err
 * (naming path).
 */
static int
make_pending(struct prof_history_backend *h, const char *path,
	     struct prof_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	long long version = 0;
	mode_t mask;
	int fd;

	if (snprintf(h->pending, sizeof(h->pending), "%.*s.%s.tmp.XXXXXX",
		     slash ? (int)(slash - path + 1) : 0, path, name) >=
	    (int)sizeof(h->pending)) {
		h->pending[0] = '\0';
		return prof_err_at(err, path, 0, 0, "file name too long");
	}
	fd = prof_afile_mkstemp(h->pending);
	if (fd < 0) {
		h->pending[0] = '\0';
		return prof_err_at(err, path, 0, 0, "cannot create: %s",
				   strerror(errno));
	}
	/* The mode SQLite would give it (mkstemp's is 0600). */
	mask = umask(022);
	umask(mask);
	if (fchmod(fd, 0644 & ~mask) != 0) {
		prof_err_at(err, path, 0, 0, "cannot create: %s",
			    strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (sqlite3_open_v2(h->pending, &h->db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK)
		return db_err(h, err, "cannot create");
	sqlite3_extended_result_codes(h->db, 0);
	if (add_functions(h, err) < 0 || check_file(h, &version, err) < 0 ||
	    exec(h, "PRAGMA synchronous = FULL", err) < 0 ||
	    exec(h, "PRAGMA foreign_keys = ON", err) < 0 ||
	    migrate(h, err) < 0)
		return -1;
	return 0;
}

/* The temporary sibling of a history being made, and its journal, gone. */
static void
drop_pending(struct prof_history_backend *h)
{
	static const char *const side[] = {"-journal", "-wal", "-shm"};
	char extra[sizeof(h->pending) + 16];
	size_t i;

	if (!h->pending[0])
		return;
	for (i = 0; i < sizeof(side) / sizeof(*side); i++) {
		snprintf(extra, sizeof(extra), "%s%s", h->pending, side[i]);
		unlink(extra);
	}
	prof_afile_remove(h->pending);
	h->pending[0] = '\0';
}

/*
 * The first commit of a history being made: the sibling, closed, is
 * linked into place, and the history opened there. One that another
 * process made meanwhile is kept, and this one dropped: h->raced, -1, for
 * the caller to do its transaction again there. 0, or -1 with err.
 */
static int
publish(struct prof_history_backend *h, struct prof_err *err)
{
	int rc = sqlite3_close(h->db);

	h->db = NULL;
	if (rc != SQLITE_OK) {
		drop_pending(h);
		return prof_err_at(err, h->path, 0, 0, "cannot create: %s",
				   "the new history could not be closed");
	}
	if (link(h->pending, h->file) != 0) {
		/* A file system without hard links: renamed, unless
		 * another process has made the history meanwhile. */
		if (errno == EEXIST || access(h->file, F_OK) == 0) {
			drop_pending(h);
			h->raced = 1;
			return prof_err_at(err, h->path, 0, 0,
					   "made by another process meanwhile");
		}
		if (rename(h->pending, h->file) != 0) {
			rc = errno;
			drop_pending(h);
			return prof_err_at(err, h->path, 0, 0,
					   "cannot create: %s", strerror(rc));
		}
		prof_afile_remove(h->pending);
		h->pending[0] = '\0';
	}
	drop_pending(h);
	/* Open where it is now, for what the caller does next; the runs
	 * are stored whatever that says. */
	if (sqlite3_open_v2(h->file, &h->db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(h->db);
		h->db = NULL;
	} else {
		sqlite3_extended_result_codes(h->db, 0);
		sqlite3_busy_timeout(h->db, PROF_HISTORY_BUSY_MS);
		add_functions(h, err);
		sqlite3_exec(h->db, "PRAGMA journal_mode = WAL", NULL, NULL,
			     NULL);
		sqlite3_exec(h->db, "PRAGMA foreign_keys = ON", NULL, NULL,
			     NULL);
	}
	memset(err, 0, sizeof(*err));
	return 0;
}

/*
 * Where a history that is not there yet is made: h->file, h->path or, when
 * that is a symbolic link to nothing, where the link leads (through up to
 * 40 links, as the kernel follows them), so that --db link.sqlite makes
 * the file the link names, as sqlite3 does, never one beside the link that
 * the link then stands in the way of. 0, or -1 with err naming h->path
 * (links that loop).
 */
static int
link_target(struct prof_history_backend *h, struct prof_err *err)
{
	char cur[sizeof(h->file)], to[sizeof(h->file)];
	struct stat sb;
	const char *slash;
	ssize_t k;
	int hops;

	snprintf(cur, sizeof(cur), "%s", h->path);
	for (hops = 0; lstat(cur, &sb) == 0 && S_ISLNK(sb.st_mode); hops++) {
		if (hops == 40)
			return prof_err_at(err, h->path, 0, 0,
					   "cannot create: symbolic links that "
					   "loop (more than 40 of them)");
		k = readlink(cur, to, sizeof(to) - 1);
		if (k < 0)
			return prof_err_at(err, h->path, 0, 0,
					   "cannot create: %s",
					   strerror(errno));
		to[k] = '\0';
		slash = strrchr(cur, '/');
		if (to[0] != '/' && slash) {
			char rel[sizeof(h->file)];

			if (snprintf(rel, sizeof(rel), "%.*s%s",
				     (int)(slash - cur + 1), cur, to) >=
			    (int)sizeof(rel))
				return prof_err_at(err, h->path, 0, 0,
						   "file name too long");
			snprintf(cur, sizeof(cur), "%s", rel);
		} else {
			snprintf(cur, sizeof(cur), "%s", to);
		}
	}
	snprintf(h->file, sizeof(h->file), "%s", cur);
	return 0;
}

static struct prof_history_backend *
sq_open(const char *path, int create, struct prof_err *err)
{
	struct prof_history_backend *h = calloc(1, sizeof(*h));
	struct stat sb;
	long long version = 0;
	int tries, due;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (!h) {
		prof_err_set(err, "out of memory");
		return NULL;
	}
	if (prof_history_columns_make(&h->cols, "rows", 0, err) < 0)
		goto fail;
	snprintf(h->path, sizeof(h->path), "%s", path);
	snprintf(h->file, sizeof(h->file), "%s", path);
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		prof_err_at(err, path, 0, 0, "not a regular file");
		goto fail;
	}
	if (stat(path, &sb) != 0 && errno == ELOOP) {
		prof_err_at(err, path, 0, 0, "symbolic links that loop");
		goto fail;
	}
	if (!create && stat(path, &sb) != 0) {
		prof_err_at(err, path, 0, 0, "%s", strerror(errno));
		goto fail;
	}
	if (!create && !writable(path, &sb)) {
		/* A reader never writes a file it may not change, nor a
		 * -wal or -shm beside it; an older one is migrated in
		 * memory. */
		h->readonly = 1;
		if (open_readonly(h, path, err) < 0)
			goto fail;
		sqlite3_extended_result_codes(h->db, 0);
		sqlite3_busy_timeout(h->db, PROF_HISTORY_BUSY_MS);
		if (check_file(h, &version, err) < 0 ||
		    (due = migration_due(h, version, err)) < 0)
			goto fail;
		if (due &&
		    (to_memory(h, err) < 0 || add_functions(h, err) < 0 ||
		     migrate(h, err) < 0))
			goto fail;
		return h;
	}
	if (create && stat(path, &sb) != 0 && errno == ENOENT) {
		if (link_target(h, err) < 0 || make_pending(h, h->file, err) < 0)
			goto fail;
		return h;
	}
	if (sqlite3_open_v2(path, &h->db, flags, NULL) != SQLITE_OK) {
		db_err(h, err, "cannot open");
		goto fail;
	}
	sqlite3_extended_result_codes(h->db, 0);
	sqlite3_busy_timeout(h->db, PROF_HISTORY_BUSY_MS);
	if (add_functions(h, err) < 0)
		goto fail;
	/*
	 * While another process creates the file or switches it to WAL, the
	 * checks and the switch can be told SQLITE_BUSY at once, without the
	 * busy handler (a journal-mode change, a read lock that cannot be
	 * upgraded). Those are retried, for as long as the busy timeout.
	 */
	for (tries = 0;; tries++) {
		struct timespec pause = {0, 20 * 1000000};
		int code;

		if (check_file(h, &version, err) == 0 &&
		    query_int(h, "PRAGMA journal_mode = WAL", &(long long){0},
			      err) == 0 &&
		    exec(h, "PRAGMA foreign_keys = ON", err) == 0 &&
		    (due = migration_due(h, version, err)) >= 0 &&
		    (!due || migrate(h, err) == 0))
			return h;
		code = sqlite3_errcode(h->db);
		if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) ||
		    tries * 20 >= PROF_HISTORY_BUSY_MS)
			goto fail;
		memset(err, 0, sizeof(*err));
		nanosleep(&pause, NULL);
	}
fail:
	sq_close(h);
	return NULL;
}

/* A SQLite file is one project's history: the name is kept for
 * sq_projects() only, never stored. */
static int
sq_project(struct prof_history_backend *h, const char *project,
	   struct prof_err *err)
{
	(void)err;
	snprintf(h->project, sizeof(h->project), "%s", project);
	return 0;
}

static int
sq_prune(struct prof_history_backend *h, const char *before,
	 long long *pruned, struct prof_err *err)
{
	static const char *const sql[] = {
		"DELETE FROM files WHERE run_id IN (SELECT run_id FROM runs "
		"WHERE timestamp_utc < ?1)",
		"DELETE FROM runs WHERE timestamp_utc < ?1",
	};
	sqlite3_stmt *st = NULL;
	size_t i;

	if (exec(h, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	for (i = 0; i < sizeof(sql) / sizeof(*sql); i++) {
		if (sqlite3_prepare_v2(h->db, sql[i], -1, &st, NULL) !=
		    SQLITE_OK)
			goto fail;
		sqlite3_bind_text(st, 1, before, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto fail;
		sqlite3_finalize(st);
		st = NULL;
	}
	*pruned = sqlite3_changes(h->db);
	return sq_commit(h, err);
fail:
	db_err(h, err, NULL);
	sqlite3_finalize(st);
	sq_rollback(h);
	return -1;
}

static int
sq_version(const struct prof_history_backend *h)
{
	(void)h;
	return PROF_HISTORY_SCHEMA;
}

static void
sq_close(struct prof_history_backend *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	drop_pending(h);
	free(h);
}

/* A value of prof_history_row_values() (backend.h), bound as it is. */
static void
bind_value(sqlite3_stmt *st, int i, const struct prof_history_value *v)
{
	switch (v->kind) {
	case PROF_HISTORY_TEXT:
		sqlite3_bind_text(st, i, v->text, -1, SQLITE_STATIC);
		break;
	case PROF_HISTORY_WHOLE:
		sqlite3_bind_int64(st, i, v->whole);
		break;
	case PROF_HISTORY_REAL:
		sqlite3_bind_double(st, i, v->real);
		break;
	case PROF_HISTORY_NULL:
		sqlite3_bind_null(st, i);
		break;
	}
}

/*
 * The digest tells the same run added again (a no-op) from another run
 * that has the same run id (refused). It is prof_runview_load()'s: "v2:"
 * and the SHA-256 of each sample's canonical text in order, then of the
 * top level with the env and segment tables, computed while the file is
 * streamed (runview.h says exactly what is hashed), so one run written in
 * schema 1 or 2 is the same run. Histories written before it hold the
 * SHA-256 of the whole canonical document (64 hex digits, no prefix),
 * which a stream cannot give: such a run cannot be compared, and adding
 * it again leaves it as it is and says so (never a second copy); the
 * digests that can be compared start PROF_HISTORY_DIGEST_PREFIX
 * (backend.h).
 */

/* Whether the run id is there: 1 with the same digest, 2 with another,
 * 3 with a digest of the older kind. */
static int
run_known(struct prof_history_backend *h, const struct prof_runview *v,
	  struct prof_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *old;
	int rc, known = 0;

	if (sqlite3_prepare_v2(h->db,
			       "SELECT digest FROM runs WHERE run_id = ?", -1,
			       &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	sqlite3_bind_text(st, 1, prof_runview_str(v, "run_id"), -1,
			  SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		old = (const char *)sqlite3_column_text(st, 0);
		known = prof_history_digest_known(old, v->digest);
	} else if (rc != SQLITE_DONE)
		known = db_err(h, err, NULL);
	sqlite3_finalize(st);
	return known;
}

static void
bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static int
insert_rows(struct prof_history_backend *h, const struct prof_runview *v,
	    const struct prof_runverdict *verdicts, long long run,
	    struct prof_err *err)
{
	static const char seg_sql[] =
		"INSERT OR IGNORE INTO segments (segment_id, key) VALUES (?, ?)";
	sqlite3_stmt *seg = NULL, *row = NULL;
	const struct prof_runrow *rows = NULL;
	size_t n, i;
	int rc = -1;

	n = prof_runview_rows(v, &rows);
	if (sqlite3_prepare_v2(h->db, seg_sql, -1, &seg, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, h->cols.insert_sql, -1, &row, NULL) !=
		    SQLITE_OK) {
		db_err(h, err, NULL);
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct prof_runrow *r = &rows[i];
		struct prof_history_value val[PROF_HISTORY_INSERT_COLS];
		int k;

		sqlite3_reset(seg);
		sqlite3_bind_text(seg, 1, r->segment_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(seg, 2, r->segment, -1, SQLITE_STATIC);
		if (sqlite3_step(seg) != SQLITE_DONE) {
			db_err(h, err, NULL);
			goto out;
		}
		prof_history_row_values(r, verdicts ? &verdicts[i] : NULL, val);
		sqlite3_reset(row);
		sqlite3_bind_int64(row, 1, run);
		for (k = 0; k < PROF_HISTORY_INSERT_COLS; k++)
			bind_value(row, 2 + k, &val[k]);
		if (sqlite3_step(row) != SQLITE_DONE) {
			db_err(h, err, NULL);
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(seg);
	sqlite3_finalize(row);
	return rc;
}

/*
 * A run already there takes the verdicts of its rows whose status is
 * null, channel by channel (the row's own, each memory metric's:
 * prof_history_channel()); one stored with another status is refused.
 * *changed: whether any row took one. 0 or -1.
 */
static int
judge_channel(struct prof_history_backend *h, const struct prof_runview *v,
	      const struct prof_runverdict *verdicts, int c, int *changed,
	      struct prof_err *err)
{
	static const char get_sql[] =
		"SELECT w.%s FROM rows w JOIN runs r ON r.id = w.run "
		"WHERE r.run_id = ?1 AND w.workload = ?2 AND w.backend = ?3 "
		"AND w.segment_id = ?4";
	static const char set_sql[] =
		"UPDATE rows SET %s = ?5, %s = ?6 WHERE run = "
		"(SELECT id FROM runs WHERE run_id = ?1) AND workload = ?2 "
		"AND backend = ?3 AND segment_id = ?4 AND %s IS NULL";
	const struct prof_runrow *rows = NULL;
	const char *run_id = prof_runview_str(v, "run_id");
	char cs[64], cr[64], sql[sizeof(set_sql) + 3 * 64];
	sqlite3_stmt *st[2] = {NULL, NULL};
	const char *old, *status, *reason;
	size_t n = prof_runview_rows(v, &rows), i;
	int j, step, rc = -1;

	prof_history_channel(NULL, c, cs, cr, &status, &reason);
	snprintf(sql, sizeof(sql), get_sql, cs);
	if (sqlite3_prepare_v2(h->db, sql, -1, &st[0], NULL) != SQLITE_OK)
		goto dberr;
	snprintf(sql, sizeof(sql), set_sql, cs, cr, cs);
	if (sqlite3_prepare_v2(h->db, sql, -1, &st[1], NULL) != SQLITE_OK)
		goto dberr;
	for (i = 0; i < n; i++) {
		const struct prof_runrow *r = &rows[i];

		prof_history_channel(&verdicts[i], c, cs, cr, &status, &reason);
		if (!status)
			continue;
		for (j = 0; j < 2; j++) {
			sqlite3_reset(st[j]);
			sqlite3_bind_text(st[j], 1, run_id, -1, SQLITE_STATIC);
			sqlite3_bind_text(st[j], 2, r->workload, -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(st[j], 3, r->backend, -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(st[j], 4, r->segment_id, -1,
					  SQLITE_STATIC);
		}
		step = sqlite3_step(st[0]);
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			goto dberr;
		old = step == SQLITE_ROW ?
			      (const char *)sqlite3_column_text(st[0], 0) :
			      NULL;
		if (old && strcmp(old, status)) {
			prof_history_other_status(err, h->path, run_id, r, c,
						  old, status);
			goto out;
		}
		if (old)
			continue;
		sqlite3_bind_text(st[1], 5, status, -1, SQLITE_STATIC);
		bind_text_or_null(st[1], 6, reason);
		if (sqlite3_step(st[1]) != SQLITE_DONE)
			goto dberr;
		if (sqlite3_changes(h->db) > 0)
			*changed = 1;
	}
	rc = 0;
	goto out;
dberr:
	db_err(h, err, NULL);
out:
	sqlite3_finalize(st[0]);
	sqlite3_finalize(st[1]);
	return rc;
}

static int
sq_add_judged(struct prof_history_backend *h, const struct prof_runview *v,
	      const struct prof_runverdict *verdicts, int *added,
	      struct prof_err *err)
{
	static const char run_sql[] =
		"INSERT INTO runs (run_id, commit_id, timestamp_utc, command, "
		"results_schema, digest, added_utc, commit_time, "
		"commit_time_utc, parents) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	char ctime_utc[24], parents[4096];
	const char *ctime;
	sqlite3_stmt *st = NULL;
	char now[32];
	int known;
	int outer;
	const char *undo;

	/* Inside the caller's transaction, a savepoint of its own. */
	outer = !sqlite3_get_autocommit(h->db);
	undo = outer ? "ROLLBACK TO add_run; RELEASE add_run" : "ROLLBACK";
	*added = PROF_HISTORY_SAME;
	if (exec(h, outer ? "SAVEPOINT add_run" : "BEGIN IMMEDIATE", err) < 0)
		return -1;
	known = run_known(h, v, err);
	if (known < 0)
		goto fail;
	if (known == 1 && verdicts) {
		int changed;

		if (prof_history_judge_rows(h, v, verdicts, judge_channel,
					    &changed, err) < 0)
			goto fail;
		if (changed) {
			if (outer ? exec(h, "RELEASE add_run", err) < 0 :
				    sq_commit(h, err) < 0)
				goto fail;
			*added = PROF_HISTORY_JUDGED;
			return 0;
		}
	}
	if (known == 1 || known == 3) {
		exec(h, undo, err);
		if (known == 3)
			*added = PROF_HISTORY_UNCOMPARED;
		return 0;
	}
	if (known == 2) {
		prof_err_at(err, h->path, 0, 0,
			    "run '%s' is already there with other content",
			    prof_runview_str(v, "run_id"));
		goto fail;
	}
	prof_history_now_utc(now);
	if (sqlite3_prepare_v2(h->db, run_sql, -1, &st, NULL) != SQLITE_OK) {
		db_err(h, err, NULL);
		goto fail;
	}
	sqlite3_bind_text(st, 1, prof_runview_str(v, "run_id"), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 2, prof_runview_str(v, "commit"), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 3, prof_runview_str(v, "timestamp_utc"), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 4, prof_runview_str(v, "command"), -1,
			  SQLITE_STATIC);
	sqlite3_bind_int(st, 5, v->schema_version);
	sqlite3_bind_text(st, 6, v->digest, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, now, -1, SQLITE_STATIC);
	ctime = prof_runview_commit_time(v, ctime_utc);
	if (ctime) {
		sqlite3_bind_text(st, 8, ctime, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 9, ctime_utc, -1, SQLITE_STATIC);
	}
	if (prof_runview_parents(v, parents, sizeof(parents)))
		sqlite3_bind_text(st, 10, parents, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(h, err, NULL);
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (insert_rows(h, v, verdicts, sqlite3_last_insert_rowid(h->db),
			err) < 0 ||
	    (outer ? exec(h, "RELEASE add_run", err) < 0 :
		     sq_commit(h, err) < 0))
		goto fail;
	*added = PROF_HISTORY_ADDED;
	return 0;
fail:
	sqlite3_finalize(st);
	/* A commit that failed has rolled back (and a history being made
	 * that was not linked is closed). */
	if (h->db)
		sqlite3_exec(h->db, undo, NULL, NULL, NULL);
	return -1;
}

static int
sq_file(struct prof_history_backend *h, const char *sha256,
	const char *run_id, struct prof_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(h->db,
			       run_id ? "INSERT OR IGNORE INTO files (sha256, "
					"run_id) VALUES (?1, ?2)" :
					"SELECT run_id <> '' FROM files "
					"WHERE sha256 = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(h, err, NULL);
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	if (run_id)
		sqlite3_bind_text(st, 2, run_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		rc = sqlite3_column_int(st, 0) ? 1 : 2;
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_err(h, err, NULL);
	return 0;
}

static int
sq_begin(struct prof_history_backend *h, struct prof_err *err)
{
	return exec(h, "BEGIN IMMEDIATE", err);
}

static int
sq_commit(struct prof_history_backend *h, struct prof_err *err)
{
	if (exec(h, "COMMIT", err) < 0) {
		sq_rollback(h);
		return -1;
	}
	return h->pending[0] ? publish(h, err) : 0;
}

static void
sq_rollback(struct prof_history_backend *h)
{
	if (h->db && !sqlite3_get_autocommit(h->db))
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/* For a signal handler: sqlite3_interrupt() only sets a flag. */
static void
sq_interrupt(struct prof_history_backend *h)
{
	if (h->db)
		sqlite3_interrupt(h->db);
}

static int
sq_raced(const struct prof_history_backend *h)
{
	return h->raced;
}

const struct prof_history_ops prof_history_sqlite_ops = {
	.name = "sqlite",
	.many_projects = 0,
	.open = sq_open,
	.close = sq_close,
	.version = sq_version,
	.project = sq_project,
	.prune = sq_prune,
	.add_judged = sq_add_judged,
	.file = sq_file,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.interrupt = sq_interrupt,
	.raced = sq_raced,
	.conflict = sq_conflict,
	.projects = sq_projects,
	.order = sq_order,
	.timestamp = sq_timestamp,
	.list = sq_list,
	.trend = sq_trend,
	.walk = sq_walk,
	.export = sq_export,
};
