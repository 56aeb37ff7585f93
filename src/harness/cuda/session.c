/* session.c: the CUDA backend session: device detection, synchronized
 * timing, proof of dispatch (CUPTI callbacks), the stream-ordered pool's
 * memory numbers, kernels and copies for the Chrome trace (CUPTI Activity
 * API) and NVTX ranges. Built only where nvcc exists; plain C against the
 * runtime API and CUPTI, linked into the project's workload binary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>
#include <json-c/json.h>

#include "prof/session.h"

/* From libstdc++ (extern "C" in cxxabi.h): kernel names come mangled. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

#define MAX_TRACE_EVENTS 200000
#define GPU_PID_BASE 1000000	/* trace pids of devices, apart from hosts */

static CUpti_SubscriberHandle subscriber;
static int subscribed;		/* 1 subscribed, -1 failed */
static char subscribe_why[512];
static long long launches;

static int activity_on;
static double clock_offset_ms;	/* host CLOCK_MONOTONIC ms - CUPTI ns / 1e6 */
static char **events;
static size_t n_events, cap_events, dropped_events;
static unsigned device_seen[64];

static int
cuda_why(cudaError_t e, const char *call, char *why, size_t n)
{
	snprintf(why, n, "%s: %s (%s)", call, cudaGetErrorName(e),
		 cudaGetErrorString(e));
	return -1;
}

static int
cupti_why(CUptiResult r, const char *call, char *why, size_t n)
{
	const char *s = NULL;

	cuptiGetResultString(r, &s);
	snprintf(why, n, "%s: %s", call, s ? s : "unknown CUPTI error");
	return -1;
}

static void
version_text(int v, char *out, size_t n)
{
	snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

static double
host_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * Detection by the error code, not the count: on error the count is left
 * unwritten. Without a driver this is cudaErrorInsufficientDriver, with
 * only the stub library cudaErrorStubLibrary, and with a driver but no GPU
 * cudaErrorNoDevice.
 */
static int
cuda_probe(struct prof_gpu_device *dev, char *why, size_t n)
{
	struct cudaDeviceProp prop;
	int count = 0, v = 0;
	cudaError_t e;

	e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess)
		return cuda_why(e, "cudaGetDeviceCount", why, n);
	if (count < 1) {
		snprintf(why, n, "cudaGetDeviceCount: no device");
		return -1;
	}
	e = cudaGetDeviceProperties(&prop, 0);
	if (e != cudaSuccess)
		return cuda_why(e, "cudaGetDeviceProperties", why, n);
	snprintf(dev->name, sizeof(dev->name), "%s", prop.name);
	snprintf(dev->cc, sizeof(dev->cc), "%d.%d", prop.major, prop.minor);
	dev->sms = prop.multiProcessorCount;
	dev->memory_bytes = (long long)prop.totalGlobalMem;
	if (cudaDriverGetVersion(&v) == cudaSuccess)
		version_text(v, dev->driver, sizeof(dev->driver));
	if (cudaRuntimeGetVersion(&v) == cudaSuccess)
		version_text(v, dev->runtime, sizeof(dev->runtime));
	return 0;
}

/* Every runtime entry point that launches device work. In CUDA 13 the
 * <<<>>> syntax goes through __cudaLaunchKernel, not cudaLaunchKernel. */
static const CUpti_CallbackId launch_cbids[] = {
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
	CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
	CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
};

static void CUPTIAPI
on_api(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
       const void *data)
{
	const CUpti_CallbackData *cb = data;

	(void)userdata;
	(void)cbid;
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
	    cb->callbackSite == CUPTI_API_ENTER)
		__atomic_add_fetch(&launches, 1, __ATOMIC_RELAXED);
}

/*
 * Subscribe once per worker. A second subscriber (an Nsight tool that is
 * attached) makes cuptiSubscribe fail: that is remembered and reported by
 * every timed call, never a crash.
 */
static void
subscribe(void)
{
	CUptiResult r;
	size_t i;

	if (subscribed)
		return;
	r = cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)on_api, NULL);
	if (r != CUPTI_SUCCESS) {
		cupti_why(r, "cuptiSubscribe", subscribe_why,
			  sizeof(subscribe_why));
		if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
			size_t k = strlen(subscribe_why);

			snprintf(subscribe_why + k, sizeof(subscribe_why) - k,
				 " (another CUPTI subscriber, such as an "
				 "Nsight tool, is attached)");
		}
		subscribed = -1;
		return;
	}
	for (i = 0; i < sizeof(launch_cbids) / sizeof(launch_cbids[0]); i++) {
		r = cuptiEnableCallback(1, subscriber,
					CUPTI_CB_DOMAIN_RUNTIME_API,
					launch_cbids[i]);
		if (r != CUPTI_SUCCESS) {
			cupti_why(r, "cuptiEnableCallback", subscribe_why,
				  sizeof(subscribe_why));
			cuptiUnsubscribe(subscriber);
			subscribed = -1;
			return;
		}
	}
	subscribed = 1;
}

static int
cuda_open(char *why, size_t n)
{
	cudaError_t e = cudaSetDevice(0);

	if (e != cudaSuccess)
		return cuda_why(e, "cudaSetDevice", why, n);
	/* Create the context now, outside any clock. */
	e = cudaFree(NULL);
	if (e != cudaSuccess)
		return cuda_why(e, "cudaFree(NULL)", why, n);
	subscribe();
	return 0;
}

static int
cuda_sync(char *why, size_t n)
{
	cudaError_t e = cudaDeviceSynchronize();

	if (e != cudaSuccess)
		return cuda_why(e, "cudaDeviceSynchronize", why, n);
	return 0;
}

static int
cuda_launches_begin(char *why, size_t n)
{
	if (subscribed < 0) {
		snprintf(why, n, "cannot count kernel launches: %s",
			 subscribe_why);
		return -1;
	}
	__atomic_store_n(&launches, 0, __ATOMIC_RELAXED);
	return 0;
}

static long long
cuda_launches_end(void)
{
	return __atomic_load_n(&launches, __ATOMIC_RELAXED);
}

/* The default pool, where cudaMallocAsync allocates. */
static int
pool(cudaMemPool_t *p, char *why, size_t n)
{
	cudaError_t e = cudaDeviceGetDefaultMemPool(p, 0);

	if (e != cudaSuccess)
		return cuda_why(e, "cudaDeviceGetDefaultMemPool", why, n);
	return 0;
}

static int
cuda_mem_reset(char *why, size_t n)
{
	cudaMemPool_t p;
	unsigned long long zero = 0;
	cudaError_t e;

	if (pool(&p, why, n) < 0)
		return -1;
	e = cudaMemPoolSetAttribute(p, cudaMemPoolAttrUsedMemHigh, &zero);
	if (e == cudaSuccess)
		e = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReservedMemHigh,
					    &zero);
	if (e != cudaSuccess)
		return cuda_why(e, "cudaMemPoolSetAttribute", why, n);
	return 0;
}

static int
cuda_mem_read(struct prof_gpu_mem *m, char *why, size_t n)
{
	static const enum cudaMemPoolAttr attrs[4] = {
		cudaMemPoolAttrUsedMemCurrent,
		cudaMemPoolAttrReservedMemCurrent,
		cudaMemPoolAttrUsedMemHigh,
		cudaMemPoolAttrReservedMemHigh,
	};
	long long *out[4] = {&m->allocated, &m->reserved, &m->peak_allocated,
			     &m->peak_reserved};
	unsigned long long v;
	cudaMemPool_t p;
	int i;

	if (pool(&p, why, n) < 0)
		return -1;
	for (i = 0; i < 4; i++) {
		cudaError_t e = cudaMemPoolGetAttribute(p, attrs[i], &v);

		if (e != cudaSuccess)
			return cuda_why(e, "cudaMemPoolGetAttribute", why, n);
		*out[i] = (long long)v;
	}
	return 0;
}

/* Keep one trace event (JSON text). */
static void
keep_event(struct json_object *e)
{
	if (n_events == MAX_TRACE_EVENTS) {
		dropped_events++;
		json_object_put(e);
		return;
	}
	if (n_events == cap_events) {
		size_t ncap = cap_events ? cap_events * 2 : 1024;
		char **ne = realloc(events, ncap * sizeof(*ne));

		if (!ne) {
			dropped_events++;
			json_object_put(e);
			return;
		}
		events = ne;
		cap_events = ncap;
	}
	events[n_events++] = strdup(json_object_to_json_string_ext(
		e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(e);
}

/* A complete event of device activity, timestamps in CUPTI ns. */
static struct json_object *
device_event(const char *name, const char *cat, uint64_t start, uint64_t end,
	     uint32_t device, uint32_t stream)
{
	struct json_object *e = json_object_new_object();
	char ts[64], dur[64];

	snprintf(ts, sizeof(ts), "%.3f",
		 ((double)start / 1e6 + clock_offset_ms) * 1e3);
	snprintf(dur, sizeof(dur), "%.3f", (double)(end - start) / 1e3);
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "cat", json_object_new_string(cat));
	json_object_object_add(e, "ph", json_object_new_string("X"));
	json_object_object_add(e, "ts", json_object_new_double_s(0, ts));
	json_object_object_add(e, "dur", json_object_new_double_s(0, dur));
	json_object_object_add(e, "pid",
			       json_object_new_int(GPU_PID_BASE + (int)device));
	json_object_object_add(e, "tid", json_object_new_int((int)stream));
	if (device < 64)
		device_seen[device] = 1;
	return e;
}

/* Keep a copy's or a memset's event E with its bytes as its args. */
static void
keep_bytes_event(struct json_object *e, uint64_t bytes)
{
	struct json_object *args = json_object_new_object();

	json_object_object_add(args, "bytes",
			       json_object_new_int64((int64_t)bytes));
	json_object_object_add(e, "args", args);
	keep_event(e);
}

static const char *
copy_kind(uint8_t k)
{
	switch (k) {
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
		return "memcpy HtoD";
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
		return "memcpy DtoH";
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
		return "memcpy DtoD";
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
		return "memcpy HtoH";
	case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
		return "memcpy PtoP";
	default:
		return "memcpy";
	}
}

static void
record(CUpti_Activity *rec)
{
	struct json_object *e, *args;

	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)rec;
		int status = -1;
		char *pretty = k->name ? __cxa_demangle(k->name, NULL, NULL,
							&status) :
					 NULL;
		char grid[64], block[64];

		e = device_event(status == 0 && pretty ? pretty :
			       k->name		     ? k->name :
							       "kernel",
			       "kernel", k->start, k->end, k->deviceId,
			       k->streamId);
		free(pretty);
		args = json_object_new_object();
		snprintf(grid, sizeof(grid), "%d,%d,%d", k->gridX, k->gridY,
			 k->gridZ);
		snprintf(block, sizeof(block), "%d,%d,%d", k->blockX,
			 k->blockY, k->blockZ);
		json_object_object_add(args, "grid", json_object_new_string(grid));
		json_object_object_add(args, "block",
				       json_object_new_string(block));
		json_object_object_add(args, "registers",
				       json_object_new_int(k->registersPerThread));
		json_object_object_add(args, "correlation",
				       json_object_new_int64(k->correlationId));
		json_object_object_add(e, "args", args);
		keep_event(e);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		CUpti_ActivityMemcpy6 *m = (CUpti_ActivityMemcpy6 *)rec;

		keep_bytes_event(device_event(copy_kind(m->copyKind), "memcpy",
					      m->start, m->end, m->deviceId,
					      m->streamId),
				 m->bytes);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		CUpti_ActivityMemset4 *m = (CUpti_ActivityMemset4 *)rec;

		keep_bytes_event(device_event("memset", "memset", m->start,
					      m->end, m->deviceId, m->streamId),
				 m->bytes);
		break;
	}
	default:
		break;
	}
}

static void CUPTIAPI
buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*size = 8 << 20;
	*buf = aligned_alloc(8, *size);
	*max_records = 0;
}

static void CUPTIAPI
buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
		 size_t valid)
{
	CUpti_Activity *rec = NULL;

	(void)ctx;
	(void)stream;
	(void)size;
	while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
		record(rec);
	free(buf);
}

static const CUpti_ActivityKind activity_kinds[] = {
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
	CUPTI_ACTIVITY_KIND_MEMCPY,
	CUPTI_ACTIVITY_KIND_MEMSET,
};

static int
cuda_trace_begin(char *why, size_t n)
{
	uint64_t ts = 0;
	CUptiResult r;
	size_t i;

	r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
	if (r != CUPTI_SUCCESS)
		return cupti_why(r, "cuptiActivityRegisterCallbacks", why, n);
	for (i = 0; i < sizeof(activity_kinds) / sizeof(activity_kinds[0]);
	     i++) {
		r = cuptiActivityEnable(activity_kinds[i]);
		if (r != CUPTI_SUCCESS)
			return cupti_why(r, "cuptiActivityEnable", why, n);
	}
	/* CUPTI's clock and ours differ by an offset; read both at once. */
	cuptiGetTimestamp(&ts);
	clock_offset_ms = host_ms() - (double)ts / 1e6;
	activity_on = 1;
	return 0;
}

static int
cuda_trace_end(void (*emit)(void *arg, const char *event_json), void *arg,
	       char *why, size_t n)
{
	CUptiResult r;
	size_t i;
	char meta[256];
	struct cudaDeviceProp prop;

	if (!activity_on)
		return 0;
	cudaDeviceSynchronize();
	r = cuptiActivityFlushAll(1);
	for (i = 0; i < sizeof(activity_kinds) / sizeof(activity_kinds[0]); i++)
		cuptiActivityDisable(activity_kinds[i]);
	activity_on = 0;
	if (r != CUPTI_SUCCESS)
		return cupti_why(r, "cuptiActivityFlushAll", why, n);
	for (i = 0; i < 64; i++) {
		if (!device_seen[i])
			continue;
		if (cudaGetDeviceProperties(&prop, (int)i) != cudaSuccess)
			prop.name[0] = '\0';
		snprintf(meta, sizeof(meta),
			 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
			 "\"tid\":0,\"args\":{\"name\":\"GPU %zu %s\"}}",
			 GPU_PID_BASE + (int)i, i, prop.name);
		if (emit)
			emit(arg, meta);
	}
	for (i = 0; i < n_events; i++) {
		if (emit && events[i])
			emit(arg, events[i]);
		free(events[i]);
	}
	if (dropped_events && emit) {
		snprintf(meta, sizeof(meta),
			 "{\"name\":\"device events dropped\",\"ph\":\"i\","
			 "\"s\":\"g\",\"ts\":0,\"pid\":%d,\"tid\":0,"
			 "\"args\":{\"count\":%zu}}",
			 GPU_PID_BASE, dropped_events);
		emit(arg, meta);
	}
	dropped_events = 0;
	free(events);
	events = NULL;
	n_events = cap_events = 0;
	return 0;
}

static void
cuda_range_push(const char *name)
{
	nvtxRangePushA(name);
}

static void
cuda_range_pop(void)
{
	nvtxRangePop();
}

static void
cuda_close(void)
{
	if (subscribed > 0)
		cuptiUnsubscribe(subscriber);
	subscribed = 0;
}

static const struct prof_gpu_ops cuda_ops = {
	.name = "cuda",
	.probe = cuda_probe,
	.open = cuda_open,
	.sync = cuda_sync,
	.launches_begin = cuda_launches_begin,
	.launches_end = cuda_launches_end,
	.mem_reset = cuda_mem_reset,
	.mem_read = cuda_mem_read,
	.trace_begin = cuda_trace_begin,
	.trace_end = cuda_trace_end,
	.range_push = cuda_range_push,
	.range_pop = cuda_range_pop,
	.close = cuda_close,
};

static void __attribute__((constructor))
cuda_register(void)
{
	prof_gpu_register(&cuda_ops);
}
