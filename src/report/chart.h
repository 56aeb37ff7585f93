/*
 * chart.h: the one trend chart of every page prof writes: a row's trend
 * on report.html, a series' charts and the index's small trends on the
 * dashboard. Runs oldest first on x, each run's value (and a time's p90)
 * on a y axis from 0 or zoomed (and saying so), the change points as
 * lines, each point in its verdict's colour with its run, commit, value
 * and verdict on hover; its rules (CHART_CSS) in both pages' stylesheets.
 * Inside src/report only.
 */
#ifndef PROF_CHART_H
#define PROF_CHART_H

#include <stddef.h>
#include <stdio.h>

#include "verdict/table.h"
#include "palette.h"

/* At most this many commits named under a chart's x axis. */
#define CHART_XLABELS 12
/*
 * How far an axis that does not start at zero zooms at most, as a
 * fraction of the values' level (prof_page_axis_fit()): times span at least
 * 20% (noise of a few per cent stays small), instruction counts at least
 * 10% (their 1% threshold is a tenth of the height).
 */
#define TIME_LEAST 0.2
#define COUNT_LEAST 0.1

/*
 * What a chart draws: the times (ms), the instruction counts, or memory
 * metric m as KIND_MEM - 1 + m (in its unit, digits grouped).
 */
enum { KIND_TIME = 0, KIND_COUNT = 1, KIND_MEM = 2 };
#define MEM_KIND(m) (KIND_MEM - 1 + (m))
#define KIND_METRIC(k) ((k) - KIND_MEM + 1)

/* One run of a trend, as the history holds it. */
struct chart_run {
	char *run_id;
	char *commit;
	char *timestamp;
	long long n;
	long long errors;
	double median;
	double p90;
	long long instructions;	/* -1: not counted */
	char *status;		/* the run's verdict of the row; NULL: none */
	char *reason;
	/* Per memory metric (enum prof_cmp_mem, [0] unused): the value the
	 * history holds (NAN: not measured) and its verdict. */
	double mem[PROF_CMP_MEM_N];
	char *mem_status[PROF_CMP_MEM_N];
	char *mem_reason[PROF_CMP_MEM_N];
};

/* A trend to draw: its runs, oldest first, and what marks them. */
struct chart {
	const struct chart_run *runs;
	size_t n;
	const char *repo_url;	/* NULL: no links to commits */
	const size_t *cuts;	/* the change points: the first run after each */
	long ncuts;
	long now;		/* the run ringed as this page's; -1: none */
};

/*
 * The chart of kind: median and p90, instruction counts or a memory
 * metric per run. Its y axis starts at zero, or zooms and says so in the
 * chart, with its range, and with a break in the axis; its x axis names
 * the commits. An svg of class "chart trend" (" instr", " mem").
 */
void chart_trend(FILE *fp, const struct chart *c, int kind);

/* What a times chart's marks mean, as a line of keys (a link to the
 * commit where the chart links them, the ring where it has one). */
void chart_keys(FILE *fp, const struct chart *c);

/*
 * A small trend of v[0..n) (line: its class, "med", "ins" or "mline"):
 * the change points as marks, the latest value as a dot. Its axis starts
 * at zero or zooms as the big chart's does, and its title (label, then
 * the axis) says which.
 */
void chart_spark(FILE *fp, const char *cls, const char *line,
		 const double *v, size_t n, const size_t *cuts, long ncuts,
		 const char *label);

/* Which verdict that stands out status is: 1 improved, 2 warning, 3
 * unsettled (no verdict yet); 0 any other, or none. */
int chart_stands_out(const char *status);

/* The URL of a commit's page under repo_url, or NULL (none, or a commit
 * that is not an object name). */
const char *chart_commit_url(const char *repo_url, const char *commit,
			     char *buf, size_t n);

/* A commit as a label: an object name's first 7 digits, else its first
 * 10 bytes. */
void chart_commit_label(FILE *fp, const char *commit);

/*
 * What tells run i of runs[0..n) from the other runs whose commit's label
 * reads the same, for a line under its label: its time ("03-07 10:00",
 * UTC) where no other of them has the same minute, else "run K of N" in
 * run order. "" where its label is its own.
 */
void chart_run_words(const struct chart_run *runs, size_t n, size_t i,
		     char *buf, size_t len);

/*
 * The colours of the lines and points: none of them a status's
 * (palette.h), so that a point is read as improved, warning or unsettled
 * only where its verdict says so.
 */
#define CHART_CSS                                                            \
	"svg.chart{display:block}"                                           \
	"svg.chart.spark{width:120px;height:28px}"                           \
	"svg.chart.trend{width:100%;height:auto;max-width:1140px}"           \
	"svg.chart text{font:11px system-ui,sans-serif}"                     \
	".chart .med{fill:none;stroke:" PROF_CHART_MEDIAN                   \
	";stroke-width:1.5}"                                                 \
	".chart .p90{fill:none;stroke:" PROF_CHART_P90 ";stroke-width:1;"   \
	"stroke-dasharray:4 3}"                                              \
	".chart .ins{fill:none;stroke:" PROF_CHART_COUNT ";stroke-width:1.5}" \
	".chart .mline{fill:none;stroke:" PROF_CHART_MEDIAN                 \
	";stroke-width:1.5}"                                                 \
	".chart .pt,.chart .mpt{fill:" PROF_CHART_MEDIAN "}"                \
	".chart .ipt{fill:" PROF_CHART_COUNT "}"                            \
	".chart .imp{fill:" PROF_PALETTE_IMPROVED "}"                         \
	".chart .wrn{fill:" PROF_PALETTE_WARNING "}"                          \
	".chart .uns{fill:" PROF_PALETTE_UNSETTLED "}"                        \
	".chart .pt.err{fill:" PROF_PALETTE_ERROR "}"                         \
	".chart .now{fill:none;stroke:" PROF_CHART_MEDIAN ";stroke-width:1.5}" \
	".chart .cut{stroke:" PROF_CHART_CHANGE                             \
	";stroke-width:1;stroke-dasharray:3 3}"                              \
	".chart .cutmark{fill:" PROF_CHART_CHANGE "}"                       \
	".chart .grid{stroke:" PROF_CHART_GRID ";stroke-width:1}"           \
	".chart .tick{fill:" PROF_CHART_MUTE "}"                            \
	".chart .axis{stroke:" PROF_CHART_AXIS ";stroke-width:1}"           \
	".chart .zoom{fill:" PROF_CHART_ZOOM "}"                            \
	".chart .brk{stroke:" PROF_CHART_ZOOM ";stroke-width:1.5;fill:none}" \
	".chart a .xc{fill:" PROF_PALETTE_NEW "}"                             \
	"p.keys{font-size:13px;margin:6px 0}"                                \
	".keys span{margin-right:16px}"                                      \
	".keys .lm{color:" PROF_CHART_MEDIAN "}"                            \
	".keys .lp{color:" PROF_CHART_MUTE "}"                              \
	".keys .lc{color:" PROF_CHART_CHANGE "}"                            \
	".keys .li{color:" PROF_PALETTE_IMPROVED "}"                          \
	".keys .lw{color:" PROF_PALETTE_WARNING "}"                           \
	".keys .lu{color:" PROF_PALETTE_UNSETTLED "}"

#endif /* PROF_CHART_H */
