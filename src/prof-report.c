/* prof-report: a run's summary.md (and a compact table, and CI annotations)
 * from its results and comparisons. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/grow.h"
#include "base/htab.h"
#include "base/json.h"
#include "base/out.h"
#include "base/spawn.h"
#include "base/utf8.h"
#include "channels.h"
#include "cli/cli.h"
#include "cli/project.h"
#include "verdict/view.h"
#include "verdict/verdict.h"
#include "report/md.h"
#include "model/calib.h"
#include "model/contend.h"
#include "model/runview.h"
#include "model/sample.h"
#include "model/stream.h"
#include "page.h"
#include "report/runpage.h"

enum {
	OPT_NOTE = 256,
};

struct opts {
	const char *notes[16];
	int n_notes;
	const char *comparisons;
	const char *output;
	const char *run_dir;
	const char *pprof;
	int quiet;
	struct prof_runpage_in html;	/* html.output: --html FILE */
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-report [--comparisons FILE] [-o FILE] [--html FILE]\n" "            [--baseline FILE] [--history DB] RESULTS"),
	CLI_TEXT(
	"Write the run's summary.md from its results file RESULTS (- for\n"
	"stdin) and, when given, the comparisons prof-diff wrote for it; then\n"
	"print a compact table on stdout. RESULTS (schema 1 or 2) is\n"
	"streamed: memory holds each row in brief (its counts, CPU median\n"
	"and memory peaks, about 100 bytes), never the file or its samples'\n"
	"values, and the comparisons are kept as text and read back a few\n"
	"rows at a time; --html reads RESULTS again for the rows it draws\n"
	"whole. The summary holds:\n"
	"  - the run id, command, commit, timestamp, the environment in words\n"
	"    (CPU, OS, compiler, backend, device) and the number of error\n"
	"    samples;\n"
	"  - one row per workload x backend: n, min, median, p90 and max (ms)\n"
	"    of the warm timing samples that succeeded, their median CPU\n"
	"    time (ms) and how many were contended (\"4/12\": the call\n"
	"    waited; prof-time(1), CONTENTION), the host and GPU\n"
	"    memory peaks where a memory sample exists, the median's change\n"
	"    against the baseline in ms and %, the ratio of the medians\n"
	"    (current / baseline), the Mann-Whitney p-value, and the\n"
	"    status, with its\n"
	"    reason below the table; where the run has instruction counts\n"
	"    (prof-count), each row's count, its change in % and its status\n"
	"    beside, and the rows where time and instructions disagree;\n"
	"  - where the run has memory rows (prof-diff's \"phase\":\n"
	"    \"memory\"), a Memory table: each row's metric, current and\n"
	"    baseline medians and change in bytes or allocations with\n"
	"    grouped digits, its rule and status, the reason of each\n"
	"    that is not stable, and the rows where time and memory\n"
	"    disagree, in the metric's words (time stable, the heap peak\n"
	"    a warning: more memory in the same time; allocations: more\n"
	"    allocations in the same time);\n"
	"  - when rows are new because the baseline lacks their segment,\n"
	"    this run's segments and the ones the baseline has;\n"
	"  - each error sample with its phase and reason;\n"
	"  - the top 20 functions of each CPU profile (.prof artifact), read\n"
	"    with google-pprof --text.\n"
	"When the comparisons carry a machine-drift note (prof-diff), the\n"
	"summary opens with it.\n"
	"Unsettled rows (status unsettled: the evidence did not settle\n"
	"within the budget; never warning, improved or stable, and no exit\n"
	"status changes) are listed after the statuses, with the command\n"
	"that would settle them: the run's command with MODE=full (a quick\n"
	"make compare), a doubled REPEAT (a full one), each with W= the\n"
	"unsettled rows' workloads, or a doubled --max-repeat (prof-time);\n"
	"a row judged against a baseline, interleaved (make compare). The\n"
	"compact table ends with a line for each such row and each row\n"
	"whose current samples were mostly contended, then the command;\n"
	"then, where the run has\n"
	"memory rows, one line each: workload, backend, metric, current,\n"
	"baseline, delta (grouped digits) and status.\n"
	"When GITHUB_ACTIONS=true, each warning is also printed as a\n"
	"'::warning title=Performance regression::' annotation, and each\n"
	"unsettled row as a '::notice title=Performance not settled::' one."),
	CLI_GROUP("options:"),
	CLI_STRING("comparisons", 0, "FILE", struct opts, comparisons,
		"prof-diff's output for RESULTS (without it the\n"
		"rows have no baseline columns); comparisons\n"
		"of another run are refused"),
	CLI_STRING("output", 'o', "FILE", struct opts, output,
		"the summary (default: summary.md in the run\n"
		"folder, the folder of RESULTS: the current\n"
		"one when RESULTS names none or is -); -\n"
		"prints it instead of the table"),
	CLI_STRING("run-dir", 0, "DIR", struct opts, run_dir,
		"the run folder, which artifacts are relative\n"
		"to (default: the folder of RESULTS)"),
	CLI_STRING("pprof", 0, "PROGRAM", struct opts, pprof,
		"the pprof to run (default $PROF_PPROF, else\n"
		"google-pprof)"),
	CLI_OPTION("note", 0, "TEXT", OPT_NOTE,
		"a line for the top of the summary (repeatable)"),
	CLI_TRUE("quiet", 'q', struct opts, quiet,
		"no table on stdout"),
	CLI_STRING("html", 0, "FILE", struct opts, html.output,
		"also write one self-contained HTML page: per\n"
		"workload its time and instruction channels,\n"
		"each with its status and reason, the current\n"
		"and baseline samples (ms) or counts on one\n"
		"axis, memory, links to diagnose files, and\n"
		"with --history\n"
		"the median and p90 over the runs with the\n"
		"change points marked"),
	CLI_STRING("baseline", 0, "FILE", struct opts, html.baseline,
		"the baseline compared with, for its samples;\n"
		"when it is not there (a first run), the\n"
		"summary's first line and the table's last\n"
		"say how to make a local one from this run"),
	CLI_STRING("history", 0, "DB", struct opts, html.history,
		"a prof-history database, for the trends"),
	CLI_TEXT(
	"example:\n"
	"  prof-report --comparisons run/comparisons.json run/results.json"),
	CLI_TEXT(
	"Exit status: 0 written (warnings and error samples included), 2 bad\n"
	"arguments, a malformed results or comparisons file, or a failed\n"
	"write."),
	CLI_STANDARD,
	CLI_END,
};

/* The lines of a CPU profile that the summary shows. */
#define TOP_FUNCTIONS 20

/* A .prof artifact of a profile sample. */
struct profile {
	char *workload;
	char *backend;
	char *binary;		/* metrics.binary; NULL: none */
	char *artifact;
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
};

/* A field in a code span in a table cell. */
#define CELL_CODE (PROF_MD_CODE | PROF_MD_CELL)

static const char *
str_or(struct json_object *o, const char *key, const char *dflt)
{
	const char *s = prof_json_str(o, key);

	return s && s[0] ? s : dflt;
}

/* A row's ratio (current / baseline median) and p-value, as cells. */
static void
ratio_cells(struct json_object *row, char *ratio, size_t nr, char *p,
	    size_t np)
{
	double x = prof_json_numf(row, "ratio");
	double pv = prof_json_numf(row, "p_value");

	if (isfinite(x))
		snprintf(ratio, nr, "%.3f", x);
	else
		snprintf(ratio, nr, "-");
	if (isfinite(pv))
		snprintf(p, np, "%.2g", pv);
	else
		snprintf(p, np, "-");
}

/* The percentage change of a row's median, from its ratio. */
static double
row_pct(struct json_object *row)
{
	double ratio = prof_json_numf(row, "ratio");

	return isfinite(ratio) ? (ratio - 1) * 100 : NAN;
}

/* Whether a comparison row holds instruction counts (prof-count). */
static int
is_count_row(struct json_object *row)
{
	const char *phase = prof_json_str(row, "phase");

	return phase && !strcmp(phase, "instructions");
}

/* An instruction row's count (grouped, as on every page: prof_page_count()),
 * its change and its status, as table cells. */
static void
count_cells(struct report *r, struct json_object *crow, char *count, size_t nc,
	    char *pct, size_t np, const char **status)
{
	double med = crow ? prof_json_numf(prof_json_get(crow, "current"), "median") : NAN;
	double d = crow ? row_pct(crow) : NAN;

	prof_page_count(count, nc, med, 0);
	if (isfinite(d))
		snprintf(pct, np, "%+.2f%%", d);
	else
		snprintf(pct, np, "-");
	*status = crow && r->judged ? prof_json_str(crow, "status") : "-";
}

/* Whether the run has instruction rows at all. */
static int
has_counts(struct report *r)
{
	return prof_cmpview_has_counts(&r->rows);
}

static int view_rows_of(struct report *r, const char *w, const char *b,
			const char *seg, size_t *from, size_t *to);

/*
 * The first comparison (in the document's order) of counts (count set)
 * or of time of the workload and backend of comparison row, in any
 * segment (a count row has a segment of its own): the first of each of
 * the view's rows of them, which lie together. -1: none.
 */
static long
first_of(struct report *r, struct json_object *row, int count)
{
	const char *w = prof_json_str(row, "workload");
	const char *b = prof_json_str(row, "backend");
	const struct prof_runbrief *rows;
	size_t from, to, i;
	long best = -1;

	if (!view_rows_of(r, w, b, prof_json_str(row, "segment"), &from, &to))
		return -1;
	prof_runview_briefs(&r->view, &rows);
	for (i = from; i < to; i++) {
		long k = prof_cmpview_find(&r->rows, w, b, count,
					   rows[i].segment);

		if (k >= 0 && (best < 0 || k < best))
			best = k;
	}
	return best;
}

/* The instruction row of row's workload and backend, or NULL. */
static struct json_object *
count_row_of(struct report *r, struct json_object *row)
{
	long k = first_of(r, row, 1);

	return k < 0 ? NULL : prof_cmpview_row(&r->rows, (size_t)k);
}

/* Whether a time row exists for the instruction row's workload. */
static int
has_time_row(struct report *r, struct json_object *crow)
{
	return first_of(r, crow, 0) >= 0;
}

/*
 * The view's rows [*from, *to) of workload w on backend b (every segment:
 * they lie together, sorted), found from the row of segment key seg;
 * 0 when there is none.
 */
static int
view_rows_of(struct report *r, const char *w, const char *b, const char *seg,
	     size_t *from, size_t *to)
{
	const struct prof_runbrief *rows;
	size_t n = prof_runview_briefs(&r->view, &rows);
	long k = w && b && seg ? prof_runview_brief(&r->view, w, b, seg) : -1;
	size_t i;

	if (k < 0)
		return 0;
	for (i = (size_t)k; i > 0 && !strcmp(rows[i - 1].workload, w) &&
			    !strcmp(rows[i - 1].backend, b);
	     i--)
		;
	*from = i;
	for (i = (size_t)k + 1; i < n && !strcmp(rows[i].workload, w) &&
				!strcmp(rows[i].backend, b);
	     i++)
		;
	*to = i;
	return 1;
}

/* The largest host and GPU memory peaks of the view's rows [from, to). */
static void
peaks(struct report *r, size_t from, size_t to, double *host, double *gpu)
{
	const struct prof_runbrief *rows;
	size_t i;

	prof_runview_briefs(&r->view, &rows);
	*host = *gpu = NAN;
	for (i = from; i < to; i++) {
		if (isfinite(rows[i].host_peak_bytes) &&
		    !(*host >= rows[i].host_peak_bytes))
			*host = rows[i].host_peak_bytes;
		if (isfinite(rows[i].device_peak_bytes) &&
		    !(*gpu >= rows[i].device_peak_bytes))
			*gpu = rows[i].device_peak_bytes;
	}
}

/* The memory peaks of a time row's workload x backend, marked shown. */
static void
memory_of(struct report *r, struct json_object *row, double *host,
	  double *gpu)
{
	size_t from, to, i;

	*host = *gpu = NAN;
	if (!view_rows_of(r, prof_json_str(row, "workload"),
			  prof_json_str(row, "backend"),
			  prof_json_str(row, "segment"), &from, &to))
		return;
	peaks(r, from, to, host, gpu);
	for (i = from; r->mem_used && i < to; i++)
		r->mem_used[i] = 1;
}

/* Whether a view row has a memory peak. */
static int
has_memory(const struct prof_runbrief *row)
{
	return isfinite(row->host_peak_bytes) ||
	       isfinite(row->device_peak_bytes);
}

/*
 * A time row's CPU median and contended cells ("4/12"): "-" where its
 * samples say nothing (a file from before the fields, a browser row).
 */
static void
cpu_cells(struct report *r, struct json_object *row, char *cpu, size_t nc,
	  char *cont, size_t nn)
{
	const struct prof_runbrief *rows;
	const char *w = prof_json_str(row, "workload");
	const char *b = prof_json_str(row, "backend");
	const char *seg = prof_json_str(row, "segment");
	long k = w && b && seg ? prof_runview_brief(&r->view, w, b, seg) : -1;
	struct prof_cpu_row said = {0};

	snprintf(cpu, nc, "-");
	snprintf(cont, nn, "-");
	prof_runview_briefs(&r->view, &rows);
	if (k < 0)
		return;
	said.n = rows[k].cpu_n;
	said.contended = rows[k].contended;
	prof_page_time(cpu, nc, rows[k].cpu_n ? rows[k].cpu_median : NAN, 0);
	prof_cpu_row_contended(&said,
			       (size_t)prof_json_numf(prof_json_get(row,
								    "current"),
						      "n"),
			       cont, nn);
}

/* The environment of a sample in words: CPU, OS, compiler, backend,
 * device (and browser). */
static void
env_words(struct json_object *env, char *buf, size_t n)
{
	char os[256], dev[256], cpus[32] = "";
	const char *distro = prof_json_str(env, "distro_name");
	const char *req = prof_json_str(env, "backend_requested");
	const char *backend = str_or(env, "backend", "unknown");
	double ncpu = prof_json_numf(env, "cpu_count");
	size_t off;

	if (isfinite(ncpu))
		snprintf(cpus, sizeof(cpus), ", %.0f CPUs", ncpu);
	if (distro)
		snprintf(os, sizeof(os), "%s, %s %s", distro,
			 str_or(env, "os", "?"), str_or(env, "kernel", "?"));
	else
		snprintf(os, sizeof(os), "%s %s, %s %s",
			 str_or(env, "distro", "?"),
			 str_or(env, "distro_version", "?"),
			 str_or(env, "os", "?"), str_or(env, "kernel", "?"));
	if (prof_json_str(env, "device"))
		snprintf(dev, sizeof(dev), "%s (compute capability %s, CUDA "
			 "runtime %s, driver %s)",
			 prof_json_str(env, "device"),
			 str_or(env, "device_cc", "?"),
			 str_or(env, "cuda_runtime", "?"),
			 str_or(env, "cuda_driver", "?"));
	else
		snprintf(dev, sizeof(dev), "none");
	snprintf(buf, n, "CPU %s (%s%s); OS %s; ",
		 str_or(env, "cpu_model", "unknown"),
		 str_or(env, "machine", "?"), cpus, os);
	off = strlen(buf);
	if (prof_json_str(env, "compiler") && off < n)
		off += (size_t)snprintf(buf + off, n - off, "compiler %s %s; ",
					prof_json_str(env, "compiler"),
					str_or(env, "compiler_version", "?"));
	if (off < n)
		off += (size_t)snprintf(buf + off, n - off, "backend %s",
					backend);
	if (req && strcmp(req, backend) && off < n)
		off += (size_t)snprintf(buf + off, n - off, " (requested %s)",
					req);
	if (off < n)
		off += (size_t)snprintf(buf + off, n - off, "; device %s", dev);
	if (prof_json_str(env, "browser") && off < n)
		snprintf(buf + off, n - off, "; browser %s",
			 prof_json_str(env, "browser"));
}

static void
write_header(struct report *r)
{
	size_t i, j, n_words = 0;
	char **words = calloc(r->n_envs ? r->n_envs : 1, sizeof(*words));
	FILE *md = r->md;

	fprintf(md, "# Performance profile ");
	prof_md_write(md, prof_json_str(r->meta, "run_id"), PROF_MD_CODE);
	fprintf(md, "\n\n| | |\n|---|---|\n| run | ");
	prof_md_write(md, prof_json_str(r->meta, "run_id"), CELL_CODE);
	fprintf(md, " |\n| command | ");
	prof_md_write(md, prof_json_str(r->meta, "command"), CELL_CODE);
	fprintf(md, " |\n| commit | ");
	prof_md_write(md, prof_json_str(r->meta, "commit"), CELL_CODE);
	fprintf(md, " |\n| timestamp (UTC) | ");
	prof_md_write(md, prof_json_str(r->meta, "timestamp_utc"),
		      PROF_MD_TEXT);
	fprintf(md, " |\n| samples | %ld |\n| error samples | %ld |\n\n",
		(long)prof_runview_count(&r->view), r->errors);
	fprintf(md, "## Environment\n\n");
	for (i = 0; words && i < r->n_envs; i++) {
		char buf[2048];

		env_words(prof_stream_env(r->view.st, r->envs[i]), buf,
			  sizeof(buf));
		for (j = 0; j < n_words; j++)
			if (!strcmp(words[j], buf))
				break;
		if (j < n_words)
			continue;
		words[n_words] = strdup(buf);
		if (!words[n_words])
			break;
		fprintf(md, "- ");
		prof_md_write(md, buf, PROF_MD_TEXT);
		fputc('\n', md);
		n_words++;
	}
	if (!n_words)
		fprintf(md, "- no samples\n");
	fputc('\n', md);
	for (j = 0; j < n_words; j++)
		free(words[j]);
	free(words);
}

/* "`workload` (backend)": a row's name in summary.md. */
static void
write_row_name(FILE *md, struct json_object *row)
{
	prof_md_write(md, prof_json_str(row, "workload"), PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, prof_json_str(row, "backend"), PROF_MD_TEXT);
	fputc(')', md);
}

/* Whether a status is a verdict the channels can be compared by. */
static int
settled_status(const char *st)
{
	return st && (!strcmp(st, "stable") || !strcmp(st, "warning") ||
		      !strcmp(st, "improved"));
}

/* Whether a time row and its instruction row both exist but one of them
 * did not settle: the two cannot be said to agree. */
static int
pair_open(struct json_object *t, struct json_object *c)
{
	return t && c && (!settled_status(prof_json_str(t, "status")) ||
			  !settled_status(prof_json_str(c, "status")));
}

/*
 * The rows with both channels where one did not settle, by name and
 * both statuses: of them, summary.md says neither that time and
 * instructions agree nor that they disagree.
 */
static void
write_open_pairs(struct report *r, int any, int agree)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;

	if (agree && !any)
		fprintf(md, "Time and instructions agree on every row where "
			    "both settled.\n");
	if (agree || any)
		fputc('\n', md);
	fprintf(md, "Time and instructions are not compared where one of "
		    "them did not settle:\n\n");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *crow;

		if (is_count_row(row))
			continue;
		crow = count_row_of(r, row);
		if (!pair_open(row, crow))
			continue;
		fprintf(md, "- ");
		write_row_name(md, row);
		fprintf(md, ": time **");
		prof_md_write(md, prof_json_str(row, "status"), PROF_MD_TEXT);
		fprintf(md, "**, instructions **");
		prof_md_write(md, prof_json_str(crow, "status"), PROF_MD_TEXT);
		fprintf(md, "**\n");
	}
}

/*
 * Rows whose time and instruction statuses differ, each as two facts and
 * what they can mean: time is what the user waits for, counts are the
 * amount of work; more instructions is never read as more time.
 */
static void
write_disagreements(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;
	int any = 0, open = 0, both = 0;

	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		char line[1024];

		if (is_count_row(row))
			continue;
		both += count_row_of(r, row) != NULL;
		if (!prof_channels_disagree(row, count_row_of(r, row),
					    "**", line, sizeof(line))) {
			open += pair_open(row, count_row_of(r, row));
			continue;
		}
		if (!any++)
			fprintf(md, "Time and instructions disagree:\n\n");
		fprintf(md, "- ");
		write_row_name(md, row);
		fprintf(md, ": %s\n", line);
	}
	if (!any && !open)
		fprintf(md, "Time and instructions agree on every row that "
			    "has both.\n");
	else if (open)
		write_open_pairs(r, any, both - open - any);
	fputc('\n', md);
}

/* The last two parts of a source path: "engine/flatten.c". */
static const char *
short_file(const char *f)
{
	const char *a = f ? strrchr(f, '/') : NULL;

	if (!a)
		return f ? f : "";
	while (a > f && a[-1] != '/')
		a--;
	return a;
}

/* One of prof-why's lists (at most five entries) as a short table. */
static void
write_fn_table(FILE *md, struct json_object *fns, const char *what)
{
	size_t i, n = json_object_array_length(fns);

	fprintf(md, "\n  %s:\n\n  | function | file | self before | "
		    "self after | Δ self | share | inclusive before | "
		    "inclusive after |\n  |---|---|--:|--:|--:|--:|--:|--:|\n",
		what);
	for (i = 0; i < n && i < 5; i++) {
		struct json_object *f = json_object_array_get_idx(fns, i);
		const char *state = prof_json_str(f, "state");
		int odd = state && strcmp(state, "changed");
		long long sb = json_object_get_int64(prof_json_get(f, "self_before"));
		long long sa = json_object_get_int64(prof_json_get(f, "self_after"));
		double share = prof_json_numf(f, "share");
		char c[4][40];

		prof_fmt_count(c[0], sizeof(c[0]), sb, 0);
		prof_fmt_count(c[1], sizeof(c[1]), sa, 0);
		prof_fmt_count(c[2], sizeof(c[2]), sa - sb, 1);
		prof_fmt_count(c[3], sizeof(c[3]),
			  json_object_get_int64(prof_json_get(f, "inclusive_before")), 0);
		fprintf(md, "  | ");
		prof_md_write(md, prof_json_str(f, "name"), CELL_CODE);
		if (odd) {
			fputc(' ', md);
			prof_md_write(md, state, PROF_MD_TEXT);
		}
		fprintf(md, " | ");
		prof_md_write(md, short_file(prof_json_str(f, "file")),
			      PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | ", c[0], c[1], c[2]);
		if (isfinite(share))
			fprintf(md, "%.1f%%", 100 * share);
		else
			fprintf(md, "-");
		prof_fmt_count(c[2], sizeof(c[2]),
			  json_object_get_int64(prof_json_get(f, "inclusive_after")), 0);
		fprintf(md, " | %s | %s |\n", c[3], c[2]);
	}
	fputc('\n', md);
}

/*
 * Under a changed row's reason: the functions prof-why found, as short
 * tables: instructions (a time row whose instruction row has them leaves
 * them to that row) and, for a time row, CPU samples.
 */
static void
write_functions(struct report *r, struct json_object *row)
{
	struct json_object *fns = prof_json_get(row, "functions"), *crow = NULL;

	if (!is_count_row(row))
		crow = count_row_of(r, row);
	if (json_object_is_type(fns, json_type_array) &&
	    json_object_array_length(fns) && !(crow && prof_json_get(crow, "functions")))
		write_fn_table(r->md, fns, "Instructions per function");
	fns = prof_json_get(row, "time_functions");
	if (json_object_is_type(fns, json_type_array) &&
	    json_object_array_length(fns))
		write_fn_table(r->md, fns,
			       "CPU time per function, ns per call "
			       "(gperftools)");
}

/*
 * The verdict's notes on a row beyond its status: a row whose evidence
 * did not settle within its budget (unsettled), and a time row whose
 * current samples were mostly contended.
 */
static int
row_unsettled(struct json_object *row)
{
	const char *st = prof_json_str(row, "status");

	return st && !strcmp(st, "unsettled");
}

/* Whether most current samples were contended; *k of *n. */
static int
row_contended(struct json_object *row, long *k, long *n)
{
	struct json_object *c = prof_json_get(row, "contended");

	*k = (long)prof_json_numf(c, "current");
	*n = (long)prof_json_numf(prof_json_get(row, "current"), "n");
	return !is_count_row(row) && *n > 0 && 2 * *k > *n;
}

/*
 * " W=ID" or " W=\"ID ID...\"": the workloads of the unsettled rows, each
 * once, for a make compare that settles them and runs nothing else (a
 * quick run's selection kept: MODE=full alone would run every
 * workload). "" when they do not fit in n bytes.
 */
static void
settle_w(struct report *r, char *buf, size_t n)
{
	size_t i, k, rows = prof_cmpview_len(&r->rows), off = 0, words = 0;
	int quote;

	buf[0] = '\0';
	for (i = 0; i < rows; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		const char *w = prof_json_str(row, "workload");

		for (k = 0; w && k < i; k++)
			if (row_unsettled(prof_cmpview_row(&r->rows, k)) &&
			    !strcmp(prof_json_str(prof_cmpview_row(&r->rows,
								   k),
						  "workload"),
				    w))
				break;
		if (!w || !row_unsettled(row) || k < i)
			continue;
		words++;
		if (off + strlen(w) + 8 >= n) {
			buf[0] = '\0';
			return;
		}
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					off ? " " : "", w);
	}
	if (!words)
		return;
	quote = words > 1;
	memmove(buf + 3 + quote, buf, off + 1);
	memcpy(buf, " W=\"", 3 + quote);
	if (quote)
		strcat(buf, "\"");
}

/* The command that would settle the unsettled rows (compare.h), with W=
 * the unsettled rows' workloads. */
static void
settle_command(struct report *r, long repeat, long max, char *buf, size_t n)
{
	char w[1024];

	settle_w(r, w, sizeof(w));
	prof_cmp_settle_command(prof_json_str(r->meta, "command"), repeat, max,
				w, buf, n);
}

/* How many rows are unsettled, and the largest --repeat and --max-repeat
 * of those that are interleaved (0: none is). */
static long
unsettled_budget(struct report *r, long *repeat, long *max)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	long count = 0;

	*repeat = *max = 0;
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *ab = prof_json_get(row, "interleaved");
		long rp = (long)prof_json_numf(ab, "repeat");
		long mx = (long)prof_json_numf(ab, "max_repeat");

		if (!row_unsettled(row))
			continue;
		count++;
		if (mx > *max)
			*max = mx;
		if (rp > *repeat)
			*repeat = rp;
	}
	return count;
}

/* summary.md: the unsettled rows, and the command that would settle
 * them. */
static void
write_unsettled(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	long repeat, max;
	char cmd[2300];

	if (!unsettled_budget(r, &repeat, &max))
		return;
	fprintf(r->md, "Unsettled (the evidence did not settle within the "
		       "budget: neither warning, improved nor stable):\n\n");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *ab = prof_json_get(row, "interleaved");
		double p = prof_json_numf(row, "p_value");

		if (!row_unsettled(row))
			continue;
		fprintf(r->md, "- ");
		prof_md_write(r->md, prof_json_str(row, "workload"),
			      PROF_MD_CODE);
		fprintf(r->md, " (");
		prof_md_write(r->md, prof_json_str(row, "backend"),
			      PROF_MD_TEXT);
		if (ab)
			fprintf(r->md, "): %.0f samples a side",
				prof_json_numf(ab, "samples_a_side"));
		else
			fprintf(r->md, "): %.0f samples",
				prof_json_numf(prof_json_get(row, "current"),
					       "n"));
		if (isfinite(p))
			fprintf(r->md, ", p = %.3g", p);
		fputc('\n', r->md);
	}
	settle_command(r, repeat, max, cmd, sizeof(cmd));
	fprintf(r->md, "\nTo settle them, %s", max ? "run: " : "");
	prof_md_write(r->md, cmd, max ? PROF_MD_CODE : PROF_MD_TEXT);
	fprintf(r->md, "\n\n");
}

/* The compact table's notes: one line per row that did not settle or
 * whose samples were mostly contended, then the settling command. */
static void
print_notes(struct report *r)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	long repeat, max, k, m;
	long unsettled = unsettled_budget(r, &repeat, &max);
	char s1[512], s2[64], cmd[2300], safe[2400];

	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *ab = prof_json_get(row, "interleaved");

		cli_safe(prof_json_str(row, "workload"), s1, sizeof(s1));
		cli_safe(prof_json_str(row, "backend"), s2, sizeof(s2));
		if (row_unsettled(row) && ab)
			printf("%s %s: not settled after %.0f samples a side "
			       "(p = %.3g): unsettled\n",
			       s1, s2, prof_json_numf(ab, "samples_a_side"),
			       prof_json_numf(row, "p_value"));
		else if (row_unsettled(row))
			printf("%s %s: not settled (p = %.3g): unsettled\n", s1,
			       s2, prof_json_numf(row, "p_value"));
		if (row_contended(row, &k, &m))
			printf("%s %s: %ld of %ld current samples contended: "
			       "the machine may have been busy\n",
			       s1, s2, k, m);
	}
	if (!unsettled)
		return;
	settle_command(r, repeat, max, cmd, sizeof(cmd));
	printf("to settle them: %s\n", cli_safe(cmd, safe, sizeof(safe)));
}

/* Whether some view row has a memory peak. */
static int
any_memory(struct report *r)
{
	const struct prof_runbrief *rows;
	size_t i, n = prof_runview_briefs(&r->view, &rows);

	for (i = 0; i < n; i++)
		if (has_memory(&rows[i]))
			return 1;
	return 0;
}

/* The memory peaks of each workload x backend no time row showed. */
static void
write_memory_rows(struct report *r, int counts)
{
	const struct prof_runbrief *rows;
	size_t i, j, n = prof_runview_briefs(&r->view, &rows);
	FILE *md = r->md;

	for (i = 0; i < n; i = j) {
		char host[32], gpu[32];
		double h, g;
		int used = 0, any = 0;

		for (j = i; j < n && !strcmp(rows[j].workload, rows[i].workload) &&
			    !strcmp(rows[j].backend, rows[i].backend);
		     j++) {
			used |= r->mem_used && r->mem_used[j];
			any |= has_memory(&rows[j]);
		}
		if (used || !any)
			continue;
		peaks(r, i, j, &h, &g);
		prof_page_bytes(host, sizeof(host), h);
		prof_page_bytes(gpu, sizeof(gpu), g);
		fprintf(md, "| ");
		prof_md_write(md, rows[i].workload, CELL_CODE);
		fprintf(md, " | ");
		prof_md_write(md, rows[i].backend, PROF_MD_TEXT);
		fprintf(md, " | 0 | - | - | - | - | - | - | %s | %s | - | - | "
			    "- | - | - |%s\n",
			host, gpu, counts ? " - | - | - |" : "");
	}
}

/* A memory row's metric as a table says it: "heap peak (bytes)". */
static const char *
mem_metric(struct json_object *row, char *buf, size_t n)
{
	enum prof_cmp_mem m = prof_cmp_metric_find(prof_json_str(row,
								 "metric"));

	if (!m)
		snprintf(buf, n, "%s", str_or(row, "metric", "-"));
	else
		snprintf(buf, n, "%s%s%s%s", prof_cmp_metrics[m].name,
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ? " (" : "",
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ?
				 prof_cmp_metrics[m].unit : "",
			 strcmp(prof_cmp_metrics[m].name,
				prof_cmp_metrics[m].unit) ? ")" : "");
	return buf;
}

/* A memory value with grouped digits, or "-" for none. */
static const char *
mem_cell(char *buf, size_t n, struct json_object *v, int sign)
{
	if (!v || !prof_json_is_number(v) ||
	    !isfinite(prof_json_number(v))) {
		snprintf(buf, n, "-");
		return buf;
	}
	return prof_fmt_count(buf, n, llround(prof_json_number(v)), sign);
}

/* The current median, the baseline's, the delta and the status of a
 * memory row, as cells. */
static void
mem_cells(struct report *r, struct json_object *row, char cells[3][32],
	  const char **status)
{
	mem_cell(cells[0], sizeof(cells[0]),
		 prof_json_get(prof_json_get(row, "current"), "median"), 0);
	mem_cell(cells[1], sizeof(cells[1]),
		 prof_json_get(prof_json_get(row, "baseline"), "median"), 0);
	mem_cell(cells[2], sizeof(cells[2]), prof_json_get(row, "delta"), 1);
	*status = r->judged ? prof_json_str(row, "status") : "-";
}

/* The memory rows that changed where their workload's time did not (or
 * the other way), each as two facts and what they can mean. */
static void
write_memory_disagreements(struct report *r)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->mem_rows) : 0;
	FILE *md = r->md;
	int any = 0;

	for (i = 0; i < n; i++) {
		struct json_object *m = prof_cmpview_row(&r->mem_rows, i);
		const char *w = m ? prof_json_str(m, "workload") : NULL;
		const char *b = m ? prof_json_str(m, "backend") : NULL;
		long k = m ? prof_cmpview_find(&r->rows, w, b, 0,
					       prof_json_str(m, "segment")) :
			     -1;
		char line[1024];

		if (k < 0 ||
		    !prof_channels_memory(prof_cmpview_row(&r->rows, (size_t)k),
					  m, "**", line, sizeof(line)))
			continue;
		if (!any++)
			fprintf(md, "Time and memory disagree:\n\n");
		fprintf(md, "- ");
		prof_md_write(md, w, PROF_MD_CODE);
		fprintf(md, " (");
		prof_md_write(md, b, PROF_MD_TEXT);
		fprintf(md, "): %s\n", line);
	}
	if (any)
		fputc('\n', md);
}

/*
 * Under a changed memory row's reason: the allocation sites prof-why
 * --memory found (DHAT, one call of each side), at most five, or the
 * line that says why there are none.
 */
static void
write_sites_table(FILE *md, struct json_object *row)
{
	struct json_object *sites = prof_json_get(row, "memory_sites");
	struct json_object *arts = prof_json_get(row, "memory_sites_artifacts");
	const char *note = prof_json_str(row, "memory_sites_note");
	size_t i, n = json_object_is_type(sites, json_type_array) ?
			      json_object_array_length(sites) : 0;

	if (note) {
		fprintf(md, "\n  No allocation sites: ");
		prof_md_write(md, note, PROF_MD_TEXT);
		fprintf(md, "\n\n");
		return;
	}
	if (!n)
		return;
	fprintf(md, "\n  Allocation sites per function (valgrind's DHAT, one "
		    "call of each side%s), by %s:\n\n  | function | file | "
		    "bytes before | bytes after | Δ bytes | allocations | "
		    "max live before | max live after | share |\n"
		    "  |---|---|--:|--:|--:|--:|--:|--:|--:|\n",
		    prof_json_str(arts, "scope_after") &&
				    !strcmp(prof_json_str(arts, "scope_after"),
					    "run") ?
			    ", inside run()" :
			    ", the whole process",
		    !strcmp(str_or(arts, "by", ""), "allocations") ?
			    "allocations" :
		    !strcmp(str_or(arts, "by", ""), "max-live") ?
			    "the most bytes live at once" :
			    "bytes allocated");
	for (i = 0; i < n && i < 5; i++) {
		struct json_object *f = json_object_array_get_idx(sites, i);
		const char *state = prof_json_str(f, "state");
		double share = prof_json_numf(f, "share");
		long long v[6];
		char c[7][40];
		size_t k;
		static const char *const keys[] = {
			"bytes_before", "bytes_after", "allocs_before",
			"allocs_after", "max_live_before", "max_live_after",
		};

		for (k = 0; k < 6; k++)
			v[k] = json_object_get_int64(prof_json_get(f, keys[k]));
		prof_fmt_count(c[0], 40, v[0], 0);
		prof_fmt_count(c[1], 40, v[1], 0);
		prof_fmt_count(c[2], 40, v[1] - v[0], 1);
		prof_fmt_count(c[3], 40, v[2], 0);
		prof_fmt_count(c[4], 40, v[3], 0);
		prof_fmt_count(c[5], 40, v[4], 0);
		prof_fmt_count(c[6], 40, v[5], 0);
		fprintf(md, "  | ");
		prof_md_write(md, prof_json_str(f, "name"), CELL_CODE);
		if (state && strcmp(state, "changed")) {
			fputc(' ', md);
			prof_md_write(md, state, PROF_MD_TEXT);
		}
		fprintf(md, " | ");
		prof_md_write(md, short_file(prof_json_str(f, "file")),
			      PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | %s → %s | %s | %s | ", c[0],
			c[1], c[2], c[3], c[4], c[5], c[6]);
		if (isfinite(share))
			fprintf(md, "%.1f%%", 100 * share);
		else
			fprintf(md, "-");
		fprintf(md, " |\n");
	}
	fputc('\n', md);
}

/* summary.md's memory table: one line a memory row, in bytes or
 * allocations with grouped digits; then the reason of each that is not
 * stable. Nothing when the run has no memory rows. */
static void
write_memory(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->mem_rows);
	FILE *md = r->md;
	int reasons = 0;

	if (!n)
		return;
	fprintf(md, "## Memory\n\n"
		    "One call of each workload under the allocation "
		    "interposer (prof-mem): the heap peak, allocations and "
		    "bytes allocated are judged exactly (more than 1%% and "
		    "a floor), the RSS peak like time (prof-diff(1)).\n\n");
	fprintf(md, "| workload | backend | metric | current | baseline | "
		    "Δ | rule | status |\n"
		    "|---|---|---|---:|---:|---:|---|---|\n");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->mem_rows, i);
		char cells[3][32], metric[96];
		const char *status;

		if (!row)
			continue;
		mem_cells(r, row, cells, &status);
		fprintf(md, "| ");
		prof_md_write(md, prof_json_str(row, "workload"), CELL_CODE);
		fprintf(md, " | ");
		prof_md_write(md, prof_json_str(row, "backend"),
			      PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | %s | %s | %s |\n",
			mem_metric(row, metric, sizeof(metric)), cells[0],
			r->judged ? cells[1] : "-", r->judged ? cells[2] : "-",
			str_or(row, "rule", "-"), status);
	}
	fputc('\n', md);
	for (i = 0; r->judged && i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->mem_rows, i);

		if (!row || !strcmp(prof_json_str(row, "status"), "stable"))
			continue;
		fprintf(md, "- ");
		prof_md_write(md, prof_json_str(row, "workload"), PROF_MD_CODE);
		fprintf(md, " (");
		prof_md_write(md, prof_json_str(row, "backend"), PROF_MD_TEXT);
		fprintf(md, ", memory %s): **%s**: ",
			prof_json_str(row, "metric"),
			prof_json_str(row, "status"));
		prof_md_write(md, prof_json_str(row, "reason"), PROF_MD_TEXT);
		fputc('\n', md);
		write_sites_table(md, row);
		reasons++;
	}
	if (reasons)
		fputc('\n', md);
	write_memory_disagreements(r);
}

static void
write_table(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;
	int reasons = 0, counts = has_counts(r);

	fprintf(md, "## Results\n\n");
	if (!n && !any_memory(r)) {
		fprintf(md, "No timing samples.\n\n");
		return;
	}
	fprintf(md, "| workload | backend | n | min | median | CPU | "
		    "contended | p90 | max | host peak | GPU peak | "
		    "Δ median | "
		    "Δ median %% | ratio | p | status |%s\n",
		counts ? " instructions | Δ instructions % | instructions "
			 "status |" :
			 "");
	fprintf(md, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
		    "--:|--:|---|%s\n",
		counts ? "--:|--:|---|" : "");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *cur = prof_json_get(row, "current");
		const char *w = prof_json_str(row, "workload");
		const char *b = prof_json_str(row, "backend");
		double host_b, gpu_b;
		char mn[32], med[32], p90[32], mx[32], host[32], gpu[32];
		char dms[32], dpct[32], ic[32], ipct[32], rt[32], pv[32];
		char cpu[32], cont[48];
		const char *ist;
		double delta = prof_json_numf(row, "delta_ms");

		if (is_count_row(row)) {
			/* Beside its time row; alone when there is none. */
			if (has_time_row(r, row))
				continue;
			count_cells(r, row, ic, sizeof(ic), ipct, sizeof(ipct),
				    &ist);
			fprintf(md, "| ");
			prof_md_write(md, w, CELL_CODE);
			fprintf(md, " | ");
			prof_md_write(md, b, PROF_MD_TEXT);
			fprintf(md, " | 0 | - | - | - | - | - | - | - | - | - | "
				    "- | - | - | - | %s | %s | %s |\n",
				ic, ipct, ist);
			continue;
		}
		memory_of(r, row, &host_b, &gpu_b);
		prof_page_time(mn, sizeof(mn), prof_json_numf(cur, "min"), 0);
		prof_page_time(med, sizeof(med), prof_json_numf(cur, "median"), 0);
		prof_page_time(p90, sizeof(p90), prof_json_numf(cur, "p90"), 0);
		prof_page_time(mx, sizeof(mx), prof_json_numf(cur, "max"), 0);
		cpu_cells(r, row, cpu, sizeof(cpu), cont, sizeof(cont));
		prof_page_bytes(host, sizeof(host), host_b);
		prof_page_bytes(gpu, sizeof(gpu), gpu_b);
		prof_page_time(dms, sizeof(dms), delta, 1);
		prof_page_ratio_pct(dpct, sizeof(dpct),
				    prof_json_numf(row, "ratio"));
		fprintf(md, "| ");
		prof_md_write(md, w, CELL_CODE);
		fprintf(md, " | ");
		prof_md_write(md, b, PROF_MD_TEXT);
		ratio_cells(row, rt, sizeof(rt), pv, sizeof(pv));
		fprintf(md, " | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | "
			    "%s | %s | %s | %s | %s |",
			prof_json_numf(cur, "n"), mn, med, cpu, cont, p90, mx, host,
			gpu, dms, dpct, rt, pv,
			r->judged ? prof_json_str(row, "status") : "-");
		if (counts) {
			count_cells(r, count_row_of(r, row), ic, sizeof(ic),
				    ipct, sizeof(ipct), &ist);
			fprintf(md, " %s | %s | %s |", ic, ipct, ist);
		}
		fputc('\n', md);
	}
	write_memory_rows(r, counts);
	fputc('\n', md);
	if (!r->judged) {
		fprintf(md, "No baseline comparison was made.\n\n");
		return;
	}
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		double p = prof_json_numf(row, "p_value");
		const char *why = prof_json_str(row, "reason");

		if (!reasons++)
			fprintf(md, "Statuses against the baseline (the "
				    "Mann-Whitney p-value is shown beside the "
				    "rule, never part of it):\n\n");
		fprintf(md, "- ");
		prof_md_write(md, prof_json_str(row, "workload"), PROF_MD_CODE);
		fprintf(md, " (");
		prof_md_write(md, prof_json_str(row, "backend"), PROF_MD_TEXT);
		fprintf(md, "%s): **%s**: ",
			is_count_row(row) ? ", instructions" : "",
			prof_json_str(row, "status"));
		prof_md_write(md, why, PROF_MD_TEXT);
		/* An unsettled row's reason names its p already. */
		if (isfinite(p) && !(why && strstr(why, "(p = ")))
			fprintf(md, "; p = %.3g", p);
		fputc('\n', md);
		write_functions(r, row);
	}
	if (reasons)
		fputc('\n', md);
	/* Said, never silently skipped: rows whose outputs cannot be
	 * compared are judged on speed alone. */
	if (r->unchecked) {
		fprintf(md, "Output identity: not checked for %ld sample%s: ",
			r->unchecked, r->unchecked == 1 ? "" : "s");
		prof_md_write(md, r->unchecked_why, PROF_MD_TEXT);
		fprintf(md, ".\n\n");
	}
	write_unsettled(r);
	if (counts)
		write_disagreements(r);
}

/* Copy a temporary file into the summary. */
static void
copy_spool(FILE *from, FILE *to)
{
	char buf[65536];
	size_t got;

	if (!from || fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return;
	while ((got = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, got, to);
}

/* An error sample's line of the summary, kept until it is written. */
static void
take_error(struct report *r, struct json_object *s)
{
	FILE *md = r->errors_md;

	fprintf(md, "- ");
	prof_md_write(md, prof_sample_str(s, "workload"), PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, prof_sample_str(s, "backend"), PROF_MD_TEXT);
	fprintf(md, ", phase %s, %s #%.0f): ", prof_sample_str(s, "phase"),
		prof_sample_str(s, "kind"), prof_json_numf(s, "index"));
	prof_md_write(md, prof_sample_str(s, "reason"), PROF_MD_TEXT);
	fputc('\n', md);
}

/* A segment key in words: the fields that tell machines apart. */
static void
segment_words(const char *key, char *buf, size_t n)
{
	struct json_object *seg = json_tokener_parse(key);
	char dev[300] = "";

	if (!json_object_is_type(seg, json_type_object)) {
		snprintf(buf, n, "%s", key);
		json_object_put(seg);
		return;
	}
	if (prof_json_str(seg, "device"))
		snprintf(dev, sizeof(dev), ", device %s",
			 prof_json_str(seg, "device"));
	snprintf(buf, n, "CPU %s (%s); %s %s; compiler %s %s; backend %s%s; "
		 "dtype %s, problem size %s, tile %s%s%s",
		 str_or(seg, "cpu_model", "unknown"),
		 str_or(seg, "machine", "?"), str_or(seg, "distro", "?"),
		 str_or(seg, "distro_version", "?"),
		 str_or(seg, "compiler", "none"),
		 str_or(seg, "compiler_major", ""),
		 str_or(seg, "backend", "?"), dev, str_or(seg, "dtype", "?"),
		 str_or(seg, "problem_size", "?"), str_or(seg, "tile", "?"),
		 prof_json_str(seg, "browser") ? "; browser " : "",
		 prof_json_str(seg, "browser") ? prof_json_str(seg, "browser") :
						 "");
	json_object_put(seg);
}

/*
 * Rows that are new because the baseline lacks their segment (a run on
 * another CPU model, say): the run's segments and the baseline's, so the
 * reader sees why.
 */
static void
write_segments(struct report *r)
{
	size_t i, j, n = prof_cmpview_len(&r->rows), n_new = 0;
	struct json_object *base = NULL, *mine = json_object_new_array();
	struct prof_htab seen = {0};
	char words[2048];

	for (i = 0; mine && i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *bs = prof_json_get(row, "baseline_segments");
		const char *seg = prof_json_str(row, "segment");
		int has = 0;

		if (strcmp(str_or(row, "status", ""), "new") || !seg ||
		    !json_object_is_type(bs, json_type_array))
			continue;
		for (j = 0; j < json_object_array_length(bs); j++)
			if (!strcmp(json_object_get_string(
					    json_object_array_get_idx(bs, j)),
				    seg))
				has = 1;
		if (has)
			continue;	/* new: only the workload is new */
		n_new++;
		/* Held: the rows read after it may let its row go. */
		json_object_put(base);
		base = json_object_get(bs);
		if (prof_htab_get(&seen, seg, strlen(seg)) >= 0)
			continue;
		if (prof_htab_put(&seen, seg, strlen(seg), 0) < 0)
			break;
		json_object_array_add(mine, json_object_new_string(seg));
	}
	if (n_new && base) {
		fprintf(r->md, "## Segments\n\n%zu row%s %s `new` because "
			       "the baseline has no row in %s segment:\n\n",
			n_new, n_new == 1 ? "" : "s", n_new == 1 ? "is" : "are",
			json_object_array_length(mine) == 1 ? "this run's" :
							      "these");
		for (i = 0; i < json_object_array_length(mine); i++) {
			segment_words(json_object_get_string(
					      json_object_array_get_idx(mine, i)),
				      words, sizeof(words));
			fprintf(r->md, "- ");
			prof_md_write(r->md, words, PROF_MD_TEXT);
			fputc('\n', r->md);
		}
		fprintf(r->md, "\nThe baseline has %s:\n\n",
			json_object_array_length(base) ?
				"these segments" :
				"no segment (no timing samples)");
		for (i = 0; i < json_object_array_length(base); i++) {
			segment_words(json_object_get_string(
					      json_object_array_get_idx(base, i)),
				      words, sizeof(words));
			fprintf(r->md, "- ");
			prof_md_write(r->md, words, PROF_MD_TEXT);
			fputc('\n', r->md);
		}
		fputc('\n', r->md);
	}
	prof_htab_free(&seen);
	json_object_put(mine);
	json_object_put(base);
}

static void
write_errors(struct report *r)
{
	FILE *md = r->md;

	fprintf(md, "## Errors\n\n");
	if (!r->errors) {
		fprintf(md, "No error samples.\n\n");
		return;
	}
	copy_spool(r->errors_md, md);
	fputc('\n', md);
}

/* pprof's --text output, kept line by line. */
struct lines {
	char **v;
	size_t n, cap;
};

static int
keep_line(void *arg, char *line, size_t len, int complete)
{
	struct lines *l = arg;
	char *copy;

	(void)complete;
	if (l->n >= 400)
		return 0;	/* more than the summary shows */
	if (PROF_GROW(l->v, l->n + 1, l->cap) < 0)
		return 1;
	copy = strndup(line, len);
	if (!copy)
		return 1;
	l->v[l->n++] = copy;
	return 0;
}

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Whether file, links resolved, is inside the folder dir. */
static int
inside(const char *dir, const char *file)
{
	char *d = realpath(dir, NULL), *f = realpath(file, NULL);
	size_t n;
	int in = 0;

	if (d && f) {
		n = strlen(d);
		in = !strncmp(d, f, n) && (f[n] == '/' || (n == 1 && d[0] == '/'));
	}
	free(d);
	free(f);
	return in;
}

/*
 * Run pprof --text on a profile and keep its lines. Returns 0, or -1 with
 * why filled (a missing file or binary, a failed pprof).
 */
static int
read_profile(struct report *r, const char *binary, const char *file,
	     struct lines *l, char *why, size_t n)
{
	/* "--": no value of a results file is ever taken for an option. */
	char *argv[] = {(char *)r->pprof, "--text", "--", (char *)binary,
			(char *)file, NULL};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 120,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = keep_line,
		.arg = l,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int rc = -1;

	if (access(file, R_OK) != 0) {
		snprintf(why, n, "%s: %s", file, strerror(errno));
		return -1;
	}
	if (!binary) {
		snprintf(why, n, "the sample has no metrics.binary");
		return -1;
	}
	if (binary[0] != '/') {
		char safe[256];

		snprintf(why, n, "metrics.binary '%s' is not an absolute path",
			 cli_safe(binary, safe, sizeof(safe)));
		return -1;
	}
	if (!inside(r->run_dir, file)) {
		snprintf(why, n, "%s leads outside the run folder", file);
		return -1;
	}
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_err_str(&err, why, n);
		return -1;
	}
	if (prof_spawn_ok(&res))
		rc = 0;
	else
		prof_spawn_describe(&res, r->pprof, sp.timeout_s, why, n);
	prof_spawn_free(&res);
	return rc;
}

/* One .prof artifact: its top functions, or why there are none. */
static void
write_profile(struct report *r, const struct profile *p)
{
	const char *binary = p->binary, *artifact = p->artifact;
	char file[4096], why[4400] = "the path is too long";
	struct lines l = {0};
	FILE *md = r->md;
	size_t i, start = 0, shown = 0;

	fprintf(md, "### ");
	prof_md_write(md, p->workload, PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, p->backend, PROF_MD_TEXT);
	fprintf(md, "): ");
	prof_md_write(md, artifact, PROF_MD_CODE);
	fprintf(md, "\n\n");
	/* The readers refused absolute paths and "..": it is relative. */
	if (snprintf(file, sizeof(file), "%s/%s", r->run_dir, artifact) >=
		    (int)sizeof(file) ||
	    read_profile(r, binary, file, &l, why, sizeof(why)) < 0) {
		fprintf(md, "No profile: ");
		prof_md_write(md, why, PROF_MD_TEXT);
		fprintf(md, ".\n\n");
		cli_say("warning: no CPU profile from '%s': %s", artifact, why);
		goto out;
	}
	for (i = 0; i < l.n; i++)
		if (!strncmp(l.v[i], "Total:", 6)) {
			start = i;
			break;
		}
	/* Indented, not fenced: no line of pprof's can end the block. */
	for (i = start; i < l.n && shown <= TOP_FUNCTIONS; i++, shown++) {
		fputs("    ", md);
		prof_md_write(md, l.v[i], PROF_MD_BLOCK);
		fputc('\n', md);
	}
	fputc('\n', md);
out:
	lines_free(&l);
}

static int
is_prof(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".prof");
}

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A sample's artifacts: a line each for the list, and the .prof files of
 * a profile sample for their top functions. */
static int
take_artifacts(struct report *r, struct json_object *s)
{
	struct json_object *arts = prof_json_get(s, "artifacts");
	int profile = prof_sample_is(s, "phase", "profile");
	size_t j, n = arts ? json_object_array_length(arts) : 0;

	for (j = 0; j < n; j++) {
		const char *a = json_object_get_string(
			json_object_array_get_idx(arts, j));
		struct profile *p;

		fprintf(r->artifacts_md, "- ");
		prof_md_write(r->artifacts_md, a, PROF_MD_CODE);
		fputc('\n', r->artifacts_md);
		r->artifacts++;
		if (!profile || !is_prof(a))
			continue;
		if (PROF_GROW(r->profiles, r->n_profiles + 1,
			      r->cap_profiles) < 0)
			return -1;
		p = &r->profiles[r->n_profiles++];
		p->workload = dup_or_null(prof_sample_str(s, "workload"));
		p->backend = dup_or_null(prof_sample_str(s, "backend"));
		p->binary = dup_or_null(prof_json_str(prof_json_get(s, "metrics"),
						      "binary"));
		p->artifact = strdup(a);
		if (!p->workload || !p->backend || !p->artifact)
			return -1;
	}
	return 0;
}

static void
write_profiles(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n_profiles; i++) {
		if (!i)
			fprintf(r->md,
				"## CPU profile\n\nThe top %d functions of "
				"each profile, by samples in the function "
				"itself (google-pprof --text).\n\n",
				TOP_FUNCTIONS);
		write_profile(r, &r->profiles[i]);
	}
}

static void
write_artifacts(struct report *r)
{
	if (!r->artifacts)
		return;
	fprintf(r->md, "## Artifacts\n\nRelative to the run folder:\n\n");
	copy_spool(r->artifacts_md, r->md);
	fputc('\n', r->md);
}

/* The compact table on stdout. */
/* The printf width that pads s to w columns: a 'µ' is two bytes in one
 * column. */
static int
cols(const char *s, int w)
{
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) == 0x80)
			w++;
	return w;
}

static void
print_table(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	const char *commit = prof_json_str(r->meta, "commit");
	int counts = has_counts(r);
	char s1[512], s2[64];

	/* Every field escaped: stdout is a terminal or a CI log, where a
	 * newline could start a workflow command. */
	printf("run %s  commit %.12s  %ld samples, %ld error%s\n",
	       cli_safe(prof_json_str(r->meta, "run_id"), s1, sizeof(s1)),
	       cli_safe(commit, s2, sizeof(s2)),
	       (long)prof_runview_count(&r->view), r->errors,
	       r->errors == 1 ? "" : "s");
	if (counts)
		printf("%-36s %-8s %4s %12s %10s %9s %12s %8s %6s %7s  %-12s "
		       "%12s %8s  %s\n",
		       "workload", "backend", "n", "median", "cpu",
		       "contended", "p90", "delta", "ratio", "p", "status",
		       "instructions", "delta", "status");
	else
		printf("%-36s %-8s %4s %12s %10s %9s %12s %8s %6s %7s  %s\n",
		       "workload", "backend", "n", "median", "cpu",
		       "contended", "p90", "delta", "ratio", "p", "status");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		struct json_object *cur = prof_json_get(row, "current");
		char med[32], p90[32], pct[32], ic[32], ipct[32], rt[32], pv[32];
		char cpu[32], cont[48];
		const char *ist;
		double d = row_pct(row);

		if (is_count_row(row)) {
			if (has_time_row(r, row))
				continue;
			count_cells(r, row, ic, sizeof(ic), ipct, sizeof(ipct),
				    &ist);
			printf("%-36s %-8s %4s %12s %10s %9s %12s %8s %6s %7s  "
			       "%-12s %12s %8s  %s\n",
			       cli_safe(prof_json_str(row, "workload"), s1,
					sizeof(s1)),
			       cli_safe(prof_json_str(row, "backend"), s2,
					sizeof(s2)),
			       "-", "-", "-", "-", "-", "-", "-", "-", "-", ic,
			       ipct, ist);
			continue;
		}

		prof_page_time(med, sizeof(med), prof_json_numf(cur, "median"), 0);
		prof_page_time(p90, sizeof(p90), prof_json_numf(cur, "p90"), 0);
		cpu_cells(r, row, cpu, sizeof(cpu), cont, sizeof(cont));
		if (isfinite(d))
			snprintf(pct, sizeof(pct), "%+.1f%%", d);
		else
			snprintf(pct, sizeof(pct), "-");
		ratio_cells(row, rt, sizeof(rt), pv, sizeof(pv));
		if (!counts) {
			printf("%-36s %-8s %4.0f %*s %*s %9s %*s %8s %6s %7s  "
			       "%s\n",
			       cli_safe(prof_json_str(row, "workload"), s1,
					sizeof(s1)),
			       cli_safe(prof_json_str(row, "backend"), s2,
					sizeof(s2)),
			       prof_json_numf(cur, "n"), cols(med, 12), med,
			       cols(cpu, 10), cpu, cont, cols(p90, 12), p90, pct,
			       rt, pv,
			       r->judged ? prof_json_str(row, "status") : "-");
			continue;
		}
		count_cells(r, count_row_of(r, row), ic, sizeof(ic), ipct,
			    sizeof(ipct), &ist);
		printf("%-36s %-8s %4.0f %*s %*s %9s %*s %8s %6s %7s  %-12s "
		       "%12s %8s  %s\n",
		       cli_safe(prof_json_str(row, "workload"), s1, sizeof(s1)),
		       cli_safe(prof_json_str(row, "backend"), s2, sizeof(s2)),
		       prof_json_numf(cur, "n"), cols(med, 12), med,
		       cols(cpu, 10), cpu, cont, cols(p90, 12), p90, pct, rt, pv,
		       r->judged ? prof_json_str(row, "status") : "-", ic, ipct,
		       ist);
	}
	print_notes(r);
}

/* A GitHub workflow command's data: '%', CR and LF escaped. */
static void
gh_text(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '%')
			fputs("%25", stdout);
		else if (*s == '\r')
			fputs("%0D", stdout);
		else if (*s == '\n')
			fputs("%0A", stdout);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			printf("\\x%02x", (unsigned char)*s);
		else
			putchar(*s);
	}
}

/* The compact table's memory lines, after its time rows. */
static void
print_memory(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->mem_rows);
	char s1[512], s2[64];

	if (!n)
		return;
	printf("%-36s %-8s %-26s %14s %14s %14s  %s\n", "memory", "backend",
	       "metric", "current", "baseline", "delta", "status");
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->mem_rows, i);
		char cells[3][32], metric[96];
		const char *status;

		if (!row)
			continue;
		mem_cells(r, row, cells, &status);
		printf("%-36s %-8s %-26s %14s %14s %14s  %s\n",
		       cli_safe(prof_json_str(row, "workload"), s1, sizeof(s1)),
		       cli_safe(prof_json_str(row, "backend"), s2, sizeof(s2)),
		       mem_metric(row, metric, sizeof(metric)), cells[0],
		       r->judged ? cells[1] : "-", r->judged ? cells[2] : "-",
		       status);
	}
}

static void
print_annotations(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	const char *gha = getenv("GITHUB_ACTIONS");

	if (!gha || strcmp(gha, "true") || !r->judged)
		return;
	for (i = 0; i < n; i++) {
		struct json_object *row = prof_cmpview_row(&r->rows, i);
		char text[1024], s1[512], s2[128], tc[32], tb[32], td[32];

		/* An unsettled row is a notice: no verdict, and the way
		 * to one. */
		if (!strcmp(prof_json_str(row, "status"), "unsettled")) {
			snprintf(text, sizeof(text), "%s (%s): %s",
				 prof_json_str(row, "workload"),
				 prof_json_str(row, "backend"),
				 prof_json_str(row, "reason"));
			fputs("::notice title=Performance not settled::",
			      stdout);
			gh_text(text);
			putchar('\n');
			continue;
		}
		if (strcmp(prof_json_str(row, "status"), "warning"))
			continue;
		if (is_count_row(row)) {
			snprintf(text, sizeof(text), "%s (%s): %s",
				 prof_json_str(row, "workload"),
				 prof_json_str(row, "backend"),
				 prof_json_str(row, "reason"));
			fputs("::warning title=Instruction count regression::",
			      stdout);
			gh_text(text);
			putchar('\n');
			continue;
		}
		prof_page_time(tc, sizeof(tc), prof_json_numf(prof_json_get(
			row, "current"), "median"), 0);
		prof_page_time(tb, sizeof(tb), prof_json_numf(prof_json_get(
			row, "baseline"), "median"), 0);
		prof_page_time(td, sizeof(td), prof_json_numf(row, "delta_ms"),
			       1);
		snprintf(text, sizeof(text),
			 "%s (%s): median %s vs baseline %s, %+.1f%% (%s)",
			 cli_safe(prof_json_str(row, "workload"), s1,
				  sizeof(s1)),
			 cli_safe(prof_json_str(row, "backend"), s2,
				  sizeof(s2)),
			 tc, tb, row_pct(row), td);
		fputs("::warning title=Performance regression::", stdout);
		gh_text(text);
		putchar('\n');
	}
}

/* The keys of the rows of one sample of the results, which the
 * comparisons must hold exactly. */
static int
take_key(void *arg, struct json_object *s, struct prof_err *err)
{
	struct report *r = arg;

	return prof_cmp_rows_sample(&r->keys, s,
				    prof_json_str(s, "segment_id"), err);
}

/* One sample of the results, as the view is loaded. */
static int
take(void *arg, struct json_object *s, struct prof_err *err)
{
	struct report *r = arg;
	const char *eid = prof_json_str(s, "env_id");

	if (prof_sample_is(s, "outcome", "error")) {
		r->errors++;
		take_error(r, s);
	}
	if (prof_json_str(s, "checksum_reason") &&
	    !prof_json_str(s, "checksum") && !r->unchecked++)
		snprintf(r->unchecked_why, sizeof(r->unchecked_why), "%s",
			 prof_json_str(s, "checksum_reason"));
	if (prof_htab_get(&r->env_index, eid, strlen(eid)) < 0) {
		if (PROF_GROW(r->envs, r->n_envs + 1, r->cap_envs) < 0)
			return prof_err_set(err, "out of memory");
		r->envs[r->n_envs] = strdup(eid);
		if (!r->envs[r->n_envs] ||
		    prof_htab_put(&r->env_index, eid, strlen(eid),
				  (long)r->n_envs) < 0)
			return prof_err_set(err, "out of memory");
		r->n_envs++;
	}
	if (take_artifacts(r, s) < 0)
		return prof_err_set(err, "out of memory");
	/* The rows: when judged their keys only, which the comparisons must
	 * hold exactly (of a regular file, in a walk of their own). */
	if (r->judged && r->keys_apart)
		return 0;
	if (r->judged)
		return take_key(r, s, err);
	return prof_cmp_take(&r->cmp, s, prof_json_str(s, "segment_id"), err);
}

static const char *
segment_of(void *view, const char *id)
{
	return prof_runview_segment(view, id);
}

/* The comparisons prof-diff wrote, each checked as it is read. A regular
 * file is checked in a pass of its own, and the results' row keys go
 * before the comparisons are kept: the two tables are never in memory
 * together (a third of the peak of 200,000 rows). Stdin or a pipe is
 * read once, checked as it is kept. */
static int
load_comparisons(struct report *r, const char *comparisons)
{
	const char *run_id = prof_json_str(r->meta, "run_id");
	struct prof_err err = {0};
	struct stat sb;
	int twice = strcmp(comparisons, "-") && stat(comparisons, &sb) == 0 &&
		    S_ISREG(sb.st_mode);

	if (twice && prof_cmpview_load(NULL, comparisons, run_id, &r->keys,
				       &err) < 0)
		goto fail;
	if (twice)
		prof_cmp_rows_free(&r->keys);
	if (prof_cmpview_load(&r->rows, comparisons, run_id,
			      twice ? NULL : &r->keys, &err) < 0)
		goto fail;
	r->judged = 1;
	return 0;
fail:
	prof_err_file(&err, comparisons);
	cli_err(&err);
	return -1;
}

/* Once the comparisons are there, the results' own rows are not needed. */
static void
drop_cmp(struct report *r)
{
	prof_cmp_free(&r->cmp);
	memset(&r->cmp, 0, sizeof(r->cmp));
	prof_cmp_rows_free(&r->keys);
}

/* Read the results once: the view's rows, and every sample through
 * take(). */
static int
load_results(struct report *r, const char *path, int judged)
{
	const struct prof_runbrief *rows;
	struct prof_err err = {0};
	struct stat sb;

	r->errors_md = tmpfile();
	r->artifacts_md = tmpfile();
	if (!r->errors_md || !r->artifacts_md) {
		cli_say("cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	if (judged)
		prof_cmp_rows_begin(&r->keys);
	/* A regular file is walked again for the rows' keys, once the
	 * view's walk has let go of what it kept while walking: the two are
	 * never in memory together. */
	r->keys_apart = judged && strcmp(path, "-") && stat(path, &sb) == 0 &&
			S_ISREG(sb.st_mode);
	if (prof_runview_load_brief(&r->view, path, take, r, &err) < 0 ||
	    (r->keys_apart &&
	     prof_runview_each(&r->view, take_key, r, &err) < 0)) {
		cli_err(&err);
		return -1;
	}
	r->meta = r->view.meta;
	r->mem_used = calloc(prof_runview_briefs(&r->view, &rows) + 1, 1);
	if (!r->mem_used) {
		cli_say("out of memory");
		return -1;
	}
	if (judged ? prof_cmp_rows_close(&r->keys, segment_of, &r->view,
					 &err) < 0 :
		     prof_cmp_close(&r->cmp, segment_of, &r->view, &err) < 0 ||
			     prof_cmp_set_run(&r->cmp,
					      prof_json_str(r->meta,
							    "run_id")) < 0 ||
			     prof_cmpview_from(&r->rows, &r->cmp, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

static void
report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n_envs; i++)
		free(r->envs[i]);
	free(r->envs);
	for (i = 0; i < r->n_profiles; i++) {
		free(r->profiles[i].workload);
		free(r->profiles[i].backend);
		free(r->profiles[i].binary);
		free(r->profiles[i].artifact);
	}
	free(r->profiles);
	free(r->mem_used);
	prof_htab_free(&r->env_index);
	if (r->errors_md)
		fclose(r->errors_md);
	if (r->artifacts_md)
		fclose(r->artifacts_md);
	prof_cmp_free(&r->cmp);
	prof_cmp_rows_free(&r->keys);
	prof_cmpview_free(&r->rows);
	prof_cmpview_free(&r->mem_rows);
	prof_runview_free(&r->view);
}

/*
 * The summary's first lines: the machine-drift notes the rows carry (one
 * line, the same on every row; in a merge of shards one per shard that
 * drifted), then the caller's notes.
 */
static void
write_opening(struct report *r, const struct opts *o)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	struct prof_htab seen = {0};
	int k, any = 0;

	for (i = 0; i < n; i++) {
		const char *d = prof_json_str(prof_cmpview_row(&r->rows, i),
					      "drift");

		if (!d || prof_htab_get(&seen, d, strlen(d)) >= 0)
			continue;
		if (prof_htab_put(&seen, d, strlen(d), 0) < 0)
			break;
		prof_md_write(r->md, d, PROF_MD_TEXT | PROF_MD_SPANS);
		fputc('\n', r->md);
		any = 1;
	}
	prof_htab_free(&seen);
	for (k = 0; k < o->n_notes; k++) {
		prof_md_write(r->md, o->notes[k], PROF_MD_TEXT);
		fputc('\n', r->md);
		any = 1;
	}
	if (any)
		fputc('\n', r->md);
}

/*
 * A first run has no baseline file: one line (of the summary with md set,
 * else the compact table's last) says how to make a baseline from this
 * run, apart from CI's own (cpu-ci: the README's bootstrap), and how to
 * keep judging against it (config.mak). A baseline of that name that is
 * there already is never named to be replaced: the line says ADD=1, which
 * only adds this run's rows to it. The command runs as printed: after a
 * run that prof-baseline would refuse as unsteady it says FORCE=1, and
 * why.
 */
static void
first_run_hint(FILE *fp, int md, const char *baseline, const char *results,
	       struct json_object *meta)
{
	static const char ci[] = "(the CI baseline is made from CI runs "
				 "only: the README's \"Baseline bootstrap\")";
	static const char local[] = "baselines/local.json";
	char cmd[4200], name[256], then[512], line[8192], safe[8192];
	char unsteady[300], force[400] = "";
	const char *b, *e;
	struct stat sb;
	int own = 0, there;

	if (!baseline || stat(baseline, &sb) == 0 || errno != ENOENT)
		return;
	/* BASELINE=baselines/NAME.json (not CI's): promote NAME, and the
	 * runs that name it are judged against it from then on. */
	b = !strncmp(baseline, "baselines/", 10) ? baseline + 10 : NULL;
	e = b ? strrchr(b, '.') : NULL;
	if (b && e && !strcmp(e, ".json") && e > b && !strchr(b, '/') &&
	    (size_t)(e - b) < sizeof(name) && strncmp(b, "cpu-ci.json", 12)) {
		snprintf(name, sizeof(name), "%.*s", (int)(e - b), b);
		own = 1;
	} else {
		snprintf(name, sizeof(name), "local");
	}
	there = !own && stat(local, &sb) == 0;
	if (prof_calib_unsteady(meta, unsteady, sizeof(unsteady)))
		snprintf(force, sizeof(force), " (FORCE=1: %s, so its times "
			 "may be noise; a run on a calm machine makes a "
			 "better baseline)", unsteady);
	snprintf(cmd, sizeof(cmd), "make baseline-update FROM=%s NAME=%s%s%s",
		 strcmp(results, "-") ? results : "<run>/results.json", name,
		 there ? " ADD=1" : "", force[0] ? " FORCE=1" : "");
	snprintf(then, sizeof(then), "%s",
		 own ? "" : md ? ", then judge against it: `BASELINE = "
				 "baselines/local.json` in config.mak (or "
				 "`BASELINE=` on each make)"
			       : ", then judge against it: BASELINE = "
				 "baselines/local.json in config.mak (or "
				 "BASELINE= on each make)");
	if (!md) {
		snprintf(line, sizeof(line),
			 "no baseline '%s' yet, so no row is judged: to judge "
			 "the next runs against this one, %s: %s%s%s%s%s",
			 baseline,
			 there ? "add its rows to the local baseline "
				 "that is there"
			       : "make a baseline of it",
			 cmd, force, then, own ? "" : " ", own ? "" : ci);
		printf("%s\n", cli_safe(line, safe, sizeof(safe)));
		return;
	}
	fputs("No baseline yet: ", fp);
	prof_md_write(fp, baseline, PROF_MD_CODE);
	fprintf(fp, " is not there, so no row is judged. To judge the next "
		    "runs against this one, %s: ",
		there ? "add its rows to the local baseline that is there"
		      : "make a baseline of it");
	prof_md_write(fp, cmd, PROF_MD_CODE);
	prof_md_write(fp, force, PROF_MD_TEXT);
	fprintf(fp, "%s%s%s.\n\n", then, own ? "" : " ", own ? "" : ci);
}

/*
 * Whether two outputs are one file: the same name, the same existing file
 * (a link, "./x"), or the same name in the same folder reached two ways.
 */
static int
same_output(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	char da[4096], db[4096], ra[PATH_MAX], rb[PATH_MAX];
	struct stat x, y;

	if (!strcmp(a, b))
		return 1;
	if (stat(a, &x) == 0 && stat(b, &y) == 0)
		return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
	snprintf(da, sizeof(da), "%.*s", sa ? (int)(sa - a) + 1 : 1,
		 sa ? a : ".");
	snprintf(db, sizeof(db), "%.*s", sb ? (int)(sb - b) + 1 : 1,
		 sb ? b : ".");
	return !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b) &&
	       realpath(da, ra) && realpath(db, rb) && !strcmp(ra, rb);
}

/*
 * The summary, written to its temporary file text, to output ("-":
 * stdout) a chunk at a time: a file through afile.h, so that it appears
 * whole or not at all. Returns 0, or -1 with err filled.
 */
static int
write_summary(const char *output, FILE *text, struct prof_err *err)
{
	struct prof_afile af;
	char buf[65536];
	size_t got;
	FILE *fp;

	if (fflush(text) != 0 || ferror(text) ||
	    fseek(text, 0, SEEK_SET) != 0)
		return prof_err_at(err, output, 0, 0,
				   "cannot keep the summary in a temporary "
				   "file: %s", strerror(errno));
	if (!strcmp(output, "-")) {
		while ((got = fread(buf, 1, sizeof(buf), text)) > 0)
			if (prof_out_write(output, buf, got, err) < 0)
				return -1;
		return 0;
	}
	fp = prof_afile_open(&af, output, err);
	if (!fp)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), text)) > 0)
		if (fwrite(buf, 1, got, fp) != got) {
			int e = errno;

			prof_afile_abort(&af);
			return prof_err_at(err, output, 0, 0,
					   "write failed: %s", strerror(e));
		}
	if (ferror(text)) {
		int e = errno;

		prof_afile_abort(&af);
		return prof_err_at(err, output, 0, 0,
				   "cannot read the summary back: %s",
				   strerror(e));
	}
	return prof_afile_commit(&af, err);
}

static int
report(struct opts *o, const char *results_path)
{
	struct report r = {0};
	struct prof_err err = {0};
	char run_dir[4096], output[4096], project[4096];
	int rc = PROF_EXIT_FAILURE;

	r.judged = o->comparisons != NULL;
	r.rows.memory = &r.mem_rows;
	r.mem_rows.memory_rows = 1;
	if (load_results(&r, results_path, r.judged) < 0 ||
	    (o->comparisons && load_comparisons(&r, o->comparisons) < 0))
		goto out;
	drop_cmp(&r);
	if (o->run_dir) {
		snprintf(run_dir, sizeof(run_dir), "%s", o->run_dir);
	} else if (strcmp(results_path, "-") && strchr(results_path, '/')) {
		snprintf(run_dir, sizeof(run_dir), "%.*s",
			 (int)(strrchr(results_path, '/') - results_path),
			 results_path);
		if (!run_dir[0])
			snprintf(run_dir, sizeof(run_dir), "/");
	} else {
		snprintf(run_dir, sizeof(run_dir), ".");
	}
	if (snprintf(output, sizeof(output), "%s%s", o->output ? o->output :
			     run_dir, o->output ? "" : "/summary.md") >=
	    (int)sizeof(output)) {
		cli_say("%s: path too long", run_dir);
		goto out;
	}
	{
		const char *inputs[] = {results_path, o->comparisons};

		if (cli_not_input(o->output ? "-o" : "the summary", output,
				  inputs, 2) < 0 ||
		    cli_trap_signals(output) < 0)
			goto out;
	}
	if (o->html.output && same_output(output, o->html.output)) {
		char safe[512];

		cli_say("--html: '%s' is the summary's file too; give the "
			"page a file of its own",
			cli_safe(o->html.output, safe, sizeof(safe)));
		goto out;
	}
	r.run_dir = run_dir;
	r.pprof = o->pprof;
	/* In a temporary file: the summary of 200,000 rows is 40 MB. */
	r.md = tmpfile();
	if (!r.md) {
		cli_say("cannot make a temporary file: %s", strerror(errno));
		goto out;
	}
	write_opening(&r, o);
	first_run_hint(r.md, 1, o->html.baseline, results_path, r.meta);
	write_header(&r);
	write_table(&r);
	write_memory(&r);
	write_segments(&r);
	write_errors(&r);
	write_profiles(&r);
	write_artifacts(&r);
	if (write_summary(output, r.md, &err) < 0) {
		/* A failed stdout is reported once, by cli_finish(). */
		if (strcmp(output, "-"))
			cli_err(&err);
		goto out;
	}
	/* Written: the page does not need the summary's text. */
	fclose(r.md);
	r.md = NULL;
	if (strcmp(output, "-") && !o->quiet) {
		print_table(&r);
		print_memory(&r);
		first_run_hint(stdout, 0, o->html.baseline, results_path,
			       r.meta);
	}
	print_annotations(&r);
	if (o->html.output) {
		o->html.cur = &r.view;
		o->html.cmp = r.judged ? &r.rows : NULL;
		o->html.comparisons_path = o->comparisons;
		o->html.run_dir = run_dir;
		/* The trends of $PROF_PROJECT, else of the git repository's
		 * project (cli_project_default()). */
		if (o->html.history) {
			if (cli_project_default(NULL, project,
						sizeof(project)) < 0)
				goto out;
			o->html.project = project;
		}
		if (prof_runpage_write(&o->html, &err) < 0) {
			cli_err(&err);
			goto out;
		}
	}
	rc = PROF_EXIT_OK;
out:
	if (r.md)
		fclose(r.md);
	report_free(&r);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	const char *env = getenv("PROF_PPROF");
	struct opts o = {.pprof = env && env[0] ? env : "google-pprof"};

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	/* --note alone is the tool's: it is repeated, and checked. */
	while (cli_opt_parse(&g, argc, argv, &o) == OPT_NOTE) {
		char why[160];

		if (o.n_notes == 16)
			return cli_fail("--note: at most 16");
		if (!prof_utf8_valid(optarg, why, sizeof(why)))
			return cli_fail("--note: %s", why);
		o.notes[o.n_notes++] = optarg;
	}
	if (optind >= argc)
		return cli_fail("give the results file (- for stdin)");
	if (optind + 1 < argc)
		return cli_fail("unexpected argument '%s'", argv[optind + 1]);
	if ((o.output && !o.output[0]) || (o.run_dir && !o.run_dir[0]) ||
	    !o.pprof[0])
		return cli_fail("empty file name");
	if (o.comparisons && !strcmp(o.comparisons, "-") &&
	    !strcmp(argv[optind], "-"))
		return cli_fail("the results and the comparisons cannot both "
				"be stdin");
	if (o.html.output && !strcmp(o.html.output, "-"))
		return cli_fail("--html: stdout ('-') carries the summary or "
				"its table; give the page a file");
	if (o.html.output && (!strcmp(argv[optind], "-") ||
			      (o.comparisons && !strcmp(o.comparisons, "-"))))
		return cli_fail("--html reads its inputs again: give them as "
				"files, not stdin");
	if (o.html.output) {
		const char *inputs[] = {argv[optind], o.comparisons,
					o.html.baseline, o.html.history};

		if (cli_not_input("--html", o.html.output, inputs, 4) < 0)
			return PROF_EXIT_FAILURE;
	}
	return report(&o, argv[optind]);
}
