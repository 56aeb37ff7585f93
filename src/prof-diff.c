/* prof-diff: compare a results file with a baseline, one row per workload
 * x backend x segment. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "verdict/verdict.h"
#include "model/calib.h"
#include "model/sample.h"
#include "model/segcal.h"
#include "model/stream.h"

enum {
	OPT_TIME_THRESHOLD = 256,
};

struct opts {
	const char *baseline, *output;
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-diff --baseline FILE [--time-threshold PCT] [-o FILE] "
		  "RESULTS"),
	CLI_TEXT(
	"Compare the results file RESULTS (- for stdin) with a baseline (a\n"
	"promoted results file) and write a JSON array with one comparison\n"
	"per workload x backend x segment: n, min, median, p90 and max of\n"
	"the current and the baseline samples, delta_ms, ratio, status,\n"
	"reason, and the run_id of RESULTS. Only timing (and browser)\n"
	"samples of kind warm that succeeded count; instruction samples\n"
	"(prof-count) make rows of their own, with phase \"instructions\".\n"
	"Either file may be of results schema 1 or 2; both are streamed, so\n"
	"memory holds the rows (their durations), never a whole file: while\n"
	"the baseline is read, the run's rows wait in a temporary file in\n"
	"TMPDIR (removed at once; where none can be written they stay in\n"
	"memory), and each row is judged as it is written. A new row lists\n"
	"the segments the baseline has (baseline_segments)."),
	CLI_TEXT(
	"A row is looked up in the baseline by workload id and segment key,\n"
	"so CPU, GPU and other machines' numbers are never compared. Its\n"
	"status, T its time threshold (threshold_pct: the one its samples\n"
	"record, prof-time --time-threshold or the workload's own; else 20%\n"
	"against a baseline and 5% interleaved; --time-threshold here over\n"
	"them all):\n"
	"  new           the baseline has no row for it in this segment\n"
	"  incomparable  another workload version or fixture checksum, a\n"
	"                baseline median that is not positive, no successful\n"
	"                samples, or no baseline file at all\n"
	"  warning       median ratio > 1 + T, median delta >= the workload's\n"
	"                warning floor, and at least ceil(0.75 n) current\n"
	"                samples above the baseline median\n"
	"  improved      the mirror: baseline median >= median x (1 + T), the\n"
	"                gain >= the floor, and at least ceil(0.75 n) current\n"
	"                samples below the baseline median\n"
	"  unsettled     the evidence did not settle (below): never warning,\n"
	"                improved or stable\n"
	"  stable        otherwise: clearly within the threshold\n"
	"N% slower is current / baseline = 1 + N/100, N% faster its mirror,\n"
	"baseline / current = 1 + N/100: one T reads the same both ways.\n"
	"p_value is the two-sided Mann-Whitney U test of the current against\n"
	"the baseline samples: more evidence, never part of the status.\n"
	"An instruction row (valgrind's version is in its segment key) is new\n"
	"or incomparable as above, else a warning when its median count grew\n"
	"by more than its threshold_pct (the workload's count_threshold_pct,\n"
	"default 1), improved when it fell by more than that, and stable\n"
	"otherwise; its reason names both counts and the change in %.\n"
	"Memory samples (prof-mem) make rows with phase \"memory\", one per\n"
	"metric (a command's timing samples, prof-time -- CMD, their\n"
	"rss_peak_bytes row): host_peak_bytes, host_allocs and\n"
	"host_allocated_bytes are judged exactly (rule \"exact\": a warning\n"
	"above +1% and at least the floor, 4096 bytes or 16 allocations;\n"
	"improved the mirror; 0 is a value), and so is a GPU session's\n"
	"device_peak_allocated_bytes (the CUDA pool's peak in use, floor\n"
	"64 KiB); rss_peak_bytes by ratio like\n"
	"time (1.20, a floor of 1 MiB, ceil(0.75 n) samples). An exact\n"
	"metric whose values of one call index differ on a side is not\n"
	"deterministic: its spread is given and it is judged by ratio\n"
	"(rule \"ratio\"), never exactly.\n"
	"Neither warning nor improved changes the exit status."),
	CLI_TEXT(
	"Interleaved A/B rows (both sides' samples carry \"ab\", as\n"
	"prof-time --against writes them) are judged so that the load\n"
	"cannot move them: the sampling's looks are replayed (the ratio's\n"
	"interval at 1 - 0.05 / looks: Mann-Whitney's on the uncontended\n"
	"samples when they alone bound it, else the signed-rank interval of\n"
	"the rounds' paired ratios; where that does not settle and every\n"
	"call ran on one thread, the CPU times', when the wall times'\n"
	"interval lies on the same side of 1), and the row is a warning only\n"
	"when the last look settled above 1 + T, the rule above says warning\n"
	"on that look's samples, and (on calls that had a core) the two\n"
	"sides' minima differ by more than 1 + T too (improved: the mirror);\n"
	"stable when it settled within the threshold. A row that did not\n"
	"settle within its budget is unsettled, its reason \"not settled\n"
	"after N samples a side (p = P): ...\", and so is one that settled\n"
	"beyond the threshold where the rule or the minima do not say so\n"
	"(\"not settled: ...\"); \"interleaved\" says how the sampling\n"
	"ended. A time row whose current samples were mostly contended\n"
	"(\"contended\": the call did not run for part of its time) says so\n"
	"in its reason. Neither unsettled nor any other status changes the\n"
	"exit status."),
	CLI_TEXT(
	"Machine drift: when both files carry a calibration (prof-time\n"
	"measures a fixed kernel around the workloads) and the medians\n"
	"differ by more than 10%, or the run's own calibration spread is\n"
	"above 10%, every row carries a \"drift\" note saying so (null\n"
	"otherwise); statuses never change."),
	CLI_GROUP("options:"),
	CLI_STRING("baseline", 0, "FILE", struct opts, baseline,
		"the baseline; a missing file makes every row\n"
		"incomparable and is not an error"),
	CLI_OPTION("time-threshold", 0, "PCT", OPT_TIME_THRESHOLD,
		"judge every time row by a threshold of PCT%\n"
		"(above 0, at most 1000), over the one its\n"
		"samples record"),
	CLI_STRING("output", 'o', "FILE", struct opts, output,
		"write the comparisons there, atomically (default\n"
		"-, stdout)"),
	CLI_TEXT(
	"example:\n"
	"  prof-diff --baseline baselines/cpu-ci.json run/results.json |\n"
	"      jq -r '.[] | select(.status == \"warning\") | .reason'"),
	CLI_TEXT(
	"Exit status: 0 compared (warnings included), 2 bad arguments, a\n"
	"malformed results or baseline file, or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

/* Whether the baseline file is missing (as opposed to unreadable). */
static int
missing(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) != 0 && errno == ENOENT;
}

static int
take_current(void *arg, struct json_object *s, long index,
	     struct prof_err *err)
{
	(void)index;
	return prof_cmp_take(arg, s, prof_json_str(s, "segment_id"), err);
}

static int
take_baseline(void *arg, struct json_object *s, long index,
	      struct prof_err *err)
{
	(void)index;
	return prof_cmp_base_take(arg, s, prof_json_str(s, "segment_id"),
				  err);
}

static const char *
segment_of(void *st, const char *id)
{
	return prof_stream_segment(st, id);
}

/* Comparison k of the rows, made when it is written. */
static struct json_object *
row_of(void *c, size_t k)
{
	return prof_cmp_row_json(c, k);
}

/* Both files are streamed: memory holds the rows, never a document, and
 * the comparisons are written one at a time. */
static int
diff(const char *results_path, const char *baseline_path, const char *output,
     double threshold)
{
	struct prof_stream *cur = prof_stream_new(), *base = prof_stream_new();
	struct prof_cmp c = {0};
	struct prof_err err = {0};
	struct prof_calib_drift drift;
	struct json_object *ref = NULL;
	int rc = PROF_EXIT_FAILURE, is_missing;

	if (!cur || !base) {
		cli_say("out of memory");
		goto out;
	}
	c.time_threshold_pct = threshold;
	if (prof_stream_results(cur, results_path, take_current, &c, &err) <
		    0 ||
	    prof_cmp_close(&c, segment_of, cur, &err) < 0 ||
	    prof_cmp_set_run(&c, prof_json_str(prof_stream_meta(cur),
					       "run_id")) < 0 ||
	    prof_cmp_spill(&c, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (prof_calib_check(prof_stream_meta(cur), &err) < 0) {
		prof_err_file(&err, results_path);
		cli_err(&err);
		goto out;
	}
	is_missing = missing(baseline_path);
	if (!is_missing && prof_stream_results(base, baseline_path,
					       take_baseline, &c, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (!is_missing && (prof_calib_check(prof_stream_meta(base), &err) < 0 ||
			    prof_segcal_check(prof_stream_meta(base), &err) <
				    0)) {
		prof_err_file(&err, baseline_path);
		cli_err(&err);
		goto out;
	}
	if (prof_cmp_judge_groups(&c, segment_of, base, is_missing,
				  baseline_path, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	/* The machine-drift guard: a note on every row, never a status. A
	 * fleet baseline is seen with the calibration of this run's own
	 * segment (segcal.h). */
	ref = is_missing ? NULL :
			   prof_segcal_reference(prof_stream_meta(base),
						 prof_stream_segments(base),
						 prof_stream_segments(cur));
	prof_calib_drift(prof_stream_meta(cur), ref, &drift);
	if (drift.drift)
		snprintf(c.drift, sizeof(c.drift), "%s", drift.note);
	c.shard_drift = prof_calib_drift_shards(prof_stream_meta(cur), ref);
	/* One comparison at a time: 40,000 rows as one tree took 687 MB. */
	if (prof_out_json_array(output, c.n, row_of, &c, &err) < 0) {
		/* A failed stdout is reported once, by cli_finish(). */
		if (strcmp(output, "-"))
			cli_err(&err);
		goto out;
	}
	rc = PROF_EXIT_OK;
out:
	json_object_put(ref);
	prof_cmp_free(&c);
	prof_stream_free(cur);
	prof_stream_free(base);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	struct opts o = {.output = "-"};
	const char *baseline, *output;
	double threshold = 0;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	/* --time-threshold alone is checked here: its range has words of
	 * its own. */
	while (cli_opt_parse(&g, argc, argv, &o) == OPT_TIME_THRESHOLD) {
		if (cli_real("--time-threshold", optarg, &threshold))
			return PROF_EXIT_FAILURE;
		if (!(threshold > 0) || threshold > PROF_CMP_THRESHOLD_MAX)
			return cli_fail("--time-threshold: '%s' is not a "
					"percentage above 0 and at most %g",
					optarg, PROF_CMP_THRESHOLD_MAX);
	}
	baseline = o.baseline;
	output = o.output;
	if (!baseline || !baseline[0])
		return cli_fail("give the baseline: --baseline FILE");
	if (optind >= argc)
		return cli_fail("give the results file (- for stdin)");
	if (optind + 1 < argc)
		return cli_fail("unexpected argument '%s'", argv[optind + 1]);
	if (!output[0])
		return cli_fail("-o: empty file name");
	if (!strcmp(baseline, "-") && !strcmp(argv[optind], "-"))
		return cli_fail("the results and the baseline cannot both be "
				"stdin");
	{
		const char *inputs[] = {argv[optind], baseline};

		if (cli_not_input("-o", output, inputs, 2) < 0 ||
		    cli_trap_signals(output) < 0)
			return PROF_EXIT_FAILURE;
	}
	return diff(argv[optind], baseline, output, threshold);
}
