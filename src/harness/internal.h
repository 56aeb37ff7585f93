/* internal.h: what the harness's own files share; not for workloads. */
#ifndef PROF_HARNESS_INTERNAL_H
#define PROF_HARNESS_INTERNAL_H

#include <stddef.h>

#include "prof/session.h"
#include "prof/workload.h"

struct json_object;

#define PROF_MAX_METRICS 32

struct prof_metric_kv {
	char name[64];
	double value;
};

struct prof_ctx {
	const struct prof_workload *w;
	enum prof_backend backend;
	char reason[1024];
	struct prof_metric_kv metrics[PROF_MAX_METRICS];
	int n_metrics;
	char checksum[PROF_SUM_HEX];
	char fixture_checksum[PROF_SUM_HEX];
};

/* The registry (registry.c). */
size_t prof_registry_count(void);
const struct prof_workload *prof_registry_at(size_t i);
const struct prof_workload *prof_registry_find(const char *id);
/* The first id registered twice, or NULL. */
const char *prof_registry_duplicate(void);
/* The build facts of w's translation unit (NULL: registered without), and
 * the project's own (PROF_BUILD_FACT): their count, names and values. */
const struct prof_build_facts *
prof_registry_facts(const struct prof_workload *w);
size_t prof_registry_build_facts(const char ***names, const char ***values);
/* The first descriptor that misses a required field, with why. */
const struct prof_workload *prof_registry_invalid(const char **why);

/* The workload's count threshold in %: its own, or 1 (registry.c). */
double prof_count_threshold(const struct prof_workload *w);

/* The threads the workload's run() may use: its .threads, at least 1. */
long prof_threads(const struct prof_workload *w);

/* The GPU backend, or NULL when this binary has none (session.c). */
const struct prof_gpu_ops *prof_gpu_backend(void);

/* What the binary knows of itself (binary.c): how it was built, and its
 * name as run, for messages (worker.c's main() sets it first). */
extern const char prof_build_compiler[];
extern const char prof_build_compiler_version[];
extern const char prof_build_cflags[];
extern const char *prof_progname;

/* Print one JSON value as a line on stdout; a failed write exits 2. */
int prof_emit(struct json_object *o);

/* The GPU backend's device, or -1 and why (binary.c). */
int prof_gpu_probe(struct prof_gpu_device *dev, char *why, size_t n);

#endif /* PROF_HARNESS_INTERNAL_H */
