/* gbench.h: Google Benchmark's JSON output (--benchmark_out) read as
 * timing samples, and the rule that makes a benchmark's name an id. */
#ifndef PROF_GBENCH_H
#define PROF_GBENCH_H

#include <stddef.h>

#include "base/err.h"

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
 * The samples of a Google Benchmark JSON document ({context,
 * benchmarks}): one timing sample (schema 1, phase timing, kind warm)
 * per repetition: workload the id of its name (prof_gbench_id()),
 * category "gbench", fixture the benchmark's own name, warning floor 0,
 * backend cpu, index its repetition_index, duration_ms its real_time per
 * iteration in ms, cpu_ms its cpu_time per iteration, iterations its
 * iteration count, threads its threads, its user counters as metrics,
 * checksum null with checksum_reason PROF_GBENCH_NO_CHECKSUM. A
 * repetition that says error_occurred is an error sample with its
 * error_message as reason.
 *
 * The context is the environment: this machine's facts (OS, CPU model)
 * when context.host_name is this host's name, null where it is not (the
 * file was written elsewhere; *foreign is set to 1), plus gbench_* fields
 * for the library's version (where the file gives it), its build type,
 * num_cpus, mhz_per_cpu, cpu_scaling_enabled, aslr_enabled (where
 * given), the host name and the executable. Keyed: the build type (a
 * debug library times differently); recorded only: the others.
 *
 * Times are kept as the file gives them, not rounded to the nanosecond
 * that prof's clock keeps of one call: an iteration's time is a loop's
 * mean (2.45 ns is duration_ms 2.45e-06). One under what a sample holds
 * (PROF_MS_MIN, a picosecond) is rounded to it: under half of it is 0,
 * whose rows are incomparable by time (the instruction count still
 * judges them).
 *
 * A file of aggregates only (--benchmark_report_aggregates_only) is
 * refused: prof needs the repetitions. So are two names with one id, a
 * time unit other than ns, us, ms and s, and numbers out of range. Errors
 * name the JSON path (.benchmarks[3].real_time).
 */

/*
 * Stream the file at path ("-" is stdin) through st (stream.h): fn is
 * called with each sample (borrowed) and the index of its entry in
 * .benchmarks, one at a time, in memory bounded by one entry and what
 * the reader must remember of each benchmark (its name and next index,
 * the run names of its repetitions). A context after the list (keys
 * sorted, jq -S) is read first, the list then again; not on stdin. host
 * (when not NULL) gets context.host_name ("unknown" without one).
 * Returns the number of samples, or -1 with err (the file's name in it).
 */
typedef int (*prof_gbench_fn)(void *arg, struct json_object *s, long entry,
			      struct prof_err *err);
struct prof_stream;
long prof_gbench_stream(struct prof_stream *st, const char *path,
			prof_gbench_fn fn, void *arg, int *foreign, char *host,
			size_t host_n, struct prof_err *err);

/* The same of a document in memory (a binary's output of one benchmark),
 * each sample appended to arr. Returns their number, or -1 with err. */
long prof_gbench_samples(struct json_object *doc, struct json_object *arr,
			 int *foreign, struct prof_err *err);

/*
 * The --benchmark_filter value that matches the benchmark name alone, as
 * libbenchmark's regular expressions read it (std::regex's extended
 * grammar, or POSIX ERE where it is built with regcomp()): anchored, each
 * of . [ ] { } ( ) | ? * + $ in a bracket ([[] is '['; std::regex refuses
 * \[ and \{), '\' and '^' escaped with '\'. So BM_set[3] is
 * ^BM_set[[]3[]]$. Returns 0, or -1 when it does not fit in n bytes.
 */
int prof_gbench_filter(const char *name, char *out, size_t n);

/*
 * Whether the samples of one run of a binary (prof_gbench_samples()) are
 * all of benchmark asked, the one it was asked for: 0, or -1 with why
 * naming what it answered for instead: "it answered for 'BM_z'", or "it
 * answered for 3 benchmarks: 'BM_a', 'BM_b', 'BM_c'" (the first five,
 * then "...").
 */
int prof_gbench_answer(struct json_object *samples, const char *asked,
		       char *why, size_t n);

#endif /* PROF_GBENCH_H */
