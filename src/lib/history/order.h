/* order.h: the run order of a history over its commit graph (private to
 * sqlite.c and pg.c: both read their runs in it). */
#ifndef PROF_HISTORY_ORDER_H
#define PROF_HISTORY_ORDER_H

#include <stddef.h>

/*
 * A project's runs in run order: a run of a commit comes after every run
 * of each of that commit's ancestors in the history, and otherwise in
 * commit-time order (the backends' RUN_ORDER: the commit's time in UTC,
 * else the run's timestamp, then the timestamp, commit and run id).
 *
 * The graph is what the runs keep: a run's parents (results.json's
 * parents) link its commit to the commits of the history whose ids they
 * equal, and ancestry follows those links from commit to commit, so it
 * stops at a commit that has no run there (its parents are not known).
 * The order is the topological one that takes, of the runs whose
 * ancestors' runs have all come, the first in commit-time order (Kahn's,
 * with that order as the tie-break): where commit times follow the graph,
 * as git's nearly always do, it is the commit-time order itself; a child
 * dated before its parent comes after the parent's last run (next, but
 * for ready runs dated before it), and a merge after each of its
 * parents' runs. Parents that would make a circle
 * (a hand-made file) are broken where commit-time order meets the circle
 * first. The order is a function of the runs alone: the same runs, read in
 * the same commit-time order, give the same order on either backend.
 */
struct prof_history_order;

struct prof_history_order *prof_history_order_new(void);
void prof_history_order_free(struct prof_history_order *o);

/*
 * The next run in commit-time order: its row id (unique in the history),
 * commit and parents (space-separated ids; NULL or "": none), copied. 0,
 * or -1 (out of memory).
 */
int prof_history_order_add(struct prof_history_order *o, long long id,
			   const char *commit, const char *parents);

/* Put the runs added into run order (after the last add), in time linear
 * in the runs and their parents but for a heap of the ready runs. 0, or
 * -1 (out of memory). */
int prof_history_order_sort(struct prof_history_order *o);

/* How many runs; the run at position i of run order (from 0). */
size_t prof_history_order_n(const struct prof_history_order *o);
long long prof_history_order_id(const struct prof_history_order *o, size_t i);
const char *prof_history_order_commit(const struct prof_history_order *o,
				      size_t i);

/* The position in run order (from 1) of the run of row id; 0 when it is
 * not one of them. */
long long prof_history_order_rank(const struct prof_history_order *o,
				  long long id);

#endif /* PROF_HISTORY_ORDER_H */
