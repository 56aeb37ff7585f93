/* gbench.h: Google Benchmark's JSON output (--benchmark_out) read as
 * timing samples, and the rule that makes a benchmark's name an id. */
#ifndef PROF_GBENCH_H
#define PROF_GBENCH_H

#include <stddef.h>

#include "err.h"

struct json_object;

/* Why a Google Benchmark sample has no output checksum (its
 * "checksum_reason"). */
#define PROF_GBENCH_NO_CHECKSUM "Google Benchmark has no output checksum"

/*
 * The workload id of a benchmark's name: each letter, digit, '.', '_' and
 * '-' is kept, '/' (between a family and its arguments) becomes '.', ':'
 * (threads:8, min_time:0.5) becomes '-' and any other byte '_'; a name
 * that then does not start with a letter or a digit gets "gbench." before
 * it. So BM_crc32/4096 is BM_crc32.4096, BM_copy/threads:2 is
 * BM_copy.threads-2 and BM_sort<int>/64 is BM_sort_int_.64: readable, and
 * the same for the same name in every run. Returns 0, or -1 with why
 * (when not NULL) filled when the name is empty or the id would be longer
 * than PROF_ID_MAX.
 */
int prof_gbench_id(const char *name, char *id, size_t n, char *why,
		   size_t why_n);

/*
 * Read doc, a Google Benchmark JSON document ({context, benchmarks}), and
 * append one timing sample (schema 1, phase timing, kind warm) per
 * repetition to arr: workload the id of its name (prof_gbench_id()),
 * category "gbench", fixture the benchmark's own name, warning floor 0,
 * backend cpu, index its repetition_index, duration_ms its real_time per
 * iteration in ms, cpu_ms its cpu_time per iteration, iterations its
 * iteration count, its user counters as metrics, checksum null with
 * checksum_reason PROF_GBENCH_NO_CHECKSUM. A repetition that says
 * error_occurred is an error sample with its error_message as reason.
 *
 * The context is the environment: this machine's facts (OS, CPU model)
 * when context.host_name is this host's name, null where it is not (the
 * file was written elsewhere; *foreign is set to 1), plus gbench_* fields
 * for the library's version (where the file gives it), its build type,
 * num_cpus, mhz_per_cpu, cpu_scaling_enabled, aslr_enabled (where
 * given), the host name and the executable. Keyed: the build type (a
 * debug library times differently); recorded only: the others.
 *
 * Times are kept to prof's resolution, the nanosecond: a benchmark under
 * half a nanosecond an iteration has duration_ms 0 (its rows are then
 * incomparable by time; its instruction count still judges it).
 *
 * A file of aggregates only (--benchmark_report_aggregates_only) is
 * refused: prof needs the repetitions. So are two names with one id, a
 * time unit other than ns, us, ms and s, and numbers out of range. Errors
 * name the JSON path (.benchmarks[3].real_time). where (when not NULL)
 * gets, for each sample appended, the index of its entry in benchmarks.
 * Returns the number of samples, or -1 with err.
 */
long prof_gbench_samples(struct json_object *doc, struct json_object *arr,
			 struct json_object *where, int *foreign,
			 struct prof_err *err);

#endif /* PROF_GBENCH_H */
