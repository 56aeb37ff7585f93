/* runner.h: the engine of prof-time, prof-mem, prof-trace and prof-count. */
#ifndef PROF_RUNNER_H
#define PROF_RUNNER_H

enum runner_phase {
	RUNNER_TIMING,	/* prof-time: timing samples */
	RUNNER_MEMORY,	/* prof-mem: one memory sample per workload x backend */
	RUNNER_PROFILE,	/* prof-trace: a CPU profile and a Chrome trace */
	RUNNER_COUNT,	/* prof-count: callgrind's instruction counts */
};

struct runner_tool {
	enum runner_phase phase;
	const char *usage;	/* the tool's --help text */
};

/*
 * Parse the shared command line (quick|full|diagnose ID [options], --list,
 * --name ID -- CMD) and run it in the tool's phase. Returns the exit code:
 * 0 every sample succeeded, 1 a sample errored, 2 bad arguments or an
 * infrastructure failure.
 */
int runner_main(const struct runner_tool *tool, int argc, char **argv);

#endif /* PROF_RUNNER_H */
