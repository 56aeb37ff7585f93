/* session.c: the CUDA backend session: device detection and synchronized
 * timing. Built only where nvcc exists; plain C against the runtime API. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "prof/session.h"

static int device = -1;

static int
cuda_why(cudaError_t e, const char *call, char *why, size_t n)
{
	snprintf(why, n, "%s: %s (%s)", call, cudaGetErrorName(e),
		 cudaGetErrorString(e));
	return -1;
}

static void
version_text(int v, char *out, size_t n)
{
	snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10);
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
	device = 0;
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
	snprintf(why, n, "kernel launch counting is not available");
	return -1;
}

static long long
cuda_launches_end(void)
{
	return -1;
}

static const struct prof_gpu_ops cuda_ops = {
	.name = "cuda",
	.probe = cuda_probe,
	.open = cuda_open,
	.sync = cuda_sync,
	.launches_begin = cuda_launches_begin,
	.launches_end = cuda_launches_end,
};

static void __attribute__((constructor))
cuda_register(void)
{
	prof_gpu_register(&cuda_ops);
}
