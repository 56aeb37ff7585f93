/* fake_gpu.c: a fake GPU backend and workloads that use it, to test the
 * session logic of the harness (synchronization order, proof of dispatch,
 * fallback refusal, memory numbers, device trace events) on a machine
 * without a GPU. The real CUDA session is checked by test/gpu/check.sh.
 *
 * Environment: PROF_FAKE_GPU_LOG=FILE appends one word per session call;
 * PROF_FAKE_GPU_ABSENT=1 has no device; PROF_FAKE_GPU_NO_CUPTI=1 fails the
 * launch counter the way a second CUPTI subscriber does;
 * PROF_FAKE_GPU_POOL_BYTES=N is what fake.kernel's GPU path takes from the
 * pool (default 8 MiB), as a change of the code would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/session.h"
#include "prof/workload.h"

static long long fake_launches;
static long long pool_used, pool_reserved, pool_used_high, pool_reserved_high;
static int tracing;
static int traced_kernels;

static void
say(const char *word)
{
	const char *path = getenv("PROF_FAKE_GPU_LOG");
	FILE *fp;

	if (!path)
		return;
	fp = fopen(path, "a");
	if (!fp)
		return;
	fprintf(fp, "%s\n", word);
	fclose(fp);
}

static int
fake_probe(struct prof_gpu_device *dev, char *why, size_t n)
{
	if (getenv("PROF_FAKE_GPU_ABSENT")) {
		snprintf(why, n, "cudaGetDeviceCount: cudaErrorNoDevice (no "
				 "CUDA-capable device is detected)");
		return -1;
	}
	snprintf(dev->name, sizeof(dev->name), "Fake GPU");
	snprintf(dev->cc, sizeof(dev->cc), "9.0");
	dev->sms = 132;
	dev->memory_bytes = 150754820096LL;
	snprintf(dev->driver, sizeof(dev->driver), "13.0");
	snprintf(dev->runtime, sizeof(dev->runtime), "13.0");
	return 0;
}

static int
fake_open(char *why, size_t n)
{
	say("open");
	return 0;
}

static int
fake_sync(char *why, size_t n)
{
	say("sync");
	return 0;
}

static int
fake_launches_begin(char *why, size_t n)
{
	say("begin");
	if (getenv("PROF_FAKE_GPU_NO_CUPTI")) {
		snprintf(why, n, "cannot count kernel launches: cuptiSubscribe: "
				 "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED "
				 "(another CUPTI subscriber, such as an Nsight "
				 "tool, is attached)");
		return -1;
	}
	fake_launches = 0;
	return 0;
}

static long long
fake_launches_end(void)
{
	say("end");
	return fake_launches;
}

static int
fake_mem_reset(char *why, size_t n)
{
	say("mem_reset");
	pool_used_high = pool_used;
	pool_reserved_high = pool_reserved;
	return 0;
}

static int
fake_mem_read(struct prof_gpu_mem *m, char *why, size_t n)
{
	say("mem_read");
	m->allocated = pool_used;
	m->reserved = pool_reserved;
	m->peak_allocated = pool_used_high;
	m->peak_reserved = pool_reserved_high;
	return 0;
}

static int
fake_trace_begin(char *why, size_t n)
{
	tracing = 1;
	return 0;
}

static int
fake_trace_end(void (*emit)(void *arg, const char *event_json), void *arg,
	       char *why, size_t n)
{
	int i;
	char ev[256];

	emit(arg, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1000000,"
		  "\"tid\":0,\"args\":{\"name\":\"GPU 0 Fake GPU\"}}");
	for (i = 0; i < traced_kernels && i < 10; i++) {
		snprintf(ev, sizeof(ev),
			 "{\"name\":\"fake_kernel(float const*, int)\","
			 "\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":%d,\"dur\":5,"
			 "\"pid\":1000000,\"tid\":7}",
			 i * 10);
		emit(arg, ev);
	}
	tracing = 0;
	return 0;
}

static void
fake_push(const char *name)
{
	char w[80];

	snprintf(w, sizeof(w), "push %s", name);
	say(w);
}

static void
fake_pop(void)
{
	say("pop");
}

static const struct prof_gpu_ops fake_ops = {
	.name = "fake",
	.probe = fake_probe,
	.open = fake_open,
	.sync = fake_sync,
	.launches_begin = fake_launches_begin,
	.launches_end = fake_launches_end,
	.mem_reset = fake_mem_reset,
	.mem_read = fake_mem_read,
	.trace_begin = fake_trace_begin,
	.trace_end = fake_trace_end,
	.range_push = fake_push,
	.range_pop = fake_pop,
};

static void __attribute__((constructor))
fake_register(void)
{
	prof_gpu_register(&fake_ops);
}

/* What a kernel launch would do: count, and touch the fake pool. */
static void
fake_kernel(void)
{
	fake_launches++;
	if (tracing)
		traced_kernels++;
	say("kernel");
}

static void
fake_malloc_async(long long n)
{
	pool_used += n;
	if (pool_used > pool_reserved)
		pool_reserved = pool_used;
	if (pool_used > pool_used_high)
		pool_used_high = pool_used;
	if (pool_reserved > pool_reserved_high)
		pool_reserved_high = pool_reserved;
}

static void
fake_free_async(long long n)
{
	pool_used -= n;
}

struct vec {
	float v[1024];
	float sum;
};

static int
vec_prepare(struct prof_ctx *ctx, void **state)
{
	struct vec *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		return prof_fail(ctx, "out of memory");
	for (i = 0; i < 1024; i++)
		s->v[i] = (float)i;
	prof_fixture_bytes(ctx, s->v, sizeof(s->v));
	*state = s;
	return 0;
}

static void
vec_sum(struct vec *s)
{
	float t = 0;
	int i;

	for (i = 0; i < 1024; i++)
		t += s->v[i];
	s->sum = t;
}

/* What fake.kernel's GPU path takes from the pool. */
static long long
pool_bytes(void)
{
	const char *v = getenv("PROF_FAKE_GPU_POOL_BYTES");

	return v && v[0] ? atoll(v) : 8 << 20;
}

/* The GPU path launches a (fake) kernel; the CPU path computes. */
static int
kernel_run(struct prof_ctx *ctx, void *state)
{
	if (prof_backend(ctx) == PROF_GPU) {
		long long n = pool_bytes();

		say("run");
		fake_malloc_async(n);
		fake_kernel();
		fake_free_async(n);
	}
	vec_sum(state);
	return 0;
}

static int
vec_validate(struct prof_ctx *ctx, void *state)
{
	struct vec *s = state;

	if (s->sum != 523776.0f)
		return prof_fail(ctx, "sum %.1f, expected 523776", s->sum);
	return 0;
}

static void
vec_teardown(struct prof_ctx *ctx, void *state)
{
	free(state);
}

static const struct prof_workload gpu_kernel = {
	.id = "fake.kernel", .version = 1, .category = "fake",
	.fixture = "ramp-1024", .quick = 1, .backends = PROF_CPU | PROF_GPU,
	.warning_floor_ms = 1, .dtype = "float32", .problem_size = "1024",
	.tile = "none", .prepare = vec_prepare, .run = kernel_run,
	.validate = vec_validate, .teardown = vec_teardown,
};
PROF_WORKLOAD(gpu_kernel)

/* A GPU path that quietly runs on the CPU: no kernel, a slow success
 * anywhere else, an error sample here. */
static int
fallback_run(struct prof_ctx *ctx, void *state)
{
	say("run");
	vec_sum(state);
	return 0;
}

static const struct prof_workload gpu_fallback = {
	.id = "fake.fallback", .version = 1, .category = "fake",
	.fixture = "ramp-1024", .quick = 1, .backends = PROF_CPU | PROF_GPU,
	.warning_floor_ms = 1, .dtype = "float32", .problem_size = "1024",
	.tile = "none", .prepare = vec_prepare, .run = fallback_run,
	.validate = vec_validate, .teardown = vec_teardown,
};
PROF_WORKLOAD(gpu_fallback)
