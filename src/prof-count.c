/* prof-count: the instruction-count phase: callgrind counts of run() only,
 * or of a whole command, in an environment that never changes. */
#include "cli/cli.h"
#include "runner/runner.h"

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-count quick|full [options]"),
	CLI_USAGE("prof-count diagnose ID [options]"),
	CLI_USAGE("prof-count --name ID [command options] -- CMD [ARG...]"),
	CLI_USAGE("prof-count quick|full|diagnose ID ... --against REF_BIN...\n"
		  "           --against-output FILE"),
	CLI_USAGE("prof-count --name ID ... --against-command STRING\n"
		  "           --against-output FILE -- CMD [ARG...]"),
	CLI_TEXT(
	"Count the instructions each workload executes, under valgrind's\n"
	"callgrind, and write one sample per counted call as a JSON line:\n"
	"phase \"instructions\", with the integer \"instructions\" (callgrind's\n"
	"Ir). The same build on the same input executes the same\n"
	"instructions, so a busy machine cannot move a count; a change of\n"
	"1% is visible in one run."),
	CLI_TEXT(
	"Each workload runs in a fresh worker under callgrind, instrumented\n"
	"from its first counted call on: prepare(), the warmup call and\n"
	"validate() are never counted; each call's count is what every thread\n"
	"executes from just before run() to just after it (a server's thread\n"
	"included). Workers get a fixed environment (PATH, HOME=/tmp/\n"
	"prof-count-UID/PROJECT/home made fresh, LANG=C, TZ=UTC), no\n"
	"address-space randomization, and a fixed time() (libprof-fixedtime.so:\n"
	"libraries that seed hashes from the clock would otherwise vary).\n"
	"Timing runs never run under valgrind. PROJECT is 16 hex digits of\n"
	"the project's name ($PROF_PROJECT, else the folder of the git\n"
	"repository, the same for its worktrees): one prof-count of a\n"
	"project runs at a time, other projects' at once."),
	CLI_TEXT(
	"modes (the CPU path only):\n"
	"  quick          quick-tagged workloads; warmup 1, repeat 2\n"
	"  full           every workload with a CPU path; warmup 1, repeat 3\n"
	"  diagnose ID    that workload only; warmup 1, repeat 3"),
	CLI_GROUP("options:"),
	CLI_BRIEF("workloads", 0, "BIN", OPT_WORKLOADS,
		"as for prof-time (see prof-time --help). A workload's\n"
		"count_threshold_pct (default 1) is carried by its samples."),
	RUNNER_REPEAT_BRIEF,
	CLI_BRIEF("warmup", 0, "N", OPT_WARMUP, NULL),
	CLI_BRIEF("category", 0, "C", OPT_CATEGORY, NULL),
	CLI_BRIEF("exclude-category", 0, "C", OPT_EXCLUDE, NULL),
	CLI_BRIEF("only", 0, "PATTERN", OPT_ONLY, NULL),
	CLI_BRIEF("output", 'o', "FILE", 'o', NULL),
	CLI_BRIEF("timeout", 0, "SECONDS", OPT_TIMEOUT, NULL),
	CLI_BRIEF("seed", 0, "N", OPT_SEED, NULL),
	CLI_BRIEF("shard", 0, "I/N", OPT_SHARD, NULL),
	CLI_BRIEF("quiet", 'q', NULL, 'q', NULL),
	CLI_OPTION("functions", 0, "DIR", OPT_FUNCTIONS,
		"keep each workload's callgrind output of its\n"
		"first counted call, functions only (no lines;\n"
		"kilobytes), as DIR/ID.BACKEND.callgrind, named\n"
		"in that sample's artifacts when DIR is inside\n"
		"the folder of --output; prof-why compares two\n"
		"builds' files"),
	CLI_GROUP("across builds (each side its own counted run; prof-merge each file,\n"
		  "then prof-diff --baseline REF CUR):"),
	CLI_OPTION("against", 0, "BIN", OPT_AGAINST,
		"a reference workload binary (repeatable)"),
	CLI_OPTION("against-command", 0, "STR", OPT_AGAINST_COMMAND,
		"a reference command, split into words like a\n"
		"shell without expansions ('...', \"...\", \\)"),
	RUNNER_AGAINST_OUTPUT,
	CLI_TEXT(
	"A command's identity is its --name and its arguments: the program's\n"
	"path is recorded in the environment (\"program\"), never compared, so\n"
	"one program built at two paths compares; other arguments make the\n"
	"row incomparable, and prof-diff's reason names both."),
	CLI_GROUP("command options (count any command and every process it starts):"),
	CLI_OPTION("name", 0, "ID", OPT_NAME,
		"the workload id of the samples"),
	RUNNER_REPEAT("samples (default 2)"),
	CLI_OPTION("warmup", 0, "N", OPT_WARMUP,
		"runs before counting (default 0)"),
	CLI_OPTION("threshold", 0, "PCT", OPT_THRESHOLD,
		"a median count that grows by more than PCT %\n"
		"is a warning (default 1; 0: any growth)"),
	CLI_OPTION("env", 0, "NAME=VALUE", OPT_ENV,
		"add to the command's fixed environment\n"
		"(repeatable)"),
	CLI_FLAG("memory", 0, OPT_MEMORY,
		"then two runs of their own, outside valgrind\n"
		"and in the same fixed environment, under the\n"
		"allocation interposer: memory samples with\n"
		"the heap peak, allocations, bytes allocated\n"
		"and RSS peak (as prof-time --memory; the\n"
		"interposer is never counted)"),
	CLI_BRIEF("category", 0, "C", OPT_CATEGORY, "as for prof-time"),
	CLI_BRIEF("problem-size", 0, "TEXT", OPT_PSIZE, NULL),
	CLI_BRIEF("expect-exit", 0, "N", OPT_EXPECT, NULL),
	CLI_BRIEF("timeout", 0, "S", OPT_TIMEOUT, NULL),
	CLI_BRIEF("check-output", 0, NULL, OPT_CHECK_OUTPUT, NULL),
	CLI_TEXT(
	"The command runs with --trace-children=yes: every process of its tree\n"
	"is counted (also what a process did before it replaced itself with\n"
	"exec) and the counts are summed. It gets PATH=/usr/local/bin:/usr/bin:\n"
	"/bin, HOME (fresh, always the same path), LANG=C, LC_ALL=C, TZ=UTC\n"
	"and PWD=/tmp/prof-count-UID/PROJECT/cwd, a link to the working\n"
	"directory, so\n"
	"that neither the caller's environment nor the length of its working\n"
	"directory changes the count. The program is looked up in the\n"
	"caller's PATH."),
	CLI_TEXT(
	"Exit status: 0 every sample succeeded, 1 a sample errored (a crash,\n"
	"a failed validation, a failed command), 2 bad arguments, valgrind\n"
	"not installed, a command that is not found, or an infrastructure\n"
	"failure."),
	RUNNER_END,
};

RUNNER_MAIN(RUNNER_COUNT, option_table)
