/* runpage.h: prof-report's self-contained HTML page of a run. */
#ifndef PROF_RUNPAGE_H
#define PROF_RUNPAGE_H

#include "base/err.h"

struct prof_cmpview;
struct prof_runview;

/*
 * One HTML file with everything inline (CSS, SVG, a few lines of script)
 * and nothing fetched: per row (workload x backend x segment) its status
 * and reason, the current and baseline samples on one axis, the numbers,
 * instruction counts and memory peaks where the run has them, links to
 * the .prof and trace files of a diagnose run, and, with a history, the
 * median and p90 of every run with the change points marked.
 *
 * The page takes what the report loaded: cur is the run (runview.h), cmp
 * its comparisons (cmpview.h; NULL: no statuses), each read once, and
 * comparisons_path the file they came from, which the artifacts they
 * name are relative to. baseline is the baseline file they were made
 * with (a missing file: its samples are drawn from the comparisons'
 * statistics when there are some; NULL: the run folder's baseline.json
 * where there is one, make compare's reference side, for the rows whose
 * comparison was made from its samples, else the same statistics);
 * each side's CPU and own times are drawn beside its wall times where
 * its samples say them; history a prof-history
 * database (NULL: no trend charts) and project the project whose trends
 * are drawn where it holds many (prof_history_project(); NULL: the
 * history's default); run_dir the folder artifacts are
 * relative to; output the page's file.
 */
struct prof_runpage_in {
	const struct prof_runview *cur;
	struct prof_cmpview *cmp;
	const char *comparisons_path;
	const char *baseline;
	const char *history;
	const char *project;
	const char *run_dir;
	const char *output;
};

/*
 * A page is made in three steps, and only the loader reads:
 * prof_runpage_choose() chooses what is drawn from the run in brief and
 * its comparisons (a page of more than WHOLE_BLOCKS workload x backend
 * blocks, runpage-int.h, draws the telling ones) and opens nothing;
 * load.c's rep_load_drawn() loads the blocks prof_runpage_drawn() names
 * (NULL: every one; load.h); prof_runpage_write() writes the page from
 * them, atomically to in->output. in must outlive the page. Each returns
 * 0, or -1 with err; choose sets *pg also when it fails, and
 * prof_runpage_free() lets the page go (NULL too).
 */
struct prof_htab;
struct rep_drawn;
struct prof_runpage;

int prof_runpage_choose(struct prof_runpage **pg,
			const struct prof_runpage_in *in,
			struct prof_err *err);
const struct prof_htab *prof_runpage_drawn(const struct prof_runpage *pg);
int prof_runpage_write(struct prof_runpage *pg, const struct rep_drawn *d,
		       struct prof_err *err);
void prof_runpage_free(struct prof_runpage *pg);

#endif /* PROF_RUNPAGE_H */
