/* prof-count: the instruction-count phase: callgrind counts of run() only,
 * or of a whole command, in an environment that never changes. */
#include "runner.h"

static const char usage_text[] =
	"usage: prof-count quick|full [options]\n"
	"       prof-count diagnose ID [options]\n"
	"       prof-count --name ID [command options] -- CMD [ARG...]\n"
	"\n"
	"Count the instructions each workload executes, under valgrind's\n"
	"callgrind, and write one sample per counted call as a JSON line:\n"
	"phase \"instructions\", with the integer \"instructions\" (callgrind's\n"
	"Ir). The same build on the same input executes the same\n"
	"instructions, so a busy machine cannot move a count; a change of\n"
	"1% is visible in one run.\n"
	"\n"
	"Each workload runs in a fresh worker under callgrind, instrumented\n"
	"from its first counted call on: prepare(), the warmup call and\n"
	"validate() are never counted; each call's count is what every thread\n"
	"executes from just before run() to just after it (a server's thread\n"
	"included). Workers get a fixed environment (PATH, HOME=/tmp/\n"
	"prof-count-UID/home made fresh, LANG=C, TZ=UTC), no address-space\n"
	"randomization, and a fixed time() (libprof-fixedtime.so: libraries\n"
	"that seed hashes from the clock would otherwise vary). Timing runs\n"
	"never run under valgrind.\n"
	"\n"
	"modes (the CPU path only):\n"
	"  quick          quick-tagged workloads; warmup 1, repeat 2\n"
	"  full           every workload with a CPU path; warmup 1, repeat 3\n"
	"  diagnose ID    that workload only; warmup 1, repeat 3\n"
	"\n"
	"options: --workloads BIN, --repeat N, --warmup N, --category C,\n"
	"  --exclude-category C, --output FILE, --timeout SECONDS, --seed N,\n"
	"  -q; as for prof-time (see prof-time --help). A workload's\n"
	"  count_threshold_pct (default 1) is carried by its samples.\n"
	"\n"
	"command options (count any command and every process it starts):\n"
	"  --name ID              the workload id of the samples\n"
	"  --repeat N, --warmup N runs before counting (default 0), samples (2)\n"
	"  --threshold PCT        a median count that grows by more than PCT %\n"
	"                         is a warning (default 1)\n"
	"  --env NAME=VALUE       add to the command's fixed environment\n"
	"                         (repeatable)\n"
	"  --category C, --problem-size TEXT, --expect-exit N, --timeout S\n"
	"                         as for prof-time\n"
	"The command runs with --trace-children=yes: every process of its tree\n"
	"is counted (also what a process did before it replaced itself with\n"
	"exec) and the counts are summed. It gets PATH=/usr/local/bin:/usr/bin:\n"
	"/bin, HOME (fresh, always the same path), LANG=C, LC_ALL=C, TZ=UTC\n"
	"and PWD=/tmp/prof-count-UID/cwd, a link to the working directory, so\n"
	"that neither the caller's environment nor the length of its working\n"
	"directory changes the count. The program is looked up in the\n"
	"caller's PATH.\n"
	"\n"
	"Exit status: 0 every sample succeeded, 1 a sample errored (a crash,\n"
	"a failed validation, a failed command), 2 bad arguments, valgrind\n"
	"not installed, a command that is not found, or an infrastructure\n"
	"failure.\n";

int
main(int argc, char **argv)
{
	static const struct runner_tool tool = {RUNNER_COUNT, usage_text};

	return runner_main(&tool, argc, argv);
}
