/* prof-dashboard: a run history as a folder of static pages: an index of
 * every series with its trend, and a page per series. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "base/afile.h"
#include "base/id.h"
#include "base/json.h"
#include "cli/cli.h"
#include "cli/project.h"
#include "history/history.h"
#include "history/steps.h"
#include "model/sample.h"
#include "page.h"
#include "report/palette.h"

enum {
	OPT_DB = 256,
	OPT_PROJECT,
	OPT_REPO_URL,
	OPT_TITLE,
	OPT_PROJECTS,
	OPT_VERSION,
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-dashboard [--db DB] [--project NAME] [--repo-url URL]\n" "               [--title TEXT] -o DIR"),
	CLI_USAGE("prof-dashboard [--db DB] --projects [--repo-url URL]\n" "               [--title TEXT] -o DIR"),
	CLI_TEXT(
	"Write the run history (default artifacts/history.sqlite;\n"
	"$PROF_HISTORY when set) as static pages into DIR: index.html,\n"
	"first what changed recently (each series' last change point among\n"
	"its last 10 runs, and the latest run's warnings and improvements,\n"
	"largest first), then a row per workload x backend x segment: its\n"
	"latest status beside its name, its segment in words (the id on\n"
	"hover), its latest median, a small trend (and of its instruction\n"
	"count where counted) and its last change; and s-ID.html per\n"
	"series: its median and p90 over the runs with the change points\n"
	"marked (and its instruction counts), the commits under the x axis\n"
	"(a run's time under a commit that has several), each a link when\n"
	"the repository's URL is known, a y axis from 0 or a zoom that says\n"
	"so with its range, its segment's fields, and its last runs in a\n"
	"table; where the memory phase ran, a chart per memory metric\n"
	"(bytes or allocations, digits grouped) and, in the index, the heap\n"
	"peak's trend. A series of instruction counts only (prof-count's:\n"
	"their segment keys valgrind) is shown as counts, not as a failed\n"
	"series of times. A run's verdict against its baseline\n"
	"(prof-history add --comparisons) is shown and coloured as\n"
	"report.html colours it; a series' own lines and points are in\n"
	"colours no status has. The pages fetch nothing and run no script\n"
	"(a content policy says so); they read at a laptop's width and\n"
	"print. Each file is written whole or not at all."),
	CLI_GROUP("options:"),
	CLI_OPTION("db", 0, "DB", OPT_DB,
		"the history (read only): a SQLite file or a\n"
		"PostgreSQL address (prof-history(1))"),
	CLI_OPTION("project", 0, "NAME", OPT_PROJECT,
		"the project whose series are drawn (of a\n"
		"PostgreSQL history; default $PROF_PROJECT, else\n"
		"the git repository's name)"),
	CLI_FLAG("projects", 0, OPT_PROJECTS,
		"every project of the history: DIR/index.html\n"
		"lists them (runs, the latest in run order), each\n"
		"linking to its own dashboard in DIR/P/ (P the\n"
		"project's name where it is a plain id, else p-\n"
		"and the id of the name)"),
	CLI_OPTION("repo-url", 0, "URL", OPT_REPO_URL,
		"http(s) address of the repository: a point and\n"
		"an x axis label of commit C link to\n"
		"URL/commit/C (when C is an object name: 7 to 64\n"
		"hex digits); make dashboard takes it from the\n"
		"origin remote (REPO_URL=)"),
	CLI_OPTION("title", 0, "TEXT", OPT_TITLE,
		"the index's title (default: prof dashboard)"),
	CLI_OPTION("output", 'o', "DIR", 'o',
		"the folder to write (made when missing): new,\n"
		"empty or a dashboard's own (it holds\n"
		".prof-dashboard); never a run folder or a folder\n"
		"inside one"),
	CLI_TEXT(
	"example:\n"
	"  prof-dashboard --repo-url https://github.com/o/r -o dashboard"),
	CLI_TEXT(
	"Exit status: 0 written, 2 bad arguments, a history that cannot be\n"
	"read, or a failed write."),
	CLI_STD(OPT_VERSION),
	CLI_END,
};

/* Rows of a page's table: the last this many runs. */
#define TABLE_RUNS 50
/* At most this many commits named under a chart's x axis. */
#define MAX_XLABELS 12
/*
 * How far an axis that does not start at zero zooms at most, as a
 * fraction of the values' level (prof_page_axis_fit()): times span at least
 * 20% (noise of a few per cent stays small), instruction counts at least
 * 10% (their 1% threshold is a tenth of the height).
 */
#define TIME_LEAST 0.2
#define COUNT_LEAST 0.1
/* The most bytes of a series' "what differs" words. */
#define DIFFERS_MAX 240
/* What changed recently: a change point among a series' last this many
 * runs; at most this many lines at the top of the index. */
#define RECENT_RUNS 10
#define RECENT_MAX 8

/*
 * The colours of the series' lines and points: none of them a status's
 * (palette.h), so that a point is read as improved, warning or unsettled
 * only where its verdict says so. Times and the memory metrics (each a
 * chart of its own) ink, the p90 a light grey, the instruction counts
 * teal.
 */
#define SERIES_TIME "#24292f"
#define SERIES_P90 "#afb8c1"
#define SERIES_COUNT "#1b7c83"
#define SERIES_MEM SERIES_TIME

static const char CSS[] =
	"*{box-sizing:border-box}"
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1f24;"
	"background:#fff}"
	"main{max-width:1180px;margin:0 auto;padding:16px}"
	"h1{font-size:20px;margin:0 0 4px}"
	"p.sub{color:#57606a;margin:0 0 12px;overflow-wrap:anywhere}"
	".wrap{overflow-x:auto}"
	"table{border-collapse:collapse;width:100%}"
	"th,td{padding:4px 8px;border-bottom:1px solid #d0d7de;"
	"text-align:left;vertical-align:middle}"
	"th{font-weight:600;background:#f6f8fa}"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
	".mono{font-family:ui-monospace,monospace;font-size:12px}"
	"svg{display:block}"
	"svg.spark{width:120px;height:28px}"
	"svg.trend{width:100%;height:auto;max-width:1140px}"
	".med{fill:none;stroke:" SERIES_TIME ";stroke-width:1.5}"
	".p90{fill:none;stroke:" SERIES_P90 ";stroke-width:1;"
	"stroke-dasharray:4 3}"
	".ins{fill:none;stroke:" SERIES_COUNT ";stroke-width:1.5}"
	".mline{fill:none;stroke:" SERIES_MEM ";stroke-width:1.5}"
	".pt{fill:" SERIES_TIME "}.ipt{fill:" SERIES_COUNT "}"
	".mpt{fill:" SERIES_MEM "}"
	".imp{fill:" PROF_PALETTE_IMPROVED "}"
	".wrn{fill:" PROF_PALETTE_WARNING "}"
	".uns{fill:" PROF_PALETTE_UNSETTLED "}"
	".pt.err{fill:#cf222e}"
	".v-improved{color:" PROF_PALETTE_IMPROVED ";font-weight:600}"
	".v-warning{color:" PROF_PALETTE_WARNING ";font-weight:600}"
	".v-unsettled{color:" PROF_PALETTE_UNSETTLED ";font-weight:600}"
	".cut{stroke:#cf222e;stroke-width:1;stroke-dasharray:3 3}"
	".cutmark{fill:#cf222e}"
	".cutlabel{fill:#cf222e;font-size:11px}"
	".grid{stroke:#eaeef2;stroke-width:1}"
	".tick{fill:#57606a;font-size:11px}"
	".axis{stroke:#8c959f;stroke-width:1}"
	".ok{color:#1a7f37}.bad{color:#cf222e}.warn{color:#9a6700}"
	".none{color:#8c959f}"
	".legend span{margin-right:16px}"
	".legend .lm{color:" SERIES_TIME "}.legend .lp{color:#57606a}"
	".legend .lc{color:#cf222e}"
	".legend .li{color:" PROF_PALETTE_IMPROVED "}"
	".legend .lw{color:" PROF_PALETTE_WARNING "}"
	".legend .lu{color:" PROF_PALETTE_UNSETTLED "}"
	".zoom{fill:#9a6700;font-size:11px}"
	".brk{stroke:#9a6700;stroke-width:1.5;fill:none}"
	"a .xc{fill:#0969da}"
	".differs{color:#57606a;font-size:12px}"
	".segw{color:#57606a;font-size:12px}"
	"td.name{min-width:140px;max-width:280px;overflow-wrap:anywhere}"
	"tr.series td{vertical-align:top}"
	"td[data-status]{white-space:nowrap;text-align:right}"
	"tr.series td:last-child{max-width:170px}"
	"td.why{color:#57606a;font-size:12px;overflow-wrap:anywhere}"
	"td.num{white-space:nowrap}"
	".latest{font-size:12px;text-align:right}"
	".differs b{font-weight:600;color:#1b1f24}"
	"dl.seg{display:grid;grid-template-columns:max-content 1fr;"
	"gap:2px 12px;margin:0}"
	"dl.seg dt{color:#57606a}dl.seg dd{margin:0;overflow-wrap:anywhere}"
	"dl.seg .d{font-weight:600;color:#9a6700}"
	"p.unset{color:#57606a;font-size:12px;overflow-wrap:anywhere}"
	"section{margin:16px 0}"
	"h2{font-size:16px;margin:16px 0 8px}"
	"@media (max-width:820px){.wide{display:none}}"
	"@media print{main{max-width:none;padding:0}a{color:inherit;"
	"text-decoration:none}nav{display:none}.wrap{overflow:visible}"
	"tr{break-inside:avoid}section{break-inside:avoid}}";

static char csp_hash[PROF_PAGE_CSP];

struct opts {
	const char *db;
	const char *project;
	int projects;
	const char *repo_url;
	const char *title;
	const char *dir;
};

/* One run of a series. */
struct point {
	char *run_id;
	char *commit;
	char *timestamp;
	long long n;
	long long errors;
	double median;
	double p90;
	long long instructions;
	char *status;		/* the run's verdict of the row; NULL: none */
	char *reason;
	/* Per memory metric (enum prof_cmp_mem, [0] unused): the value the
	 * history holds (NAN: not measured) and its verdict. */
	double mem[PROF_CMP_MEM_N];
	char *mem_status[PROF_CMP_MEM_N];
	char *mem_reason[PROF_CMP_MEM_N];
};

/*
 * What a chart draws: the times (ms), the instruction counts, or memory
 * metric m as KIND_MEM - 1 + m (in its unit, digits grouped).
 */
enum { KIND_TIME = 0, KIND_COUNT = 1, KIND_MEM = 2 };
#define MEM_KIND(m) (KIND_MEM - 1 + (m))
#define KIND_METRIC(k) ((k) - KIND_MEM + 1)

/*
 * A series as the first walk of the history saw it: its key, its page's
 * file, and the fields of its segment that tell it from the other series
 * of its workload (g0..g1 in the sorted keys: those series).
 */
struct skey {
	char *workload;
	char *backend;
	char *segment_id;
	char *segment;
	char file[32];
	char *differs;		/* "valgrind 3.19.0"; "" when alone */
	size_t g0, g1;
};

/* What the index keeps of a series once its page is written. */
struct entry {
	char *workload;
	char *backend;
	char *segment_id;
	char *segment;
	char file[32];
	const struct skey *key;	/* NULL: not seen by the first walk */
	double *medians;	/* per run, NAN where none */
	long long *instructions;
	size_t n;
	int timed;		/* any median: a series of times */
	int counted;		/* any instruction count */
	unsigned memory;	/* bit m: some run measured memory metric m */
	double *heap;		/* the heap peak per run, NAN where none */
	int mem_changed;	/* memory only: the last change is of the
				 * metric mem_metric (change, change_pct) */
	int mem_metric;
	int count_changed;	/* counts only: the last run's count differs
				 * from one before (change, change_pct) */
	size_t *cuts;		/* change points, as run indexes */
	long ncuts;
	double last_median;
	long long last_n, last_errors, last_instructions;
	int last_memory;	/* the last run measured some memory metric */
	char last_run[128];
	char last_status[32];	/* "": none stored */
	char *last_reason;	/* NULL: none */
	/* The last run's verdicts of its memory metrics (NULL: none). */
	char *last_mem_status[PROF_CMP_MEM_N];
	char *last_mem_reason[PROF_CMP_MEM_N];
	char change[256];	/* the last change point, in words */
	double change_pct;	/* NAN: none */
	size_t change_at;	/* the run after the last change; n: none */
};

struct dash {
	struct opts *o;
	/* the series being read */
	char *workload, *backend, *segment_id, *segment;
	struct point *pts;
	size_t n, cap;
	/* the index */
	struct entry *entries;
	size_t n_entries, cap_entries;
	/* every series, from the first walk, sorted */
	struct skey *keys;
	size_t n_keys, cap_keys;
	char last_run[128];	/* the history's latest run */
	size_t runs;
	int any_memory;		/* some series measured memory */
};

/* A duration (ms) as every page writes it, in its unit
 * (prof_page_time()), in buf. */
static const char *
ms(double v, char buf[32])
{
	prof_page_time(buf, 32, v, 0);
	return buf;
}

/* An instruction count as every page writes it, grouped (prof_page_count()),
 * in buf. */
static const char *
count(long long v, char buf[32])
{
	prof_page_count(buf, 32, (double)v, 0);
	return buf;
}

/* Whether a commit is a hexadecimal object name, safe in a URL. */
static int
commit_linkable(const char *c)
{
	size_t n = strspn(c, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 64 && !c[n];
}

/* The URL of a commit's page, or NULL. */
static const char *
commit_url(const struct opts *o, const char *commit, char *buf, size_t n)
{
	if (!o->repo_url || !commit_linkable(commit))
		return NULL;
	snprintf(buf, n, "%s/commit/%s", o->repo_url, commit);
	return buf;
}

static int
repo_url_ok(const char *u)
{
	const unsigned char *p;

	if (strncmp(u, "https://", 8) && strncmp(u, "http://", 7))
		return 0;
	for (p = (const unsigned char *)u; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("\"'<>\\`", *p))
			return 0;
	return strlen(u) < 1024;
}

static void
head(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head>"
	      "<meta charset=\"utf-8\"><meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\">", fp);
	fprintf(fp,
		"<meta http-equiv=\"Content-Security-Policy\" content=\""
		"default-src 'none'; style-src %s; img-src 'none'; "
		"script-src 'none'; base-uri 'none'; form-action 'none'\">",
		csp_hash);
	fputs("<meta name=\"referrer\" content=\"no-referrer\"><title>", fp);
	prof_page_esc(fp, title);
	fprintf(fp, "</title><style>%s</style></head>\n<body><main>\n", CSS);
}

/* The y of v on an axis drawn from y0 down h (halves: the width of
 * [-DBL_MAX, DBL_MAX] is not a double). */
static double
y_of(const struct prof_page_axis *ax, double v, double y0, double h)
{
	return y0 + h * (ax->hi / 2 - v / 2) / (ax->hi / 2 - ax->lo / 2);
}

/* A polyline of the finite values (gaps joined). */
static void
polyline(FILE *fp, const char *cls, const double *v, size_t n, double x0,
	 double dx, double y0, double h, const struct prof_page_axis *ax)
{
	size_t i;

	fprintf(fp, "<polyline class=\"%s\" points=\"", cls);
	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			fprintf(fp, "%.1f,%.1f ", x0 + dx * (double)i,
				y_of(ax, v[i], y0, h));
	fputs("\"/>", fp);
}

/* The x step of n points over width w. */
static double
step_of(size_t n, double w)
{
	return n > 1 ? w / (double)(n - 1) : 0;
}

/* A value of an axis of kind in words: a time in its unit, counts in the
 * axis's unit with a decimal more than its ticks, memory in bytes or
 * allocations with grouped digits. */
static const char *
axis_value(const struct prof_page_axis *ax, double v, int kind, char buf[32])
{
	if (kind == KIND_COUNT)
		prof_page_count_tick(buf, 32, v, ax->step / 10,
				      fmax(fabs(ax->lo), fabs(ax->hi)));
	else if (kind >= KIND_MEM)
		prof_page_count(buf, 32, v, 0);
	else
		ms(v, buf);
	return buf;
}

/* The unit an axis of kind is in, with a space before it; "" for counts
 * and times (a time's value says its unit). */
static const char *
axis_unit(int kind, char buf[32])
{
	snprintf(buf, 32, "%s%s", kind >= KIND_MEM ? " " : "",
		 kind >= KIND_MEM ? prof_cmp_metrics[KIND_METRIC(kind)].unit :
				    "");
	return buf;
}

/* How the y axis runs, for a chart's title: "y from 0", or the zoom. */
static void
axis_words(FILE *fp, const struct prof_page_axis *ax, int kind)
{
	char a[32], b[32], u[32];

	if (!ax->zoom) {
		fputs("y axis from 0", fp);
		return;
	}
	fprintf(fp, "y axis zoomed: %s to %s%s, not from 0",
		axis_value(ax, ax->lo, kind, a),
		axis_value(ax, ax->hi, kind, b), axis_unit(kind, u));
}

/*
 * A small trend: the values, the change points as red marks, the latest
 * value as a dot. Its axis starts at zero or zooms as a series page's
 * does (at least 20% of the level), and its title says which.
 */
static void
spark(FILE *fp, const char *cls, const char *line, const double *v, size_t n,
      const size_t *cuts, long ncuts, const char *label)
{
	const double W = 160, H = 32, P = 3;
	double lo, hi, dx = step_of(n, W - 2 * P);
	struct prof_page_axis ax;
	int kind = !strcmp(line, "ins") ? KIND_COUNT :
		   !strcmp(line, "mline") ? MEM_KIND(PROF_CMP_MEM_PEAK) :
					  KIND_TIME;
	int have = prof_page_axis_extent(v, NULL, n, &lo, &hi) == 0 &&
		   prof_page_axis_fit(&ax, lo, hi,
				 kind ? COUNT_LEAST : TIME_LEAST) == 0;
	long k;

	fprintf(fp, "<svg class=\"spark %s\" viewBox=\"0 0 160 32\" "
		    "role=\"img\" data-points=\"%zu\" data-changes=\"%ld\" "
		    "data-zoom=\"%d\">",
		cls, n, ncuts, have ? ax.zoom : 0);
	fputs("<title>", fp);
	prof_page_esc(fp, label);
	if (have) {
		fputs("; ", fp);
		axis_words(fp, &ax, kind);
	}
	fputs("</title>", fp);
	if (have) {
		for (k = 0; k < ncuts; k++) {
			double x = P + dx * (double)cuts[k] - dx / 2;

			fprintf(fp, "<rect class=\"cutmark\" x=\"%.1f\" "
				    "y=\"0\" width=\"2\" height=\"%.0f\"/>",
				x - 1, H);
		}
		polyline(fp, line, v, n, n > 1 ? P : W / 2, dx, P, H - 2 * P,
			 &ax);
		/* The latest value as a dot: a single run is seen too. */
		for (k = (long)n - 1; k >= 0 && !isfinite(v[k]); k--)
			;
		if (k >= 0)
			fprintf(fp, "<circle class=\"%s\" cx=\"%.1f\" "
				    "cy=\"%.1f\" r=\"2\"/>",
				kind == KIND_COUNT ? "ipt" :
				kind ? "mpt" : "pt",
				(n > 1 ? P : W / 2) + dx * (double)k,
				y_of(&ax, v[k], P, H - 2 * P));
	}
	fputs("</svg>", fp);
}

static void
free_points(struct dash *d)
{
	size_t i;
	int m;

	for (i = 0; i < d->n; i++) {
		free(d->pts[i].run_id);
		free(d->pts[i].commit);
		free(d->pts[i].timestamp);
		free(d->pts[i].status);
		free(d->pts[i].reason);
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			free(d->pts[i].mem_status[m]);
			free(d->pts[i].mem_reason[m]);
		}
	}
	d->n = 0;
	free(d->workload);
	free(d->backend);
	free(d->segment_id);
	free(d->segment);
	d->workload = d->backend = d->segment_id = d->segment = NULL;
}

/* The change points of the medians of a series (runs with a median only),
 * as indexes of runs; the last one in words. 0 or -1 (out of memory). */
static int
changes(struct dash *d, struct entry *e)
{
	size_t m = 0, i, *idx = malloc((d->n ? d->n : 1) * sizeof(*idx));
	double *x = malloc((d->n ? d->n : 1) * sizeof(*x));
	size_t *cuts = malloc((d->n ? d->n : 1) * sizeof(*cuts));
	size_t off;
	long nc, k;
	int rc = -1;

	e->cuts = malloc((d->n ? d->n : 1) * sizeof(*e->cuts));
	if (!idx || !x || !cuts || !e->cuts)
		goto out;
	for (i = 0; i < d->n; i++) {
		if (!isfinite(d->pts[i].median))
			continue;
		idx[m] = i;
		x[m++] = d->pts[i].median;
	}
	off = m > PROF_STEPS_MAX_RUNS ? m - PROF_STEPS_MAX_RUNS : 0;
	nc = prof_steps_fit(x + off, m - off, cuts);
	if (nc < 0)
		goto out;
	for (k = 0; k < nc; k++)
		e->cuts[k] = idx[off + cuts[k]];
	e->ncuts = nc;
	e->change_pct = NAN;
	if (nc > 0) {
		size_t c = off + cuts[nc - 1];
		size_t lo = nc > 1 ? off + cuts[nc - 2] : off;
		double before = prof_steps_median(x + lo, c - lo);
		double after = prof_steps_median(x + c, m - c);
		const struct point *b = &d->pts[idx[c - 1]];
		const struct point *a = &d->pts[idx[c]];

		if (before > 0)
			e->change_pct = (after / before - 1) * 100;
		e->change_at = idx[c];
		snprintf(e->change, sizeof(e->change), "%.7s..%.7s",
			 b->commit, a->commit);
	}
	rc = 0;
out:
	free(idx);
	free(x);
	free(cuts);
	return rc;
}

/*
 * A series of instruction counts only has no change points (they are
 * found in medians of times): a count is exact, so its last change is the
 * last run whose count differs from the counted run before it.
 */
static void
count_change(const struct dash *d, struct entry *e)
{
	const struct point *prev = NULL, *b = NULL, *a = NULL;
	size_t i, at = 0;

	for (i = 0; i < d->n; i++) {
		const struct point *p = &d->pts[i];

		if (p->instructions < 0)
			continue;
		if (prev && p->instructions != prev->instructions) {
			b = prev;
			a = p;
			at = i;
		}
		prev = p;
	}
	if (!a)
		return;
	e->count_changed = 1;
	e->change_at = at;
	e->change_pct = b->instructions > 0 ?
				((double)a->instructions /
					 (double)b->instructions -
				 1) * 100 :
				NAN;
	snprintf(e->change, sizeof(e->change), "%.7s..%.7s", b->commit,
		 a->commit);
}

/* The class of a verdict's colour: improved, warning and unsettled (no
 * verdict yet) stand out. */
static const char *
verdict_class(const char *status)
{
	if (status && !strcmp(status, "improved"))
		return "v-improved";
	if (status && !strcmp(status, "warning"))
		return "v-warning";
	if (status && !strcmp(status, "unsettled"))
		return "v-unsettled";
	return "";
}

/* A verdict as a word: "-" when none was stored. */
static void
verdict(FILE *fp, const char *status)
{
	const char *cls = verdict_class(status);
	const char *word = status && status[0] ? status : "-";

	fputs("<span", fp);
	if (cls[0])
		fprintf(fp, " class=\"%s\"", cls);
	fputs(" data-verdict=\"", fp);
	prof_page_esc(fp, word);
	fputs("\">", fp);
	prof_page_esc(fp, word);
	fputs("</span>", fp);
}

/*
 * The latest run's state of a series: "failed" when it measured nothing
 * (no time and no count), its errors, or ok. A series of instruction
 * counts has no times: its count is what it measures.
 */
static void
status_cell(FILE *fp, const struct entry *e, const char *history_last)
{
	if (strcmp(e->last_run, history_last)) {
		fputs("<td class=\"none\" data-status=\"absent\">not in the "
		      "latest run</td>", fp);
		return;
	}
	if (e->last_n == 0 && e->last_instructions < 0 && !e->last_memory)
		fputs("<td class=\"bad\" data-status=\"failed\">failed", fp);
	else if (e->last_errors > 0)
		fprintf(fp, "<td class=\"bad\" data-status=\"errors\">%lld "
			    "error%s",
			e->last_errors, e->last_errors == 1 ? "" : "s");
	else
		fputs("<td class=\"ok\" data-status=\"ok\">ok", fp);
	fputs(" \xc2\xb7 ", fp);
	verdict(fp, e->last_status);
	fputs("</td>", fp);
}

static void
change_words(FILE *fp, const struct entry *e)
{
	if (!e->ncuts && !e->count_changed && !e->mem_changed) {
		fputs("<span class=\"none\">none</span>", fp);
		return;
	}
	if (isfinite(e->change_pct))
		fprintf(fp, "<span class=\"%s\">%+.*f%%</span> ",
			e->change_pct > 0 ? "bad" : "ok",
			e->count_changed ? 2 : 1, e->change_pct);
	fputs("<span class=\"mono\">", fp);
	prof_page_esc(fp, e->change);
	fputs("</span>", fp);
	if (e->count_changed)
		fputs(" <span class=\"none\">(count)</span>", fp);
	if (e->mem_changed)
		fprintf(fp, " <span class=\"none\">(%s)</span>",
			prof_cmp_metrics[e->mem_metric].name);
}

/* The class a point of a verdict gets: improved, warning and unsettled
 * stand out. */
static const char *
point_class(const char *status)
{
	if (status && !strcmp(status, "improved"))
		return " imp";
	if (status && !strcmp(status, "warning"))
		return " wrn";
	if (status && !strcmp(status, "unsettled"))
		return " uns";
	return "";
}

/* A commit as a label: an object name's first 7 digits, else its first
 * 10 bytes. */
static void
commit_label(FILE *fp, const char *commit)
{
	prof_page_esc_cut(fp, commit, commit_linkable(commit) ? 7 : 10);
}

static size_t label_len(const char *commit);

/* The bytes of a commit its label shows (commit_label()). */
static size_t
label_len(const char *commit)
{
	return commit_linkable(commit) ? 7 : 10;
}

/*
 * What tells run i from the other runs whose commit's label reads the
 * same (a run again of one commit, or commits alike in their first
 * digits), for a line under its label on the x axis: its time ("03-07
 * 10:00", UTC) where no other of them has the same minute, else "run K of
 * N" in run order. "" where its label is its own.
 */
static void
run_words(const struct dash *d, size_t i, char *buf, size_t n)
{
	const struct point *p = &d->pts[i];
	size_t j, of = 0, k = 0;
	int same_minute = 0;

	buf[0] = '\0';
	for (j = 0; j < d->n; j++) {
		if (label_len(d->pts[j].commit) != label_len(p->commit) ||
		    strncmp(d->pts[j].commit, p->commit, label_len(p->commit)))
			continue;
		of++;
		if (j <= i)
			k++;
		if (j != i && strlen(p->timestamp) >= 16 &&
		    !strncmp(d->pts[j].timestamp, p->timestamp, 16))
			same_minute = 1;
	}
	if (of < 2)
		return;
	if (!same_minute && strlen(p->timestamp) >= 16 &&
	    p->timestamp[10] == 'T')
		snprintf(buf, n, "%.5s %.5s", p->timestamp + 5,
			 p->timestamp + 11);
	else
		snprintf(buf, n, "run %zu of %zu", k, of);
}

/*
 * The x axis of a chart: a tick and the commit of every k-th run, the
 * latest always among them (at most MAX_XLABELS), each a link to its
 * commit where the repository is known, and under a commit that has
 * several runs what tells each apart (run_words()); under them the first
 * and last dates.
 */
static void
x_axis(FILE *fp, const struct dash *d, double x0, double dx, double y,
       double L, double W, double R, double H)
{
	size_t k = (d->n + MAX_XLABELS - 1) / MAX_XLABELS, i;
	char url[1200], rw[64];

	if (!d->n)
		return;
	if (!k)
		k = 1;
	fprintf(fp, "<g class=\"xaxis\" data-labels=\"%zu\">",
		(d->n + k - 1) / k);
	for (i = d->n; i-- > 0;) {
		const struct point *p = &d->pts[i];
		const char *u = commit_url(d->o, p->commit, url, sizeof(url));
		double x = x0 + dx * (double)i;
		const char *anchor = "middle";

		if ((d->n - 1 - i) % k)
			continue;
		if (d->n > 1 && i == d->n - 1)
			anchor = "end";
		else if (d->n > 1 && i == 0)
			anchor = "start";
		fprintf(fp, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.0f\" y2=\"%.0f\"/>",
			x, x, y, y + 4);
		if (u) {
			fputs("<a href=\"", fp);
			prof_page_esc(fp, u);
			fputs("\">", fp);
		}
		fprintf(fp, "<text class=\"tick xc mono\" x=\"%.1f\" y=\"%.0f\" "
			    "text-anchor=\"%s\">",
			x, y + 16, anchor);
		commit_label(fp, p->commit);
		fputs("</text>", fp);
		if (u)
			fputs("</a>", fp);
		run_words(d, i, rw, sizeof(rw));
		if (rw[0]) {
			fprintf(fp, "<text class=\"tick xr\" x=\"%.1f\" "
				    "y=\"%.0f\" text-anchor=\"%s\">",
				x, y + 29, anchor);
			prof_page_esc(fp, rw);
			fputs("</text>", fp);
		}
	}
	fprintf(fp, "</g><text class=\"tick\" x=\"%.0f\" y=\"%.0f\">", L,
		H - 6);
	prof_page_esc_cut(fp, d->pts[0].timestamp, 10);
	fprintf(fp, "</text><text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"middle\">commit, oldest first</text>",
		L + (W - R - L) / 2, H - 6);
	fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"end\">",
		W - R, H - 6);
	prof_page_esc_cut(fp, d->pts[d->n - 1].timestamp, 10);
	fprintf(fp, " (%zu run%s)</text>", d->n, d->n == 1 ? "" : "s");
}

/*
 * The change points of memory metric m of a series (runs with a value
 * only), as run indexes into cuts (room for d->n). Returns their number:
 * 0 when out of memory (the chart is drawn without them).
 */
static long
mem_cuts(const struct dash *d, int m, size_t *cuts)
{
	size_t *idx = malloc((d->n ? d->n : 1) * sizeof(*idx));
	size_t *c = malloc((d->n ? d->n : 1) * sizeof(*c));
	double *x = malloc((d->n ? d->n : 1) * sizeof(*x));
	size_t i, k = 0, off;
	long nc = 0, j;

	if (!idx || !c || !x)
		goto out;
	for (i = 0; i < d->n; i++)
		if (isfinite(d->pts[i].mem[m])) {
			idx[k] = i;
			x[k++] = d->pts[i].mem[m];
		}
	off = k > PROF_STEPS_MAX_RUNS ? k - PROF_STEPS_MAX_RUNS : 0;
	nc = prof_steps_fit(x + off, k - off, c);
	for (j = 0; j < nc; j++)
		cuts[j] = idx[off + c[j]];
	if (nc < 0)
		nc = 0;
out:
	free(idx);
	free(c);
	free(x);
	return nc;
}

/* A chart's title: what it draws per run, in its unit. */
static void
chart_title(FILE *fp, int kind)
{
	enum prof_cmp_mem m = (enum prof_cmp_mem)KIND_METRIC(kind);

	if (kind == KIND_TIME)
		fputs("median and p90 per run", fp);
	else if (kind == KIND_COUNT)
		fputs("instruction count per run", fp);
	else
		fprintf(fp, "%s per run, %s", prof_cmp_metrics[m].name,
			prof_cmp_metrics[m].unit);
}

/*
 * The big chart of a series: median and p90, instruction counts or a
 * memory metric per run (kind). Its y axis starts at zero, or zooms and
 * says so in the chart, with its range, and with a break in the axis; its
 * x axis names the commits. Memory is in bytes or allocations with
 * grouped digits, its change points found in its own values and its
 * points coloured by its own verdicts.
 */
static void
chart(FILE *fp, struct dash *d, const struct entry *e, int kind)
{
	const double W = 960, H = 330, R = 16, T = 28, B = 62;
	const double L = kind >= KIND_MEM ? 100 : 72;
	double pw = W - L - R, ph = H - T - B, lo, hi, scale;
	double *a = malloc((d->n ? d->n : 1) * sizeof(*a));
	double *b = malloc((d->n ? d->n : 1) * sizeof(*b));
	size_t *mcuts = NULL;
	const size_t *cuts = e->cuts;
	long ncuts = kind == KIND_TIME ? e->ncuts : 0;
	double dx = step_of(d->n, pw), x0 = d->n > 1 ? L : L + pw / 2;
	struct prof_page_axis ax;
	char url[1200], n1[32], n2[32];
	int m = kind >= KIND_MEM ? KIND_METRIC(kind) : 0;
	size_t i;
	int k, have;

	if (!a || !b)
		goto out;
	for (i = 0; i < d->n; i++) {
		a[i] = kind == KIND_COUNT ?
			       (d->pts[i].instructions >= 0 ?
					(double)d->pts[i].instructions :
					NAN) :
		       m ? d->pts[i].mem[m] :
			   d->pts[i].median;
		b[i] = d->pts[i].p90;
	}
	if (m) {
		mcuts = malloc((d->n ? d->n : 1) * sizeof(*mcuts));
		ncuts = mcuts ? mem_cuts(d, m, mcuts) : 0;
		cuts = mcuts;
	}
	have = prof_page_axis_extent(a, kind ? NULL : b, d->n, &lo, &hi) == 0 &&
	       prof_page_axis_fit(&ax, lo, hi, kind ? COUNT_LEAST : TIME_LEAST) ==
		       0;
	fprintf(fp, "<svg class=\"trend%s\" viewBox=\"0 0 960 330\" "
		    "role=\"img\" data-points=\"%zu\" data-changes=\"%ld\" "
		    "data-zoom=\"%d\"",
		kind == KIND_COUNT ? " instr" : m ? " mem" : "", d->n, ncuts,
		have ? ax.zoom : 0);
	if (m)
		fprintf(fp, " data-metric=\"%s\"", prof_cmp_metrics[m].key);
	if (have)
		fprintf(fp, " data-y-lo=\"%.17g\" data-y-hi=\"%.17g\"", ax.lo,
			ax.hi);
	fputs("><title>", fp);
	chart_title(fp, kind);
	if (have) {
		fputs("; ", fp);
		axis_words(fp, &ax, kind);
	}
	fputs("</title>", fp);
	if (!have) {
		fputs("</svg>", fp);
		goto out;
	}
	for (k = 0; k < ax.n; k++) {
		double y = y_of(&ax, ax.tick[k], T, ph);

		fprintf(fp, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" "
			    "y1=\"%.1f\" y2=\"%.1f\"/>",
			L, W - R, y, y);
		if (kind == KIND_COUNT)
			prof_page_count_tick(n1, sizeof(n1), ax.tick[k],
					      ax.step,
					      fmax(fabs(ax.lo), fabs(ax.hi)));
		else if (m && ax.step >= 1)
			prof_page_count(n1, sizeof(n1), ax.tick[k], 0);
		else if (m)
			prof_page_tick(n1, sizeof(n1), ax.tick[k], ax.step);
		else
			prof_page_time_tick(n1, sizeof(n1), ax.tick[k],
					    ax.step,
					    fmax(fabs(ax.lo), fabs(ax.hi)));
		fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
			    "text-anchor=\"end\">%s</text>",
			L - 6, y + 4, n1);
	}
	fprintf(fp, "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" "
		    "text-anchor=\"end\">%s</text>",
		L - 6, T - 12,
		kind == KIND_COUNT ? "instructions" :
		m		   ? prof_cmp_metrics[m].unit :
				     prof_page_time_unit(fmax(fabs(ax.lo),
							      fabs(ax.hi)),
							 &scale));
	fprintf(fp, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" "
		    "y2=\"%.0f\"/><line class=\"axis\" x1=\"%.0f\" "
		    "x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>",
		L, W - R, T + ph, T + ph, L, L, T, T + ph);
	if (ax.zoom) {
		/* A break in the y axis, and the zoom in words. */
		fprintf(fp, "<path class=\"brk\" d=\"M%.0f,%.0f l10,-6 "
			    "M%.0f,%.0f l10,-6\"/>",
			L - 5, T + ph - 6, L - 5, T + ph);
		fprintf(fp, "<text class=\"zoom\" x=\"%.0f\" y=\"%.0f\">",
			L + 6, T - 12);
		axis_words(fp, &ax, kind);
		fputs("</text>", fp);
	}
	x_axis(fp, d, x0, dx, T + ph, L, W, R, H);
	if (kind != KIND_COUNT) {
		long c;

		for (c = 0; c < ncuts; c++) {
			double x = x0 + dx * (double)cuts[c] - dx / 2;

			fprintf(fp, "<line class=\"cut\" x1=\"%.1f\" "
				    "x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>",
				x, x, T, T + ph);
		}
		if (!m)
			polyline(fp, "p90", b, d->n, x0, dx, T, ph, &ax);
	}
	polyline(fp, kind == KIND_COUNT ? "ins" : m ? "mline" : "med", a, d->n,
		 x0, dx, T, ph, &ax);
	for (i = 0; i < d->n; i++) {
		const struct point *p = &d->pts[i];
		const char *u = commit_url(d->o, p->commit, url, sizeof(url));
		const char *st = m ? p->mem_status[m] : p->status;
		const char *why = m ? p->mem_reason[m] : p->reason;

		if (!isfinite(a[i]))
			continue;
		if (u) {
			fputs("<a href=\"", fp);
			prof_page_esc(fp, u);
			fputs("\">", fp);
		}
		fprintf(fp, "<circle class=\"%s%s%s\" cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"%s\"",
			kind == KIND_COUNT ? "ipt" : m ? "mpt" : "pt",
			point_class(st), p->errors ? " err" : "",
			x0 + dx * (double)i, y_of(&ax, a[i], T, ph),
			point_class(st)[0] ? "4" : "3");
		if (m)
			fprintf(fp, " data-value=\"%.17g\"", a[i]);
		fputs("><title>", fp);
		prof_page_esc(fp, p->run_id);
		fputs(" \xc2\xb7 ", fp);
		prof_page_esc_cut(fp, p->commit, 12);
		if (kind == KIND_COUNT)
			fprintf(fp, " \xc2\xb7 %s instructions",
				count(p->instructions, n1));
		else if (m)
			/* "heap peak 1,052,656 bytes", "2 allocations" */
			fprintf(fp, " \xc2\xb7 %s%s%s %s",
				strcmp(prof_cmp_metrics[m].name,
				       prof_cmp_metrics[m].unit) ?
					prof_cmp_metrics[m].name :
					"",
				strcmp(prof_cmp_metrics[m].name,
				       prof_cmp_metrics[m].unit) ?
					" " :
					"",
				axis_value(&ax, a[i], kind, n1),
				prof_cmp_metrics[m].unit);
		else
			fprintf(fp, " \xc2\xb7 median %s \xc2\xb7 p90 %s",
				ms(p->median, n1), ms(p->p90, n2));
		if (p->errors)
			fprintf(fp, " \xc2\xb7 %lld errors", p->errors);
		if (st) {
			fputs(" \xc2\xb7 ", fp);
			prof_page_esc(fp, st);
			if (why && why[0]) {
				fputs(": ", fp);
				prof_page_esc(fp, why);
			}
		}
		fputs("</title></circle>", fp);
		if (u)
			fputs("</a>", fp);
	}
	fputs("</svg>\n", fp);
out:
	free(a);
	free(b);
	free(mcuts);
}

static void segment_words(FILE *fp, const char *backend,
			  const char *segment, const char *segment_id);

/* A series' segment in words, its id on hover. */
static void
segment_span(FILE *fp, const char *backend, const char *segment,
	     const char *segment_id)
{
	fputs("<span class=\"segid\" title=\"segment ", fp);
	prof_page_esc(fp, segment_id);
	fputs("\">", fp);
	segment_words(fp, backend, segment, segment_id);
	fputs("</span>", fp);
}

/* A series page's heading: the workload and its segment in words
 * (segment_words(): the backend first), the id on hover. */
static void
series_title(FILE *fp, const struct entry *e)
{
	prof_page_esc(fp, e->workload);
	fputs(" \xc2\xb7 ", fp);
	segment_span(fp, e->backend, e->segment, e->segment_id);
}

/* A segment field's value as text: a string as it is, null as NULL,
 * anything else as JSON. Borrowed from v. */
static const char *
field_text(struct json_object *v)
{
	if (!v)
		return NULL;
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* Whether field f of segment o has the same value in every segment of
 * segs[0..n). */
static int
field_same(struct json_object *o, const char *f, struct json_object **segs,
	   size_t n)
{
	const char *mine = field_text(json_object_object_get(o, f));
	size_t i;

	for (i = 0; i < n; i++) {
		const char *t = segs[i] ? field_text(json_object_object_get(
						  segs[i], f)) :
					  NULL;

		if (!segs[i])
			continue;
		if (!mine != !t || (mine && strcmp(mine, t)))
			return 0;
	}
	return 1;
}

/* Whether field f (of a segment of key k's workload) tells k from the
 * other series of its workload. segs: the parsed segments of the group. */
static int
field_differs(const struct skey *k, struct json_object **segs, size_t i,
	      const char *f)
{
	return strcmp(f, "backend") && segs[i] &&
	       !field_same(segs[i], f, segs, k->g1 - k->g0);
}

/*
 * The segment of a series: each field that has a value (the ones that
 * tell it from the other series of its workload marked), the fields that
 * have none in one line, and links to those other series with what
 * differs. A key that is not a JSON object is shown as it is.
 */
static void
segment_section(FILE *fp, const struct dash *d, const struct entry *e)
{
	struct json_object *o = json_tokener_parse(e->segment);
	struct json_object **segs = NULL;
	const struct skey *k = e->key;
	size_t ng = k ? k->g1 - k->g0 : 0, i, me = 0, unset = 0;

	fputs("<section><h2>Segment <span class=\"mono\">", fp);
	prof_page_esc(fp, e->segment_id);
	fputs("</span></h2><p class=\"sub\">The fields that decide what this "
	      "series is compared with: a run is compared only with runs of "
	      "the same segment. The id is the first 16 hex digits of the "
	      "SHA-256 of the fields.</p>", fp);
	if (!o || !json_object_is_type(o, json_type_object)) {
		fputs("<p class=\"unset mono\">", fp);
		prof_page_esc(fp, e->segment);
		fputs("</p></section>\n", fp);
		json_object_put(o);
		return;
	}
	if (ng > 1)
		segs = calloc(ng, sizeof(*segs));
	if (segs) {
		for (i = 0; i < ng; i++) {
			const struct skey *s = &d->keys[k->g0 + i];

			segs[i] = s == k ? json_object_get(o) :
					   json_tokener_parse(s->segment);
			if (s == k)
				me = i;
			if (segs[i] &&
			    !json_object_is_type(segs[i], json_type_object)) {
				json_object_put(segs[i]);
				segs[i] = NULL;
			}
		}
	}
	fputs("<dl class=\"seg\">", fp);
	json_object_object_foreach(o, f, v) {
		int dif = segs && field_differs(k, segs, me, f);

		if (!v) {
			unset++;
			continue;
		}
		fputs(dif ? "<dt class=\"d\">" : "<dt>", fp);
		prof_page_esc(fp, f);
		fputs(dif ? "</dt><dd class=\"d\">" : "</dt><dd>", fp);
		prof_page_esc(fp, field_text(v));
		fputs("</dd>", fp);
	}
	fputs("</dl>", fp);
	if (k && k->differs[0]) {
		fputs("<p class=\"differs\">Told from the other series of ",
		      fp);
		prof_page_esc(fp, e->workload);
		fputs(" by: <b>", fp);
		prof_page_esc(fp, k->differs);
		fputs("</b></p>", fp);
	}
	if (unset) {
		const char *sep = "";

		fputs("<p class=\"unset\">No value: ", fp);
		json_object_object_foreach(o, f2, v2) {
			int dif = segs && field_differs(k, segs, me, f2);

			if (v2)
				continue;
			fputs(sep, fp);
			if (dif)
				fputs("<b>", fp);
			prof_page_esc(fp, f2);
			if (dif)
				fputs("</b>", fp);
			sep = ", ";
		}
		fputs(".</p>", fp);
	}
	if (ng > 1) {
		fputs("<p>Other series of ", fp);
		prof_page_esc(fp, e->workload);
		fputs(", and what tells each from this one:</p><ul>", fp);
		for (i = 0; i < ng; i++) {
			const struct skey *s = &d->keys[k->g0 + i];

			if (s == k)
				continue;
			fprintf(fp, "<li class=\"sibling\"><a href=\"%s\">",
				s->file);
			segment_span(fp, s->backend, s->segment,
				     s->segment_id);
			fputs("</a>", fp);
			if (s->differs[0]) {
				fputs(" <span class=\"differs\">", fp);
				prof_page_esc(fp, s->differs);
				fputs("</span>", fp);
			}
			fputs("</li>", fp);
		}
		fputs("</ul>", fp);
	}
	fputs("</section>\n", fp);
	for (i = 0; segs && i < ng; i++)
		json_object_put(segs[i]);
	free(segs);
	json_object_put(o);
}

/* What a series measures, in words. */
static const char *
kind_words(const struct entry *e)
{
	if (e->timed && e->counted)
		return "The time of run() per run (the median and p90 of its "
		       "warm samples) and its instruction count (callgrind, "
		       "the median of the counted calls).";
	if (e->counted)
		return "Instruction counts only: callgrind's count of run() "
		       "per run, the median of the counted calls (prof-count; "
		       "its segment keys valgrind, so it is a series of its "
		       "own beside the workload's times).";
	if (!e->timed && e->memory)
		return "Memory only: what one run() holds and allocates per "
		       "run (the memory phase, prof-mem), each metric the "
		       "median its comparison judged.";
	return "The time of run() per run: the median and p90 of its warm "
	       "samples.";
}

/* The memory metrics of a series (e->memory), one chart each: bytes or
 * allocations with grouped digits, the axis from 0 or a zoom that says
 * so, the metric's own change points and verdicts. */
static void
memory_section(FILE *fp, struct dash *d, const struct entry *e)
{
	int m;

	if (!e->memory)
		return;
	fputs("<section class=\"memory\"><h2>Memory</h2><p class=\"sub\">"
	      "Per run, the median of one run()'s values in the memory "
	      "phase (the number comparisons.json judged): the heap peak, "
	      "allocations and bytes allocated are judged exactly, the RSS "
	      "peak like time (prof-diff(1)).</p>", fp);
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		if (!(e->memory & 1u << m))
			continue;
		fprintf(fp, "<h3 data-metric=\"%s\">%s", prof_cmp_metrics[m].key,
			prof_cmp_metrics[m].name);
		if (strcmp(prof_cmp_metrics[m].name, prof_cmp_metrics[m].unit))
			fprintf(fp, " (%s)", prof_cmp_metrics[m].unit);
		fputs("</h3>", fp);
		chart(fp, d, e, MEM_KIND(m));
	}
	if (e->mem_changed) {
		fputs("<p>Last change: ", fp);
		change_words(fp, e);
		fputs("</p>", fp);
	}
	fputs("</section>\n", fp);
}

/* A run's value of memory metric m in the table: grouped digits, in the
 * colour of its verdict, which its title gives with the reason. */
static void
mem_cell(FILE *fp, const struct point *p, int m, int wide)
{
	const char *cls = verdict_class(p->mem_status[m]);
	char v[32];

	fprintf(fp, "<td class=\"num%s%s%s\" data-metric=\"%s\"",
		wide ? " wide" : "", cls[0] ? " " : "", cls,
		prof_cmp_metrics[m].key);
	if (p->mem_status[m]) {
		fputs(" title=\"", fp);
		prof_page_esc(fp, p->mem_status[m]);
		if (p->mem_reason[m] && p->mem_reason[m][0]) {
			fputs(": ", fp);
			prof_page_esc(fp, p->mem_reason[m]);
		}
		fputs("\"", fp);
	}
	prof_page_count(v, sizeof(v), p->mem[m], 0);
	fprintf(fp, ">%s</td>", isfinite(p->mem[m]) ? v : "");
}

static int
write_page(struct dash *d, struct entry *e, struct prof_err *err)
{
	struct prof_afile af = {0};
	char path[4096], title[512], url[1200], n1[32], n2[32];
	FILE *fp;
	size_t i, first;
	int m;

	snprintf(path, sizeof(path), "%s/%s", d->o->dir, e->file);
	fp = prof_afile_open(&af, path, err);
	if (!fp)
		return -1;
	snprintf(title, sizeof(title), "%s %s %s", e->workload, e->backend,
		 e->segment_id);
	head(fp, title);
	fputs("<nav><a href=\"index.html\">&larr; every series</a></nav>\n"
	      "<h1>", fp);
	series_title(fp, e);
	fprintf(fp, "</h1>\n<p class=\"sub\" data-kind=\"%s\">",
		e->timed ? (e->counted ? "both" : "time") :
		e->counted ? "count" : e->memory ? "memory" : "count");
	fputs(kind_words(e), fp);
	if (e->memory && (e->timed || e->counted))
		fputs(" And its memory: what one run() holds and allocates "
		      "(the memory phase).", fp);
	fputs("</p>\n", fp);
	if (e->timed) {
		fprintf(fp, "<section><h2>Median and p90 over %zu run%s</h2>"
			    "<p class=\"legend\"><span class=\"lm\">&#9679; "
			    "median (a point per run%s)</span><span "
			    "class=\"lp\">- - p90</span><span class=\"lc\">| "
			    "change point</span><span class=\"li\">&#9679; "
			    "improved</span><span class=\"lw\">&#9679; "
			    "warning</span><span class=\"lu\">&#9679; "
			    "unsettled (not settled within its budget: run it "
			    "again with a larger one)</span></p>",
			d->n, d->n == 1 ? "" : "s",
			d->o->repo_url ? ", a link to its commit" : "");
		chart(fp, d, e, 0);
		fputs("<p>Last change: ", fp);
		change_words(fp, e);
		fputs("</p></section>\n", fp);
	}
	if (e->counted) {
		fputs("<section><h2>Instruction count</h2>", fp);
		chart(fp, d, e, 1);
		if (!e->timed) {
			fputs("<p>Last change: ", fp);
			change_words(fp, e);
			fputs("</p>", fp);
		}
		fputs("</section>\n", fp);
	}
	memory_section(fp, d, e);
	segment_section(fp, d, e);
	first = d->n > TABLE_RUNS ? d->n - TABLE_RUNS : 0;
	fprintf(fp, "<section><h2>The last %zu run%s</h2><div class=\"wrap\">"
		    "<table><thead><tr><th>run</th><th>commit</th>"
		    "<th class=\"wide\">time (UTC)</th>",
		d->n - first, d->n - first == 1 ? "" : "s");
	if (e->timed)
		fputs("<th class=\"num\">n</th>", fp);
	fputs("<th class=\"num\">errors</th>", fp);
	if (e->timed)
		fputs("<th class=\"num\">median</th><th class=\"num\">p90"
		      "</th>", fp);
	if (e->counted)
		fprintf(fp, "<th class=\"num%s\">instructions</th>",
			e->timed ? " wide" : "");
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (e->memory & 1u << m)
			fprintf(fp, "<th class=\"num%s\">%s</th>",
				e->timed || e->counted ? " wide" : "",
				prof_cmp_metrics[m].name);
	fputs("<th>status</th></tr></thead><tbody>\n", fp);
	for (i = d->n; i-- > first;) {
		const struct point *p = &d->pts[i];
		const char *u = commit_url(d->o, p->commit, url, sizeof(url));

		fputs("<tr><td class=\"mono\">", fp);
		prof_page_esc(fp, p->run_id);
		fputs("</td><td class=\"mono\">", fp);
		if (u) {
			fputs("<a href=\"", fp);
			prof_page_esc(fp, u);
			fputs("\">", fp);
		}
		prof_page_esc_cut(fp, p->commit, 12);
		fputs(u ? "</a>" : "", fp);
		fputs("</td><td class=\"wide\">", fp);
		prof_page_esc(fp, p->timestamp);
		fputs("</td>", fp);
		if (e->timed)
			fprintf(fp, "<td class=\"num\">%lld</td>", p->n);
		fprintf(fp, "<td class=\"num%s\">%lld</td>",
			p->errors ? " bad" : "", p->errors);
		if (e->timed)
			fprintf(fp, "<td class=\"num\">%s</td><td class=\"num\">"
				    "%s</td>",
				ms(p->median, n1), ms(p->p90, n2));
		if (e->counted) {
			fprintf(fp, "<td class=\"num%s\">",
				e->timed ? " wide" : "");
			if (p->instructions >= 0)
				fputs(count(p->instructions, n1), fp);
			fputs("</td>", fp);
		}
		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (e->memory & 1u << m)
				mem_cell(fp, p, m, e->timed || e->counted);
		fputs("<td", fp);
		if (p->reason && p->reason[0]) {
			fputs(" title=\"", fp);
			prof_page_esc(fp, p->reason);
			fputs("\"", fp);
		}
		fputc('>', fp);
		verdict(fp, p->status);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table></div></section>\n</main></body></html>\n", fp);
	return prof_afile_commit(&af, err);
}

static char *
dup(const char *s, int *oom)
{
	char *c = strdup(s ? s : "");

	if (!c)
		*oom = 1;
	return c;
}

/* The order of the history's walk: workload, backend, segment id. */
static int
key_cmp(const char *w1, const char *b1, const char *s1, const char *w2,
	const char *b2, const char *s2)
{
	int c = strcmp(w1, w2);

	if (!c)
		c = strcmp(b1, b2);
	return c ? c : strcmp(s1, s2);
}

static int
skey_cmp(const void *x, const void *y)
{
	const struct skey *a = x, *b = y;

	return key_cmp(a->workload, a->backend, a->segment_id, b->workload,
		       b->backend, b->segment_id);
}

/* The first walk's key of a series, or NULL (a series added to the history
 * between the two walks). */
static const struct skey *
find_key(const struct dash *d, const char *w, const char *b, const char *s)
{
	size_t lo = 0, hi = d->n_keys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct skey *k = &d->keys[mid];
		int c = key_cmp(w, b, s, k->workload, k->backend,
				k->segment_id);

		if (!c)
			return k;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* A file name no workload or backend can make unsafe or ambiguous. */
static int
page_file(const char *w, const char *b, const char *s, char file[32])
{
	char key[1200], id[PROF_ID_SIZE];

	snprintf(key, sizeof(key), "%s\n%s\n%s", w, b, s);
	if (prof_sample_id(key, id) < 0)
		return -1;
	snprintf(file, 32, "s-%s.html", id);
	return 0;
}

/* The first walk: each series once, with its segment. */
static int
on_key(void *arg, const struct prof_history_point *p, struct prof_err *err)
{
	struct dash *d = arg;
	struct skey *k;
	int oom = 0;

	if (d->n_keys) {
		k = &d->keys[d->n_keys - 1];
		if (!key_cmp(k->workload, k->backend, k->segment_id,
			     p->workload, p->backend, p->segment_id))
			return 0;
	}
	if (d->n_keys == d->cap_keys) {
		size_t ncap = d->cap_keys ? 2 * d->cap_keys : 64;
		struct skey *nk = realloc(d->keys, ncap * sizeof(*nk));

		if (!nk)
			return prof_err_set(err, "out of memory");
		d->keys = nk;
		d->cap_keys = ncap;
	}
	k = &d->keys[d->n_keys++];
	memset(k, 0, sizeof(*k));
	k->workload = dup(p->workload, &oom);
	k->backend = dup(p->backend, &oom);
	k->segment_id = dup(p->segment_id, &oom);
	k->segment = dup(p->segment, &oom);
	k->differs = dup("", &oom);
	if (oom || page_file(p->workload, p->backend, p->segment_id, k->file) <
			   0)
		return prof_err_set(err, "out of memory");
	return 0;
}

/*
 * What tells each series from the other series of its workload: the
 * fields of its segment (but backend, which has a column of its own) whose
 * values are not the same in all of them, as "field value" ("field none"
 * where it has none), at most DIFFERS_MAX bytes.
 */
static int
find_differs(struct dash *d, struct prof_err *err)
{
	size_t g0 = 0, g1, i, j;

	if (d->n_keys)
		qsort(d->keys, d->n_keys, sizeof(*d->keys), skey_cmp);
	for (; g0 < d->n_keys; g0 = g1) {
		struct json_object **segs;
		size_t ng;

		for (g1 = g0 + 1; g1 < d->n_keys &&
				  !strcmp(d->keys[g1].workload,
					  d->keys[g0].workload);
		     g1++)
			;
		for (i = g0; i < g1; i++) {
			d->keys[i].g0 = g0;
			d->keys[i].g1 = g1;
		}
		ng = g1 - g0;
		if (ng < 2)
			continue;
		segs = calloc(ng, sizeof(*segs));
		if (!segs)
			return prof_err_set(err, "out of memory");
		for (i = 0; i < ng; i++) {
			segs[i] = json_tokener_parse(d->keys[g0 + i].segment);
			if (segs[i] &&
			    !json_object_is_type(segs[i], json_type_object)) {
				json_object_put(segs[i]);
				segs[i] = NULL;
			}
		}
		for (i = 0; i < ng; i++) {
			struct skey *k = &d->keys[g0 + i];
			char buf[DIFFERS_MAX + 1] = "";
			size_t len = 0;

			/* The fields of every segment of the group, each
			 * once: those this one lacks differ too. */
			for (j = 0; j < ng; j++) {
				if (!segs[j] || !segs[i])
					continue;
				json_object_object_foreach(segs[j], f, v) {
					const char *t;
					size_t m;
					int seen = 0;

					(void)v;
					for (m = 0; m < j && !seen; m++)
						seen = segs[m] &&
						       json_object_object_get_ex(
							       segs[m], f,
							       NULL);
					if (seen ||
					    !field_differs(k, segs, i, f))
						continue;
					t = field_text(json_object_object_get(
						segs[i], f));
					len += (size_t)snprintf(
						buf + len, len < sizeof(buf) ?
								   sizeof(buf) - len :
								   0,
						"%s%s%s%s", len ? ", " : "",
						t ? f : "no ", t ? " " : f,
						t ? t : "");
					if (len >= sizeof(buf))
						len = sizeof(buf);
				}
			}
			if (len >= sizeof(buf))
				snprintf(buf + sizeof(buf) - 4, 4, "...");
			free(k->differs);
			k->differs = strdup(buf);
			if (!k->differs) {
				for (j = 0; j < ng; j++)
					json_object_put(segs[j]);
				free(segs);
				return prof_err_set(err, "out of memory");
			}
		}
		for (i = 0; i < ng; i++)
			json_object_put(segs[i]);
		free(segs);
	}
	return 0;
}

/*
 * A series of memory only has no change points of times: its last change
 * is its first measured metric's (the heap peak's where there is one),
 * found as a time series' is, the size from the medians on each side.
 * 0 or -1 (out of memory).
 */
static int
mem_change(const struct dash *d, struct entry *e)
{
	size_t *idx = malloc((d->n ? d->n : 1) * sizeof(*idx));
	size_t *cuts = malloc((d->n ? d->n : 1) * sizeof(*cuts));
	double *x = malloc((d->n ? d->n : 1) * sizeof(*x));
	size_t i, k = 0, off;
	long nc;
	int m, rc = -1;

	for (m = 1; m < PROF_CMP_MEM_N && !(e->memory & 1u << m); m++)
		;
	if (!idx || !cuts || !x)
		goto out;
	for (i = 0; i < d->n; i++)
		if (isfinite(d->pts[i].mem[m])) {
			idx[k] = i;
			x[k++] = d->pts[i].mem[m];
		}
	off = k > PROF_STEPS_MAX_RUNS ? k - PROF_STEPS_MAX_RUNS : 0;
	nc = prof_steps_fit(x + off, k - off, cuts);
	if (nc < 0)
		goto out;
	if (nc > 0) {
		size_t c = off + cuts[nc - 1];
		size_t lo = nc > 1 ? off + cuts[nc - 2] : off;
		double before = prof_steps_median(x + lo, c - lo);
		double after = prof_steps_median(x + c, k - c);

		e->mem_changed = 1;
		e->mem_metric = m;
		e->change_at = idx[c];
		e->change_pct = before > 0 ? (after / before - 1) * 100 : NAN;
		snprintf(e->change, sizeof(e->change), "%.7s..%.7s",
			 d->pts[idx[c - 1]].commit, d->pts[idx[c]].commit);
	}
	rc = 0;
out:
	free(idx);
	free(cuts);
	free(x);
	return rc;
}

/* The series read so far is whole: its page, and its row of the index. */
static int
flush_series(struct dash *d, struct prof_err *err)
{
	struct entry *e;
	size_t i;

	if (!d->workload)
		return 0;
	if (d->n_entries == d->cap_entries) {
		size_t ncap = d->cap_entries ? 2 * d->cap_entries : 64;
		struct entry *ne = realloc(d->entries, ncap * sizeof(*ne));

		if (!ne)
			return prof_err_set(err, "out of memory");
		d->entries = ne;
		d->cap_entries = ncap;
	}
	e = &d->entries[d->n_entries++];
	memset(e, 0, sizeof(*e));
	e->workload = d->workload;
	e->backend = d->backend;
	e->segment_id = d->segment_id;
	e->segment = d->segment;
	d->workload = d->backend = d->segment_id = d->segment = NULL;
	if (page_file(e->workload, e->backend, e->segment_id, e->file) < 0)
		return prof_err_set(err, "out of memory");
	e->key = find_key(d, e->workload, e->backend, e->segment_id);
	e->n = d->n;
	e->change_at = d->n;
	e->medians = malloc((d->n ? d->n : 1) * sizeof(*e->medians));
	e->instructions = malloc((d->n ? d->n : 1) * sizeof(*e->instructions));
	e->heap = malloc((d->n ? d->n : 1) * sizeof(*e->heap));
	if (!e->medians || !e->instructions || !e->heap || changes(d, e) < 0)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < d->n; i++) {
		int m;

		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (isfinite(d->pts[i].mem[m]))
				e->memory |= 1u << m;
		e->heap[i] = d->pts[i].mem[PROF_CMP_MEM_PEAK];
		e->medians[i] = d->pts[i].median;
		e->instructions[i] = d->pts[i].instructions;
		if (d->pts[i].instructions >= 0)
			e->counted = 1;
		if (isfinite(d->pts[i].median))
			e->timed = 1;
	}
	if (!e->timed && e->counted)
		count_change(d, e);
	if (!e->timed && !e->counted && e->memory && mem_change(d, e) < 0)
		return prof_err_set(err, "out of memory");
	if (e->memory)
		d->any_memory = 1;
	if (d->n) {
		const struct point *p = &d->pts[d->n - 1];
		int m;

		for (m = 1; m < PROF_CMP_MEM_N; m++)
			if (isfinite(p->mem[m]))
				e->last_memory = 1;
		e->last_median = p->median;
		e->last_n = p->n;
		e->last_errors = p->errors;
		e->last_instructions = p->instructions;
		snprintf(e->last_run, sizeof(e->last_run), "%s", p->run_id);
		snprintf(e->last_status, sizeof(e->last_status), "%s",
			 p->status ? p->status : "");
	}
	if (write_page(d, e, err) < 0)
		return -1;
	/* The last run's verdicts, for what changed recently: handed over
	 * to the entry, free_points() frees the rest. */
	if (d->n) {
		struct point *p = &d->pts[d->n - 1];
		int m;

		e->last_reason = p->reason;
		p->reason = NULL;
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			e->last_mem_status[m] = p->mem_status[m];
			e->last_mem_reason[m] = p->mem_reason[m];
			p->mem_status[m] = p->mem_reason[m] = NULL;
		}
	}
	free_points(d);
	return 0;
}

static int
on_point(void *arg, const struct prof_history_point *p, struct prof_err *err)
{
	struct dash *d = arg;
	struct point *q;
	int oom = 0, m;

	if (d->workload && (strcmp(d->workload, p->workload) ||
			    strcmp(d->backend, p->backend) ||
			    strcmp(d->segment_id, p->segment_id)) &&
	    flush_series(d, err) < 0)
		return -1;
	if (!d->workload) {
		d->workload = dup(p->workload, &oom);
		d->backend = dup(p->backend, &oom);
		d->segment_id = dup(p->segment_id, &oom);
		d->segment = dup(p->segment, &oom);
	}
	if (d->n == d->cap) {
		size_t ncap = d->cap ? 2 * d->cap : 256;
		struct point *np = realloc(d->pts, ncap * sizeof(*np));

		if (!np)
			return prof_err_set(err, "out of memory");
		d->pts = np;
		d->cap = ncap;
	}
	q = &d->pts[d->n++];
	q->run_id = dup(p->run_id, &oom);
	q->commit = dup(p->commit, &oom);
	q->timestamp = dup(p->timestamp_utc, &oom);
	q->n = p->n;
	q->errors = p->errors;
	q->median = p->n > 0 ? p->median : NAN;
	q->p90 = p->n > 0 ? p->p90 : NAN;
	q->instructions = p->instructions;
	q->status = p->status ? dup(p->status, &oom) : NULL;
	q->reason = p->reason ? dup(p->reason, &oom) : NULL;
	for (m = 1; m < PROF_CMP_MEM_N; m++) {
		q->mem[m] = p->mem[m];
		q->mem_status[m] = p->mem_status[m] ?
					   dup(p->mem_status[m], &oom) :
					   NULL;
		q->mem_reason[m] = p->mem_reason[m] ?
					   dup(p->mem_reason[m], &oom) :
					   NULL;
	}
	return oom ? prof_err_set(err, "out of memory") : 0;
}

/*
 * A segment in words, for the index: the machine (its device where it
 * has one, else its CPU model, else its architecture), the compiler, the
 * problem size, and the browser and valgrind where set. The id (its hash)
 * is the caller's to give on hover. A key that is no JSON object: its id.
 */
static void
segment_words(FILE *fp, const char *backend, const char *segment,
	      const char *segment_id)
{
	static const char *const machine[] = {"device", "cpu_model",
					      "machine"};
	struct json_object *o = json_tokener_parse(segment);
	const char *sep = "", *t, *u;
	size_t i;

	if (!o || !json_object_is_type(o, json_type_object)) {
		prof_page_esc(fp, segment_id);
		json_object_put(o);
		return;
	}
	prof_page_esc(fp, backend);
	sep = " \xc2\xb7 ";
	for (i = 0; i < sizeof(machine) / sizeof(*machine); i++) {
		t = field_text(json_object_object_get(o, machine[i]));
		if (t && t[0]) {
			fputs(sep, fp);
			prof_page_esc(fp, t);
			break;
		}
	}
	t = field_text(json_object_object_get(o, "compiler"));
	u = field_text(json_object_object_get(o, "compiler_major"));
	if (t && t[0]) {
		fputs(sep, fp);
		prof_page_esc(fp, t);
		if (u && u[0] && strcmp(u, t)) {
			fputc(' ', fp);
			prof_page_esc(fp, u);
		}
	}
	t = field_text(json_object_object_get(o, "problem_size"));
	if (t && t[0]) {
		fprintf(fp, "%ssize ", sep);
		prof_page_esc(fp, t);
	}
	t = field_text(json_object_object_get(o, "browser"));
	if (t && t[0]) {
		fputs(sep, fp);
		prof_page_esc(fp, t);
	}
	t = field_text(json_object_object_get(o, "valgrind"));
	if (t && t[0]) {
		fprintf(fp, "%svalgrind ", sep);
		prof_page_esc(fp, t);
	}
	json_object_put(o);
}

/*
 * The size of a verdict's change as its reason says it: "49.8% slower"
 * (a time's median), "+5.00%" (a count's or a memory metric's), into out,
 * and the ratio that stands for (1.498; 49.8% faster: 1 / 1.498), for the
 * order of what changed. 0 where the reason gives none.
 */
static double
reason_size(const char *reason, char *out, size_t n)
{
	const char *q, *b;
	double v;

	out[0] = '\0';
	q = reason ? strchr(reason, '%') : NULL;
	for (; q; q = strchr(q + 1, '%')) {
		for (b = q; b > reason && strchr("0123456789.", b[-1]); b--)
			;
		if (b == q)
			continue;
		v = strtod(b, NULL);
		if (b > reason && (b[-1] == '+' || b[-1] == '-')) {
			snprintf(out, n, "%.*s", (int)(q + 1 - (b - 1)), b - 1);
			return 1 + (b[-1] == '-' ? -v : v) / 100;
		}
		if (!strncmp(q, "% slower", 8) || !strncmp(q, "% faster", 8)) {
			snprintf(out, n, "%.*s", (int)(q + 8 - b), b);
			return q[2] == 's' ? 1 + v / 100 : 1 / (1 + v / 100);
		}
	}
	return 0;
}

/* One line of what changed recently: a series' last change point (metric
 * 0 and no status) or a verdict of its latest run (metric 0: its time or
 * count row; m: memory metric m). */
struct recent {
	const struct entry *e;
	const char *status;	/* NULL: a change point */
	const char *reason;
	int metric;
	double size;		/* |ln ratio|, the order: largest first */
	char words[40];		/* a verdict's size as its reason says it */
	size_t i;
};

static int
recent_cmp(const void *x, const void *y)
{
	const struct recent *a = x, *b = y;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int
stands_out(const char *status)
{
	return status && (!strcmp(status, "warning") ||
			  !strcmp(status, "improved"));
}

/* What changed recently, as asv's regressions page has it: each series'
 * last change point where it lies among its last RECENT_RUNS runs, and
 * every warning and improvement of the history's latest run, largest
 * first; at most RECENT_MAX lines, and how many more. */
static int
recent_section(FILE *fp, const struct dash *d, struct prof_err *err)
{
	struct recent *r = malloc((d->n_entries ? d->n_entries : 1) *
				  PROF_CMP_MEM_N * 2 * sizeof(*r));
	size_t n = 0, i, shown;
	char w[40];
	int m;

	if (!r)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < d->n_entries; i++) {
		const struct entry *e = &d->entries[i];
		int latest = !strcmp(e->last_run, d->last_run);
		double ratio;

		if (e->change_at < e->n && e->n - e->change_at <= RECENT_RUNS) {
			ratio = isfinite(e->change_pct) ?
					1 + e->change_pct / 100 : 0;
			r[n] = (struct recent){.e = e, .i = n};
			r[n].size = ratio > 0 ? fabs(log(ratio)) : 0;
			n++;
		}
		if (latest && stands_out(e->last_status)) {
			ratio = reason_size(e->last_reason, w, sizeof(w));
			r[n] = (struct recent){.e = e, .status = e->last_status,
					       .reason = e->last_reason,
					       .i = n};
			r[n].size = ratio > 0 ? fabs(log(ratio)) : 0;
			memcpy(r[n].words, w, sizeof(w));
			n++;
		}
		for (m = 1; latest && m < PROF_CMP_MEM_N; m++) {
			if (!stands_out(e->last_mem_status[m]))
				continue;
			ratio = reason_size(e->last_mem_reason[m], w,
					    sizeof(w));
			r[n] = (struct recent){.e = e,
					       .status = e->last_mem_status[m],
					       .reason = e->last_mem_reason[m],
					       .metric = m, .i = n};
			r[n].size = ratio > 0 ? fabs(log(ratio)) : 0;
			memcpy(r[n].words, w, sizeof(w));
			n++;
		}
	}
	if (n)
		qsort(r, n, sizeof(*r), recent_cmp);
	shown = n < RECENT_MAX ? n : RECENT_MAX;
	fprintf(fp, "<section class=\"recent\" data-recent=\"%zu\"><h2>What "
		    "changed recently</h2>", n);
	if (!n) {
		fprintf(fp, "<p class=\"sub\">Nothing: no change point among "
			    "any series' last %d runs, and no warning or "
			    "improvement in the latest run.</p></section>\n",
			RECENT_RUNS);
		free(r);
		return 0;
	}
	fputs("<div class=\"wrap\"><table><thead><tr><th class=\"num\">change"
	      "</th><th>series</th><th>what</th><th>where, or why</th></tr>"
	      "</thead><tbody>\n", fp);
	for (i = 0; i < shown; i++) {
		const struct recent *x = &r[i];
		const struct entry *e = x->e;

		fprintf(fp, "<tr class=\"recent\" data-kind=\"%s\"><td "
			    "class=\"num\">",
			x->status ? x->status : "change");
		if (!x->status && isfinite(e->change_pct))
			fprintf(fp, "<span class=\"%s\">%+.*f%%</span>",
				e->change_pct > 0 ? "bad" : "ok",
				e->count_changed ? 2 : 1, e->change_pct);
		else if (x->status && x->words[0]) {
			fprintf(fp, "<span class=\"%s\">",
				verdict_class(x->status));
			prof_page_esc(fp, x->words);
			fputs("</span>", fp);
		}
		fprintf(fp, "</td><td class=\"name\"><a href=\"%s\">", e->file);
		prof_page_esc(fp, e->workload);
		fputs("</a>", fp);
		if (e->key && e->key->differs[0]) {
			fputs(" <span class=\"differs\">", fp);
			prof_page_esc(fp, e->key->differs);
			fputs("</span>", fp);
		}
		fputs("</td><td>", fp);
		if (!x->status) {
			fprintf(fp, "change point (%s)",
				e->count_changed ? "instruction count" :
				e->mem_changed ?
					prof_cmp_metrics[e->mem_metric].name :
					"median");
			fputs("</td><td class=\"why\"><span class=\"mono\">",
			      fp);
			prof_page_esc(fp, e->change);
			fprintf(fp, "</span>, %zu run%s ago</td></tr>\n",
				e->n - e->change_at,
				e->n - e->change_at == 1 ? "" : "s");
			continue;
		}
		verdict(fp, x->status);
		fprintf(fp, " in the latest run (%s)</td><td class=\"why\">",
			x->metric ? prof_cmp_metrics[x->metric].name :
			e->timed ? "time" : "instruction count");
		prof_page_esc(fp, x->reason ? x->reason : "");
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table></div>", fp);
	if (n > shown)
		fprintf(fp, "<p class=\"sub\">And %zu more: each series' row "
			    "below has its latest status and last change.</p>",
			n - shown);
	fputs("</section>\n", fp);
	free(r);
	return 0;
}

/* A series' heap peak in the index: its trend and, under it, its latest
 * value (grouped digits); "-" where it has none. */
static void
heap_cell(FILE *fp, const struct entry *e)
{
	char v[32];
	size_t k;

	fputs("<td class=\"wide\">", fp);
	if (!(e->memory & 1u << PROF_CMP_MEM_PEAK)) {
		fputs("<span class=\"none\">-</span></td>", fp);
		return;
	}
	spark(fp, "heap", "mline", e->heap, e->n, NULL, 0,
	      "heap peak per run, bytes");
	for (k = e->n; k > 0 && !isfinite(e->heap[k - 1]); k--)
		;
	prof_page_count(v, sizeof(v), k ? e->heap[k - 1] : NAN, 0);
	fprintf(fp, "<div class=\"latest\" data-metric=\"%s\">%s</div></td>",
		prof_cmp_metrics[PROF_CMP_MEM_PEAK].key, v);
}

static int
write_index(struct dash *d, struct prof_err *err)
{
	struct prof_afile af = {0};
	char path[4096], n1[32];
	FILE *fp;
	size_t i;
	int both = 0;

	snprintf(path, sizeof(path), "%s/index.html", d->o->dir);
	fp = prof_afile_open(&af, path, err);
	if (!fp)
		return -1;
	for (i = 0; i < d->n_entries; i++)
		if (d->entries[i].timed && d->entries[i].counted)
			both = 1;
	head(fp, d->o->title);
	fputs("<h1>", fp);
	prof_page_esc(fp, d->o->title);
	fprintf(fp, "</h1>\n<p class=\"sub\">%zu series over %zu run%s",
		d->n_entries, d->runs, d->runs == 1 ? "" : "s");
	if (d->runs) {
		fputs("; the latest: <span class=\"mono\">", fp);
		prof_page_esc(fp, d->last_run);
		fputs("</span>", fp);
	}
	fputs(". What changed recently comes first, then every series with "
	      "its latest status; a series' page has its charts and runs."
	      "</p>\n", fp);
	if (recent_section(fp, d, err) < 0) {
		prof_afile_abort(&af);
		return -1;
	}
	fputs("<section><h2>Every series</h2><div class=\"wrap\"><table>"
	      "<thead><tr><th class=\"num\">latest status</th><th>series</th>"
	      "<th class=\"num\">latest median</th><th title=\"the median "
	      "per run, oldest first (a series of instruction counts only: "
	      "its count); a red mark is a change point\">trend</th>", fp);
	if (both)
		fputs("<th class=\"wide\">instructions</th>", fp);
	if (d->any_memory)
		fputs("<th class=\"wide\">heap peak, bytes</th>", fp);
	fputs("<th class=\"num\">runs</th><th>last change</th></tr>"
	      "</thead><tbody>\n", fp);
	for (i = 0; i < d->n_entries; i++) {
		struct entry *e = &d->entries[i];
		double *iv = NULL;
		size_t k;

		fprintf(fp, "<tr class=\"series\" data-backend=\"");
		prof_page_esc(fp, e->backend);
		fputs("\">", fp);
		status_cell(fp, e, d->last_run);
		fprintf(fp, "<td class=\"name\"><a href=\"%s\">", e->file);
		prof_page_esc(fp, e->workload);
		fputs("</a>", fp);
		if (e->key && e->key->differs[0]) {
			fputs("<div class=\"differs\">", fp);
			prof_page_esc(fp, e->key->differs);
			fputs("</div>", fp);
		}
		fputs("<div class=\"segw\" title=\"segment ", fp);
		prof_page_esc(fp, e->segment_id);
		fputs("\">", fp);
		segment_words(fp, e->backend, e->segment, e->segment_id);
		fputs("</div></td>", fp);
		fprintf(fp, "<td class=\"num\">%s</td><td>",
			ms(e->last_median, n1));
		if (e->counted)
			iv = malloc((e->n ? e->n : 1) * sizeof(*iv));
		for (k = 0; iv && k < e->n; k++)
			iv[k] = e->instructions[k] >= 0 ?
					(double)e->instructions[k] :
					NAN;
		/* The trend of a series of counts only is its counts' (a
		 * series of memory only has its heap peak's column). */
		if (e->timed)
			spark(fp, "med", "med", e->medians, e->n, e->cuts,
			      e->ncuts, "median per run");
		else if (iv)
			spark(fp, "instr", "ins", iv, e->n, NULL, 0,
			      "instruction count per run (counts only)");
		else
			fputs("<span class=\"none\">-</span>", fp);
		fputs("</td>", fp);
		if (both) {
			fputs("<td class=\"wide\">", fp);
			if (iv && e->timed)
				spark(fp, "instr", "ins", iv, e->n, NULL, 0,
				      "instruction count per run");
			else if (iv)
				fputs("<span class=\"none\" title=\"counts "
				      "only: the trend is theirs\">= trend"
				      "</span>", fp);
			else
				fputs("<span class=\"none\">-</span>", fp);
			fputs("</td>", fp);
		}
		free(iv);
		if (d->any_memory)
			heap_cell(fp, e);
		fprintf(fp, "<td class=\"num\">%zu</td><td>", e->n);
		change_words(fp, e);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table></div></section>\n</main></body></html>\n", fp);
	return prof_afile_commit(&af, err);
}

static void
free_dash(struct dash *d)
{
	size_t i;
	int m;

	free_points(d);
	free(d->pts);
	for (i = 0; i < d->n_entries; i++) {
		struct entry *e = &d->entries[i];

		free(e->workload);
		free(e->backend);
		free(e->segment_id);
		free(e->segment);
		free(e->medians);
		free(e->instructions);
		free(e->heap);
		free(e->cuts);
		free(e->last_reason);
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			free(e->last_mem_status[m]);
			free(e->last_mem_reason[m]);
		}
	}
	free(d->entries);
	for (i = 0; i < d->n_keys; i++) {
		struct skey *k = &d->keys[i];

		free(k->workload);
		free(k->backend);
		free(k->segment_id);
		free(k->segment);
		free(k->differs);
	}
	free(d->keys);
}

/*
 * The output folder. A dashboard's own folder holds DASH_MARK (written
 * before its pages), so that it is written over again; any other folder
 * that holds anything is refused, and so is a run folder or a folder
 * inside one (prof_in_run(): one that holds a file of fragment/run-lib.sh's
 * RUN_MARKS). Returns 0, or prints why and returns 2.
 */
#define DASH_MARK ".prof-dashboard"

static int
dir_check(const char *dir)
{
	char abs[PATH_MAX], p[PATH_MAX], safe[512], psafe[512];
	const char *m;
	struct stat sb;
	struct dirent *e;
	DIR *d;
	int exists = stat(dir, &sb) == 0;

	cli_safe(dir, safe, sizeof(safe));
	if (exists && !S_ISDIR(sb.st_mode))
		return cli_fail("'%s' is not a folder: give the folder to "
				"write", safe);
	switch (prof_in_run(dir, abs, sizeof(abs), &m)) {
	case 1:
		return cli_fail("'%s' is a run folder (it holds '%s'): a "
				"dashboard is never written into a run; give "
				"another folder", safe, m);
	case 2:
		return cli_fail("'%s' is inside the run folder '%s' "
				"(it holds '%s'): a dashboard is never "
				"written into a run; give a folder "
				"outside it", safe,
				cli_safe(abs, psafe, sizeof(psafe)), m);
	case -1:
		return cli_fail("cannot read the current folder: %s",
				strerror(errno));
	}
	if (!exists)
		return 0;
	snprintf(p, sizeof(p), "%s/" DASH_MARK, dir);
	if (stat(p, &sb) == 0)
		return 0;
	d = opendir(dir);
	if (!d)
		return cli_fail("cannot read '%s': %s", safe, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			break;
	if (e) {
		cli_safe(e->d_name, psafe, sizeof(psafe));
		closedir(d);
		return cli_fail("'%s' is not empty (it holds '%s') and is no "
				"dashboard's folder (no " DASH_MARK "): a "
				"dashboard is written only into a new or empty "
				"folder or over an earlier dashboard; give "
				"another folder, or remove this one first",
				safe, psafe);
	}
	closedir(d);
	return 0;
}

/* The folder made, and marked as a dashboard's (dir_check()). */
static int
dir_make(const char *dir, struct prof_err *err)
{
	static const char text[] =
		"prof-dashboard wrote this folder; it writes over it again "
		"(prof-dashboard(1))\n";
	char p[PATH_MAX + 32];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/" DASH_MARK, dir);
	if (prof_mkdirs(dir, err) < 0)
		return -1;
	return stat(p, &sb) == 0 ? 0 :
		prof_afile_write(p, text, sizeof(text) - 1, err);
}

static int
build(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = NULL;
	struct json_object *runs = NULL;
	struct dash d = {.o = o};
	char name[4096];
	int rc = PROF_EXIT_FAILURE;

	h = prof_history_open(o->db, 0, &err);
	if (!h)
		goto fail;
	/* --project, else $PROF_PROJECT, else the git repository's name,
	 * where the history holds many (cli_project_default()) */
	if (o->project || prof_history_many_projects(h)) {
		if (cli_project_default(o->project, name, sizeof(name)) < 0)
			goto out;
		if (prof_history_project(h, name, &err) < 0)
			goto fail;
	}
	runs = prof_history_list(h, &err);
	if (!runs)
		goto fail;
	d.runs = json_object_array_length(runs);
	if (d.runs)
		snprintf(d.last_run, sizeof(d.last_run), "%s",
			 prof_json_str(json_object_array_get_idx(runs,
								 d.runs - 1),
				       "run_id"));
	json_object_put(runs);
	/* Two walks: the series and their segments first, so that each
	 * page can say what tells it from the other series of its
	 * workload; then each series' runs, one series in memory at once. */
	if (prof_history_walk(h, on_key, &d, &err) < 0 ||
	    find_differs(&d, &err) < 0 || dir_make(o->dir, &err) < 0 ||
	    prof_history_walk(h, on_point, &d, &err) < 0 ||
	    flush_series(&d, &err) < 0 || write_index(&d, &err) < 0)
		goto fail;
	cli_say("wrote %zu series over %zu runs to '%s/index.html'",
		d.n_entries, d.runs, o->dir);
	rc = PROF_EXIT_OK;
	goto out;
fail:
	cli_err(&err);
out:
	free_dash(&d);
	prof_history_close(h);
	return rc;
}

/* A project's folder under the index: its name where that is a plain id
 * (id.h), else "p-" and the id of the name (sample.h). */
static int
project_dir(const char *name, char *out, size_t n)
{
	char why[160], id[PROF_ID_SIZE];

	if (prof_id_valid(name, why, sizeof(why)) == 1) {
		snprintf(out, n, "%s", name);
		return 0;
	}
	if (prof_sample_id(name, id) < 0)
		return -1;
	snprintf(out, n, "p-%s", id);
	return 0;
}

/*
 * --projects: each project's dashboard in a folder of its own, and an
 * index of them. The projects are read first, then drawn one at a time
 * (each a build() of its own: one project's series in memory at once).
 */
static int
build_projects(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(o->db, 0, &err);
	struct json_object *ps = h ? prof_history_projects(h, &err) : NULL;
	struct prof_afile af = {0};
	char path[4096], sub[4096], dir[300], title[1024];
	size_t i, n;
	FILE *fp;
	int rc = PROF_EXIT_FAILURE;

	prof_history_close(h);
	if (!ps || dir_make(o->dir, &err) < 0)
		goto fail;
	n = json_object_array_length(ps);
	for (i = 0; i < n; i++) {
		const char *name = prof_json_str(json_object_array_get_idx(ps, i),
						 "project");
		struct opts one = *o;

		if (project_dir(name, dir, sizeof(dir)) < 0) {
			prof_err_set(&err, "out of memory");
			goto fail;
		}
		snprintf(sub, sizeof(sub), "%s/%s", o->dir, dir);
		snprintf(title, sizeof(title), "%s: %s", o->title,
			 name[0] ? name : "this history");
		one.project = name;
		one.projects = 0;
		one.dir = sub;
		one.title = title;
		if (build(&one) != PROF_EXIT_OK)
			goto out;
	}
	snprintf(path, sizeof(path), "%s/index.html", o->dir);
	fp = prof_afile_open(&af, path, &err);
	if (!fp)
		goto fail;
	head(fp, o->title);
	fputs("<h1>", fp);
	prof_page_esc(fp, o->title);
	fprintf(fp, "</h1>\n<p class=\"sub\">%zu project%s in this history; "
		    "each links to its own series.</p>\n<div class=\"wrap\">"
		    "<table><thead><tr><th>project</th><th class=\"num\">runs"
		    "</th><th>latest run</th></tr></thead><tbody>\n",
		n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(ps, i);
		const char *name = prof_json_str(p, "project");
		const char *latest = prof_json_str(p, "latest");

		project_dir(name, dir, sizeof(dir));
		fputs("<tr><td><a href=\"", fp);
		prof_page_esc(fp, dir);
		fputs("/index.html\">", fp);
		prof_page_esc(fp, name[0] ? name : "this history");
		fprintf(fp, "</a></td><td class=\"num\">%lld</td><td "
			    "class=\"mono\">",
			(long long)json_object_get_int64(
				json_object_object_get(p, "runs")));
		prof_page_esc(fp, latest ? latest : "");
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table></div>\n</main></body></html>\n", fp);
	if (prof_afile_commit(&af, &err) < 0)
		goto fail;
	cli_say("wrote %zu project%s to '%s/index.html'", n, n == 1 ? "" : "s",
		o->dir);
	rc = PROF_EXIT_OK;
	goto out;
fail:
	cli_err(&err);
out:
	json_object_put(ps);
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	const char *env = getenv("PROF_HISTORY");
	struct opts o = {
		.db = env && env[0] ? env : "artifacts/history.sqlite",
		.title = "prof dashboard",
	};
	static char url[1024];
	char safe[512];
	int c;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	while ((c = cli_opt_next(&g, argc, argv)) != -1) {
		switch (c) {
		case OPT_DB:
			o.db = optarg;
			break;
		case OPT_PROJECT:
			o.project = optarg;
			break;
		case OPT_REPO_URL:
			o.repo_url = optarg;
			break;
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_PROJECTS:
			o.projects = 1;
			break;
		case 'o':
			o.dir = optarg;
			break;
		case 'h':
			cli_opt_usage(option_table, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-dashboard %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			cli_opt_usage(option_table, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'",
				cli_safe(argv[optind], safe, sizeof(safe)));
	if (!o.dir)
		return cli_fail("give the folder to write: -o DIR");
	if (!o.dir[0] || !o.db[0] || (o.project && !o.project[0]))
		return cli_fail("empty argument");
	if (o.project && o.projects)
		return cli_fail("--project and --projects go apart (one project's "
				"dashboard, or every project's)");
	if (o.repo_url && o.repo_url[0]) {
		if (!repo_url_ok(o.repo_url))
			return cli_fail("--repo-url: '%s' is not an http(s) "
					"address",
					cli_safe(o.repo_url, safe,
						 sizeof(safe)));
		snprintf(url, sizeof(url), "%s", o.repo_url);
		while (url[0] && url[strlen(url) - 1] == '/')
			url[strlen(url) - 1] = '\0';
		o.repo_url = url;
	} else {
		o.repo_url = NULL;
	}
	if (dir_check(o.dir))
		return PROF_EXIT_FAILURE;
	if (prof_page_csp(csp_hash, CSS) < 0)
		return cli_fail("out of memory");
	return cli_finish(o.projects ? build_projects(&o) : build(&o));
}
