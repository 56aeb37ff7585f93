/* report-html.h: prof-report's self-contained HTML page of a run. */
#ifndef PROF_REPORT_HTML_H
#define PROF_REPORT_HTML_H

#include "err.h"

/*
 * One HTML file with everything inline (CSS, SVG, a few lines of script)
 * and nothing fetched: per row (workload x backend x segment) its status
 * and reason, the current and baseline samples on one axis, the numbers,
 * instruction counts and memory peaks where the run has them, links to
 * the .prof and trace files of a diagnose run, and, with a history, the
 * median and p90 of every run with the change points marked.
 *
 * results is the run's results file (schema 1 or 2); comparisons is
 * prof-diff's output for it (NULL: no statuses); baseline the baseline it
 * was compared with (NULL or a missing file: its samples are drawn from the
 * comparisons' statistics when there are some); history a prof-history
 * database (NULL: no trend charts); run_dir the folder artifacts are
 * relative to. Written atomically to output. Returns 0, or -1 with err.
 */
struct report_html_in {
	const char *results;
	const char *comparisons;
	const char *baseline;
	const char *history;
	const char *run_dir;
	const char *output;
};

int report_html_write(const struct report_html_in *in, struct prof_err *err);

#endif /* PROF_REPORT_HTML_H */
