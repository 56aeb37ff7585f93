/* prof-time: run workloads (or any command) in fresh workers; emit timing
 * samples as JSON lines. */
#include "cli/cli.h"
#include "runner/runner.h"

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-time quick|full [options]"),
	CLI_USAGE("prof-time diagnose ID [options]"),
	CLI_USAGE("prof-time --list [--workloads BIN]..."),
	CLI_USAGE("prof-time --name ID [command options] -- CMD [ARG...]"),
	CLI_USAGE("prof-time quick|full|diagnose ID ... --against REF_BIN...\n"
		  "          --against-output FILE [--batch N]"),
	CLI_USAGE("prof-time --name ID ... --against-command STRING\n"
		  "          --against-output FILE -- CMD [ARG...]"),
	CLI_TEXT(
	"Run registered workloads, each workload x backend in a fresh worker\n"
	"process, and write one timing sample per call as a JSON line."),
	CLI_TEXT(
	"modes:\n"
	"  quick          quick-tagged workloads; warmup 1, repeat 3, backend cpu\n"
	"  full           every workload; warmup 2, repeat 10, backend all, plus a\n"
	"                 cold sample for the first workload of each cold group\n"
	"  diagnose ID    that workload only; warmup 1, repeat 5, backend auto"),
	CLI_GROUP("options:"),
	CLI_OPTION("workloads", 0, "BIN", OPT_WORKLOADS,
		"a workload binary (repeatable; default:\n"
		"$PROF_WORKLOADS, else the prof-workloads\n"
		"beside this program in a build of prof;\n"
		"an installed prof-time has none)"),
	RUNNER_REPEAT("timed calls per workload x backend"),
	CLI_OPTION("warmup", 0, "N", OPT_WARMUP,
		"untimed calls first (they make no samples)"),
	CLI_OPTION("category", 0, "C", OPT_CATEGORY,
		"only this category (repeatable)"),
	CLI_OPTION("exclude-category", 0, "C", OPT_EXCLUDE,
		"not this category (repeatable)"),
	CLI_OPTION("only", 0, "PATTERN", OPT_ONLY,
		"only the workloads whose id matches PATTERN,\n"
		"a shell pattern (repeatable: any of them; each\n"
		"must match a workload)"),
	CLI_OPTION("backend", 0, "B", OPT_BACKEND,
		"cpu, gpu (a CUDA device is required), all, auto"),
	CLI_OPTION("output", 'o', "FILE", 'o',
		"write the samples there (default -, stdout)"),
	CLI_OPTION("timeout", 0, "SECONDS", OPT_TIMEOUT,
		"per worker process (default 600, at least\n"
		"0.01)"),
	CLI_OPTION("seed", 0, "N", OPT_SEED,
		"seed of the shuffled run order (default: new)"),
	CLI_OPTION("shard", 0, "I/N", OPT_SHARD,
		"only shard I of N: the selected workloads split\n"
		"by a hash of their id (each in exactly one)"),
	CLI_OPTION("time-threshold", 0, "PCT", OPT_TIME_THRESHOLD,
		"the time threshold every timing sample records,\n"
		"which prof-diff judges its row by: a change of\n"
		"more than PCT% either way (above 0, at most\n"
		"1000; default: the workload's own, else 20\n"
		"against a baseline and 5 interleaved)"),
	CLI_FLAG("quiet", 'q', 'q',
		"no progress on stderr"),
	CLI_FLAG("list", 0, OPT_LIST,
		"list the workloads (id, category, backends)\n"
		"instead of running them"),
	CLI_GROUP("interleaved A/B (the reference side's samples go to their own file):"),
	CLI_OPTION("against", 0, "BIN", OPT_AGAINST,
		"a reference workload binary (repeatable): each\n"
		"workload x backend runs on both sides in\n"
		"batches, alternately, in ABBA order (the first\n"
		"side from the seed); each sample records its\n"
		"side and slot in \"ab\"; a workload on one side\n"
		"only runs there (new, or missing)"),
	CLI_OPTION("against-command", 0, "STR", OPT_AGAINST_COMMAND,
		"a reference command, split into words like a\n"
		"shell without expansions ('...', \"...\", \\);\n"
		"the two commands take turns call by call"),
	RUNNER_AGAINST_OUTPUT,
	CLI_OPTION("batch", 0, "N", OPT_BATCH,
		"timed calls per worker on each side (default 1)"),
	CLI_OPTION("max-repeat", 0, "N", OPT_MAX_REPEAT,
		"adaptive sampling: a workload whose verdict is\n"
		"not settled after --repeat samples a side gets\n"
		"more interleaved rounds, up to N a side (default\n"
		"4 x --repeat; N = --repeat turns it off); each\n"
		"sample records its round (prof(7): the rule)"),
	CLI_TEXT(
	"Every timing run also measures a fixed calibration kernel (an integer\n"
	"and a memory-bound loop, outside any workload's clock) at its start,\n"
	"between groups and at its end, and writes it, with the machine's load,\n"
	"CPU steal, governor and ASLR, as {\"record\":...} lines among the\n"
	"samples; prof-merge lifts them into the results."),
	CLI_GROUP("command options (time any command, one process per sample):"),
	CLI_OPTION("name", 0, "ID", OPT_NAME,
		"the workload id of the samples"),
	CLI_OPTION("category", 0, "C", OPT_CATEGORY,
		"its category (default command)"),
	CLI_OPTION("warmup", 0, "N", OPT_WARMUP,
		"runs before timing (default 0)"),
	RUNNER_REPEAT("samples (default 10)"),
	CLI_OPTION("warning-floor", 0, "MS", OPT_FLOOR,
		"slowdowns under MS are never warnings (default 5)"),
	CLI_OPTION("problem-size", 0, "TEXT", OPT_PSIZE,
		"a label that enters the segment key"),
	CLI_OPTION("expect-exit", 0, "N", OPT_EXPECT,
		"the exit status that counts as success (default 0)"),
	CLI_FLAG("check-output", 0, OPT_CHECK_OUTPUT,
		"hash each call's stdout (SHA-256, as\n"
		"sha256sum) into the sample's checksum, on\n"
		"both sides of an A/B; rows whose outputs\n"
		"differ (between the sides, or between calls)\n"
		"are incomparable, never judged on time. Off\n"
		"by default: stdout then goes to /dev/null\n"
		"instead of through a pipe"),
	CLI_FLAG("memory", 0, OPT_MEMORY,
		"then two runs of the command of their own\n"
		"under the allocation interposer: memory\n"
		"samples (call 0) with its heap peak,\n"
		"allocations, bytes allocated and RSS peak,\n"
		"judged as a workload's (prof-mem(1)); never\n"
		"inside a timed run. What the interposer\n"
		"cannot count (a static or setuid program,\n"
		"env -i) gives no heap numbers, said once\n"
		"(metrics.heap_tracked false), not an error"),
	CLI_TEXT(
	"Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad\n"
	"arguments, an unknown workload, a missing workload binary, or\n"
	"--backend gpu without a CUDA device."),
	RUNNER_END,
};

RUNNER_MAIN(RUNNER_TIMING, option_table)
