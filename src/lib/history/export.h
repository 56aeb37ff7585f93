/* export.h: a history's runs as results files (prof-history
 * export-runs). */
#ifndef PROF_HISTORY_EXPORT_H
#define PROF_HISTORY_EXPORT_H

#include "base/err.h"
#include "history.h"

/*
 * Each run of h's project (prof_history_export()'s order) as one results
 * file, dir/RUN_ID.json, that import reads back to the same history
 * (prof-history(1), EXPORTED RUNS): each row as the fewest samples that
 * give its statistics again, the run's digest and its rows' verdicts in
 * .history. dir is there. *runs: the files written. 0, or -1 with err.
 */
int prof_history_export_runs(struct prof_history *h, const char *dir,
			     long long *runs, struct prof_err *err);

#endif /* PROF_HISTORY_EXPORT_H */
