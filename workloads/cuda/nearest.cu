/* nearest.cu: pk_nearest_site on the GPU, the same answers bit for bit. */
#include <math.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include "cudaerr.cuh"
#include "pkcuda.h"

#define BLOCK 256

static char last_error[512];

/*
 * One thread per point; the sites pass through shared memory a tile at a
 * time, in increasing index. The squared distance is dx*dx + dy*dy with
 * every operation rounded on its own (no fused multiply-add), and a site
 * wins only when strictly nearer: the CPU's rule, so ties go to the lowest
 * index and NaN or infinite distances never win.
 */
__global__ void
nearest_kernel(const float2 *pts, int n, const float2 *sites, int m, int *out)
{
	__shared__ float2 tile[BLOCK];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float px = 0, py = 0, best = INFINITY;
	int bi = -1;

	if (i < n) {
		px = pts[i].x;
		py = pts[i].y;
	}
	for (int base = 0; base < m; base += BLOCK) {
		int j = base + threadIdx.x;
		int lim = m - base < BLOCK ? m - base : BLOCK;

		if (j < m)
			tile[threadIdx.x] = sites[j];
		__syncthreads();
		for (int k = 0; k < lim; k++) {
			float dx = __fsub_rn(px, tile[k].x);
			float dy = __fsub_rn(py, tile[k].y);
			float d = __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));

			if (d < best) {
				best = d;
				bi = base + k;
			}
		}
		__syncthreads();
	}
	if (i < n)
		out[i] = bi;
}

/* Grow a device buffer (pool memory) to hold n bytes. */
static int
grow(void **p, size_t *cap, size_t n, char *why, size_t wn)
{
	cudaError_t e;

	if (*cap >= n && *p)
		return 0;
	if (*p)
		cudaFreeAsync(*p, 0);
	*p = NULL;
	*cap = 0;
	e = cudaMallocAsync(p, n ? n : 1, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMallocAsync", why, wn);
	*cap = n;
	return 0;
}

extern "C" int
pkcuda_nearest_sites(struct pkcuda_nearest *g, const float *sites, size_t m,
		     char *why, size_t wn)
{
	size_t cap = g->cap_m * 2 * sizeof(float);
	cudaError_t e;

	if (grow((void **)&g->d_sites, &cap, m * 2 * sizeof(float), why, wn))
		return -1;
	g->cap_m = cap / (2 * sizeof(float));
	g->m = m;
	e = cudaMemcpyAsync(g->d_sites, sites, m * 2 * sizeof(float),
			    cudaMemcpyHostToDevice, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMemcpyAsync (sites)", why, wn);
	return 0;
}

extern "C" int
pkcuda_nearest_upload(struct pkcuda_nearest *g, const float *pts, size_t n,
		      const float *sites, size_t m, char *why, size_t wn)
{
	size_t cap = g->cap_n * 2 * sizeof(float);
	cudaError_t e;

	if (grow((void **)&g->d_pts, &cap, n * 2 * sizeof(float), why, wn))
		return -1;
	g->cap_n = cap / (2 * sizeof(float));
	g->n = n;
	e = cudaMemcpyAsync(g->d_pts, pts, n * 2 * sizeof(float),
			    cudaMemcpyHostToDevice, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMemcpyAsync (points)", why, wn);
	return pkcuda_nearest_sites(g, sites, m, why, wn);
}

extern "C" int
pkcuda_nearest_run(struct pkcuda_nearest *g, int32_t *out, char *why,
		   size_t wn)
{
	int *d_out = NULL;
	int blocks = (int)((g->n + BLOCK - 1) / BLOCK);
	cudaError_t e;

	if (g->n == 0)
		return 0;
	e = cudaMallocAsync((void **)&d_out, g->n * sizeof(int), 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMallocAsync (assignments)", why, wn);
	nearest_kernel<<<blocks, BLOCK>>>((const float2 *)g->d_pts, (int)g->n,
					  (const float2 *)g->d_sites,
					  (int)g->m, d_out);
	e = cudaGetLastError();
	if (e != cudaSuccess) {
		cudaFreeAsync(d_out, 0);
		return pkcuda_fail(e, "nearest_kernel", why, wn);
	}
	e = cudaMemcpyAsync(out, d_out, g->n * sizeof(int),
			    cudaMemcpyDeviceToHost, 0);
	cudaFreeAsync(d_out, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMemcpyAsync (assignments)", why, wn);
	/* The caller reads out next: wait for the copy. */
	e = cudaStreamSynchronize(0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaStreamSynchronize", why, wn);
	return 0;
}

extern "C" void
pkcuda_nearest_free(struct pkcuda_nearest *g)
{
	if (g->d_pts)
		cudaFreeAsync(g->d_pts, 0);
	if (g->d_sites)
		cudaFreeAsync(g->d_sites, 0);
	cudaStreamSynchronize(0);
	g->d_pts = NULL;
	g->d_sites = NULL;
	g->n = g->m = g->cap_n = g->cap_m = 0;
}

extern "C" int
pkcuda_nearest_fn(void *arg, const float *pts, size_t n, const float *sites,
		  size_t m, int32_t *out)
{
	struct pkcuda_nearest *g = (struct pkcuda_nearest *)arg;

	if (pkcuda_nearest_upload(g, pts, n, sites, m, last_error,
				  sizeof(last_error)) < 0 ||
	    pkcuda_nearest_run(g, out, last_error, sizeof(last_error)) < 0)
		return -1;
	return 0;
}

extern "C" const char *
pkcuda_last_error(void)
{
	return last_error;
}
