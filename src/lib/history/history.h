/* history.h: the run history, a database of run rows over time: a SQLite
 * file, or a PostgreSQL database (pg.c) named by its address. */
#ifndef PROF_HISTORY_H
#define PROF_HISTORY_H

#include "base/err.h"
#include "model/runview.h"

struct json_object;

/*
 * A history holds, per run (by run id), one row per workload x backend x
 * segment (by the segment id results files use, prof_sample_id()): n,
 * errors, min, median, p90, max of the aggregated samples, the median
 * instruction count where counted, and per memory metric
 * (prof_cmp_metrics[]: heap peak, allocations, bytes allocated, RSS
 * peak) the median of its values, the number comparisons.json's memory
 * row gives, with that row's verdict (backend.h). Every reader
 * gives the runs in run order, whatever the order they were added in: a
 * run after the runs of its commit's ancestors (by the parents the runs
 * keep), else by commit time (the run's timestamp where the file gave
 * none), then timestamp, commit and run id (order.h). A history
 * is made by runs of successive commits, and two histories of the same
 * runs read the same.
 *
 * The database is marked with an application id and carries its schema
 * version (PRAGMA user_version); opening migrates an older one forward,
 * inside a transaction. It runs in WAL mode with a busy timeout, so two
 * runs on one machine can add at once. A file that is not a SQLite
 * database, a SQLite database that is not a history, a newer history or a
 * corrupt one is refused before anything is written to it, and so is a
 * SQLite file another program marked with its own application id.
 */
#define PROF_HISTORY_SCHEMA 8
#define PROF_HISTORY_APP_ID 0x70726f66	/* "prof" */
#define PROF_HISTORY_BUSY_MS 30000

struct prof_history;

/*
 * An address names a PostgreSQL history rather than a SQLite file when it
 * is a libpq URI (postgresql://, postgres://) or key=value connection
 * string (one that starts with a libpq keyword and '=': "host=db
 * dbname=prof"); prof_history_open() tells them apart. Every function below does the same over either, and gives the same
 * output. Over PostgreSQL, the tables are prof_runs, prof_rows,
 * prof_segments, prof_files and prof_meta (which holds the schema
 * version, migrated forward under an advisory lock, and refused when
 * newer); an address that holds a password is refused (libpq reads it
 * from PGPASSFILE or PGPASSWORD), and a history that is not there is
 * made by the first add or import (create), told as missing otherwise.
 * Adds are "INSERT ... ON CONFLICT (project, run_id) DO NOTHING": writers
 * on many machines at once store each run once, whole or not at all.
 */

/*
 * Open (create when create is set and the file does not exist) and migrate.
 * Without create, a file this process may not change (or whose folder it
 * may not change) is opened read-only, with no -wal or -shm made beside
 * it; an older one is migrated in memory. Errors name the file:
 * "h.db: file is not a database". Returns the history, or NULL with err
 * filled.
 */
struct prof_history *prof_history_open(const char *path, int create,
				       struct prof_err *err);
void prof_history_close(struct prof_history *h);

/*
 * The project every later call reads and writes (a PostgreSQL history
 * holds many: each run is stored with its project, a run id is unique
 * within its project, and list, trend, changes and walk see the runs of
 * this project only; $PROF_PROJECT until set, else ""). The library
 * never asks git: a caller that defaults to the git repository's name
 * (prof-history, prof-dashboard, prof-report's page: the cli layer's
 * cli_project_default()) finds it and names it here, where the history
 * holds many projects (prof_history_many_projects()). A SQLite
 * file is one project's
 * history: the name is not stored there, and only prof_history_projects()
 * says it. project is "" (none: outside a git repository) or a project
 * name (prof_project_valid(), id.h). 0, or -1 with err ("--project:
 * 'NAME...' is not a project name: longer than 255 bytes (300)").
 */
int prof_history_project(struct prof_history *h, const char *project,
			 struct prof_err *err);

/* 1 when the history holds many projects (PostgreSQL), so that the
 * project named matters; 0 for a SQLite file, one project's. */
int prof_history_many_projects(const struct prof_history *h);

/*
 * Retention: remove the runs (of the project, over PostgreSQL) whose
 * timestamp_utc is before before (an ISO 8601 date or time, compared as
 * text: "2026-01-01" removes 2025's runs), with their rows and import's
 * memory of their files (so that an import of files that still hold them
 * adds them again: the files are the record). One transaction; *pruned:
 * how many runs. 0, or -1 with err.
 */
int prof_history_prune(struct prof_history *h, const char *before,
		       long long *pruned, struct prof_err *err);

/* The schema version the history is at once opened (migrated). */
int prof_history_version(const struct prof_history *h);

/*
 * Add a checked run in one transaction: *added is PROF_HISTORY_ADDED. A run
 * id already there with the same content (the same digest) changes nothing
 * (PROF_HISTORY_SAME); with other content it is an error. A run id stored
 * by a prof-history older than the streamed digest (see sqlite.c) cannot
 * be compared: nothing changes either (PROF_HISTORY_UNCOMPARED), for the
 * caller to say so. Returns 0 or -1 (nothing of the run is stored then).
 *
 * Each row's status and reason are stored too: verdicts[i] for row i of v
 * (prof_runview_verdicts()), the time verdict where the row has one, else
 * the count verdict; NULL verdicts, or a row with neither, store null. Of a run already there with the same content,
 * the rows whose status is null take theirs (PROF_HISTORY_JUDGED when any
 * did); a row whose stored status differs is an error, and nothing
 * changes.
 */
enum {
	PROF_HISTORY_SAME = 0,
	PROF_HISTORY_ADDED = 1,
	PROF_HISTORY_UNCOMPARED = 2,
	PROF_HISTORY_JUDGED = 3,
};

int prof_history_add_judged(struct prof_history *h,
			    const struct prof_runview *v,
			    const struct prof_runverdict *verdicts, int *added,
			    struct prof_err *err);

/*
 * The run files already read, by the SHA-256 of their bytes, so that an
 * import of a folder it has seen parses only its new files. With run_id
 * NULL: 1 when sha256 is a known file of a run, 2 when it is known as a
 * file that is not a results file, 0 when not known; with run_id (""
 * for a file that is not a results file): remember sha256 (0). -1 with
 * err on failure.
 */
int prof_history_file(struct prof_history *h, const char *sha256,
		      const char *run_id, struct prof_err *err);

/*
 * One transaction over several adds: after prof_history_begin(), each add
 * is a savepoint in it, and nothing is stored until prof_history_commit()
 * (which rolls back when it fails). 0 or -1.
 */
int prof_history_begin(struct prof_history *h, struct prof_err *err);
int prof_history_commit(struct prof_history *h, struct prof_err *err);
void prof_history_rollback(struct prof_history *h);

/*
 * A history that prof_history_open() creates is not there until its first
 * commit: it is made, and that transaction run, in a temporary sibling
 * that the commit links into place, so that a failed or interrupted first
 * add or import (or prof_history_close() without a commit) leaves no new
 * file. When another process made the history meanwhile, that one is
 * kept and the commit fails with prof_history_raced() set: close, open
 * again and do the transaction there.
 */
int prof_history_raced(const struct prof_history *h);

/*
 * Writers that store the same runs at once can end each other's
 * transaction over PostgreSQL: the server breaks a deadlock by failing
 * one of them (SQLSTATE 40P01), and at the serializable or repeatable
 * read level fails one that read what another changed meanwhile (40001).
 * Such a transaction is rolled back whole and can simply run again:
 * prof_history_conflict() says which ended the last failed call or
 * commit of h (0: neither, another failure, which running again would
 * not mend). A writer runs its transaction PROF_HISTORY_TRIES times at
 * most, after prof_history_backoff(tries) (tries: how many failed so
 * far): a pause that doubles with each try, from about 100 ms, with a
 * random half of it added or taken, so that writers that collided do not
 * collide again in step (about 3 s over the five tries at most).
 */
enum {
	PROF_HISTORY_DEADLOCK = 1,	/* 40P01 */
	PROF_HISTORY_SERIALIZATION,	/* 40001 */
};
#define PROF_HISTORY_TRIES 5
int prof_history_conflict(const struct prof_history *h);
void prof_history_backoff(int tries);

/* Make the statement running now fail (SQLITE_INTERRUPT); for a signal
 * handler (it only sets a flag). */
void prof_history_interrupt(struct prof_history *h);

/* The runs, in run order: run_id, commit, timestamp_utc, command, rows,
 * schema_version, added_utc, commit_time, parents. NULL with err on
 * failure. */
struct json_object *prof_history_list(struct prof_history *h,
				      struct prof_err *err);

/* Which rows a trend or change search looks at; NULL fields match all.
 * segment matches a segment id by its prefix. */
struct prof_history_filter {
	const char *workload;
	const char *backend;
	const char *segment;
};

/*
 * One object per run and row, in run order and, within a run, by workload,
 * backend and segment id (both backends alike): run_id, commit,
 * timestamp_utc, workload, backend, segment_id, n, errors, min, median,
 * p90, max (null when n is 0), instructions (null when not counted),
 * host_peak_bytes (null when not measured), status and reason (the
 * row's verdict against the run's baseline, "improved" among them; null
 * when the run was added without its comparisons), host_allocs,
 * host_allocated_bytes, rss_peak_bytes (null when not measured), and
 * each metric's verdict: host_peak_bytes_status, host_peak_bytes_reason,
 * host_allocs_status, ..., rss_peak_bytes_reason (null: none).
 */
struct json_object *prof_history_trend(struct prof_history *h,
				       const struct prof_history_filter *f,
				       struct prof_err *err);

/*
 * The change points of each series of run medians (steps.h), whose first
 * run after the step is at or after the first run of commit since (a
 * prefix; NULL: all): workload, backend, segment_id, commits ("A..B": the
 * last commit before, the first after), commit_before, commit_after,
 * run_before, run_after, median_before, median_after (the medians of the
 * run medians on each side), change_pct, runs_before, runs_after, index
 * (the position of run_after in its series, from 1), status_before and
 * status_after (the verdicts of run_before's and run_after's rows; null
 * when not stored), reason_after, channel ("time"), metric (null) and
 * unit ("ms"). Each memory metric of a series is a series of its own
 * too, fitted the same way: its change points have channel "memory",
 * metric its key ("host_allocs"), unit "bytes" or "allocations", the
 * medians of its values on each side as median_before and median_after,
 * and its own verdicts as the statuses. An unknown since is an error
 * naming it.
 */
struct json_object *prof_history_changes(struct prof_history *h,
					 const struct prof_history_filter *f,
					 const char *since,
					 struct prof_err *err);

/*
 * What every reader gives of a row of a run (prof_history_point's and
 * prof_history_record's, both backends: backend.h reads it once for
 * all of them). The strings are borrowed until the callback returns.
 */
#define PROF_HISTORY_ROW_MEMBERS                                               \
	const char *workload;                                                  \
	const char *backend;                                                   \
	const char *segment_id;                                                \
	const char *segment;		/* the key */                          \
	long long n;                                                           \
	long long errors;                                                      \
	double min, median, p90, max;	/* NAN when n is 0 */                  \
	long long instructions;		/* -1: not counted */                  \
	const char *status;		/* the row's verdict; NULL: none */    \
	const char *reason;		/* NULL: none */                       \
	/* Per memory metric (enum prof_cmp_mem; [0] unused): its value    \
	 * (NAN: not measured) and its memory row's verdict (NULL: none). */  \
	double mem[PROF_CMP_MEM_N];                                            \
	const char *mem_status[PROF_CMP_MEM_N];                                \
	const char *mem_reason[PROF_CMP_MEM_N];

struct prof_history_row {
	PROF_HISTORY_ROW_MEMBERS
};

/*
 * A row of one run, as prof_history_walk() hands it out: its run's
 * fields, then the row's, named as they are (p->workload) and together
 * as p->row. The strings are borrowed until the callback returns.
 */
struct prof_history_point {
	const char *run_id;
	const char *commit;
	const char *timestamp_utc;
	union {
		struct prof_history_row row;
		struct {
			PROF_HISTORY_ROW_MEMBERS
		};
	};
};

typedef int (*prof_history_fn)(void *arg, const struct prof_history_point *p,
			       struct prof_err *err);

/*
 * Every row of the history, series by series (workload, backend, segment
 * id) and in run order within a series, one at a time: memory does not
 * grow with the history. Stops at the first callback that returns -1.
 * Returns 0, or -1 with err filled (by the callback or the database).
 */
int prof_history_walk(struct prof_history *h, prof_history_fn fn, void *arg,
		      struct prof_err *err);

/*
 * The projects of the history, by name: project, runs, latest (the
 * timestamp_utc of its last run in run order). A PostgreSQL history
 * gives each project it holds runs of; a SQLite file, one project's
 * history, gives itself once, named as prof_history_project() named it
 * ("" when not). NULL with err on failure.
 */
struct json_object *prof_history_projects(struct prof_history *h,
					  struct prof_err *err);

/*
 * Everything the history keeps of one row of one run, as
 * prof_history_export() hands it out: the run's fields, then the row's
 * (workload NULL for a run without rows), named as they are and together
 * as r->row, then its category and workload version. The strings are
 * borrowed until the callback returns.
 */
struct prof_history_record {
	const char *run_id;
	const char *commit;
	const char *timestamp_utc;
	const char *command;
	const char *digest;
	int results_schema;
	const char *commit_time;	/* NULL: the file gave none */
	const char *parents;		/* space-separated; NULL: none */
	union {
		struct prof_history_row row;
		struct {
			PROF_HISTORY_ROW_MEMBERS
		};
	};
	const char *category;
	long long workload_version;
};

typedef int (*prof_history_record_fn)(void *arg,
				      const struct prof_history_record *r,
				      struct prof_err *err);

/*
 * Every row of the project's runs, run by run in run order and, within a
 * run, by workload, backend and segment key (the order a run's rows are
 * added in), one at a time: memory does not grow with the history. Stops
 * at the first callback that returns -1. Returns 0, or -1 with err.
 */
int prof_history_export(struct prof_history *h, prof_history_record_fn fn,
			void *arg, struct prof_err *err);

#endif /* PROF_HISTORY_H */
