/* basic.c: test-only workloads that succeed, crash, hang, fail validation,
 * fail to prepare, allocate, or need a GPU, to test the harness and tools. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/valgrind.h>

#include "prof/workload.h"

struct sumstate {
	double *v;
	size_t n;
	double total;
};

static int
sum_prepare(struct prof_ctx *ctx, void **state)
{
	struct sumstate *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->n = 100000;
	s->v = malloc(s->n * sizeof(*s->v));
	if (!s->v) {
		free(s);
		return prof_fail(ctx, "out of memory");
	}
	for (i = 0; i < s->n; i++)
		s->v[i] = (double)(i % 1000) * 0.001;
	prof_fixture_bytes(ctx, s->v, s->n * sizeof(*s->v));
	*state = s;
	return 0;
}

static int
sum_run(struct prof_ctx *ctx, void *state)
{
	struct sumstate *s = state;
	double t = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		t += s->v[i];
	s->total = t;
	prof_metric(ctx, "items", (double)s->n);
	return 0;
}

static int
sum_validate(struct prof_ctx *ctx, void *state)
{
	struct sumstate *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	/* 100 blocks of 0 + 0.001 + ... + 0.999 = 499.5 each. */
	if (s->total < 49949.99 || s->total > 49950.01)
		return prof_fail(ctx, "sum is %.6f, expected 49950", s->total);
	prof_sum_init(&sum);
	prof_sum_f64(&sum, s->total);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	return 0;
}

static void
sum_teardown(struct prof_ctx *ctx, void *state)
{
	struct sumstate *s = state;

	(void)ctx;
	free(s->v);
	free(s);
}

static const struct prof_workload test_ok = {
	.id = "test.ok", .version = 1, .category = "test",
	.fixture = "ramp-100000", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.01, .dtype = "float64", .problem_size = "100000",
	.tile = "none", .cold_group = "test-sum",
	.prepare = sum_prepare, .run = sum_run, .validate = sum_validate,
	.teardown = sum_teardown,
};
PROF_WORKLOAD(test_ok)

/* Its own time threshold (t1559). */
static const struct prof_workload test_ok2 = {
	.id = "test.ok_slow", .version = 2, .category = "test",
	.fixture = "ramp-100000", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 0.01, .dtype = "float64", .problem_size = "100000",
	.tile = "none", .cold_group = "test-sum",
	.prepare = sum_prepare, .run = sum_run, .validate = sum_validate,
	.teardown = sum_teardown, .time_threshold_pct = 7.5,
};
PROF_WORKLOAD(test_ok2)

static int
crash_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	raise(SIGSEGV);
	return 0;
}

static const struct prof_workload test_crash = {
	.id = "test.crash", .version = 1, .category = "test",
	.fixture = "none", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = crash_run,
};
PROF_WORKLOAD(test_crash)

static int
abort_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	abort();
}

static const struct prof_workload test_abort = {
	.id = "test.abort", .version = 1, .category = "crashy",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = abort_run,
};
PROF_WORKLOAD(test_abort)

static int
hang_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	for (;;)
		pause();
	return 0;
}

static const struct prof_workload test_hang = {
	.id = "test.hang", .version = 1, .category = "hang",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = hang_run,
};
PROF_WORKLOAD(test_hang)

static int
noop_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static int
invalid_validate(struct prof_ctx *ctx, void *state)
{
	(void)state;
	return prof_fail(ctx, "expected 42 paths, got 41");
}

static const struct prof_workload test_invalid = {
	.id = "test.invalid", .version = 1, .category = "test",
	.fixture = "none", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = noop_run, .validate = invalid_validate,
};
PROF_WORKLOAD(test_invalid)

static int
prepare_fail(struct prof_ctx *ctx, void **state)
{
	(void)state;
	return prof_fail(ctx, "fixture 'missing.svg' not found");
}

static const struct prof_workload test_prepare_fail = {
	.id = "test.prepare_fail", .version = 1, .category = "broken",
	.fixture = "missing", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .prepare = prepare_fail, .run = noop_run,
};
PROF_WORKLOAD(test_prepare_fail)

static int
exit_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	write(2, "fatal: the workload gave up\n", 28);
	_exit(3);
}

static const struct prof_workload test_exit = {
	.id = "test.exit3", .version = 1, .category = "broken",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = exit_run,
};
PROF_WORKLOAD(test_exit)

static int
noise_run(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	(void)state;
	write(1, "hello from the workload\n", 24);
	return 0;
}

static const struct prof_workload test_noise = {
	.id = "test.stdout_noise", .version = 1, .category = "broken",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = noise_run,
};
PROF_WORKLOAD(test_noise)

/*
 * A known allocation pattern: 64 blocks of 1 MiB, half of them freed, then
 * one 8 MiB block: the live-heap peak is 64 MiB (plus headers).
 */
static int
alloc_run(struct prof_ctx *ctx, void *state)
{
	void *blocks[64], *big;
	int i;

	(void)state;
	for (i = 0; i < 64; i++) {
		blocks[i] = malloc(1 << 20);
		if (!blocks[i])
			return prof_fail(ctx, "out of memory");
		memset(blocks[i], i, 1 << 20);
	}
	for (i = 0; i < 64; i += 2) {
		free(blocks[i]);
		blocks[i] = NULL;
	}
	big = malloc(8 << 20);
	if (!big)
		return prof_fail(ctx, "out of memory");
	memset(big, 1, 8 << 20);
	free(big);
	for (i = 1; i < 64; i += 2)
		free(blocks[i]);
	prof_metric(ctx, "blocks", 64);
	return 0;
}

static const struct prof_workload test_alloc = {
	.id = "test.alloc", .version = 1, .category = "memory",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = alloc_run,
};
PROF_WORKLOAD(test_alloc)

static const struct prof_workload test_gpu_only = {
	.id = "test.gpu_only", .version = 1, .category = "gpu",
	.fixture = "none", .quick = 0, .backends = PROF_GPU,
	.warning_floor_ms = 1, .run = noop_run,
};
PROF_WORKLOAD(test_gpu_only)

/* Passes only in a private, writable HOME that prof-time made. */
static int
home_run(struct prof_ctx *ctx, void *state)
{
	const char *home = getenv("HOME");
	char path[4096];
	FILE *fp;

	(void)state;
	if (!home || !strstr(home, "/prof-home."))
		return prof_fail(ctx, "HOME is '%s', not a private one",
				 home ? home : "");
	snprintf(path, sizeof(path), "%s/.cache-test", home);
	fp = fopen(path, "w");
	if (!fp)
		return prof_fail(ctx, "HOME '%s' is not writable", home);
	fclose(fp);
	return 0;
}

static const struct prof_workload test_home = {
	.id = "test.home", .version = 1, .category = "home",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = home_run,
};
PROF_WORKLOAD(test_home)

/* Fails when anything of the memory, diagnostic or instruction phases is
 * loaded in a timing worker: no profiler, no interposer, no valgrind, no
 * variables for them. */
static int
clean_validate(struct prof_ctx *ctx, void *state)
{
	static const char *const libs[] = {"libprofiler", "libprof-alloc",
					   "libprof-cpuprofile",
					   "libprof-fixedtime", "libprof-gbloop",
					   "vgpreload", NULL};
	static const char *const vars[] = {"LD_PRELOAD", "CPUPROFILE",
					   "PROF_ALLOC_LOG", "PROF_CPUPROFILE",
					   NULL};
	char line[1024];
	FILE *fp = fopen("/proc/self/maps", "r");
	int i;

	(void)state;
	prof_metric(ctx, "running_on_valgrind", RUNNING_ON_VALGRIND);
	if (RUNNING_ON_VALGRIND) {
		if (fp)
			fclose(fp);
		return prof_fail(ctx, "running on valgrind");
	}
	if (!fp)
		return prof_fail(ctx, "cannot read /proc/self/maps");
	while (fgets(line, sizeof(line), fp))
		for (i = 0; libs[i]; i++)
			if (strstr(line, libs[i])) {
				fclose(fp);
				return prof_fail(ctx, "%s is loaded", libs[i]);
			}
	fclose(fp);
	for (i = 0; vars[i]; i++)
		if (getenv(vars[i]))
			return prof_fail(ctx, "%s is set", vars[i]);
	return 0;
}

static const struct prof_workload test_clean = {
	.id = "test.clean_process", .version = 1, .category = "isolation",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = noop_run, .validate = clean_validate,
};
PROF_WORKLOAD(test_clean)

/* A call that waits 5 ms off its core whatever the load: its sample is
 * contended by the rule of contend.h (wall far above CPU time). */
static int
wait_run(struct prof_ctx *ctx, void *state)
{
	struct timespec ts = {0, 5000000};

	(void)ctx;
	(void)state;
	while (nanosleep(&ts, &ts) < 0)
		;
	return 0;
}

static const struct prof_workload test_waits = {
	.id = "test.waits", .version = 1, .category = "waits",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = wait_run,
};
PROF_WORKLOAD(test_waits)

/* Spin on the calling thread's CPU clock for about ms. */
static void
spin_cpu(double ms)
{
	struct timespec ts;
	double t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	t0 = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		t = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
	} while (t - t0 < ms);
}

static void *
spin_thread(void *arg)
{
	(void)arg;
	spin_cpu(2);
	return NULL;
}

/* Two threads that each run 2 ms of CPU: on two idle cores the call's CPU
 * time is twice its wall time, which its samples' threads (2) allow. */
static int
two_threads_run(struct prof_ctx *ctx, void *state)
{
	pthread_t t;

	(void)state;
	if (pthread_create(&t, NULL, spin_thread, NULL) != 0)
		return prof_fail(ctx, "cannot start a thread");
	spin_cpu(2);
	pthread_join(t, NULL);
	return 0;
}

static const struct prof_workload test_two_threads = {
	.id = "test.two_threads", .version = 1, .category = "threads",
	.fixture = "none", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 1, .run = two_threads_run, .threads = 2,
};
PROF_WORKLOAD(test_two_threads)
