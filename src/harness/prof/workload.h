/* prof/workload.h: how a project registers its workloads with prof. */
#ifndef PROF_WORKLOAD_H
#define PROF_WORKLOAD_H

#include <stddef.h>

#include "sum.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A workload is a piece of work prof times: prepare() builds its fixture
 * outside the clock, run() does the work inside the clock, validate()
 * checks the result outside the clock after every call, and teardown()
 * frees what prepare() made. A binary that links the harness
 * (libprofharness.a, which holds main()) and registers workloads with
 * PROF_WORKLOAD() is a workload binary: prof-time runs it as a worker.
 *
 *   static int prepare(struct prof_ctx *ctx, void **state);
 *   static int run(struct prof_ctx *ctx, void *state);
 *   static int validate(struct prof_ctx *ctx, void *state);
 *
 *   static const struct prof_workload my_workload = {
 *           .id = "pipeline.my_step", .version = 1,
 *           .category = "pipeline", .fixture = "my-fixture",
 *           .quick = 1, .backends = PROF_CPU, .warning_floor_ms = 5,
 *           .dtype = "float64", .problem_size = "8000", .tile = "none",
 *           .prepare = prepare, .run = run, .validate = validate,
 *   };
 *   PROF_WORKLOAD(my_workload);
 *
 * Each callback returns 0, or -1 after prof_fail() has said why; that call
 * then becomes an error sample and the run goes on. Strings in the
 * descriptor are borrowed for the life of the process.
 */

enum prof_backend {
	PROF_CPU = 1 << 0,
	PROF_GPU = 1 << 1,	/* CUDA */
};

struct prof_ctx;	/* one per worker process; opaque */

struct prof_workload {
	const char *id;			/* "category.name", unique */
	int version;			/* bump when results stop being comparable */
	const char *category;		/* primitive, pipeline, generator, ... */
	const char *fixture;		/* the fixture's id */
	int quick;			/* part of quick runs */
	unsigned backends;		/* PROF_CPU | PROF_GPU */
	double warning_floor_ms;	/* slowdowns under this are not warnings */
	const char *dtype;		/* "float32", "float64", "bytes", ... */
	const char *problem_size;	/* "4000x1000", keyed in the segment */
	const char *tile;		/* "none" or the tile shape */
	const char *cold_group;		/* NULL: no cold sample in full runs */
	int (*prepare)(struct prof_ctx *ctx, void **state);
	int (*run)(struct prof_ctx *ctx, void *state);
	int (*validate)(struct prof_ctx *ctx, void *state);
	void (*teardown)(struct prof_ctx *ctx, void *state);	/* optional */
	/* prof-count: a median instruction count that grows by more than
	 * this (%) is a warning; 0 means the default, 1%. */
	double count_threshold_pct;
	/* The threads run() may use at once, its own and those it talks
	 * to in this process (a server's): 0 or 1 means run() does all its
	 * work on the calling thread. Its samples say so (threads), their
	 * CPU time is the process's, and the contended rule cannot use it
	 * (see prof-time(1), CONTENTION). */
	int threads;
	/* prof-diff: a time row whose median changed by more than this
	 * (%) either way is a warning or improved (above 0, at most
	 * 1000); 0 means the run's (prof-time --time-threshold,
	 * TIME_THRESHOLD=), else 20 against a baseline and 5 interleaved.
	 * Its timing samples record it (time_threshold_pct). */
	double time_threshold_pct;
};

/*
 * What the compile of a workload's translation unit knew, recorded in each
 * of its samples' environment: workload_compiler (__VERSION__),
 * workload_compiler_major ("gcc 12", "clang 16"), workload_optimized
 * (__OPTIMIZE__) and workload_isa (the instruction-set macros that change
 * code generation, as "avx2 fma"). The harness's own compiler and flags
 * stay in compiler and cflags. The segment key holds
 * workload_compiler_major and workload_optimized: a -O0 build of the
 * project's code is never compared with an -O2 one.
 */
struct prof_build_facts {
	const char *compiler;
	const char *compiler_major;
	int optimized;
	const char *isa;
};

#define PROF__STR2(x) #x
#define PROF__STR(x) PROF__STR2(x)
#if defined(__clang__)
#define PROF__COMPILER_MAJOR "clang " PROF__STR(__clang_major__)
#elif defined(__GNUC__)
#define PROF__COMPILER_MAJOR "gcc " PROF__STR(__GNUC__)
#else
#define PROF__COMPILER_MAJOR "cc"
#endif
#ifdef __VERSION__
#define PROF__VERSION __VERSION__
#else
#define PROF__VERSION "unknown"
#endif
#ifdef __OPTIMIZE__
#define PROF__OPTIMIZED 1
#else
#define PROF__OPTIMIZED 0
#endif
#ifdef __SSE4_2__
#define PROF__ISA_SSE42 " sse4.2"
#else
#define PROF__ISA_SSE42 ""
#endif
#ifdef __AVX__
#define PROF__ISA_AVX " avx"
#else
#define PROF__ISA_AVX ""
#endif
#ifdef __AVX2__
#define PROF__ISA_AVX2 " avx2"
#else
#define PROF__ISA_AVX2 ""
#endif
#ifdef __FMA__
#define PROF__ISA_FMA " fma"
#else
#define PROF__ISA_FMA ""
#endif
#ifdef __AVX512F__
#define PROF__ISA_AVX512F " avx512f"
#else
#define PROF__ISA_AVX512F ""
#endif
#ifdef __ARM_NEON
#define PROF__ISA_NEON " neon"
#else
#define PROF__ISA_NEON ""
#endif
#ifdef __ARM_FEATURE_SVE
#define PROF__ISA_SVE " sve"
#else
#define PROF__ISA_SVE ""
#endif
/* The facts of the translation unit that expands it. */
#define PROF_BUILD_FACTS_HERE                                                  \
	{                                                                      \
		PROF__VERSION, PROF__COMPILER_MAJOR, PROF__OPTIMIZED,          \
			PROF__ISA_SSE42 PROF__ISA_AVX PROF__ISA_AVX2           \
				PROF__ISA_FMA PROF__ISA_AVX512F                \
					PROF__ISA_NEON PROF__ISA_SVE           \
	}

/*
 * Register w at start-up (PROF_WORKLOAD does it from a constructor, with
 * the build facts of its translation unit; b may be NULL). The same id
 * twice is an error that the binary reports before doing anything.
 */
void prof_workload_register(const struct prof_workload *w);
void prof_workload_register_built(const struct prof_workload *w,
				  const struct prof_build_facts *b);

#define PROF_WORKLOAD(w)                                                       \
	static void __attribute__((constructor)) prof_register_##w(void)      \
	{                                                                      \
		static const struct prof_build_facts prof_facts_##w =          \
			PROF_BUILD_FACTS_HERE;                                 \
		prof_workload_register_built(&(w), &prof_facts_##w);           \
	}

/*
 * A fact of the project's own build, recorded in every sample's environment
 * under build_facts (for example the version of the library under test):
 *
 *   PROF_BUILD_FACT(zlib, ZLIB_VERSION);
 *
 * name is an identifier (the key), value a string; facts are recorded, not
 * keyed in the segment. At most 32; the same name twice keeps the last.
 */
void prof_build_fact(const char *name, const char *value);

#define PROF_BUILD_FACT(name, value)                                           \
	static void __attribute__((constructor)) prof_fact_##name(void)       \
	{                                                                      \
		prof_build_fact(#name, (value));                               \
	}

/* The backend this worker runs: PROF_CPU or PROF_GPU. */
enum prof_backend prof_backend(const struct prof_ctx *ctx);

/* Say why the current callback failed (printf-style). Returns -1. */
int prof_fail(struct prof_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A scalar metric of the current call (paths, points, bytes, ...), set in
 * run() or validate(); cleared before each call. Setting a name twice keeps
 * the last value. At most 32 per call.
 */
void prof_metric(struct prof_ctx *ctx, const char *name, double value);

/*
 * The output checksum of the current call (64 hex digits, see sum.h);
 * computing it in validate() keeps the hashing outside the clock.
 */
void prof_output_checksum(struct prof_ctx *ctx, const char *hex);

/* The fixture's checksum, from prepare(): its hex digest, or its bytes. */
void prof_fixture_checksum(struct prof_ctx *ctx, const char *hex);
void prof_fixture_bytes(struct prof_ctx *ctx, const void *data, size_t n);

/* The workload being run (borrowed). */
const struct prof_workload *prof_current(const struct prof_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PROF_WORKLOAD_H */
