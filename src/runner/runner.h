/* runner.h: the engine of prof-time, prof-mem, prof-trace and prof-count. */
#ifndef PROF_RUNNER_H
#define PROF_RUNNER_H

struct cli_opt;

enum runner_phase {
	RUNNER_TIMING,	/* prof-time: timing samples */
	RUNNER_MEMORY,	/* prof-mem: one memory sample per workload x backend */
	RUNNER_PROFILE,	/* prof-trace: a CPU profile and a Chrome trace */
	RUNNER_COUNT,	/* prof-count: callgrind's instruction counts */
};

/* The ids of the options runner_main() parses: what a tool's option table
 * (cli.h) gives for each option it takes. */
enum {
	OPT_WORKLOADS = 256,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_CATEGORY,
	OPT_EXCLUDE,
	OPT_BACKEND,
	OPT_TIMEOUT,
	OPT_SEED,
	OPT_SHARD,
	OPT_NAME,
	OPT_FLOOR,
	OPT_PSIZE,
	OPT_EXPECT,
	OPT_LIST,
	OPT_VERSION,
	OPT_ARTIFACTS,
	OPT_MIN_SECONDS,
	OPT_AGAINST,
	OPT_AGAINST_OUTPUT,
	OPT_AGAINST_COMMAND,
	OPT_BATCH,
	OPT_MAX_REPEAT,
	OPT_THRESHOLD,
	OPT_FUNCTIONS,
	OPT_ENV,
	OPT_CHECK_OUTPUT,
	OPT_MEMORY,
	OPT_ONLY,
	OPT_TIME_THRESHOLD,
};

/* --repeat N as a tool's table shows it (runner_main() parses it: a whole
 * number from 1 to 1000000); help NULL in a run-in list of brief ones. */
#define RUNNER_REPEAT(help) CLI_OPTION("repeat", 0, "N", OPT_REPEAT, help)
#define RUNNER_REPEAT_BRIEF CLI_BRIEF("repeat", 0, "N", OPT_REPEAT, NULL)
/* --against-output FILE, of the tools that run a reference side
 * (prof-time's interleaved runs, prof-count's across builds). */
#define RUNNER_AGAINST_OUTPUT \
	CLI_OPTION("against-output", 0, "FILE", OPT_AGAINST_OUTPUT, \
		   "where the reference side's samples go")
/* The options prof-trace and prof-mem show in brief, as prof-time's. */
#define RUNNER_BRIEF_OPTIONS \
	CLI_BRIEF("workloads", 0, "BIN", OPT_WORKLOADS, \
		  "as for prof-time (see prof-time --help)."), \
	CLI_BRIEF("category", 0, "C", OPT_CATEGORY, NULL), \
	CLI_BRIEF("exclude-category", 0, "C", OPT_EXCLUDE, NULL), \
	CLI_BRIEF("only", 0, "PATTERN", OPT_ONLY, NULL), \
	CLI_BRIEF("backend", 0, "cpu|gpu|all|auto", OPT_BACKEND, NULL), \
	CLI_BRIEF("output", 'o', "FILE", 'o', NULL), \
	CLI_BRIEF("timeout", 0, "SECONDS", OPT_TIMEOUT, NULL), \
	CLI_BRIEF("quiet", 'q', NULL, 'q', NULL)
/* The exit status of a tool that does not judge, and a table's end. */
#define RUNNER_EXIT_TEXT \
	CLI_TEXT("Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad\n" \
		 "arguments or an infrastructure failure.")
#define RUNNER_END CLI_STD(OPT_VERSION), CLI_END

struct runner_tool {
	enum runner_phase phase;
	const struct cli_opt *options; /* the tool's option table: --help */
};

/* A runner tool's main(): its phase and its option table, the rest
 * runner_main()'s. */
#define RUNNER_MAIN(phase_, table) \
	int main(int argc, char **argv) \
	{ \
		static const struct runner_tool tool = {(phase_), (table)}; \
		return runner_main(&tool, argc, argv); \
	}

/*
 * Parse the shared command line (quick|full|diagnose ID [options], --list,
 * --name ID -- CMD) and run it in the tool's phase. Returns the exit code:
 * 0 every sample succeeded, 1 a sample errored, 2 bad arguments or an
 * infrastructure failure.
 */
int runner_main(const struct runner_tool *tool, int argc, char **argv);

#endif /* PROF_RUNNER_H */
