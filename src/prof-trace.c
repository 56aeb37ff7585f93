/* prof-trace: the diagnostic phase: a CPU profile of the timed region and
 * a Chrome trace of the worker's phases. */
#include "runner/runner.h"

static const char usage_text[] =
	"usage: prof-trace quick|full [options]\n"
	"       prof-trace diagnose ID [options]\n"
	"       prof-trace --name ID [--artifacts DIR] -- CMD [ARG...]\n"
	"\n"
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
	"ID.gpu.prof and ID.gpu.trace.json.)\n"
	"\n"
	"A command is profiled with libprof-cpuprofile.so (LD_PRELOAD), which\n"
	"starts gperftools in the command and keeps it out of its children.\n"
	"\n"
	"options:\n"
	"  --artifacts DIR    where the files go (default: the folder of\n"
	"                     --output, or the current folder)\n"
	"  --min-seconds S    the least time the calls cover (default 2)\n"
	"  --workloads BIN, --category C, --exclude-category C,\n"
	"  --backend cpu|gpu|all|auto, --output FILE, --timeout SECONDS, -q;\n"
	"  as for prof-time (see prof-time --help).\n"
	"\n"
	"gperftools samples at most about 250 times a second here (the kernel's\n"
	"timer), so 2 s give about 500 samples of a single-threaded call. Its\n"
	"timer counts CPU time: on a busy machine the calls go on past\n"
	"--min-seconds until the profile holds 50 samples, or cover 4 times it.\n"
	"\n"
	"Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad\n"
	"arguments or an infrastructure failure.\n";

int
main(int argc, char **argv)
{
	static const struct runner_tool tool = {RUNNER_PROFILE, usage_text};

	return runner_main(&tool, argc, argv);
}
