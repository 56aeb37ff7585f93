/* pg.h: the run history on PostgreSQL, behind history.h (private to
 * sqlite.c; the tools use history.h only). */
#ifndef PROF_HISTORY_PG_H
#define PROF_HISTORY_PG_H

#include "base/err.h"
#include "history.h"
#include "model/runview.h"

struct json_object;
struct prof_history_order;
struct prof_history_pg;

/*
 * Each function is the one of history.h of the same name, over a libpq
 * connection (addr: a libpq URI or key=value conninfo). Errors name the
 * address as given (it holds no password: prof_history_pg_open() refuses
 * one).
 */
struct prof_history_pg *prof_history_pg_open(const char *addr, int create,
					     struct prof_err *err);
void prof_history_pg_close(struct prof_history_pg *p);
int prof_history_pg_project(struct prof_history_pg *p, const char *project,
			    struct prof_err *err);
int prof_history_pg_prune(struct prof_history_pg *p, const char *before,
			  long long *pruned, struct prof_err *err);
int prof_history_pg_version(const struct prof_history_pg *p);
int prof_history_pg_add_judged(struct prof_history_pg *p,
			       const struct prof_runview *v,
			       const struct prof_runverdict *verdicts,
			       int *added, struct prof_err *err);
int prof_history_pg_file(struct prof_history_pg *p, const char *sha256,
			 const char *run_id, struct prof_err *err);
int prof_history_pg_begin(struct prof_history_pg *p, struct prof_err *err);
int prof_history_pg_commit(struct prof_history_pg *p, struct prof_err *err);
void prof_history_pg_rollback(struct prof_history_pg *p);
void prof_history_pg_interrupt(struct prof_history_pg *p);
/* PROF_HISTORY_DEADLOCK or _SERIALIZATION when the SQLSTATE of the last
 * failure since the last begin said so, else 0. */
int prof_history_pg_conflict(const struct prof_history_pg *p);
/*
 * The runs of project (NULL: the one prof_history_pg_project() named) in
 * commit-time order, for sqlite.c to put in run order
 * (order.h). NULL with err on failure.
 */
struct prof_history_order *prof_history_pg_order(struct prof_history_pg *p,
						 const char *project,
						 struct prof_err *err);
/* The timestamp of the run of row id into out (room for 64 bytes). 0, or
 * -1 with err. */
int prof_history_pg_timestamp(struct prof_history_pg *p, long long id,
			      char *out, struct prof_err *err);
/* The readers, each given the run order it reads the runs in (o, sorted:
 * prof_history_order_sort()). */
struct json_object *prof_history_pg_list(struct prof_history_pg *p,
					 const struct prof_history_order *o,
					 struct prof_err *err);
/* by_series: ordered by series first, each row with its run's position
 * in run order as run_rank (for changes), else by run. */
struct json_object *prof_history_pg_trend(struct prof_history_pg *p,
					  const struct prof_history_filter *f,
					  int by_series,
					  const struct prof_history_order *o,
					  struct prof_err *err);
int prof_history_pg_walk(struct prof_history_pg *p,
			 const struct prof_history_order *o, prof_history_fn fn,
			 void *arg, struct prof_err *err);
int prof_history_pg_export(struct prof_history_pg *p,
			   const struct prof_history_order *o,
			   prof_history_record_fn fn, void *arg,
			   struct prof_err *err);
/* The names of the projects the history holds runs of, in byte order (a
 * JSON array of strings); sqlite.c reads each one's runs. */
struct json_object *prof_history_pg_projects(struct prof_history_pg *p,
					     struct prof_err *err);

#endif /* PROF_HISTORY_PG_H */
