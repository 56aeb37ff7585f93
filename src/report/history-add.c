/* history-add.c: prof-history add: every results file read and checked,
 * then all stored in one transaction (history-int.h). */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cli/cli.h"
#include "history-int.h"

int
history_kept_verdicts(const struct prof_runview *v, const char *path,
		      struct prof_runverdict **verdicts, struct prof_err *err)
{
	const struct prof_runrow *rows;
	size_t nr = prof_runview_rows(v, &rows);
	int k;

	*verdicts = calloc(nr ? nr : 1, sizeof(**verdicts));
	if (!*verdicts)
		return prof_err_set(err, "out of memory");
	k = prof_runview_kept_verdicts(v, *verdicts, err);
	if (k <= 0) {
		free(*verdicts);
		*verdicts = NULL;
	}
	if (k < 0)
		prof_err_file(err, path);
	return k < 0 ? -1 : 0;
}

/* A file of add that is not a run of the history (an A/B side). */
#define LEFT_OUT (-1)

/* One add: its files, each one's run and what became of it. */
struct add {
	int n;
	char **files;
	struct prof_runview *v;
	int *added;			 /* PROF_HISTORY_*, or LEFT_OUT */
	struct prof_runverdict **kept;	 /* what a file keeps, or NULL */
	struct prof_runverdict *verdicts; /* --comparisons' for files[0] */
	struct json_object *cmp;
	struct prof_history *h;
};

/* Every file read and checked before the database is touched: the number
 * of files left out, or -1 after saying why. */
static int
add_load(const struct history_opts *o, struct add *a)
{
	struct prof_err err = {0};
	int i, stdin_seen = 0, left = 0;
	char safe[512];

	for (i = 0; i < a->n; i++) {
		if (!strcmp(a->files[i], "-") && stdin_seen++) {
			cli_say("stdin ('-') can be given once");
			return -1;
		}
		if (prof_runview_load(&a->v[i], a->files[i], 0, &err) < 0) {
			cli_err(&err);
			cli_say("nothing was added to '%s'", o->db);
			return -1;
		}
		/* A side of an A/B is not a run: said, and left out. */
		if (a->v[i].ab_sides) {
			cli_say("left out '%s': %s, not a run of the history "
				"(prof-history(1), \"A/B SIDES\")",
				cli_safe(a->files[i], safe, sizeof(safe)),
				a->v[i].ab_sides & PROF_RUNVIEW_AB_REFERENCE ?
					"the reference side of an interleaved "
					"A/B (prof-time --against)" :
					"the current side of an interleaved A/B "
					"(prof-time --against)");
			a->added[i] = LEFT_OUT;
			left++;
		} else if ((i || !o->comparisons) &&
			   history_kept_verdicts(&a->v[i], a->files[i],
						 &a->kept[i], &err) < 0) {
			cli_err(&err);
			cli_say("nothing was added to '%s'",
				cli_safe(o->db, safe, sizeof(safe)));
			return -1;
		}
	}
	return left;
}

/* The comparisons must be of that run, and of its rows: 0, or -1 after
 * saying why. */
static int
add_comparisons(const struct history_opts *o, struct add *a)
{
	const struct prof_runrow *rows;
	size_t nr = prof_runview_rows(&a->v[0], &rows);
	struct prof_err err = {0};
	char safe[512];

	a->cmp = prof_json_load(o->comparisons, &err);
	a->verdicts = calloc(nr ? nr : 1, sizeof(*a->verdicts));
	if (a->cmp && !a->verdicts) {
		cli_say("out of memory");
		return -1;
	}
	if (!a->cmp ||
	    prof_runview_verdicts(&a->v[0], a->cmp, a->verdicts, &err) < 0) {
		prof_err_file(&err, o->comparisons);
		cli_err(&err);
		cli_say("nothing was added to '%s'",
			cli_safe(o->db, safe, sizeof(safe)));
		return -1;
	}
	return 0;
}

/* Each run into a->h's open transaction: 0; 1 when another writer's
 * transaction ended it (said: the caller runs it again); -1 after saying
 * why not. */
static int
add_runs(const struct history_opts *o, struct add *a, int *conflicts,
	 struct prof_err *err)
{
	int i, k;

	for (i = 0; i < a->n; i++) {
		if (a->added[i] == LEFT_OUT)
			continue;
		if (history_txn_signalled() ||
		    prof_history_add_judged(a->h, &a->v[i],
					    a->kept[i] ? a->kept[i] :
					    i ? NULL : a->verdicts,
					    &a->added[i], err) < 0) {
			k = history_txn_again(a->h, err, o->db, conflicts);
			if (k == 0)
				history_txn_abandon(a->h, err, o->db);
			return k <= 0 ? -1 : 1;
		}
	}
	return 0;
}

/* All the files in one transaction: all of them, or none (again in the
 * history another process made meanwhile, once; again after another
 * writer's transaction ended it: history_txn_again()). 0, or -1 after
 * saying why. */
static int
add_store(const struct history_opts *o, struct add *a)
{
	struct prof_err err = {0};
	int tries, conflicts = 0;

	for (tries = 0;;) {
		int c, k;

		a->h = history_txn_begin(o);
		if (!a->h)
			return -1;
		k = add_runs(o, a, &conflicts, &err);
		if (k < 0)
			return -1;
		c = k ? -3 : history_txn_commit(a->h, o->db, &err);
		if (c == 0)
			return 0;
		if (c == -3 && !k &&
		    history_txn_again(a->h, &err, o->db, &conflicts) < 0)
			return -1;
		if (c == -2 && tries)
			history_txn_raced(o->db);
		if (c == -1 || (c == -2 && tries++))
			return -1;
		prof_history_close(a->h);
		a->h = NULL;
		memset(&err, 0, sizeof(err));
	}
}

/* What became of each run added. */
static void
add_say(const struct history_opts *o, const struct add *a)
{
	int i;

	for (i = 0; i < a->n; i++) {
		const char *run = prof_runview_str(&a->v[i], "run_id");

		if (a->added[i] == LEFT_OUT)
			continue;
		if (a->added[i] == PROF_HISTORY_ADDED)
			cli_say("added run '%s' (commit %.12s) to '%s'", run,
				prof_runview_str(&a->v[i], "commit"), o->db);
		else if (a->added[i] == PROF_HISTORY_JUDGED)
			cli_say("run '%s' is already in '%s'; the statuses of "
				"its rows were added", run, o->db);
		else if (a->added[i] == PROF_HISTORY_UNCOMPARED)
			cli_say("run '%s' is already in '%s', added by an "
				"older prof-history whose digest cannot be "
				"compared with this file; nothing changed",
				run, o->db);
		else
			cli_say("run '%s' is already in '%s'; nothing changed",
				run, o->db);
	}
}

int
history_cmd_add(const struct history_opts *o, int n, char **files)
{
	struct add a = {.n = n, .files = files};
	int i, left, rc = PROF_EXIT_FAILURE;

	a.v = calloc((size_t)n, sizeof(*a.v));
	a.added = calloc((size_t)n, sizeof(*a.added));
	a.kept = calloc((size_t)n, sizeof(*a.kept));
	if (!a.v || !a.added || !a.kept) {
		free(a.v);
		free(a.added);
		free(a.kept);
		return cli_fail("out of memory");
	}
	history_txn_trap(o->db);
	left = add_load(o, &a);
	if (left < 0)
		goto out;
	if (left == n) {
		rc = PROF_EXIT_OK;
		goto out;
	}
	if (o->comparisons && a.added[0] != LEFT_OUT &&
	    add_comparisons(o, &a) < 0)
		goto out;
	if (add_store(o, &a) < 0)
		goto out;
	add_say(o, &a);
	rc = PROF_EXIT_OK;
out:
	prof_history_close(a.h);
	for (i = 0; i < n; i++) {
		prof_runview_free(&a.v[i]);
		free(a.kept[i]);
	}
	free(a.v);
	free(a.added);
	free(a.kept);
	free(a.verdicts);
	json_object_put(a.cmp);
	return cli_finish(rc);
}
