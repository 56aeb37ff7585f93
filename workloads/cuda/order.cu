/* order.cu: pk_order_greedy on the GPU, the same order bit for bit. */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include "cudaerr.cuh"
#include "pkcuda.h"

#define THREADS 1024

/* The CPU's order of candidates: nearer, then lower path, then start. */
__device__ static bool
better(double d, int i, int e, double bd, int bi, int be)
{
	if (d != bd)
		return d < bd;
	if (i != bi)
		return i < bi;
	return e < be;
}

/* The best candidate of a warp, in lane 0. */
__device__ static void
warp_best(double *bd, int *bi, int *be)
{
	for (int off = 16; off > 0; off >>= 1) {
		double od = __shfl_down_sync(0xffffffffu, *bd, off);
		int oi = __shfl_down_sync(0xffffffffu, *bi, off);
		int oe = __shfl_down_sync(0xffffffffu, *be, off);

		if (better(od, oi, oe, *bd, *bi, *be)) {
			*bd = od;
			*bi = oi;
			*be = oe;
		}
	}
}

/*
 * Greedy is sequential: step k needs the pen where step k - 1 left it. One
 * block does all n steps; in each, every thread scans its share of the
 * undrawn paths and the block reduces to the best candidate by the CPU's
 * rules. Distances are (end - pen)^2 summed in float64, each operation
 * rounded on its own, as the engine (built without contraction) does.
 */
__global__ void
order_kernel(const double *ends, int n, double x, double y, int reverse,
	     unsigned char *done, int *order, unsigned char *rev)
{
	__shared__ double w_d[THREADS / 32];
	__shared__ int w_i[THREADS / 32];
	__shared__ int w_e[THREADS / 32];
	__shared__ double pen[2];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

	for (int i = tid; i < n; i += blockDim.x)
		done[i] = 0;
	if (tid == 0) {
		pen[0] = x;
		pen[1] = y;
	}
	__syncthreads();
	for (int k = 0; k < n; k++) {
		double px = pen[0], py = pen[1], bd = INFINITY;
		int bi = INT_MAX, be = 0;

		for (int i = tid; i < n; i += blockDim.x) {
			const double *p = ends + 4 * (size_t)i;

			if (done[i])
				continue;
			for (int e = 0; e < 1 + (reverse != 0); e++) {
				double dx, dy, d;

				if (e && p[0] == p[2] && p[1] == p[3])
					continue;
				dx = __dsub_rn(p[2 * e], px);
				dy = __dsub_rn(p[2 * e + 1], py);
				d = __dadd_rn(__dmul_rn(dx, dx),
					      __dmul_rn(dy, dy));
				if (better(d, i, e, bd, bi, be)) {
					bd = d;
					bi = i;
					be = e;
				}
			}
		}
		warp_best(&bd, &bi, &be);
		if (lane == 0) {
			w_d[warp] = bd;
			w_i[warp] = bi;
			w_e[warp] = be;
		}
		__syncthreads();
		if (warp == 0) {
			int nw = (blockDim.x + 31) / 32;

			bd = lane < nw ? w_d[lane] : INFINITY;
			bi = lane < nw ? w_i[lane] : INT_MAX;
			be = lane < nw ? w_e[lane] : 0;
			warp_best(&bd, &bi, &be);
			if (lane == 0) {
				/* Every candidate infinitely far: the CPU
				 * takes path 0's start; so do we. */
				if (bi == INT_MAX) {
					bi = 0;
					be = 0;
				}
				done[bi] = 1;
				order[k] = bi;
				rev[k] = (unsigned char)be;
				pen[0] = ends[4 * (size_t)bi + (be ? 0 : 2)];
				pen[1] = ends[4 * (size_t)bi + (be ? 1 : 3)];
			}
		}
		__syncthreads();
	}
}

extern "C" int
pkcuda_order_upload(struct pkcuda_order *g, const double *ends, size_t n,
		    char *why, size_t wn)
{
	cudaError_t e;

	if (n > INT_MAX / 4) {
		snprintf(why, wn, "%zu paths is too many for the GPU order", n);
		return -1;
	}
	if (g->d_ends)
		cudaFreeAsync(g->d_ends, 0);
	g->d_ends = NULL;
	e = cudaMallocAsync((void **)&g->d_ends, 4 * n * sizeof(double) + 1, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMallocAsync (ends)", why, wn);
	e = cudaMemcpyAsync(g->d_ends, ends, 4 * n * sizeof(double),
			    cudaMemcpyHostToDevice, 0);
	if (e != cudaSuccess)
		return pkcuda_fail(e, "cudaMemcpyAsync (ends)", why, wn);
	g->n = n;
	return 0;
}

extern "C" int
pkcuda_order_run(struct pkcuda_order *g, double x, double y, int reverse,
		 int32_t *order, unsigned char *rev, char *why, size_t wn)
{
	unsigned char *d_done = NULL, *d_rev = NULL;
	int *d_order = NULL;
	cudaError_t e;
	int rc = -1;

	if (g->n == 0)
		return 0;
	e = cudaMallocAsync((void **)&d_done, g->n, 0);
	if (e == cudaSuccess)
		e = cudaMallocAsync((void **)&d_rev, g->n, 0);
	if (e == cudaSuccess)
		e = cudaMallocAsync((void **)&d_order, g->n * sizeof(int), 0);
	if (e != cudaSuccess) {
		pkcuda_fail(e, "cudaMallocAsync (order)", why, wn);
		goto out;
	}
	order_kernel<<<1, THREADS>>>(g->d_ends, (int)g->n, x, y, reverse,
				     d_done, d_order, d_rev);
	e = cudaGetLastError();
	if (e != cudaSuccess) {
		pkcuda_fail(e, "order_kernel", why, wn);
		goto out;
	}
	e = cudaMemcpyAsync(order, d_order, g->n * sizeof(int),
			    cudaMemcpyDeviceToHost, 0);
	if (e == cudaSuccess && rev)
		e = cudaMemcpyAsync(rev, d_rev, g->n, cudaMemcpyDeviceToHost, 0);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(0);
	if (e != cudaSuccess) {
		pkcuda_fail(e, "copying the order back", why, wn);
		goto out;
	}
	rc = 0;
out:
	if (d_done)
		cudaFreeAsync(d_done, 0);
	if (d_rev)
		cudaFreeAsync(d_rev, 0);
	if (d_order)
		cudaFreeAsync(d_order, 0);
	return rc;
}

extern "C" void
pkcuda_order_free(struct pkcuda_order *g)
{
	if (g->d_ends)
		cudaFreeAsync(g->d_ends, 0);
	cudaStreamSynchronize(0);
	g->d_ends = NULL;
	g->n = 0;
}
