/* prof-time: run workloads (or any command) in fresh workers; emit timing
 * samples as JSON lines. */
#include "runner.h"

static const char usage_text[] =
	"usage: prof-time quick|full [options]\n"
	"       prof-time diagnose ID [options]\n"
	"       prof-time --list [--workloads BIN]...\n"
	"       prof-time --name ID [command options] -- CMD [ARG...]\n"
	"\n"
	"Run registered workloads, each workload x backend in a fresh worker\n"
	"process, and write one timing sample per call as a JSON line.\n"
	"\n"
	"modes:\n"
	"  quick          quick-tagged workloads; warmup 1, repeat 3, backend cpu\n"
	"  full           every workload; warmup 2, repeat 10, backend all, plus a\n"
	"                 cold sample for the first workload of each cold group\n"
	"  diagnose ID    that workload only; warmup 1, repeat 5, backend auto\n"
	"\n"
	"options:\n"
	"  --workloads BIN        a workload binary (repeatable; default: the\n"
	"                         prof-workloads beside this program)\n"
	"  --repeat N             timed calls per workload x backend\n"
	"  --warmup N             untimed calls first (they make no samples)\n"
	"  --category C           only this category (repeatable)\n"
	"  --exclude-category C   not this category (repeatable)\n"
	"  --backend B            cpu, gpu (a CUDA device is required), all, auto\n"
	"  --output FILE          write the samples there (default -, stdout)\n"
	"  --timeout SECONDS      per worker process (default 600)\n"
	"  --seed N               seed of the shuffled run order (default: new)\n"
	"  --shard I/N            only shard I of N: the selected workloads split\n"
	"                         by a hash of their id (each in exactly one)\n"
	"  -q, --quiet            no progress on stderr\n"
	"\n"
	"command options (time any command, one process per sample):\n"
	"  --name ID              the workload id of the samples\n"
	"  --category C           its category (default command)\n"
	"  --warmup N, --repeat N runs before timing (default 0), samples (10)\n"
	"  --warning-floor MS     slowdowns under MS are never warnings (5)\n"
	"  --problem-size TEXT    a label that enters the segment key\n"
	"  --expect-exit N        the exit status that counts as success (0)\n"
	"\n"
	"Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad\n"
	"arguments, an unknown workload, a missing workload binary, or\n"
	"--backend gpu without a CUDA device.\n";

int
main(int argc, char **argv)
{
	static const struct runner_tool tool = {RUNNER_TIMING, usage_text};

	return runner_main(&tool, argc, argv);
}
