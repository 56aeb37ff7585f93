/* pkcuda.h: the engine's kernels on CUDA, callable from C. */
#ifndef PKCUDA_H
#define PKCUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Each kernel reproduces its CPU function exactly (see nearest.h and
 * order.h for the contracts): the same float32 or float64 operations,
 * each rounded on its own, the same tie rules. Device memory comes from
 * the stream-ordered pool (cudaMallocAsync), so the memory phase sees it.
 * Every call that can fail returns 0, or -1 with a one-line reason in why.
 * Work is queued on the default stream: the harness synchronizes the
 * device right before and after each timed call.
 */

/* Nearest site: points and sites stay on the device between calls. */
struct pkcuda_nearest {
	float *d_pts;
	float *d_sites;
	size_t n, m;
	size_t cap_n, cap_m;
};

/* Copy points and sites to the device (outside the clock). */
int pkcuda_nearest_upload(struct pkcuda_nearest *g, const float *pts,
			  size_t n, const float *sites, size_t m, char *why,
			  size_t wn);

/* Copy new sites only (Lloyd iterations move them, points stay). */
int pkcuda_nearest_sites(struct pkcuda_nearest *g, const float *sites,
			 size_t m, char *why, size_t wn);

/* Assign every point, and copy the n indices back into out. */
int pkcuda_nearest_run(struct pkcuda_nearest *g, int32_t *out, char *why,
		       size_t wn);

void pkcuda_nearest_free(struct pkcuda_nearest *g);

/*
 * pk_nearest_site on the device, in the shape pk_stipple_with() takes:
 * arg is a struct pkcuda_nearest (its buffers grow as needed). Returns 0
 * or -1.
 */
int pkcuda_nearest_fn(void *arg, const float *pts, size_t n,
		      const float *sites, size_t m, int32_t *out);

/* The last reason pkcuda_nearest_fn failed with. */
const char *pkcuda_last_error(void);

/* Greedy nearest path order (pk_order_greedy) in one thread block. */
struct pkcuda_order {
	double *d_ends;
	size_t n;
};

int pkcuda_order_upload(struct pkcuda_order *g, const double *ends,
			size_t n, char *why, size_t wn);

int pkcuda_order_run(struct pkcuda_order *g, double x, double y,
		     int reverse, int32_t *order, unsigned char *rev,
		     char *why, size_t wn);

void pkcuda_order_free(struct pkcuda_order *g);

#ifdef __cplusplus
}
#endif

#endif /* PKCUDA_H */
