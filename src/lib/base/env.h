/* env.h: the environment of a sample and the segment key that decides
 * which samples may be compared. */
#ifndef PROF_ENV_H
#define PROF_ENV_H

struct json_object;

/*
 * What the caller knows that the machine cannot tell: how the measured code
 * was built, which backend was asked for and which ran, the device, and the
 * workload's shape. Any field may be NULL (or 0): it is then recorded as
 * null.
 */
struct prof_env_in {
	const char *compiler;		/* "gcc", "clang" */
	const char *compiler_version;	/* "12.2.0" */
	const char *cflags;
	const char *backend_requested;	/* cpu, gpu, all, auto, ... */
	const char *backend;		/* what ran: cpu, gpu, chromium, command */
	const char *device;		/* GPU name; NULL on the CPU */
	const char *device_cc;		/* compute capability, "9.0" */
	int device_sms;
	long long device_memory_bytes;
	const char *cuda_driver;
	const char *cuda_runtime;
	const char *browser;		/* "Chromium 156.0.8078.73" */
	const char *dtype;
	const char *problem_size;
	const char *tile;
	const char *valgrind;		/* instruction counts: "3.19.0"; NULL:
					 * not recorded at all */
	/* How the workload's own code was built (its registration macro);
	 * workload_compiler NULL: none of the four is recorded. */
	const char *workload_compiler;	/* __VERSION__ */
	const char *workload_compiler_major;	/* "gcc 12" */
	int workload_optimized;		/* __OPTIMIZE__: 1 or 0 */
	const char *workload_isa;	/* "avx2 fma", "" for none */
	struct json_object *build_facts;	/* the project's own facts
						 * (borrowed); NULL: none */
	const char *program;		/* a command's program as given;
					 * recorded, never keyed; NULL: none */
};

/*
 * The environment object: OS, distribution (from /etc/os-release), kernel,
 * machine, CPU model and count, libc, plus the fields of in. Host facts are
 * read once per process. Returns a new object, or NULL when out of memory.
 */
struct json_object *prof_env_collect(const struct prof_env_in *in);

/*
 * The segment key of an environment: the canonical JSON of the keyed fields
 * only (OS and distribution version, machine, CPU model, compiler and its
 * major version, backend, device and its properties, CUDA driver and
 * runtime, browser, dtype, problem size, tile; and, where the environment
 * has them, valgrind's version (instruction counts are keyed by it),
 * the workload's compiler major version and optimized flag, and the
 * build type of the Google Benchmark library that timed it (gbench.h),
 * so that no
 * older segment key changes). The kernel release, the workload's full
 * compiler version, its ISA and the project's build facts are recorded
 * but not keyed. Returns a malloc'd string, or NULL.
 */
char *prof_env_segment(struct json_object *env);

/*
 * Whether segment is the segment key of env, the key being derived from
 * the env: the same keyed fields with the same values, compared as JSON
 * (so that key order and number spelling do not matter). Returns 0 when
 * it is; 1 when not, with why filled with the first difference ("cpu_model
 * is \"AMD EPYC\" in the segment key, \"Fake CPU 9000\" in its env"); -1
 * when out of memory. Readers refuse a sample whose two disagree: the
 * rows would be keyed by a machine the env does not describe.
 */
int prof_env_segment_check(struct json_object *env, const char *segment,
			   char *why, size_t n);

/*
 * Whether the segment keys a and b are the same but for the count keys
 * (valgrind's version, which prof-count's samples key and no timed sample
 * has): the time and the counts of one build on one machine, as JSON
 * objects equal once those keys are left out. 1 when they are, 0 when
 * not (either is not a JSON object, or out of memory).
 */
int prof_env_segment_count_pair(const char *a, const char *b);


#endif /* PROF_ENV_H */
