/*
 * load.h: the one loader of a run (load.c), for every page made of it:
 * summary.md, the compact table and annotations read struct report
 * (report-int.h), and report.html adds what it draws (struct rep_drawn):
 * the rows it draws whole, the baseline, the history and, one at a time
 * as its blocks are written, a row's trend and a flame graph's two call
 * graphs. The pages' writers open no file (t0109). Inside src/report
 * only.
 */
#ifndef PROF_REPORT_LOAD_H
#define PROF_REPORT_LOAD_H

#include <stddef.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/htab.h"
#include "history/history.h"
#include "model/runview.h"
#include "verdict/read.h"

struct prof_runpage_in;
struct prof_callgrind_profile;

/*
 * What a row's samples say beyond runview's rows (the walk's callback
 * collects it, keyed by the file's workload, backend and segment id): of
 * its aggregated samples, the code's own time (wall minus run-queue
 * delay, contend.h) of those that said their delay, and how many said it
 * and how many did not.
 */
struct extra {
	char *key;		/* workload NUL backend NUL segment id */
	size_t len;
	double *own;			/* ms, in the samples' order */
	size_t n_own, cap_own;
	size_t no_delay;		/* aggregated samples without one */
	unsigned char *cont;		/* each one's contended mark */
	size_t n_cont, cap_cont;
};

struct extras {
	const struct prof_htab *drawn;	/* the blocks drawn; NULL: all */
	struct extra *e;
	size_t n, cap;
	struct prof_htab index;		/* key -> index in e */
	long *of_row;		/* per row of the view: in e, or -1 */
};

/* Row k's extra (k: its index among the view's rows), or NULL. */
const struct extra *rep_extra_of(const struct extras *x, long k);

/*
 * What report.html draws of a run, loaded by rep_load_drawn(): the rows
 * drawn, whole (their samples), the baseline's (given, or the run
 * folder's baseline.json, make compare's reference side, where none is
 * given and the run was compared), each side's extras, the baseline's
 * rows by key, and the history (NULL: none).
 */
struct rep_drawn {
	struct prof_runview whole, base;
	int has_whole, has_base;
	/* The baseline is the run folder's baseline.json, found, not
	 * given: a row draws its samples only where they are those its
	 * comparison was made from. */
	int found_base;
	struct extras wx, bx;
	const struct prof_runrow *rows, *brows;
	long n, bn;
	struct prof_htab base_index;	/* row key -> index in brows */
	struct prof_history *hist;
	const char *comparisons_path;	/* call graphs are relative to it */
};

/*
 * A row's key in the loaded tables: workload, backend and segment joined
 * with NUL bytes, allocated (NULL when out of memory); *len its length.
 * Of a block ("w NUL b NUL"): s "".
 */
char *rep_row_key(const char *w, const char *b, const char *s, size_t *len);
/* Whether the block of w and b is in drawn (keys of rep_row_key(w, b,
 * "")); NULL: every block is. */
int rep_block_drawn(const struct prof_htab *drawn, const char *w,
		    const char *b);

/*
 * rep_load_drawn(): what in (prof-report's --html: the run in brief, its
 * comparisons, the baseline, history and project, the run folder) draws,
 * into d (zeroed): the rows of the blocks in drawn (NULL: every one)
 * whole, the baseline's rows of those blocks, the history. rep_drawn_free()
 * lets it all go (also after a failed load).
 * rep_trend_of(): a row's trend in the history and its change points
 * (prof_history_trend(), prof_history_changes(); put both, also on
 * failure). rep_graphs_of(): the two call graphs of explanation w
 * (relative to the comparisons' folder), demangled and, per_call set,
 * per call; free both, also on failure. Each returns 0, or -1 with err.
 */
int rep_load_drawn(struct rep_drawn *d, const struct prof_runpage_in *in,
		   const struct prof_htab *drawn, struct prof_err *err);
void rep_drawn_free(struct rep_drawn *d);
int rep_trend_of(const struct rep_drawn *d, const struct prof_runrow *r,
		 struct json_object **all, struct json_object **changes,
		 struct prof_err *err);
int rep_graphs_of(const struct rep_drawn *d, const struct prof_verdict_why *w,
		  int per_call, struct prof_callgrind_profile *before,
		  struct prof_callgrind_profile *after, struct prof_err *err);

#endif /* PROF_REPORT_LOAD_H */
