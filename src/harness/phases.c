/* phases.c: the timing loop (and the other phases) of one worker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env.h"
#include "internal.h"
#include "json.h"
#include "phases.h"
#include "prof.h"
#include "sample.h"

struct worker {
	const struct prof_worker_args *a;
	struct prof_ctx ctx;
	const struct prof_gpu_ops *gpu;	/* set when the backend is gpu */
	struct prof_gpu_device dev;
	struct json_object *env;
	void *state;
	int prepared;
	long long launches;
};

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

/* Emit an error sample of phase at index, with reason. */
static void
emit_error(struct worker *wk, const char *phase, long index,
	   const char *reason, double ms)
{
	struct json_object *s = new_sample(wk, phase, index);

	prof_sample_fail(s, reason, ms);
	prof_emit(s);
	json_object_put(s);
}

static void
reset_call(struct prof_ctx *ctx)
{
	ctx->reason[0] = '\0';
	ctx->failed = 0;
	ctx->n_metrics = 0;
	ctx->checksum[0] = '\0';
}

/*
 * One call of run() inside the clock, then validate() outside it. On the
 * GPU the device is synchronized right before the clock starts and before
 * it stops, and kernel launches are counted. Returns 0, or -1 with
 * ctx.reason saying why the call failed.
 */
static int
call_once(struct worker *wk, double *ms)
{
	const struct prof_workload *w = wk->a->w;
	struct prof_ctx *ctx = &wk->ctx;
	char why[512];
	double t0, t1;
	int rc;

	reset_call(ctx);
	wk->launches = -1;
	*ms = -1;
	if (wk->gpu) {
		if (wk->gpu->sync(why, sizeof(why)) < 0 ||
		    wk->gpu->launches_begin(why, sizeof(why)) < 0)
			return prof_fail(ctx, "GPU: %s", why);
	}
	t0 = now_ms();
	rc = w->run(ctx, wk->state);
	if (wk->gpu && wk->gpu->sync(why, sizeof(why)) < 0) {
		wk->gpu->launches_end();
		return prof_fail(ctx, "GPU: %s", why);
	}
	t1 = now_ms();
	*ms = t1 - t0;
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
	if (w->validate && w->validate(ctx, wk->state) < 0) {
		char r[sizeof(ctx->reason)];

		snprintf(r, sizeof(r), "%s", ctx->reason);
		return prof_fail(ctx, "validation failed: %s",
				 r[0] ? r : "validate() returned -1");
	}
	return 0;
}

static int
phase_timing(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	long i;
	double ms;

	for (i = 0; i < a->warmup; i++) {
		if (call_once(wk, &ms) < 0) {
			char r[1200];

			snprintf(r, sizeof(r), "warmup call %ld: %s", i + 1,
				 wk->ctx.reason);
			emit_error(wk, "timing", 0, r, -1);
			return PROF_EXIT_OK;
		}
	}
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
		prof_emit(s);
		json_object_put(s);
	}
	return PROF_EXIT_OK;
}

/* Build the environment once for the worker's samples. */
static void
make_env(struct worker *wk)
{
	const struct prof_worker_args *a = wk->a;
	const struct prof_workload *w = a->w;
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
	};

	wk->env = prof_env_collect(&in);
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
	if (a->w->prepare && a->w->prepare(&wk.ctx, &wk.state) < 0) {
		char r[1200];

		snprintf(r, sizeof(r), "prepare failed: %s",
			 wk.ctx.reason[0] ? wk.ctx.reason : "prepare() returned -1");
		emit_error(&wk, a->phase, 0, r, -1);
		goto out;
	}
	wk.prepared = 1;
	if (!strcmp(a->phase, "timing")) {
		rc = phase_timing(&wk);
	} else {
		fprintf(stderr, "%s: unknown phase '%s'\n", a->progname,
			a->phase);
		rc = PROF_EXIT_FAILURE;
	}
out:
	if (wk.prepared && a->w->teardown)
		a->w->teardown(&wk.ctx, wk.state);
	if (wk.gpu && wk.gpu->close)
		wk.gpu->close();
	json_object_put(wk.env);
	return rc;
}
