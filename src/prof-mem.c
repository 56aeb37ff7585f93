/* prof-mem: the memory phase: one separate run per workload x backend with
 * its heap peak, peak RSS and device allocator numbers. */
#include "cli/cli.h"
#include "runner/runner.h"

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-mem quick|full [options]"),
	CLI_USAGE("prof-mem diagnose ID [options]"),
	CLI_USAGE("prof-mem --name ID [--category C] [--repeat N] -- CMD [ARG...]"),
	CLI_TEXT(
	"The memory phase, apart from timing: each workload x backend runs\n"
	"twice, each time in a fresh worker under the allocation interposer\n"
	"libprof-alloc.so (LD_PRELOAD): one call right after prepare(), one\n"
	"memory sample (index 0, then 1; \"call\": its call index in its\n"
	"worker, 0, so that prof-diff sees whether the exact numbers repeat):\n"
	"  host_peak_bytes         peak of live heap bytes during the call, above\n"
	"                          what was live when it started (the usable\n"
	"                          size of each block, as malloc_usable_size\n"
	"                          reports it, so glibc's rounding is included)\n"
	"  host_live_before_bytes  live heap bytes when the call started\n"
	"  host_allocs             allocations during the call\n"
	"  host_allocated_bytes    the usable bytes of those allocations\n"
	"  rss_peak_bytes          the worker's peak RSS (VmHWM), reset after\n"
	"                          prepare() where the kernel allows it\n"
	"  device_*_bytes          on CUDA: the stream-ordered pool's allocated,\n"
	"                          reserved and their peaks during the call"),
	CLI_TEXT(
	"A command runs twice (--repeat N: N times), each a fresh process and\n"
	"a memory sample of \"call\" 0, with the interposer in every process\n"
	"of its tree; each process is one record under \"processes\", and\n"
	"\"memory\" holds the largest peak, the sum of peaks, all allocations,\n"
	"all their bytes and wait4's max RSS; a process a signal ends is\n"
	"counted up to its end. What the interposer cannot count (a static\n"
	"or setuid program, an environment without it, as env -i makes) is\n"
	"under \"untracked\": no heap numbers (metrics.heap_tracked false),\n"
	"the RSS peak still, said once, not an error."),
	CLI_GROUP("options:"),
	RUNNER_BRIEF_OPTIONS,
	CLI_GROUP("command options:"),
	CLI_OPTION("name", 0, "ID", OPT_NAME,
		"the workload id of the command's samples"),
	RUNNER_REPEAT("runs of the command, a sample each (default 2)"),
	RUNNER_EXIT_TEXT,
	RUNNER_END,
};

RUNNER_MAIN(RUNNER_MEMORY, option_table)
