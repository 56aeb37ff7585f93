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

struct runner_tool {
	enum runner_phase phase;
	const struct cli_opt *options; /* the tool's option table: --help */
};

/*
 * Parse the shared command line (quick|full|diagnose ID [options], --list,
 * --name ID -- CMD) and run it in the tool's phase. Returns the exit code:
 * 0 every sample succeeded, 1 a sample errored, 2 bad arguments or an
 * infrastructure failure.
 */
int runner_main(const struct runner_tool *tool, int argc, char **argv);

#endif /* PROF_RUNNER_H */
