/* prof-report: a run's summary.md (and a compact table, and CI annotations)
 * from its results and comparisons; its options and the order of the
 * parts, whose writers are src/report's (report-int.h, runpage.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/utf8.h"
#include "cli/cli.h"
#include "cli/project.h"
#include "report/report-int.h"
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

/* The run folder artifacts are relative to: --run-dir, else the folder
 * of RESULTS, else the current one. */
static void
run_dir_of(const struct opts *o, const char *results_path, char *run_dir,
	   size_t n)
{
	if (o->run_dir) {
		snprintf(run_dir, n, "%s", o->run_dir);
	} else if (strcmp(results_path, "-") && strchr(results_path, '/')) {
		snprintf(run_dir, n, "%.*s",
			 (int)(strrchr(results_path, '/') - results_path),
			 results_path);
		if (!run_dir[0])
			snprintf(run_dir, n, "/");
	} else {
		snprintf(run_dir, n, ".");
	}
}

/* --html's page of the run r read: what it draws chosen, then loaded,
 * then written; 0, or -1 said. */
static int
write_html(struct opts *o, struct report *r, const char *run_dir)
{
	struct prof_runpage *pg = NULL;
	struct prof_err err = {0};
	char project[4096];
	int rc = -1;

	o->html.cur = &r->view;
	o->html.cmp = r->judged ? &r->rows : NULL;
	o->html.comparisons_path = o->comparisons;
	o->html.run_dir = run_dir;
	/* The trends of $PROF_PROJECT, else of the git repository's
	 * project (cli_project_default()). */
	if (o->html.history) {
		if (cli_project_default(NULL, project, sizeof(project)) < 0)
			return -1;
		o->html.project = project;
	}
	if (prof_runpage_choose(&pg, &o->html, &err) < 0 ||
	    rep_load_drawn(&r->drawn, &o->html, prof_runpage_drawn(pg),
			   &err) < 0 ||
	    prof_runpage_write(pg, &r->drawn, &err) < 0)
		cli_err(&err);
	else
		rc = 0;
	prof_runpage_free(pg);
	return rc;
}

static int
report(struct opts *o, const char *results_path)
{
	struct report r = {0};
	struct prof_err err = {0};
	char run_dir[4096], output[4096];
	int rc = PROF_EXIT_FAILURE;

	r.judged = o->comparisons != NULL;
	r.rows.memory = &r.mem_rows;
	r.mem_rows.memory_rows = 1;
	if (rep_load_results(&r, results_path, r.judged) < 0 ||
	    (o->comparisons && rep_load_comparisons(&r, o->comparisons) < 0))
		goto out;
	rep_drop_cmp(&r);
	run_dir_of(o, results_path, run_dir, sizeof(run_dir));
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
	/* Everything the summary shows is read before it is written. */
	if (rep_load_profiles(&r) < 0) {
		cli_say("out of memory");
		goto out;
	}
	/* In a temporary file: the summary of 200,000 rows is 40 MB. */
	r.md = tmpfile();
	if (!r.md) {
		cli_say("cannot make a temporary file: %s", strerror(errno));
		goto out;
	}
	rep_write_opening(&r, o->notes, o->n_notes);
	rep_first_run_hint(r.md, 1, o->html.baseline, results_path, r.meta);
	rep_write_header(&r);
	rep_write_table(&r);
	rep_write_memory(&r);
	rep_write_segments(&r);
	rep_write_errors(&r);
	rep_write_profiles(&r);
	rep_write_artifacts(&r);
	if (rep_write_summary(output, r.md, &err) < 0) {
		/* A failed stdout is reported once, by cli_finish(). */
		if (strcmp(output, "-"))
			cli_err(&err);
		goto out;
	}
	/* Written: the page does not need the summary's text. */
	fclose(r.md);
	r.md = NULL;
	if (strcmp(output, "-") && !o->quiet) {
		rep_print_table(&r);
		rep_print_memory(&r);
		rep_first_run_hint(stdout, 0, o->html.baseline, results_path,
				   r.meta);
	}
	rep_print_annotations(&r);
	if (o->html.output && write_html(o, &r, run_dir) < 0)
		goto out;
	rc = PROF_EXIT_OK;
out:
	if (r.md)
		fclose(r.md);
	rep_report_free(&r);
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
