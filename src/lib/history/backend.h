/* backend.h: what the backends of history.h are to the facade
 * (history.c): a table of operations each backend fills
 * (prof_history_sqlite_ops in sqlite.c, prof_history_pg_ops in pg.c),
 * and what they share, inline, so that neither calls into the other or
 * back into the facade (t0105: no circles among files; t0108). Private
 * to the folder: the tools use history.h only. */
#ifndef PROF_HISTORY_BACKEND_H
#define PROF_HISTORY_BACKEND_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "history.h"

struct json_object;
struct prof_history_order;

/*
 * A backend's own state (each backend defines it: a SQLite connection
 * and its file, a libpq connection and its project); the facade holds
 * it opaque.
 */
struct prof_history_backend;

/*
 * The operations of a backend, as git's refs backends are: the facade
 * (history.c) does everything the two backends do alike (choosing one by
 * the address, checking names, the run order over the commit graph, the
 * change points, the projects' index) and calls these for the rest. Each
 * is the function of history.h of the same name over the backend, with
 * its contract, but for these:
 *
 *   open       addr (a SQLite path, or a libpq address: the facade chose)
 *              opened, made when create is set; NULL with err naming addr
 *   project    the project every later call reads and writes (checked
 *              by the facade; a SQLite file keeps the name for projects
 *              only)
 *   raced      1 when the commit of a history being made failed because
 *              another process made it first (SQLite), else 0
 *   conflict   PROF_HISTORY_DEADLOCK or _SERIALIZATION when the SQLSTATE
 *              of the last failure since the last begin said so, else 0
 *   rollback, interrupt   never given NULL; interrupt is called from a
 *              signal handler (it only sets a flag or sends a cancel)
 *   projects   the names of the projects the history holds runs of, in
 *              byte order (a JSON array of strings); a SQLite file, the
 *              one project() named
 *   order      the runs of project (NULL: the one project() named) in
 *              commit-time order, unsorted (order.h), for the facade to
 *              put in run order; NULL with err
 *   timestamp  the timestamp_utc of the run of row id into out (room for
 *              64 bytes); 0, or -1 with err
 *   list, trend, walk, export   the readers, each given the run order
 *              it reads the runs in (o, sorted: prof_history_order_sort(),
 *              kept by the facade until its next reader); trend with
 *              by_series orders by series first, each row with its run's
 *              position in run order as run_rank (for changes)
 */
struct prof_history_ops {
	const char *name;
	int many_projects;	/* prof_history_many_projects() */
	struct prof_history_backend *(*open)(const char *addr, int create,
					     struct prof_err *err);
	void (*close)(struct prof_history_backend *b);
	int (*version)(const struct prof_history_backend *b);
	int (*project)(struct prof_history_backend *b, const char *project,
		       struct prof_err *err);
	int (*prune)(struct prof_history_backend *b, const char *before,
		     long long *pruned, struct prof_err *err);
	int (*add_judged)(struct prof_history_backend *b,
			  const struct prof_runview *v,
			  const struct prof_runverdict *verdicts, int *added,
			  struct prof_err *err);
	int (*file)(struct prof_history_backend *b, const char *sha256,
		    const char *run_id, struct prof_err *err);
	int (*begin)(struct prof_history_backend *b, struct prof_err *err);
	int (*commit)(struct prof_history_backend *b, struct prof_err *err);
	void (*rollback)(struct prof_history_backend *b);
	void (*interrupt)(struct prof_history_backend *b);
	int (*raced)(const struct prof_history_backend *b);
	int (*conflict)(const struct prof_history_backend *b);
	struct json_object *(*projects)(struct prof_history_backend *b,
					struct prof_err *err);
	struct prof_history_order *(*order)(struct prof_history_backend *b,
					    const char *project,
					    struct prof_err *err);
	int (*timestamp)(struct prof_history_backend *b, long long id,
			 char *out, struct prof_err *err);
	struct json_object *(*list)(struct prof_history_backend *b,
				    const struct prof_history_order *o,
				    struct prof_err *err);
	struct json_object *(*trend)(struct prof_history_backend *b,
				     const struct prof_history_filter *f,
				     int by_series,
				     const struct prof_history_order *o,
				     struct prof_err *err);
	int (*walk)(struct prof_history_backend *b,
		    const struct prof_history_order *o, prof_history_fn fn,
		    void *arg, struct prof_err *err);
	int (*export)(struct prof_history_backend *b,
		      const struct prof_history_order *o,
		      prof_history_record_fn fn, void *arg,
		      struct prof_err *err);
};

extern const struct prof_history_ops prof_history_sqlite_ops;
extern const struct prof_history_ops prof_history_pg_ops;

/* The prefix of the digests that can be compared (sqlite.c says what a
 * run's digest is); histories written before it hold digests without. */
#define PROF_HISTORY_DIGEST_PREFIX "v2:"

/* A run id already stored with digest old (NULL: none said) against the
 * digest of the run being added: 1 the same, 2 another, 3 a digest of
 * the older kind. */
static inline int
prof_history_digest_known(const char *old, const char *digest)
{
	if (!old || strncmp(old, PROF_HISTORY_DIGEST_PREFIX,
			    strlen(PROF_HISTORY_DIGEST_PREFIX)))
		return 3;
	return strcmp(old, digest) ? 2 : 1;
}

/* The verdict a row stores: its time verdict, else its count verdict
 * (NULL, NULL: none). */
static inline void
prof_history_row_verdict(const struct prof_runverdict *vd,
			 const char **status, const char **reason)
{
	*status = *reason = NULL;
	if (!vd)
		return;
	if (vd->status) {
		*status = vd->status;
		*reason = vd->reason;
	} else if (vd->count_status) {
		*status = vd->count_status;
		*reason = vd->count_reason;
	}
}

/*
 * The memory of a row: per metric m of prof_cmp_metrics[] a column of its
 * value (.history: device_peak_bytes for the device's peak, which trend
 * names by its key) and columns KEY_status and KEY_reason of its memory
 * row's verdict (struct prof_history_columns below). The value is the
 * median of the row's values of the metric, the number comparisons.json's
 * memory row gives as its current median.
 *
 * A row with no such value keeps what histories before memory rows kept:
 * the largest peak its memory samples name, which the run's row holds of
 * the three peaks it always measured. That is a legacy of those three
 * (the switch below) and no rule of the table: a metric added since has
 * no such peak, and none is stored (NAN: none).
 */
static inline double
prof_history_mem_value(const struct prof_runrow *r, int m)
{
	if (r->mem_st[m].n)
		return r->mem_st[m].median;
	switch (m) {
	case PROF_CMP_MEM_PEAK:
		return r->host_peak_bytes;
	case PROF_CMP_MEM_RSS:
		return r->rss_peak_bytes;
	case PROF_CMP_MEM_DEVICE:
		return r->device_peak_bytes;
	default:
		return NAN;
	}
}

/* The memory metrics the history keeps a value and a verdict column of:
 * 1 .. PROF_HISTORY_MEM_N - 1, every one prof-diff judges. */
#define PROF_HISTORY_MEM_N PROF_CMP_MEM_N

/*
 * The verdict columns of a row, as add and judge walk them: channel 0 is
 * the row's own (status and reason: time, else count), channel m
 * (1 .. PROF_HISTORY_MEM_N - 1) the memory metric m's. The column names into
 * status and reason (room for 64 bytes each); the verdict of vd (NULL:
 * none) into *s and *why.
 */
#define PROF_HISTORY_CHANNELS PROF_HISTORY_MEM_N

static inline void
prof_history_channel(const struct prof_runverdict *vd, int c, char *status,
		     char *reason, const char **s, const char **why)
{
	if (!c) {
		snprintf(status, 64, "status");
		snprintf(reason, 64, "reason");
		prof_history_row_verdict(vd, s, why);
		return;
	}
	snprintf(status, 64, "%s_status", prof_cmp_metrics[c].key);
	snprintf(reason, 64, "%s_reason", prof_cmp_metrics[c].key);
	*s = vd ? vd->mem_status[c] : NULL;
	*why = *s ? vd->mem_reason[c] : NULL;
}

/*
 * The columns of a row every reader of rows selects (walk, export), from
 * a column base on (w: the row, s: its segment), as
 * prof_history_read_row() reads them: these, then the memory columns
 * (struct prof_history_columns' select), PROF_HISTORY_ROW_COLS in all.
 */
#define PROF_HISTORY_ROW_SELECT_HEAD                                          \
	"w.workload, w.backend, w.segment_id, s.key, w.n, w.errors, w.min, "  \
	"w.median, w.p90, w.max, w.instructions, w.status, w.reason"

/* The columns add writes of a row after its run: these, then the memory
 * columns (struct prof_history_columns' insert), PROF_HISTORY_INSERT_COLS
 * in all, whose values prof_history_row_values() gives in that order. */
#define PROF_HISTORY_ROW_INSERT_HEAD                                          \
	"workload, backend, segment_id, category, workload_version, n, "      \
	"errors, min, median, p90, max, instructions, status, reason"

/* The memory columns: a value and a verdict's two per metric. */
#define PROF_HISTORY_MEM_COLS (3 * (PROF_HISTORY_MEM_N - 1))
#define PROF_HISTORY_ROW_COLS (13 + PROF_HISTORY_MEM_COLS)
#define PROF_HISTORY_INSERT_COLS (14 + PROF_HISTORY_MEM_COLS)

/* The longest column name, with its terminating null. */
#define PROF_HISTORY_NAME_MAX 64

/*
 * The memory columns of a row, from prof_cmp_metrics[] and nothing else,
 * so that a new metric is a row of that table and no edit here: name[i]
 * (PROF_HISTORY_MEM_COLS of them), each metric's value column (.history)
 * in the table's order, then each metric's KEY_status and KEY_reason.
 * The values are reals, the verdicts text (prof_history_column_real()).
 * Both backends build them once, on opening (prof_history_columns_make()),
 * with the SQL of them that their statements take:
 *
 *   select  what every reader of rows selects: PROF_HISTORY_ROW_SELECT_HEAD
 *           then w.NAME of each, in that order (prof_history_read_row())
 *   trend   what trend gives after instructions: the heap peak, the row's
 *           status and reason, the other values each named by its
 *           metric's key (w.device_peak_bytes AS
 *           device_peak_allocated_bytes), then the verdicts: the order
 *           trend's objects have always had (prof-history(1) lists it)
 *   insert  the columns add writes after run: PROF_HISTORY_ROW_INSERT_HEAD
 *           then each name, in that order (prof_history_row_values())
 *   insert_sql  the insert of a row into the backend's table of rows:
 *           run, then insert's columns, each value a placeholder in the
 *           backend's own form ("?" for SQLite, "$1", "$2"... for libpq)
 *
 * Every backend gives each name a column of its rows where one is
 * missing, after its versioned migrations, whenever it migrates a history
 * (sqlite.c's and pg.c's add_columns()): today's metrics find theirs
 * there, made by those migrations, and a new one gets its own.
 */
#define PROF_HISTORY_SELECT_ROOM                                              \
	(256 + PROF_HISTORY_MEM_COLS * (PROF_HISTORY_NAME_MAX + 4))
#define PROF_HISTORY_TREND_ROOM                                               \
	(64 + PROF_HISTORY_MEM_COLS * (2 * PROF_HISTORY_NAME_MAX + 8))
#define PROF_HISTORY_INSERT_ROOM                                              \
	(256 + PROF_HISTORY_MEM_COLS * (PROF_HISTORY_NAME_MAX + 2))

struct prof_history_columns {
	char name[PROF_HISTORY_MEM_COLS][PROF_HISTORY_NAME_MAX];
	char select[PROF_HISTORY_SELECT_ROOM];
	char trend[PROF_HISTORY_TREND_ROOM];
	char insert[PROF_HISTORY_INSERT_ROOM];
	char insert_sql[64 + PROF_HISTORY_INSERT_ROOM +
			6 * PROF_HISTORY_INSERT_COLS];
};

/* Whether memory column i holds a value (a real), not a verdict (text). */
static inline int
prof_history_column_real(int i)
{
	return i < PROF_HISTORY_MEM_N - 1;
}

/* Append to buf (room for n bytes, *len used) what fmt says: 0, or -1
 * when it does not fit. */
static inline int prof_history_cat(char *buf, size_t n, size_t *len,
				   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int
prof_history_cat(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= n - *len)
		return -1;
	*len += (size_t)k;
	return 0;
}

/* The trend's columns of c (c->name[] made): see struct
 * prof_history_columns. 0, or -1 when they do not fit. */
static inline int
prof_history_columns_trend(struct prof_history_columns *c)
{
	size_t len = 0;
	int m, i, bad = 0;

	for (m = 1; m < PROF_HISTORY_MEM_N; m++) {
		const char *col = prof_cmp_metrics[m].history;
		const char *key = prof_cmp_metrics[m].key;

		bad |= prof_history_cat(c->trend, sizeof(c->trend), &len,
					"%sw.%s", m > 1 ? ", " : "", col);
		if (strcmp(col, key))
			bad |= prof_history_cat(c->trend, sizeof(c->trend),
						&len, " AS %s", key);
		if (m == PROF_CMP_MEM_PEAK)
			bad |= prof_history_cat(c->trend, sizeof(c->trend),
						&len, ", w.status, w.reason");
	}
	for (i = PROF_HISTORY_MEM_N - 1; i < PROF_HISTORY_MEM_COLS; i++)
		bad |= prof_history_cat(c->trend, sizeof(c->trend), &len,
					", w.%s", c->name[i]);
	return bad ? -1 : 0;
}

/* The insert of a row into table rows (see struct prof_history_columns),
 * with numbered placeholders ($1, $2...) where dollar is set, else "?".
 * 0, or -1 when it does not fit. */
static inline int
prof_history_columns_insert(struct prof_history_columns *c, const char *rows,
			    int dollar)
{
	size_t len = 0;
	int k, bad;

	bad = prof_history_cat(c->insert_sql, sizeof(c->insert_sql), &len,
			       "INSERT INTO %s (run, %s) VALUES (%s", rows,
			       c->insert, dollar ? "$1" : "?");
	for (k = 0; k < PROF_HISTORY_INSERT_COLS; k++)
		bad |= dollar ? prof_history_cat(c->insert_sql,
						 sizeof(c->insert_sql), &len,
						 ", $%d", k + 2) :
				prof_history_cat(c->insert_sql,
						 sizeof(c->insert_sql), &len,
						 ", ?");
	bad |= prof_history_cat(c->insert_sql, sizeof(c->insert_sql), &len,
				")");
	return bad ? -1 : 0;
}

/* c, built from prof_cmp_metrics[] (see struct prof_history_columns),
 * with the insert of a row into table rows (dollar: see
 * prof_history_columns_insert()): made once, on opening, for every add.
 * 0, or -1 with err when a metric's column name is too long for it. */
static inline int
prof_history_columns_make(struct prof_history_columns *c, const char *rows,
			  int dollar, struct prof_err *err)
{
	size_t s = 0, n = 0;
	int m, i, k = 0, bad = 0;

	memset(c, 0, sizeof(*c));
	for (m = 1; m < PROF_HISTORY_MEM_N; m++)
		bad |= snprintf(c->name[k++], PROF_HISTORY_NAME_MAX, "%s",
				prof_cmp_metrics[m].history) >=
		       PROF_HISTORY_NAME_MAX;
	for (m = 1; m < PROF_HISTORY_MEM_N; m++) {
		bad |= snprintf(c->name[k++], PROF_HISTORY_NAME_MAX,
				"%s_status", prof_cmp_metrics[m].key) >=
		       PROF_HISTORY_NAME_MAX;
		bad |= snprintf(c->name[k++], PROF_HISTORY_NAME_MAX,
				"%s_reason", prof_cmp_metrics[m].key) >=
		       PROF_HISTORY_NAME_MAX;
	}
	bad |= prof_history_cat(c->select, sizeof(c->select), &s, "%s",
				PROF_HISTORY_ROW_SELECT_HEAD);
	bad |= prof_history_cat(c->insert, sizeof(c->insert), &n, "%s",
				PROF_HISTORY_ROW_INSERT_HEAD);
	for (i = 0; i < PROF_HISTORY_MEM_COLS; i++) {
		bad |= prof_history_cat(c->select, sizeof(c->select), &s,
					", w.%s", c->name[i]);
		bad |= prof_history_cat(c->insert, sizeof(c->insert), &n,
					", %s", c->name[i]);
	}
	if (bad || prof_history_columns_trend(c) < 0)
		return prof_err_set(err,
				    "a memory metric's history column has a "
				    "name longer than %d bytes",
				    PROF_HISTORY_NAME_MAX - 1);
	if (prof_history_columns_insert(c, rows, dollar) < 0)
		return prof_err_set(err, "the insert of a row is too long");
	return 0;
}

enum prof_history_kind {
	PROF_HISTORY_NULL,
	PROF_HISTORY_TEXT,
	PROF_HISTORY_WHOLE,
	PROF_HISTORY_REAL,
};

struct prof_history_value {
	enum prof_history_kind kind;
	const char *text;
	long long whole;
	double real;
};

/* A text value; NULL is null. */
static inline struct prof_history_value
prof_history_value_text(const char *s)
{
	struct prof_history_value v = {
		.kind = s ? PROF_HISTORY_TEXT : PROF_HISTORY_NULL, .text = s};

	return v;
}

static inline struct prof_history_value
prof_history_value_whole(long long n)
{
	struct prof_history_value v = {.kind = PROF_HISTORY_WHOLE, .whole = n};

	return v;
}

/* A real value; one not finite (NAN: none) is null. */
static inline struct prof_history_value
prof_history_value_real(double d)
{
	struct prof_history_value v = {
		.kind = isfinite(d) ? PROF_HISTORY_REAL : PROF_HISTORY_NULL,
		.real = d};

	return v;
}

static inline void
prof_history_row_values(const struct prof_runrow *r,
			const struct prof_runverdict *vd,
			struct prof_history_value val[PROF_HISTORY_INSERT_COLS])
{
	const struct prof_history_value none = {PROF_HISTORY_NULL};
	const char *status, *reason;
	char cs[64], cr[64];
	int has = r->n > 0, m, k = 0;

	val[k++] = prof_history_value_text(r->workload);
	val[k++] = prof_history_value_text(r->backend);
	val[k++] = prof_history_value_text(r->segment_id);
	val[k++] = prof_history_value_text(r->category);
	val[k++] = prof_history_value_whole(r->version);
	val[k++] = prof_history_value_whole((long long)r->n);
	val[k++] = prof_history_value_whole(r->errors);
	val[k++] = prof_history_value_real(has ? r->st.min : NAN);
	val[k++] = prof_history_value_real(has ? r->st.median : NAN);
	val[k++] = prof_history_value_real(has ? r->st.p90 : NAN);
	val[k++] = prof_history_value_real(has ? r->st.max : NAN);
	val[k++] = r->instructions >= 0 ?
			   prof_history_value_whole(r->instructions) : none;
	prof_history_row_verdict(vd, &status, &reason);
	val[k++] = prof_history_value_text(status);
	val[k++] = prof_history_value_text(reason);
	/* struct prof_history_columns' order: the values, the verdicts. */
	for (m = 1; m < PROF_HISTORY_MEM_N; m++)
		val[k++] = prof_history_value_real(
			prof_history_mem_value(r, m));
	for (m = 1; m < PROF_HISTORY_MEM_N; m++) {
		prof_history_channel(vd, m, cs, cr, &status, &reason);
		val[k++] = prof_history_value_text(status);
		val[k++] = prof_history_value_text(reason);
	}
}

/* The time now, UTC, as a run's added_utc: YYYY-MM-DDTHH:MM:SSZ. */
static inline void
prof_history_now_utc(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A run already there whose row r has another status in channel c
 * (prof_history_channel()) than the one being added: err, at name (the
 * history), says so; -1. */
static inline int
prof_history_other_status(struct prof_err *err, const char *name,
			  const char *run_id, const struct prof_runrow *r,
			  int c, const char *old, const char *status)
{
	prof_err_at(err, name, 0, 0,
		    "run '%s' is already there with other statuses (%s, "
		    "%s%s%s: '%s', not '%s')",
		    run_id, r->workload, r->backend, c ? ", " : "",
		    c ? prof_cmp_metrics[c].key : "", old, status);
	return -1;
}

/*
 * The verdicts of a run already there, channel by channel
 * (PROF_HISTORY_CHANNELS: the row's own, each memory metric's), by the
 * backend's judge (its judge_channel()): *changed, whether any row took
 * one. 0 or -1.
 */
typedef int (*prof_history_judge_fn)(struct prof_history_backend *b,
				     const struct prof_runview *v,
				     const struct prof_runverdict *verdicts,
				     int c, int *changed,
				     struct prof_err *err);

static inline int
prof_history_judge_rows(struct prof_history_backend *b,
			const struct prof_runview *v,
			const struct prof_runverdict *verdicts,
			prof_history_judge_fn judge, int *changed,
			struct prof_err *err)
{
	int c;

	*changed = 0;
	for (c = 0; c < PROF_HISTORY_CHANNELS; c++)
		if (judge(b, v, verdicts, c, changed, err) < 0)
			return -1;
	return 0;
}

/*
 * How a backend reads a column of the row its reader is at: its text
 * (NULL: SQL null), its value as a double (NAN: null), and as an integer
 * (0: null, else 1 and *v).
 */
struct prof_history_cols {
	void *row;
	const char *(*text)(void *row, int col);
	double (*real)(void *row, int col);
	int (*integer)(void *row, int col, long long *v);
};

/*
 * The row at columns base .. base + PROF_HISTORY_ROW_COLS - 1 (as struct
 * prof_history_columns' select selects it) into *w: workload NULL where the
 * run has no rows (a LEFT JOIN's), the other names "" then; counts 0 and
 * values NAN where null, instructions -1; verdicts NULL where none.
 */
static inline void
prof_history_read_row(const struct prof_history_cols *c, int base,
		      struct prof_history_row *w)
{
	const char *t;
	long long v;
	int m;

	w->workload = c->text(c->row, base);
	t = c->text(c->row, base + 1);
	w->backend = t ? t : "";
	t = c->text(c->row, base + 2);
	w->segment_id = t ? t : "";
	t = c->text(c->row, base + 3);
	w->segment = t ? t : "";
	w->n = c->integer(c->row, base + 4, &v) ? v : 0;
	w->errors = c->integer(c->row, base + 5, &v) ? v : 0;
	w->min = c->real(c->row, base + 6);
	w->median = c->real(c->row, base + 7);
	w->p90 = c->real(c->row, base + 8);
	w->max = c->real(c->row, base + 9);
	w->instructions = c->integer(c->row, base + 10, &v) ? v : -1;
	w->status = c->text(c->row, base + 11);
	w->reason = c->text(c->row, base + 12);
	w->mem[0] = NAN;
	w->mem_status[0] = w->mem_reason[0] = NULL;
	/* The memory columns: the values, then the verdicts. */
	for (m = 1; m < PROF_HISTORY_MEM_N; m++) {
		int k = base + 13 + PROF_HISTORY_MEM_N - 1 + 2 * (m - 1);

		w->mem[m] = c->real(c->row, base + 12 + m);
		w->mem_status[m] = c->text(c->row, k);
		w->mem_reason[m] = c->text(c->row, k + 1);
	}
}

/* A column's text, "" where it is null. */
static inline const char *
prof_history_text(const struct prof_history_cols *c, int col)
{
	const char *t = c->text(c->row, col);

	return t ? t : "";
}

/*
 * Where a reader of rows hands each row: the walk's points (point set),
 * else export's records. The walk selects run_id, commit_id and
 * timestamp_utc, then the row (struct prof_history_columns' select); export
 * PROF_HISTORY_RECORD_HEAD, the row, then PROF_HISTORY_RECORD_TAIL.
 */
struct prof_history_stream {
	prof_history_fn point;
	prof_history_record_fn record;
	void *arg;
};

#define PROF_HISTORY_RECORD_HEAD                                              \
	"r.run_id, r.commit_id, r.timestamp_utc, r.command, "                 \
	"r.results_schema, r.digest, "
#define PROF_HISTORY_RECORD_TAIL                                              \
	", w.category, w.workload_version, r.commit_time, r.parents "

/* The run's columns both readers select first, as a point's or a
 * record's initializers. */
#define PROF_HISTORY_RUN_COLS(c)                                              \
	.run_id = prof_history_text(c, 0), .commit = prof_history_text(c, 1), \
	.timestamp_utc = prof_history_text(c, 2)

/* The row c is at, to s: the walk's point, or export's record; what
 * its function returns (0, or -1 with err). */
static inline int
prof_history_stream_row(const struct prof_history_stream *s,
			const struct prof_history_cols *c,
			struct prof_err *err)
{
	enum { AFTER = 6 + PROF_HISTORY_ROW_COLS };
	long long v;

	if (s->point) {
		struct prof_history_point p = {PROF_HISTORY_RUN_COLS(c)};

		prof_history_read_row(c, 3, &p.row);
		return s->point(s->arg, &p, err);
	} else {
		struct prof_history_record r = {
			PROF_HISTORY_RUN_COLS(c),
			.command = prof_history_text(c, 3),
			.digest = prof_history_text(c, 5),
			.category = prof_history_text(c, AFTER),
			.commit_time = c->text(c->row, AFTER + 2),
			.parents = c->text(c->row, AFTER + 3),
		};

		r.results_schema = c->integer(c->row, 4, &v) ? (int)v : 0;
		r.workload_version =
			c->integer(c->row, AFTER + 1, &v) ? v : 0;
		prof_history_read_row(c, 6, &r.row);
		return s->record(s->arg, &r, err);
	}
}

#endif /* PROF_HISTORY_BACKEND_H */
