/* cudaerr.cuh: a failed CUDA call in the one-line form the harness reports. */
#ifndef PKCUDA_ERR_CUH
#define PKCUDA_ERR_CUH

#include <stdio.h>

#include <cuda_runtime.h>

/* "what: cudaErrorX (text)" into why; returns -1. */
static inline int
pkcuda_fail(cudaError_t e, const char *what, char *why, size_t wn)
{
	snprintf(why, wn, "%s: %s (%s)", what, cudaGetErrorName(e),
		 cudaGetErrorString(e));
	return -1;
}

#endif /* PKCUDA_ERR_CUH */
