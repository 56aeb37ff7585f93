/* spawn-floor: the least a command sample can cost here. posix_spawn of
 * the command with stdio on /dev/null, then wait4, timed on
 * CLOCK_MONOTONIC; prints the median of --repeat runs in ms as JSON.
 * The reference that bench/command-overhead.sh holds prof-time to. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	long warmup, repeat, i;
	double *ms;
	posix_spawn_file_actions_t fa;

	if (argc < 4) {
		fprintf(stderr, "usage: spawn-floor WARMUP REPEAT CMD [ARG...]\n");
		return 2;
	}
	warmup = atol(argv[1]);
	repeat = atol(argv[2]);
	if (repeat < 1 || warmup < 0) {
		fprintf(stderr, "spawn-floor: bad WARMUP or REPEAT\n");
		return 2;
	}
	ms = calloc((size_t)repeat, sizeof(*ms));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
	for (i = -warmup; i < repeat; i++) {
		struct rusage ru;
		pid_t pid;
		int st;
		double t0 = now_ms();

		if (posix_spawnp(&pid, argv[3], &fa, NULL, argv + 3, environ)) {
			fprintf(stderr, "spawn-floor: cannot run '%s'\n", argv[3]);
			return 2;
		}
		wait4(pid, &st, 0, &ru);
		if (i >= 0)
			ms[i] = now_ms() - t0;
	}
	qsort(ms, (size_t)repeat, sizeof(*ms), cmp);
	printf("{\"median_ms\": %.6f}\n", ms[repeat / 2]);
	free(ms);
	return 0;
}
