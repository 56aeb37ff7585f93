/* runner-int.h: what the runner's files share: the workload, binary,
 * group, option and run records, and the functions one file gives another.
 * The runner is the engine of prof-time, prof-mem, prof-trace and
 * prof-count. It reads top-down, and calls only downwards, never back up
 * and never across (test/cli/t1504-runner-layers.sh checks it):
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
 *   cmdsample.c  the sample of one run of a command
 *   calibrate.c  the calibration kernel around every timing run
 *   valgrind.c   valgrind, the fixed environment, a worker under callgrind
 *   output.c     writing samples, opening and committing the output
 *   signals.c    the signals that stop a run
 */
#ifndef PROF_RUNNER_INT_H
#define PROF_RUNNER_INT_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "afile.h"
#include "cli/cli.h"
#include "contend.h"
#include "env.h"
#include "json.h"
#include "lines.h"
#include "runner.h"
#include "sample.h"
#include "spawn.h"
#include "stats.h"
#include "sum.h"
#include "trace.h"

/* A workload as a binary's --list describes it. */
struct wl {
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

struct bin {
	const char *path;
	int probed;
	int gpu_ok;
	struct json_object *probe;	/* owned; .gpu */
	char gpu_why[512];
	int gbench;		/* a Google Benchmark binary (binaries.c) */
};

struct group {
	struct wl *w;
	struct bin *b;
	const char *backend;	/* cpu, gpu */
	const char *kind;	/* warm, cold */
	long warmup;
	long repeat;
};

struct opts {
	const struct runner_tool *tool;
	const char *phase;	/* timing, memory, profile, instructions */
	const char *mode;	/* quick, full, diagnose, command, list */
	const char *diagnose_id;
	const char *bins[64];
	int n_bins;
	long long repeat, warmup;
	const char *cats[64];
	int n_cats;
	const char *excl[64];
	int n_excl;
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
	struct count *count;	/* valgrind and the fixed folder; NULL else */
	double threshold_pct;	/* a command's count threshold */
	char *env[32];		/* a command's --env NAME=VALUE */
	const char *functions;	/* --functions DIR: keep callgrind outputs */
	int n_env;
};

/* The run's state while groups execute. */
struct run {
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
};

/* What prof-count holds while it runs (valgrind.c): valgrind, the fixed
 * folder, and the environment of every counted process. */
#define COUNT_MAX_ENV 64
struct count {
	char valgrind[PATH_MAX];	/* the valgrind program */
	char version[64];		/* "3.19.0" */
	char base[PATH_MAX];		/* /tmp/prof-count-UID */
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
	char *argv[64];
	char *env[COUNT_MAX_ENV + 1];
};

/* ---- modes (options.c chooses one) ---- */

/* workloads.c */
int cmd_workloads(struct opts *o);
int cmd_list(struct opts *o);

/* command.c */
int cmd_command(struct opts *o);

/* ab.c: the reference side's options are checked by options.c. */
int cmd_ab_workloads(struct opts *o);
int cmd_ab_command(struct opts *o);

/* count.c: a command counted (prof-count's workloads are cmd_workloads
 * with o->count set). */
int count_command(struct opts *o);

/* ---- services ---- */

/* workers.c: run one group in a fresh worker. Returns -1 on an output
 * failure. In batch mode (r->batch) the durations add up and no progress
 * is printed. */
int run_group(struct run *r, struct group *g, int i, int n);

/* plan.c */
uint64_t splitmix64(uint64_t *s);
int plan(struct opts *o, struct wl *all, long n_all, struct bin *bins,
	 struct group **out, int *n_out);
void shuffle_groups(struct group *gs, int n, uint64_t seed);
int keep_shard(struct group *gs, int n, int i, int of);

/* binaries.c */
const char *beside_me(const char *name, char *path, size_t n);
const char *default_bin(void);
long load_workloads(struct opts *o, struct bin *bins, struct wl **out);
void probe_bin(struct bin *b);
struct bin *bin_of(struct bin *bins, int n, const char *path);
int require_gpu(struct opts *o, struct bin *bins);

/* cmdsample.c */
void command_fixture_sum(char *const *argv, char out[PROF_SUM_HEX]);
/* A string split into words as a shell would without expansions: a
 * NULL-terminated vector in one malloc'd block, or NULL with why. */
char **split_words(const char *s, char *why, size_t n);
struct json_object *command_base_sample(struct opts *o, const char *fixture_sum,
					long index, const char *valgrind);
struct json_object *command_sample(struct opts *o, const char *fixture_sum,
				   long index,
				   const struct prof_spawn_result *res);
void command_outcome(struct opts *o, const struct prof_spawn_result *res,
		     char *why, size_t n);
/* A run's stdout: thrown away, or with --check-output hashed into sum as
 * it comes (sp->arg is taken). -1 when out of memory. */
int command_stdout(struct opts *o, struct prof_spawn *sp, struct prof_sum *sum);
/* The run's output checksum into hex, or NULL without --check-output;
 * frees the state either way. */
const char *command_stdout_sum(struct opts *o, struct prof_sum *sum,
			       char hex[PROF_SUM_HEX]);

/* calibrate.c: the calibration kernel at the start, between groups and at
 * the end of a run, written as records into one or two sample streams. */
struct calib_run;
struct calib_run *calib_begin(FILE *a, FILE *b);
int calib_point(struct calib_run *c, const char *at, FILE *a, FILE *b);
int calib_end(struct calib_run *c, FILE *a, FILE *b);
void calib_free(struct calib_run *c);

/* valgrind.c: find valgrind (exit 2 with the install line when it is not
 * there) and take the fixed folder; -1 after a message. */
int count_open(struct opts *o);
void count_close(struct opts *o);
const char *count_version(const struct opts *o);
/* A fresh, empty HOME at the fixed path; -1 after a message. */
int count_fresh_home(struct count *c);
/* The fixed environment (PATH, HOME, C locale, UTC), extra after it. */
int count_fixed_env(struct count *c, char **extra, int n_extra);
/* Wrap a worker's argv in callgrind, in the fixed environment. */
int count_worker_begin(struct opts *o, char **argv, struct prof_spawn *sp);
void count_worker_end(struct opts *o);
/* Fill in a worker sample's instructions from its dump. */
void count_fill(struct opts *o, struct json_object *s);

/* output.c */
int write_sample(struct run *r, struct json_object *s);
int put_sample(struct run *r, struct json_object *s, const char *output);
int write_record(FILE *out, struct json_object *rec);
void note_result(struct run *r, struct json_object *s);
int open_output(struct opts *o, struct prof_afile *af, FILE **fp);
int close_output(struct opts *o, struct prof_afile *af, FILE *fp, int ok);
void say_interrupted(struct opts *o, struct run *r);

/* signals.c: runner_interrupted is set by SIGINT and SIGTERM once
 * runner_catch_signals() ran; the run stops at the next safe point. */
extern volatile int runner_interrupted;
void runner_catch_signals(void);

#endif /* PROF_RUNNER_INT_H */
