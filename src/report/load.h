/*
 * load.h: the one loader of a run (load.c; pprof.c reads the CPU
 * profiles' listings), for every page made of it: summary.md, the
 * compact table and the annotations read struct report, and report.html
 * adds what it draws (struct rep_drawn): the rows it draws whole, the
 * baseline, the history and, one at a time as its blocks are written, a
 * row's trend and a flame graph's two call graphs. The pages' writers
 * open no file (t0109). Inside src/report only.
 */
#ifndef PROF_REPORT_LOAD_H
#define PROF_REPORT_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/htab.h"
#include "base/json.h"
#include "history/history.h"
#include "model/runview.h"
#include "verdict/read.h"
#include "verdict/verdict.h"
#include "verdict/view.h"

struct prof_runpage_in;
struct prof_callgrind_profile;

/*
 * What a row's samples say beyond runview's rows (the walk's callback
 * collects it, keyed by the file's workload, backend and segment id): of
 * its aggregated samples, the code's own time (wall minus run-queue
 * delay, contend.h) of those that said their delay, and how many said it
 * and how many did not.
 */
struct rep_extra {
	char *key;		/* workload NUL backend NUL segment id */
	size_t len;
	double *own;			/* ms, in the samples' order */
	size_t n_own, cap_own;
	size_t no_delay;		/* aggregated samples without one */
	unsigned char *cont;		/* each one's contended mark */
	size_t n_cont, cap_cont;
};

struct rep_extras {
	const struct prof_htab *drawn;	/* the blocks drawn; NULL: all */
	struct rep_extra *e;
	size_t n, cap;
	struct prof_htab index;		/* key -> index in e */
	long *of_row;		/* per row of the view: in e, or -1 */
};

/* Row k's extra (k: its index among the view's rows), or NULL. */
const struct rep_extra *rep_extra_of(const struct rep_extras *x, long k);

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
	struct rep_extras wx, bx;
	const struct prof_runrow *rows, *brows;
	long n, bn;
	struct prof_htab base_index;	/* row key -> index in brows */
	struct prof_history *hist;
	const char *comparisons_path;	/* call graphs are relative to it */
};

/*
 * A row's key in the loaded tables: workload, backend and segment joined
 * with NUL bytes, allocated (NULL when out of memory); *len its length,
 * and a NUL after it.
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

/* The lines of a CPU profile that the summary shows. */
#define TOP_FUNCTIONS 20

/* A .prof artifact of a profile sample. */
struct profile {
	char *workload;
	char *backend;
	char *binary;		/* metrics.binary; NULL: none */
	char *artifact;
	/* Read before the summary is written (rep_load_profiles()): the
	 * lines it shows of pprof's listing, from its "Total:" line, or
	 * why there are none. */
	char **shown;
	size_t n_shown, cap_shown;
	char *why;		/* NULL: read */
};

/*
 * What the summary needs of the run: its rows and top level from
 * lib/runview (the memory peaks, CPU times and counts of each row), the
 * comparisons (prof-diff's, or made here when none are given) through
 * lib/cmpview, which keeps them as text, and, from one pass over the
 * samples while the view is loaded, the environments in the order the
 * samples name them and the profiles; the error and artifact lines go to
 * temporary files, so memory never holds the samples.
 */
struct report {
	struct prof_runview view;
	struct json_object *meta;	/* the results' top level (borrowed) */
	struct prof_cmpview rows;	/* comparison objects */
	struct prof_cmpview mem_rows;	/* the memory rows, apart */
	int judged;			/* rows come from prof-diff */
	int keys_apart;			/* keys in a walk of their own */
	struct prof_cmp cmp;		/* the results' rows, when not judged */
	struct prof_cmp_rows keys;	/* their keys, to check comparisons */
	unsigned char *mem_used;	/* per view row: a table row showed it */
	char **envs;			/* env ids, first seen first */
	size_t n_envs, cap_envs;
	struct prof_htab env_index;
	struct profile *profiles;
	size_t n_profiles, cap_profiles;
	FILE *errors_md, *artifacts_md;
	long errors, artifacts;
	/* Samples whose output was not checksummed, and the first one's
	 * reason (checksum_reason: a Google Benchmark sample's). */
	long unchecked;
	char unchecked_why[200];
	const char *run_dir;
	const char *pprof;
	FILE *md;
	/* What report.html draws (--html; rep_load_drawn()), loaded once
	 * the summary is written. */
	struct rep_drawn drawn;
};

/*
 * rep_load_results(): the results at path (- stdin) read once into r's
 * view, every sample through the summary's pass; judged set, the rows'
 * keys kept to check comparisons against. rep_load_comparisons(): the
 * comparisons prof-diff wrote, each checked as it is read; then
 * rep_drop_cmp() lets the results' own rows go. rep_load_profiles():
 * each profile's listing read (pprof --text, the top TOP_FUNCTIONS
 * functions kept), or why not, with a warning on stderr (pprof.c);
 * rep_take_artifacts() is the pass's part of it (pprof.c).
 * rep_report_free() lets r go, what report.html drew included. Each
 * returns 0, or -1 said (rep_load_profiles, rep_take_artifacts: out of
 * memory, not said).
 */
int rep_load_results(struct report *r, const char *path, int judged);
int rep_load_comparisons(struct report *r, const char *comparisons);
void rep_drop_cmp(struct report *r);
int rep_take_artifacts(struct report *r, struct json_object *s);
int rep_load_profiles(struct report *r);
void rep_report_free(struct report *r);

#endif /* PROF_REPORT_LOAD_H */
