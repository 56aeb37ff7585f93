/* prof/session.h: the backend session a GPU build plugs into the harness. */
#ifndef PROF_SESSION_H
#define PROF_SESSION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The harness times the CPU by itself. A GPU backend (the CUDA session,
 * or a fake one in tests) registers these operations from a constructor;
 * a binary without one answers every GPU request with "built without a
 * GPU backend". Every operation that can fail writes a one-line reason
 * into why (n bytes) and returns -1.
 */

struct prof_gpu_device {
	char name[256];		/* "NVIDIA H200" */
	char cc[16];		/* compute capability, "9.0" */
	int sms;		/* multiprocessors */
	long long memory_bytes;
	char driver[32];	/* "13.0" */
	char runtime[32];	/* "13.0" */
};

/* Device allocator numbers of the memory phase, in bytes; -1: unknown. */
struct prof_gpu_mem {
	long long allocated;
	long long reserved;
	long long peak_allocated;
	long long peak_reserved;
};

struct prof_gpu_ops {
	const char *name;	/* "cuda", "fake" */
	/* Is there a usable device? 0 and dev filled, or -1 and why. */
	int (*probe)(struct prof_gpu_device *dev, char *why, size_t n);
	/* Start the session in this worker, before prepare(). */
	int (*open)(char *why, size_t n);
	/* Wait for all work on the device; around every timed call. */
	int (*sync)(char *why, size_t n);
	/* Count kernel launches between begin and end (proof of dispatch). */
	int (*launches_begin)(char *why, size_t n);
	long long (*launches_end)(void);
	/* Memory phase: reset the high-water marks, then read them. */
	int (*mem_reset)(char *why, size_t n);
	int (*mem_read)(struct prof_gpu_mem *m, char *why, size_t n);
	/* Diagnostic phase: device activity (kernels, copies) into a Chrome
	 * trace; trace_end appends events through emit (may be NULL). */
	int (*trace_begin)(char *why, size_t n);
	int (*trace_end)(void (*emit)(void *arg, const char *event_json),
			 void *arg, char *why, size_t n);
	/* Named ranges for out-of-band tools (NVTX); may be NULL. */
	void (*range_push)(const char *name);
	void (*range_pop)(void);
	void (*close)(void);
};

/* Plug a GPU backend into the harness; the last one registered wins. */
void prof_gpu_register(const struct prof_gpu_ops *ops);

#ifdef __cplusplus
}
#endif

#endif /* PROF_SESSION_H */
