/* runner-int.h: what the runner's files share: the workload, binary,
 * group, option and run records, and the functions one file gives another.
 * The runner is the engine of prof-time, prof-mem, prof-trace and
 * prof-count. It reads top-down, and calls only downwards, never back up
 * and never across (test/cli/t0101-runner-layers.sh checks it):
 *
 * dispatch
 *   options.c    the command line, defaults by mode, the mode (runner_main)
 * modes: one way of running each, none calling another
 *   workloads.c  quick, full, diagnose: groups in workers; --list
 *   command.c    a command as a workload (--name ID -- CMD)
 *   ab.c         interleaved A/B against a reference (--against,
 *                --against-command)
 *   count.c      prof-count of a command under callgrind
 * services: what the modes share, each below those that use it
 *   workers.c    one group in a fresh worker process
 *   plan.c       choosing workload x backend groups; the run order
 *   binaries.c   asking workload binaries for --list and --probe (a
 *                Google Benchmark binary: --benchmark_list_tests)
 *   cmdsample.c  the sample of one run of a command; a command's memory
 *                runs under the allocation interposer
 *   calibrate.c  the calibration kernel around every timing run
 *   valgrind.c   valgrind, the fixed environment, a worker under callgrind
 *   argv.c       the argument vectors programs are started with, whole
 *   output.c     writing samples, opening and committing the output
 *   signals.c    the signals that stop a run
 *
 * What a file gives another carries the file's name: workloads_run() is in
 * workloads.c, valgrind_open() in valgrind.c (options.c: runner_main()).
 */
#ifndef PROF_RUNNER_INT_H
#define PROF_RUNNER_INT_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/env.h"
#include "base/json.h"
#include "base/spawn.h"
#include "base/stats.h"
#include "cli/cli.h"
#include "model/contend.h"
#include "model/lines.h"
#include "model/sample.h"
#include "model/trace.h"
#include "prof/sum.h"
#include "runner.h"

/* A workload as a binary's --list describes it. */
struct workload {
	const char *bin;
	struct json_object *desc;	/* owned */
	const char *id;
	const char *category;
	const char *cold_group;
	int quick;
	int cpu, gpu;
	const char *gbench;	/* a Google Benchmark binary's benchmark: its
				 * name (in desc); NULL: a harness workload */
};

/* A workload binary, and what its --probe said once asked. */
struct workload_binary {
	const char *path;
	int probed;
	int gpu_ok;
	struct json_object *probe;	/* owned; .gpu */
	char gpu_why[512];
	int gbench;		/* a Google Benchmark binary (binaries.c) */
};

struct group {
	struct workload *w;
	struct workload_binary *b;
	const char *backend;	/* cpu, gpu */
	const char *kind;	/* warm, cold */
	long warmup;
	long repeat;
};

/* A phase as the samples and the worker's --phase name it: timing,
 * memory, profile, instructions. */
static inline const char *
runner_phase_name(enum runner_phase p)
{
	static const char *const names[] = {
		[RUNNER_TIMING] = "timing",
		[RUNNER_MEMORY] = "memory",
		[RUNNER_PROFILE] = "profile",
		[RUNNER_COUNT] = "instructions",
	};

	return names[p];
}

/*
 * What a phase adds to the run of a workload binary's worker or Google
 * Benchmark run, called by workers.c at fixed points without knowing the
 * phase: prof-count's (valgrind.c, set by valgrind_open()) wraps each run
 * in callgrind and reads its counts into the samples. NULL in the other
 * phases.
 */
struct opts;
struct worker_hook {
	const char *value;	/* the samples' number: "instructions" */
	/* The environment's "valgrind", of every sample the run writes. */
	const char *(*version)(const struct opts *o);
	/* Wrap a worker's argv, or a Google Benchmark run's, in sp: 0, or
	 * -1 after a message. */
	int (*begin)(struct opts *o, char **argv, struct prof_spawn *sp);
	int (*gbench_begin)(struct opts *o, char **argv,
			    struct prof_spawn *sp);
	/* After each run (and before the first): its outputs gone. */
	void (*end)(struct opts *o);
	/* A worker's sample as it comes, and a Google Benchmark run's. */
	void (*fill)(struct opts *o, struct json_object *s);
	void (*gbench_fill)(struct opts *o, struct json_object *s);
	/* A group's progress: "median 1,234 instructions (n=3)" in buf. */
	void (*progress)(const double *v, size_t n, char *buf, size_t size);
};

struct opts {
	const struct runner_tool *tool;
	enum runner_phase phase; /* runner_phase_name(): the samples' phase */
	const char *mode;	/* quick, full, diagnose, command, list */
	const char *diagnose_id;
	const char *bins[64];
	int n_bins;
	long long repeat, warmup;
	const char *cats[64];
	int n_cats;
	const char *excl[64];
	int n_excl;
	const char *only[64];	/* --only: id patterns (binaries.c) */
	int n_only;
	/* The reference side of an A/B: the current side's workloads,
	 * whose plan a reference binary without a side file of its own
	 * takes (binaries.c); NULL else. */
	const struct workload *like;
	long n_like;
	const char *backend;
	const char *output;
	double timeout_s;
	unsigned long long seed;
	int has_seed;
	int shard_i, shard_n;	/* --shard i/N; shard_n 0: the whole run */
	int quiet;
	/* command mode */
	const char *name;
	double warning_floor_ms;
	const char *problem_size;
	long long expect_exit;
	int check_output;	/* --check-output: hash each call's stdout */
	int memory;		/* --memory: memory runs after the samples */
	char **argv;
	/* interleaved A/B (ab.c): the reference side */
	const char *against[64];
	int n_against;
	const char *against_output;
	const char *against_command;
	long long batch;	/* samples per worker call on each side */
	long long max_repeat;	/* adaptive A/B: the budget a side; -1 unset */
	/* memory and profile phases */
	const char *artifacts;
	double min_seconds;
	char preload[PATH_MAX + 64];
	/* the instruction phase (prof-count) */
	/* valgrind and the fixed folder; NULL else */
	struct valgrind_setup *count;
	/* what the phase adds to a workload's run (workers.c); NULL else */
	const struct worker_hook *hook;
	double threshold_pct;	/* a command's count threshold */
	double time_threshold_pct;	/* --time-threshold; 0: none given */
	char *env[32];		/* a command's --env NAME=VALUE */
	const char *functions;	/* --functions DIR: keep callgrind outputs */
	int n_env;
};

/* The run's state while groups execute. */
struct run_state {
	struct opts *o;
	FILE *out;
	struct prof_lines out_lines;	/* schema-2 lines to out */
	long errors;
	long samples;
	/* the group being read */
	long got;
	double *durations;
	/* per duration: its sample was contended, and the CPU time of its
	 * call on one thread (NAN: unknown, or more threads); NULL: not
	 * kept */
	unsigned char *contended;
	double *cpu;
	/* per duration: the call's own time, wall minus its run-queue
	 * delay (NAN: the delay is unknown); NULL: not kept */
	double *own;
	size_t n_dur, cap_dur;
	long lines;
	long bad_lines;
	char first_bad[600];
	char first_error[600];
	char note[600];
	/* interleaved A/B (ab.c): a group run in batches */
	int batch;		/* keep durations, no progress line */
	long index_base;	/* added to each sample's index */
	const char *ab_side;	/* "current" or "reference"; NULL: no A/B */
	long ab_slot;		/* the call's place in the unit's order */
	long ab_round;		/* the interleaved round, from 1 */
	long ab_first, ab_max;	/* the unit's --repeat and --max-repeat */
	/* The time threshold (%) the group's timing samples record
	 * (output_time_threshold()); 0: none. */
	double time_threshold_pct;
};

/* argv.c: an argument vector of any length; the strings are not copied.
 * Zeroed is empty. */
struct argv_build {
	struct prof_buf b;	/* the pointers */
	int failed;		/* out of memory: argv_done() says NULL */
};
void argv_add(struct argv_build *a, const char *s);
void argv_add_all(struct argv_build *a, char *const *v);
/* The vector, NULL-terminated, valid until the next argv_add(),
 * argv_reset() or argv_free(); NULL when out of memory. */
char **argv_done(struct argv_build *a);
void argv_reset(struct argv_build *a);
void argv_free(struct argv_build *a);

/* What prof-count holds while it runs (valgrind.c): valgrind, the fixed
 * folder, and the environment of every counted process. */
#define VALGRIND_MAX_ENV 64
struct valgrind_setup {
	char valgrind[PATH_MAX];	/* the valgrind program */
	char version[64];		/* "3.19.0" */
	char base[PATH_MAX];		/* /tmp/prof-count-UID/PROJECT */
	char home[PATH_MAX + 8];	/* base/home: HOME of every process */
	char cwd[PATH_MAX + 8];		/* base/cwd: a link to our cwd */
	char fixedtime[PATH_MAX + 32];	/* libprof-fixedtime.so */
	char program[PATH_MAX];		/* a command's program, found */
	int lock_fd;
	/* the group being run */
	char dumps[PATH_MAX];		/* a private folder for its dumps */
	char out_opt[PATH_MAX + 64];	/* --callgrind-out-file=... */
	char home_env[PATH_MAX + 16], cwd_env[PATH_MAX + 16];
	char preload_env[PATH_MAX + 64];
	struct argv_build argv;		/* valgrind, its options, the program */
	char *env[VALGRIND_MAX_ENV + 1];
};

/* ---- modes (options.c chooses one) ---- */

/* workloads.c */
int workloads_run(struct opts *o);
int workloads_list(struct opts *o);

/* command.c */
int command_run(struct opts *o);

/* ab.c: the reference side's options are checked by options.c. */
int ab_run_workloads(struct opts *o);
int ab_run_command(struct opts *o);

/* count.c: a command counted (prof-count's workloads are workloads_run
 * with o->count set). */
int count_run(struct opts *o);

/* ---- services ---- */

/* workers.c: run one group in a fresh worker. Returns -1 on an output
 * failure. In batch mode (r->batch) the durations add up and no progress
 * is printed. */
int workers_run_group(struct run_state *r, struct group *g, int i, int n);
/*
 * PROF_SHARD_LOST, the reason a scheduler stopped this shard before its
 * results were written (make's ENGINE=slurm, after a time limit), or
 * NULL: not set, or not a shard (o->shard_n 0). With it, the shard's
 * groups are planned as always but none runs: each is one error sample
 * with the reason (workers_lose_group()), so that the merged run names
 * every workload the shard would have measured.
 */
const char *workers_shard_lost(const struct opts *o);
/* Group g as one error sample (call 0) with reason, its worker never
 * started; the progress line says so. Returns -1 on an output failure. */
int workers_lose_group(struct run_state *r, struct group *g, int i, int n,
		       const char *reason);
/* PROF_GBENCH_FLAGS split into words (*extra, one free(); NULL when it
 * is not set; extra NULL: checked only), refused with a message when a
 * word is a flag prof gives a Google Benchmark run itself
 * (--benchmark_filter, _repetitions, ...). Returns 0, or -1. */
int workers_gbench_flags(char ***extra);

/* plan.c */
uint64_t plan_splitmix64(uint64_t *s);

int plan_groups(struct opts *o, struct workload *all, long n_all,
		struct workload_binary *bins, struct group **out, int *n_out);
void plan_shuffle(struct group *gs, int n, uint64_t seed);
int plan_keep_shard(struct group *gs, int n, int i, int of);
int plan_none(const struct opts *o, int n);

/* binaries.c */
const char *binaries_beside_me(const char *name, char *path, size_t n);
const char *binaries_default(void);
long binaries_load_workloads(struct opts *o, struct workload_binary *bins,
			     struct workload **out);
void binaries_probe(struct workload_binary *b);
struct workload_binary *binaries_find(struct workload_binary *bins, int n,
				      const char *path);
int binaries_require_gpu(struct opts *o, struct workload_binary *bins);

/* cmdsample.c */
void cmdsample_fixture_sum(char *const *argv, char out[PROF_SUM_HEX]);
/* A string split into words as a shell would without expansions: a
 * NULL-terminated vector in one malloc'd block, or NULL with why. */
char **cmdsample_split_words(const char *s, char *why, size_t n);
struct json_object *cmdsample_base(struct opts *o, const char *fixture_sum,
				   long index, const char *valgrind);
/* A command's run-queue delay, read by cmdsample_exited() (prof_spawn's
 * exited hook: after it exits, before it is reaped). */
#define CMD_TASKS 64
struct cmd_delay {
	int known;		/* the kernel keeps one */
	int n;			/* its tasks read, at most CMD_TASKS */
	double delay_ms[CMD_TASKS]; /* each one's run-queue delay */
	double run_ms;		/* their time on a core, by the same count */
};
/* The timing sample's fields of one run; d NULL or not known: the
 * kernel kept no delay. */
struct json_object *cmdsample_of_result(struct opts *o, const char *fixture_sum,
					long index,
					const struct prof_spawn_result *res,
					const struct cmd_delay *d);
void cmdsample_outcome(struct opts *o, const struct prof_spawn_result *res,
		       char *why, size_t n);
/* A run's stdout: thrown away, or with --check-output hashed into sum as
 * it comes (sp->arg is taken). -1 when out of memory. */
int cmdsample_stdout(struct opts *o, struct prof_spawn *sp,
		     struct prof_sum *sum);
/* One run of the command set up in sp (its stdout as cmdsample_stdout()
 * has it into sum): its stdout's checksum into hex (*out_sum, NULL
 * without --check-output). 0 with res to free; 1 when interrupted (res
 * freed); -1 (said) on a failure or a program that could not start
 * (described as program's, after "SIDE side: " where side is given). */
int cmdsample_run(struct opts *o, const struct prof_spawn *sp,
		  struct prof_sum *sum, const char *program, const char *side,
		  struct prof_spawn_result *res, char hex[PROF_SUM_HEX],
		  const char **out_sum);
/* A timed call of the command argv, set added to its environment and
 * prof's own interposers taken out: cmdsample_watch() (its delay) then
 * cmdsample_run(), whose return it returns. */
int cmdsample_timed(struct opts *o, char **argv, char **set, const char *side,
		    struct cmd_delay *delay, struct prof_spawn_result *res,
		    char hex[PROF_SUM_HEX], const char **out_sum);
/* The memory runs of a command, apart from timed or counted runs: n fresh
 * runs under libprof-alloc.so (o->preload), memory samples of call 0 into
 * r, each with its run's RSS peak; fixed: prof-count's fixed environment,
 * else the caller's. Returns 0, or -1 (said). */
#define COMMAND_MEMORY_RUNS 2
int cmdsample_heap(struct opts *o, struct run_state *r,
		   const char *fixture_sum, long n,
		   struct valgrind_setup *fixed);
/* The samples in a gperftools CPU profile at path; -1: not one. */
long long cmdsample_profile_samples(const char *path);

/* calibrate.c: the calibration kernel at the start, between groups and at
 * the end of a run, written as records into one or two sample streams. */
struct calibrate_run;
struct calibrate_run *calibrate_begin(FILE *a, FILE *b);
int calibrate_point(struct calibrate_run *c, const char *at, FILE *a, FILE *b);
int calibrate_end(struct calibrate_run *c, FILE *a, FILE *b);
void calibrate_free(struct calibrate_run *c);

/* valgrind.c: find valgrind (exit 2 with the install line when it is not
 * there) and take the fixed folder; -1 after a message. */
int valgrind_open(struct opts *o);
void valgrind_close(struct opts *o);
/* A fresh, empty HOME at the fixed path; -1 after a message. */
int valgrind_fresh_home(struct valgrind_setup *c);
/* A callgrind run's start: a fresh HOME, a fresh folder for its dumps
 * (named dump inside it, as --callgrind-out-file takes it), c->argv
 * begun with valgrind -q --tool=callgrind. 0, or -1 (said). */
int valgrind_argv_begin(struct valgrind_setup *c, const char *dump);
/* The fixed environment (PATH, HOME, C locale, UTC), extra after it. */
int valgrind_fixed_env(struct valgrind_setup *c, char **extra, int n_extra);
void valgrind_worker_end(struct opts *o);

/* output.c */
/* The time threshold (%) a group's timing samples record:
 * --time-threshold, else its descriptor's time_threshold_pct (desc NULL:
 * none), else, for an interleaved A/B (ab), the A/B default its looks
 * settle by (PROF_CMP_AB_THRESHOLD); 0: none, the judge's default. */
double output_time_threshold(const struct opts *o, struct json_object *desc,
			     int ab);
int output_write_sample(struct run_state *r, struct json_object *s);
int output_write_run(struct run_state *r);
int output_put_sample(struct run_state *r, struct json_object *s,
		      const char *output);
int output_write_record(FILE *out, struct json_object *rec);
void output_note_result(struct run_state *r, struct json_object *s);
int output_open(struct opts *o, struct prof_afile *af, FILE **fp);
int output_close(struct opts *o, struct prof_afile *af, FILE *fp, int ok);
void output_say_interrupted(struct opts *o, struct run_state *r);
/* Whole numbers added to a JSON object in the table's order. */
struct output_field {
	const char *key;
	long long value;
};
void output_add_fields(struct json_object *o, const struct output_field *f,
		       size_t n);
/* A command's run ended: its stdout lines freed, its output closed (r->out,
 * stdout where none was opened), committed where ok. Returns ok, 0 where
 * the close failed. */
int output_end(struct opts *o, struct prof_afile *af, struct run_state *r,
	       int ok);

/* signals.c: signals_interrupted is set by SIGINT and SIGTERM once
 * signals_catch() ran; the run stops at the next safe point. */
extern volatile int signals_interrupted;
void signals_catch(void);

#endif /* PROF_RUNNER_INT_H */
