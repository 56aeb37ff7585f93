/* phases.c: the four phases of one worker: timing (the clock around
 * run() only), memory (heap and device peaks of one call, under the
 * allocation interposer), profile (gperftools and a Chrome trace) and
 * instructions (callgrind counts of run() only). */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Only its types: the functions are looked up with dlsym in the profile
 * phase, so no other process ever loads gperftools. */
#include <gperftools/profiler.h>
/* Client requests: a few no-op instructions outside valgrind, and only
 * the instruction phase ever executes them. */
#include <valgrind/callgrind.h>

#include "base/env.h"
#include "base/json.h"
#include "base/prof.h"
#include "internal.h"
#include "model/contend.h"
#include "model/sample.h"
#include "model/trace.h"
#include "phases.h"
#include "rss.h"

/* The tasks of a workload that runs threads whose delay is read. */
#define SCHED_TASKS 256

struct worker {
	const struct prof_worker_args *a;
	struct prof_ctx ctx;
	const struct prof_gpu_ops *gpu;	/* set when the backend is gpu */
	struct prof_gpu_device dev;
	struct json_object *env;
	void *state;
	int prepared;
	long long launches;
	double prepare_ms[2];		/* start and end of prepare() */
	struct prof_trace *trace;	/* profile phase only */
	int counting;			/* instruction phase: count run() */
	char dump_name[64];		/* the callgrind dump of this call */
	int cpu_clock;			/* timing phase: read the CPU clock */
	double cpu_ms;			/* the last timed call's CPU time */
	long switches;			/* and its involuntary switches */
	int sched_fd;			/* one thread: its schedstat, or -1 */
	int sched_known;		/* the kernel keeps a delay */
	double delay_ms;		/* the last timed call's run-queue
					 * delay; < 0: unknown */
	int delay_partial;		/* a thread ended inside it */
	struct prof_sched sched[2][SCHED_TASKS]; /* threads: before, after */
	long n_sched[2];
};

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * The CPU clock and the rusage of what a call runs on: the calling thread,
 * or the whole process for a workload whose run() uses threads (contend.h).
 */
static void
cpu_now(const struct worker *wk, double *cpu_ms, long *nivcsw)
{
	int multi = prof_threads(wk->a->w) > 1;
	struct timespec ts;
	struct rusage ru;

	if (clock_gettime(multi ? CLOCK_PROCESS_CPUTIME_ID :
				  CLOCK_THREAD_CPUTIME_ID,
			  &ts) < 0)
		ts.tv_sec = ts.tv_nsec = 0;
	*cpu_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
	if (getrusage(multi ? RUSAGE_SELF : RUSAGE_THREAD, &ru) < 0)
		ru.ru_nivcsw = 0;
	*nivcsw = ru.ru_nivcsw;
}

/*
 * The run-queue delay's reads (contend.h), around the CPU clock's (see
 * timed_call()): the calling thread's schedstat, or every task's of the
 * process for a workload whose run() uses threads. at 0 before the call,
 * 1 after.
 */
static void
sched_now(struct worker *wk, int at)
{
	int more = 0;

	if (!wk->sched_known)
		return;
	if (wk->sched_fd >= 0) {
		if (prof_sched_read(wk->sched_fd, &wk->sched[at][0]) < 0)
			wk->n_sched[at] = -1;
		else
			wk->n_sched[at] = 1;
		return;
	}
	wk->n_sched[at] = prof_sched_tasks(0, wk->sched[at], SCHED_TASKS,
					   &more);
	if (more && at)
		wk->delay_partial = 1;
}

/* Where the kernel keeps the delay, for the timing phase: the thread's
 * own file held open, or the process's task folder read at each call. */
static void
sched_open(struct worker *wk)
{
	struct prof_sched t[1];

	wk->sched_fd = -1;
	if (prof_threads(wk->a->w) > 1)
		wk->sched_known = prof_sched_tasks(0, t, 1, NULL) > 0;
	else
		wk->sched_known = (wk->sched_fd = prof_sched_open_self()) >= 0;
}

/* The call's delay from the two reads, at most the wall time on each
 * thread; -1 when either read failed. Threads: partial when the process's
 * CPU time is more than its tasks read ran (one began and ended inside
 * the call). */
static void
sched_delay(struct worker *wk, double wall_ms)
{
	wk->delay_ms = -1;
	if (!wk->sched_known || wk->n_sched[0] < 0 || wk->n_sched[1] < 0)
		return;
	wk->delay_ms = prof_sched_delay(
		wk->sched[0], (size_t)wk->n_sched[0], wk->sched[1],
		(size_t)wk->n_sched[1], wall_ms,
		wk->sched_fd >= 0 ? NAN : wk->cpu_ms, &wk->delay_partial);
}

static struct json_object *
new_sample(struct worker *wk, const char *phase, long index)
{
	const struct prof_workload *w = wk->a->w;
	struct prof_sample_meta m = {
		.workload = w->id,
		.version = w->version,
		.category = w->category,
		.fixture = w->fixture && w->fixture[0] ? w->fixture : "none",
		.fixture_checksum = wk->ctx.fixture_checksum[0] ?
					    wk->ctx.fixture_checksum :
					    NULL,
		.warning_floor_ms = w->warning_floor_ms,
		.backend = wk->a->backend,
	};

	return prof_sample_new(&m, json_object_get(wk->env), phase,
			       wk->a->kind, index);
}

static struct json_object *
metrics_json(const struct prof_ctx *ctx)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < ctx->n_metrics; i++)
		json_object_object_add(o, ctx->metrics[i].name,
				       prof_json_double(ctx->metrics[i].value));
	return o;
}

/*
 * A timing sample's CPU time, switches, run-queue delay and contended
 * mark, for the call of ms just timed (none when it was not timed to the
 * end). A GPU call waits for the device: the rule is told so by its
 * backend (contend.h).
 */
static void
add_cpu(struct worker *wk, struct json_object *s, const char *phase,
	double ms)
{
	long threads = prof_threads(wk->a->w);

	if (strcmp(phase, "timing") || ms < 0 || wk->cpu_ms < 0)
		return;
	prof_sample_set_cpu(s, round(ms * 1e6) / 1e6, wk->cpu_ms,
			    wk->switches, threads, wk->delay_ms,
			    wk->delay_partial);
}

/* Emit an error sample of phase at index, with reason. */
static void
emit_error(struct worker *wk, const char *phase, long index,
	   const char *reason, double ms)
{
	struct json_object *s = new_sample(wk, phase, index);

	prof_sample_fail(s, reason, ms);
	add_cpu(wk, s, phase, ms);
	prof_emit(s);
	json_object_put(s);
}

static void
reset_call(struct prof_ctx *ctx)
{
	ctx->reason[0] = '\0';
	ctx->n_metrics = 0;
	ctx->checksum[0] = '\0';
}

/* A named range for out-of-band GPU tools (NVTX), when there is one. */
static void
range_push(struct worker *wk, const char *name)
{
	if (wk->gpu && wk->gpu->range_push)
		wk->gpu->range_push(name);
}

static void
range_pop(struct worker *wk)
{
	if (wk->gpu && wk->gpu->range_pop)
		wk->gpu->range_pop();
}

/*
 * One call of run() inside the clock. On the GPU the device is synchronized
 * right before the clock starts and again before it stops, so the time is
 * the device's work, and kernel launches are counted in between. Returns
 * 0, or -1 with ctx.reason saying why; *ms is the time, or -1.
 */
static int
timed_call(struct worker *wk, double *ms, double *t_start)
{
	const struct prof_workload *w = wk->a->w;
	struct prof_ctx *ctx = &wk->ctx;
	char why[512];
	double t0, t1, c0, c1;
	long sw0, sw1;
	int rc;

	reset_call(ctx);
	wk->launches = -1;
	*ms = -1;
	wk->cpu_ms = -1;
	if (wk->gpu) {
		if (wk->gpu->sync(why, sizeof(why)) < 0 ||
		    wk->gpu->launches_begin(why, sizeof(why)) < 0)
			return prof_fail(ctx, "GPU: %s", why);
	}
	/* The CPU clock and switches are read inside the wall clock's
	 * bracket, so that a call that had its core has cpu <= wall; in
	 * the timing phase only: their four system calls a call cost
	 * gperftools most of its SIGPROF samples on a busy machine. The
	 * run-queue delay is read before the first CPU clock read and
	 * after the wall clock stops: reading the CPU clock updates the
	 * thread's run time, which is where the scheduler finds its slice
	 * spent and takes the core, at that system call's return; a wait
	 * there is in the wall time, and so must be in the delay. */
	t0 = now_ms();
	if (wk->cpu_clock) {
		wk->delay_partial = 0;
		sched_now(wk, 0);
		cpu_now(wk, &c0, &sw0);
	}
	if (wk->counting) {
		/* The counted region: what every thread executes from the
		 * zeroing to the dump, that is run() (and the threads it
		 * talks to, a server's). Collection is per thread, so it
		 * stays on; the zeroing drops what came before. */
		CALLGRIND_ZERO_STATS;
		rc = w->run(ctx, wk->state);
		CALLGRIND_DUMP_STATS_AT(wk->dump_name);
	} else {
		rc = w->run(ctx, wk->state);
	}
	if (wk->gpu && wk->gpu->sync(why, sizeof(why)) < 0) {
		wk->gpu->launches_end();
		return prof_fail(ctx, "GPU: %s", why);
	}
	if (wk->cpu_clock) {
		cpu_now(wk, &c1, &sw1);
		wk->cpu_ms = c1 - c0;
		wk->switches = sw1 - sw0;
	}
	t1 = now_ms();
	*ms = t1 - t0;
	if (wk->cpu_clock) {
		sched_now(wk, 1);
		sched_delay(wk, *ms);
	}
	if (t_start)
		*t_start = t0;
	if (wk->gpu) {
		wk->launches = wk->gpu->launches_end();
		prof_metric(ctx, "gpu_kernel_launches",
			    (double)(wk->launches < 0 ? 0 : wk->launches));
	}
	if (rc < 0) {
		if (!ctx->reason[0])
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "run() failed");
		return -1;
	}
	if (wk->gpu && wk->launches == 0)
		return prof_fail(ctx, "GPU workload launched no kernel");
	return 0;
}

/* validate() outside the clock. Returns 0, or -1 with ctx.reason. */
static int
validate_call(struct worker *wk)
{
	const struct prof_workload *w = wk->a->w;
	struct prof_ctx *ctx = &wk->ctx;
	double t0 = now_ms();
	int rc = 0;

	if (!w->validate)
		return 0;
	range_push(wk, "validate");
	if (w->validate(ctx, wk->state) < 0) {
		char r[sizeof(ctx->reason)];

		snprintf(r, sizeof(r), "%s", ctx->reason);
		rc = prof_fail(ctx, "validation failed: %s",
			       r[0] ? r : "validate() returned -1");
	}
	range_pop(wk);
	prof_trace_complete(wk->trace, "validate", "validate", t0, now_ms());
	return rc;
}

/* A timed call and its validation. */
static int
call_once(struct worker *wk, double *ms)
{
	if (timed_call(wk, ms, NULL) < 0)
		return -1;
	return validate_call(wk);
}

/* Warmup calls: no samples; a failure is one error sample. */
static int
warmup(struct worker *wk, const char *phase)
{
	double ms, t0 = 0;
	long i;
	char r[1200], name[64];

	for (i = 0; i < wk->a->warmup; i++) {
		range_push(wk, "warmup");
		if (timed_call(wk, &ms, &t0) < 0 || validate_call(wk) < 0) {
			range_pop(wk);
			snprintf(r, sizeof(r), "warmup call %ld: %s", i + 1,
				 wk->ctx.reason);
			emit_error(wk, phase, 0, r, -1);
			return -1;
		}
		range_pop(wk);
		snprintf(name, sizeof(name), "warmup %ld", i + 1);
		prof_trace_complete(wk->trace, name, "warmup", t0, t0 + ms);
	}
	return 0;
}

static int
phase_timing(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	long i;
	double ms;

	wk->cpu_clock = 1;
	sched_open(wk);
	if (warmup(wk, "timing") < 0)
		return PROF_EXIT_OK;
	for (i = 0; i < a->repeat; i++) {
		struct json_object *s;

		if (call_once(wk, &ms) < 0) {
			emit_error(wk, "timing", i, wk->ctx.reason, ms);
			continue;
		}
		s = new_sample(wk, "timing", i);
		prof_sample_succeed(s, ms, metrics_json(&wk->ctx),
				    wk->ctx.checksum[0] ? wk->ctx.checksum :
							  NULL);
		add_cpu(wk, s, "timing", ms);
		prof_emit(s);
		json_object_put(s);
	}
	return PROF_EXIT_OK;
}

/* Reset VmHWM to the current RSS (Linux 4.0+); 0 when it worked. */
static int
rss_peak_reset(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = write(fd, "5", 1) == 1 ? 0 : -1;
	close(fd);
	return rc;
}

static void
mem_put(struct json_object *m, const char *key, long long v)
{
	json_object_object_add(m, key, v >= 0 ? json_object_new_int64(v) : NULL);
}

/*
 * The memory phase: one call under the allocation interposer (prof-mem
 * preloads it). host_peak_bytes is the peak of live heap bytes during the
 * call above what was live when it started (host_live_before_bytes);
 * rss_peak_bytes is the worker's VmHWM, reset after prepare() where the
 * kernel allows it; on the GPU, the device pool's numbers of the call.
 */
static int
phase_memory(struct worker *wk)
{
	void (*reset)(void) = (void (*)(void))dlsym(RTLD_DEFAULT,
						    "prof_alloc_reset");
	void (*read)(long long *) = (void (*)(long long *))dlsym(
		RTLD_DEFAULT, "prof_alloc_read");
	long long (*bytes)(void) = (long long (*)(void))dlsym(
		RTLD_DEFAULT, "prof_alloc_bytes");
	struct prof_gpu_mem gm = {-1, -1, -1, -1};
	long long heap[5], allocated;
	struct json_object *s, *m;
	char why[512];
	double ms;
	int rss_reset;

	if (!reset || !read) {
		emit_error(wk, "memory", 0,
			   "the memory phase needs the allocation interposer "
			   "(run it through prof-mem)",
			   -1);
		return PROF_EXIT_OK;
	}
	if (warmup(wk, "memory") < 0)
		return PROF_EXIT_OK;
	if (wk->gpu && wk->gpu->mem_reset &&
	    wk->gpu->mem_reset(why, sizeof(why)) < 0) {
		snprintf(wk->ctx.reason, sizeof(wk->ctx.reason),
			 "GPU memory: %s", why);
		emit_error(wk, "memory", 0, wk->ctx.reason, -1);
		return PROF_EXIT_OK;
	}
	rss_reset = rss_peak_reset() == 0;
	reset();
	if (timed_call(wk, &ms, NULL) < 0) {
		emit_error(wk, "memory", 0, wk->ctx.reason, ms);
		return PROF_EXIT_OK;
	}
	read(heap);
	allocated = bytes ? bytes() : -1;
	if (wk->gpu && wk->gpu->mem_read &&
	    wk->gpu->mem_read(&gm, why, sizeof(why)) < 0) {
		snprintf(wk->ctx.reason, sizeof(wk->ctx.reason),
			 "GPU memory: %s", why);
		emit_error(wk, "memory", 0, wk->ctx.reason, ms);
		return PROF_EXIT_OK;
	}
	m = json_object_new_object();
	mem_put(m, "host_peak_bytes", heap[1] - heap[2]);
	mem_put(m, "host_live_before_bytes", heap[2]);
	mem_put(m, "host_allocs", heap[3]);
	mem_put(m, "host_allocated_bytes", allocated);
	mem_put(m, "rss_peak_bytes", rss_peak());
	if (wk->gpu) {
		mem_put(m, "device_allocated_bytes", gm.allocated);
		mem_put(m, "device_reserved_bytes", gm.reserved);
		mem_put(m, "device_peak_allocated_bytes", gm.peak_allocated);
		mem_put(m, "device_peak_reserved_bytes", gm.peak_reserved);
	}
	if (validate_call(wk) < 0) {
		json_object_put(m);
		emit_error(wk, "memory", 0, wk->ctx.reason, ms);
		return PROF_EXIT_OK;
	}
	prof_metric(&wk->ctx, "rss_peak_reset", rss_reset);
	s = new_sample(wk, "memory", 0);
	prof_sample_succeed(s, ms, metrics_json(&wk->ctx),
			    wk->ctx.checksum[0] ? wk->ctx.checksum : NULL);
	json_object_object_add(s, "memory", m);
	prof_emit(s);
	json_object_put(s);
	return PROF_EXIT_OK;
}

/* gperftools, loaded only in this phase so no timing run ever has it. */
struct profiler {
	int (*start)(const char *, const struct ProfilerOptions *);
	void (*stop)(void);
	void (*flush)(void);
	void (*state)(struct ProfilerState *);
};

/* Timed calls (and their validate) shown one by one in the trace. */
#define TRACE_HOST_CALLS 2000

/* Only samples taken inside run() are kept. */
static volatile int in_timed_region;

static int
profile_filter(void *arg)
{
	(void)arg;
	return in_timed_region;
}

static int
load_profiler(struct profiler *p, char *why, size_t n)
{
	void *lib;

	setenv("CPUPROFILE_FREQUENCY", "1000", 0);
	lib = dlopen("libprofiler.so.0", RTLD_NOW | RTLD_GLOBAL);
	if (!lib) {
		snprintf(why, n, "gperftools is not available: %s", dlerror());
		return -1;
	}
	p->start = (int (*)(const char *, const struct ProfilerOptions *))
		dlsym(lib, "ProfilerStartWithOptions");
	p->stop = (void (*)(void))dlsym(lib, "ProfilerStop");
	p->flush = (void (*)(void))dlsym(lib, "ProfilerFlush");
	p->state = (void (*)(struct ProfilerState *))dlsym(
		lib, "ProfilerGetCurrentState");
	if (!p->start || !p->stop || !p->flush || !p->state) {
		snprintf(why, n, "libprofiler.so.0 lacks the profiler API");
		return -1;
	}
	return 0;
}

/* "<dir>/<id><suffix>", and the name alone for the sample. */
static void
artifact(struct worker *wk, const char *ext, char *path, size_t n,
	 char *name, size_t nn)
{
	const char *b = strcmp(wk->a->backend, "cpu") ? ".gpu" : "";

	snprintf(name, nn, "%s%s%s", wk->a->w->id, b, ext);
	snprintf(path, n, "%s/%s", wk->a->artifacts, name);
}

static void
gpu_trace_event(void *arg, const char *event_json)
{
	prof_trace_raw(arg, event_json);
}

/*
 * The samples a profile should hold: on a busy machine the calls get a
 * share of a core, and gperftools' timer counts CPU time, not the wall's.
 */
#define PROFILE_SAMPLES_WANTED 50
#define PROFILE_MAX_STRETCH 4

/*
 * Whether the diagnostic phase calls run() again: until the calls cover
 * goal, then, while the profile holds fewer than PROFILE_SAMPLES_WANTED
 * samples, up to PROFILE_MAX_STRETCH times goal.
 */
static int
more_calls(const struct profiler *p, double covered, double goal)
{
	struct ProfilerState st;

	if (covered < goal)
		return 1;
	if (covered >= goal * PROFILE_MAX_STRETCH)
		return 0;
	p->state(&st);
	return st.samples_gathered < PROFILE_SAMPLES_WANTED;
}

/* The profiled calls: at least one, then until more_calls() says the
 * profile is enough; each timed call in the trace, the host's for the
 * first TRACE_HOST_CALLS only. Returns -1 where a call failed. */
static int
profiled_calls(struct worker *wk, const struct profiler *p, double goal,
	       double *covered, long *calls)
{
	struct prof_trace *shown = NULL;
	double ms, t0 = 0;
	char name[64];
	int rc = 0;

	while (*calls < 1 ||
	       (more_calls(p, *covered, goal) && *calls < 10000000)) {
		range_push(wk, "timed call");
		in_timed_region = 1;
		rc = timed_call(wk, &ms, &t0);
		in_timed_region = 0;
		range_pop(wk);
		(*calls)++;
		if (rc == 0) {
			*covered += ms;
			snprintf(name, sizeof(name), "call %ld", *calls);
			prof_trace_complete(wk->trace, name, "timed", t0,
					    t0 + ms);
			rc = validate_call(wk);
		}
		/* Thousands of tiny calls would bury the device's events:
		 * the host's are kept for the first calls only. */
		if (*calls == TRACE_HOST_CALLS) {
			shown = wk->trace;
			wk->trace = NULL;
		}
		if (rc < 0)
			break;
	}
	if (shown)
		wk->trace = shown;
	return rc < 0 ? -1 : 0;
}

/* The profile sample: the calls, the profiler's samples, the time they
 * cover, the trace's counts, the profiled binary and the two files. */
static void
profile_sample(struct worker *wk, long calls, double covered,
	       const struct ProfilerState *st, const char *prof_name,
	       const char *trace_name)
{
	struct json_object *s, *arts;
	char exe[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	prof_metric(&wk->ctx, "calls", (double)calls);
	prof_metric(&wk->ctx, "profile_samples", st->samples_gathered);
	prof_metric(&wk->ctx, "covered_ms", covered);
	prof_metric(&wk->ctx, "trace_calls_shown",
		    (double)(calls < TRACE_HOST_CALLS ? calls : TRACE_HOST_CALLS));
	prof_metric(&wk->ctx, "trace_events_dropped",
		    (double)prof_trace_dropped(wk->trace));
	s = new_sample(wk, "profile", 0);
	prof_sample_succeed(s, covered / (double)calls, metrics_json(&wk->ctx),
			    wk->ctx.checksum[0] ? wk->ctx.checksum : NULL);
	json_object_object_add(json_object_object_get(s, "metrics"), "binary",
			       json_object_new_string(exe));
	arts = json_object_object_get(s, "artifacts");
	json_object_array_add(arts, json_object_new_string(prof_name));
	json_object_array_add(arts, json_object_new_string(trace_name));
	prof_emit(s);
	json_object_put(s);
}

/*
 * The diagnostic phase: run() repeated until the calls cover at least
 * min_seconds (longer on a busy machine: more_calls()), with gperftools
 * sampling the timed calls only (a filter drops samples outside run()),
 * and every phase of the worker in a Chrome
 * trace: prepare, each warmup and timed call, each validate; on the GPU,
 * kernels and copies too.
 */
static int
phase_profile(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	struct ProfilerOptions opts = {profile_filter, NULL};
	struct ProfilerState st;
	struct profiler p;
	struct prof_err err = {0};
	char prof_path[PATH_MAX], prof_name[512];
	char trace_path[PATH_MAX], trace_name[512];
	char why[512];
	double covered = 0, goal = a->min_seconds * 1e3;
	long calls = 0;
	int failed;

	wk->trace = prof_trace_new(a->w->id, 0, 250000);
	prof_trace_complete(wk->trace, "prepare", "prepare", wk->prepare_ms[0],
			    wk->prepare_ms[1]);
	artifact(wk, ".prof", prof_path, sizeof(prof_path), prof_name,
		 sizeof(prof_name));
	artifact(wk, ".trace.json", trace_path, sizeof(trace_path),
		 trace_name, sizeof(trace_name));
	if (load_profiler(&p, why, sizeof(why)) < 0) {
		emit_error(wk, "profile", 0, why, -1);
		return PROF_EXIT_OK;
	}
	if (warmup(wk, "profile") < 0)
		return PROF_EXIT_OK;
	if (wk->gpu && wk->gpu->trace_begin &&
	    wk->gpu->trace_begin(why, sizeof(why)) < 0) {
		snprintf(wk->ctx.reason, sizeof(wk->ctx.reason),
			 "GPU trace: %s", why);
		emit_error(wk, "profile", 0, wk->ctx.reason, -1);
		return PROF_EXIT_OK;
	}
	if (!p.start(prof_path, &opts)) {
		snprintf(wk->ctx.reason, sizeof(wk->ctx.reason),
			 "cannot start the profiler on '%.900s'", prof_path);
		emit_error(wk, "profile", 0, wk->ctx.reason, -1);
		return PROF_EXIT_OK;
	}
	failed = profiled_calls(wk, &p, goal, &covered, &calls) < 0;
	p.state(&st);
	p.flush();
	p.stop();
	if (wk->gpu && wk->gpu->trace_end &&
	    wk->gpu->trace_end(gpu_trace_event, wk->trace, why, sizeof(why)) < 0 &&
	    !failed) {
		snprintf(wk->ctx.reason, sizeof(wk->ctx.reason),
			 "GPU trace: %s", why);
		failed = 1;
	}
	if (prof_trace_write(wk->trace, trace_path, &err) < 0 && !failed) {
		prof_err_str(&err, wk->ctx.reason, sizeof(wk->ctx.reason));
		failed = 1;
	}
	if (failed) {
		emit_error(wk, "profile", 0, wk->ctx.reason, -1);
		return PROF_EXIT_OK;
	}
	profile_sample(wk, calls, covered, &st, prof_name, trace_name);
	return PROF_EXIT_OK;
}

/*
 * The instruction phase, under callgrind (prof-count runs the worker with
 * collection and instrumentation off at start): warmup calls uninstrumented
 * and uncounted, then for each of the repeat calls, collection on around
 * run() only and a dump named "prof-call-INDEX" right after it, before
 * validate(). prof-count reads the dump that each sample names by its
 * index and fills in the sample's "instructions"; duration_ms is the
 * call's time under callgrind, not comparable with a timing sample.
 */
static int
phase_instructions(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	double ms;
	long i;

	if (!RUNNING_ON_VALGRIND) {
		emit_error(wk, "instructions", 0,
			   "the instruction phase runs under callgrind (run it "
			   "through prof-count)",
			   -1);
		return PROF_EXIT_OK;
	}
	if (warmup(wk, "instructions") < 0)
		return PROF_EXIT_OK;
	/* Instrumenting only from here keeps prepare() and the warmup at
	 * the speed of valgrind's core; the count is the same either way. */
	CALLGRIND_START_INSTRUMENTATION;
	for (i = 0; i < a->repeat; i++) {
		struct json_object *s;
		int rc;

		snprintf(wk->dump_name, sizeof(wk->dump_name),
			 "prof-call-%ld", i);
		wk->counting = 1;
		rc = timed_call(wk, &ms, NULL);
		wk->counting = 0;
		if (rc < 0 || validate_call(wk) < 0) {
			emit_error(wk, "instructions", i, wk->ctx.reason, ms);
			continue;
		}
		s = new_sample(wk, "instructions", i);
		prof_sample_succeed(s, ms, metrics_json(&wk->ctx),
				    wk->ctx.checksum[0] ? wk->ctx.checksum :
							  NULL);
		json_object_object_add(s, "instructions", NULL);
		json_object_object_add(
			s, "count_threshold_pct",
			prof_json_double(prof_count_threshold(a->w)));
		prof_emit(s);
		json_object_put(s);
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	return PROF_EXIT_OK;
}

/* Build the environment once for the worker's samples. */
static void
make_env(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	const struct prof_workload *w = a->w;
	const struct prof_build_facts *b = prof_registry_facts(w);
	const char **names, **values;
	size_t i, n = prof_registry_build_facts(&names, &values);
	struct json_object *project = NULL;
	char isa[128];
	int gpu = wk->gpu != NULL;
	struct prof_env_in in = {
		.compiler = prof_build_compiler,
		.compiler_version = prof_build_compiler_version,
		.cflags = prof_build_cflags,
		.backend_requested = a->requested,
		.backend = a->backend,
		.device = gpu ? wk->dev.name : NULL,
		.device_cc = gpu ? wk->dev.cc : NULL,
		.device_sms = gpu ? wk->dev.sms : 0,
		.device_memory_bytes = gpu ? wk->dev.memory_bytes : 0,
		.cuda_driver = gpu ? wk->dev.driver : NULL,
		.cuda_runtime = gpu ? wk->dev.runtime : NULL,
		.dtype = w->dtype && w->dtype[0] ? w->dtype : "none",
		.problem_size = w->problem_size && w->problem_size[0] ?
					w->problem_size :
					"none",
		.tile = w->tile && w->tile[0] ? w->tile : "none",
		.valgrind = a->valgrind,
	};

	if (b) {
		/* "" when no ISA macro was set; the list without its lead
		 * space otherwise. */
		snprintf(isa, sizeof(isa), "%s",
			 b->isa[0] == ' ' ? b->isa + 1 : b->isa);
		in.workload_compiler = b->compiler;
		in.workload_compiler_major = b->compiler_major;
		in.workload_optimized = b->optimized ? 1 : 0;
		in.workload_isa = isa;
	}
	if (n) {
		project = json_object_new_object();
		for (i = 0; project && i < n; i++)
			json_object_object_add(
				project, names[i],
				json_object_new_string(values[i]));
		in.build_facts = project;
	}
	wk->env = prof_env_collect(&in);
	json_object_put(project);
}

/* Open the GPU session when the backend is gpu; reason on failure. */
static int
open_backend(struct worker *wk, char *why, size_t n)
{
	const struct prof_worker_args *a = wk->a;

	if (strcmp(a->backend, "gpu") != 0)
		return 0;
	if (!(a->w->backends & PROF_GPU)) {
		snprintf(why, n, "workload '%s' has no GPU path", a->w->id);
		return -1;
	}
	if (prof_gpu_probe(&wk->dev, why, n) < 0)
		return -1;
	wk->gpu = prof_gpu_backend();
	if (wk->gpu->open && wk->gpu->open(why, n) < 0) {
		wk->gpu = NULL;
		return -1;
	}
	return 0;
}

int
prof_worker_run(const struct prof_worker_args *a)
{
	struct worker wk;
	char why[512] = "";
	int rc = PROF_EXIT_OK;

	memset(&wk, 0, sizeof(wk));
	wk.a = a;
	wk.ctx.w = a->w;
	wk.ctx.backend = strcmp(a->backend, "gpu") ? PROF_CPU : PROF_GPU;
	if (strcmp(a->backend, "cpu") == 0 && !(a->w->backends & PROF_CPU)) {
		snprintf(why, sizeof(why), "workload '%s' has no CPU path",
			 a->w->id);
		make_env(&wk);
		emit_error(&wk, a->phase, 0, why, -1);
		goto out;
	}
	if (open_backend(&wk, why, sizeof(why)) < 0) {
		char r[700];

		make_env(&wk);
		snprintf(r, sizeof(r), "GPU requested but unavailable: %s", why);
		emit_error(&wk, a->phase, 0, r, -1);
		goto out;
	}
	make_env(&wk);
	if (strcmp(a->phase, "timing") && strcmp(a->phase, "memory") &&
	    strcmp(a->phase, "profile") && strcmp(a->phase, "instructions")) {
		fprintf(stderr, "%s: unknown phase '%s'\n", a->progname,
			a->phase);
		rc = PROF_EXIT_FAILURE;
		goto out;
	}
	wk.prepare_ms[0] = now_ms();
	range_push(&wk, "prepare");
	if (a->w->prepare && a->w->prepare(&wk.ctx, &wk.state) < 0) {
		range_pop(&wk);
		char r[1200];

		snprintf(r, sizeof(r), "prepare failed: %s",
			 wk.ctx.reason[0] ? wk.ctx.reason : "prepare() returned -1");
		emit_error(&wk, a->phase, 0, r, -1);
		goto out;
	}
	range_pop(&wk);
	wk.prepare_ms[1] = now_ms();
	wk.prepared = 1;
	if (!strcmp(a->phase, "timing"))
		rc = phase_timing(&wk);
	else if (!strcmp(a->phase, "memory"))
		rc = phase_memory(&wk);
	else if (!strcmp(a->phase, "instructions"))
		rc = phase_instructions(&wk);
	else
		rc = phase_profile(&wk);
out:
	if (wk.prepared && a->w->teardown)
		a->w->teardown(&wk.ctx, wk.state);
	if (wk.gpu && wk.gpu->close)
		wk.gpu->close();
	if (wk.cpu_clock && wk.sched_fd >= 0)
		close(wk.sched_fd);
	json_object_put(wk.env);
	prof_trace_free(wk.trace);
	return rc;
}
