/* prof-trace: the diagnostic phase: a CPU profile of the timed region and
 * a Chrome trace of the worker's phases. */
#include "cli/cli.h"
#include "runner/runner.h"

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-trace quick|full [options]"),
	CLI_USAGE("prof-trace diagnose ID [options]"),
	CLI_USAGE("prof-trace --name ID [--artifacts DIR] -- CMD [ARG...]"),
	CLI_TEXT(
	"The diagnostic phase, apart from timing: each workload x backend runs\n"
	"in a fresh worker that loads gperftools, calls run() until the calls\n"
	"cover --min-seconds, and keeps only the profiler's samples taken inside\n"
	"run(). It writes, in the artifacts folder:\n"
	"  ID.prof        read it with: google-pprof --text BINARY ID.prof\n"
	"  ID.trace.json  Chrome Trace Event JSON of prepare, each warmup and\n"
	"                 timed call, and each validate (Perfetto, or\n"
	"                 chrome://tracing); on CUDA also kernels and copies\n"
	"and one profile sample with the calls, the profiler's samples, the\n"
	"profiled binary and the two files as artifacts. (GPU runs name them\n"
	"ID.gpu.prof and ID.gpu.trace.json.)"),
	CLI_TEXT(
	"A command is profiled with libprof-cpuprofile.so (LD_PRELOAD), which\n"
	"starts gperftools in the command and keeps it out of its children."),
	CLI_GROUP("options:"),
	CLI_OPTION("artifacts", 0, "DIR", OPT_ARTIFACTS,
		"where the files go (default: the folder of\n"
		"--output, or the current folder)"),
	CLI_OPTION("min-seconds", 0, "S", OPT_MIN_SECONDS,
		"the least time the calls cover (default 2)"),
	CLI_OPTION("name", 0, "ID", OPT_NAME,
		"a command's workload id (-- CMD [ARG...])"),
	RUNNER_BRIEF_OPTIONS,
	CLI_TEXT(
	"gperftools samples at most about 250 times a second here (the kernel's\n"
	"timer), so 2 s give about 500 samples of a single-threaded call. Its\n"
	"timer counts CPU time: on a busy machine the calls go on past\n"
	"--min-seconds until the profile holds 50 samples, or cover 4 times it."),
	RUNNER_EXIT_TEXT,
	RUNNER_END,
};

RUNNER_MAIN(RUNNER_PROFILE, option_table)
