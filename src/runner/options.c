/* options.c: the runner's dispatch: the command line, the defaults of
 * each mode, and the choice of the mode that runs. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/id.h"
#include "verdict/verdict.h"
#include "runner-int.h"

/* --shard i/N: 1 <= i <= N <= 1000. Returns 0, or 2 after a message. */
static int
parse_shard(const char *arg, int *i, int *n)
{
	const char *p;
	char *end;
	long a, b;

	errno = 0;
	a = strtol(arg, &end, 10);
	if (end == arg || *end != '/' || errno)
		goto bad;
	p = end + 1;
	b = strtol(p, &end, 10);
	if (end == p || *end || errno || b < 1 || b > 1000 || a < 1 || a > b)
		goto bad;
	*i = (int)a;
	*n = (int)b;
	return 0;
bad:
	return cli_fail("--shard: '%s' is not I/N with 1 <= I <= N <= 1000",
			arg);
}

/* Where a profile's files go: --artifacts, else beside --output. */
static int
artifacts_dir(struct opts *o)
{
	static char dir[PATH_MAX];
	struct prof_err err = {0};
	const char *slash;

	if (!o->artifacts) {
		slash = strrchr(o->output, '/');
		if (strcmp(o->output, "-") && slash)
			snprintf(dir, sizeof(dir), "%.*s",
				 (int)(slash - o->output), o->output);
		else
			snprintf(dir, sizeof(dir), ".");
		o->artifacts = dir;
	}
	if (prof_mkdirs(o->artifacts, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

/*
 * The A/B options together: --against BIN... or --against-command STRING
 * (with --name), each with --against-output FILE, prof-time and
 * prof-count only. Returns 0, or an exit code after a message.
 */
static int
ab_check_options(struct opts *o, int timing, int counting)
{
	int ab = o->n_against || o->against_command;

	if (!ab && o->max_repeat >= 0)
		return cli_fail("--max-repeat: only for an interleaved A/B "
				"(--against BIN or --against-command STRING)");
	if (!ab && !o->against_output)
		return 0;
	if (!timing && !counting)
		return cli_fail("--against: only prof-time and prof-count "
				"compare two builds");
	if (!ab)
		return cli_fail("--against-output: nothing to compare against "
				"(--against BIN or --against-command STRING)");
	if (o->n_against && o->against_command)
		return cli_fail("--against and --against-command: one or the "
				"other");
	if (o->n_against && o->name)
		return cli_fail("--against: a command's reference is "
				"--against-command STRING");
	if (o->against_command && !o->name)
		return cli_fail("--against-command: give the current command "
				"too: --name ID -- CMD");
	if (!o->against_output)
		return cli_fail("give the reference side's samples a file: "
				"--against-output FILE");
	if (o->shard_n && !timing)
		return cli_fail("--shard: prof-count's A/B is not split into "
				"shards");
	if (!strcmp(o->output, o->against_output))
		return cli_fail("--output and --against-output are both '%s'",
				o->output);
	return 0;
}

/*
 * The budget of an adaptive A/B: --max-repeat, by default four times
 * --repeat; equal to --repeat, adaptivity is off. Returns 0, or 2 after
 * a message.
 */
static int
ab_budget(struct opts *o)
{
	if (o->max_repeat < 0)
		o->max_repeat = 4 * o->repeat;
	else if (o->max_repeat < o->repeat)
		return cli_fail("--max-repeat: %lld is less than --repeat %lld",
				o->max_repeat, o->repeat);
	return 0;
}

/* prof-count: a run with valgrind found and the fixed folder held. */
static int
counted(struct opts *o, int (*fn)(struct opts *))
{
	int rc = PROF_EXIT_FAILURE;

	if (valgrind_open(o) == 0)
		rc = fn(o);
	valgrind_close(o);
	return rc;
}

/*
 * prof-count across two builds: the current side into --output, then the
 * reference (--against BIN..., or --against-command STRING) into
 * --against-output, each its own counted run. A count does not move with
 * the machine, so the sides need no interleaving; prof-diff compares them
 * row for row. The worse of the two exit codes.
 */
static int
counted_ab(struct opts *o, int (*fn)(struct opts *))
{
	struct opts cur = *o, ref = *o;
	char why[256], **ref_argv = NULL;
	struct workload_binary bins[64];
	struct workload *like = NULL;
	long n_like = 0;
	int rc, rc2;

	if (o->against_command) {
		ref_argv =
		    cmdsample_split_words(o->against_command, why, sizeof(why));
		if (!ref_argv)
			return cli_fail("--against-command: %s", why);
		ref.argv = ref_argv;
	} else {
		memcpy(ref.bins, o->against, sizeof(o->against));
		ref.n_bins = o->n_against;
	}
	cur.n_against = ref.n_against = 0;
	cur.against_command = ref.against_command = NULL;
	cur.against_output = ref.against_output = NULL;
	ref.output = o->against_output;
	rc = counted(&cur, fn);
	if (rc >= PROF_EXIT_FAILURE || signals_interrupted) {
		free(ref_argv);
		return rc;
	}
	/* A reference binary without a side file plans as the current
	 * side's (binaries.c). */
	if (!o->against_command) {
		memset(bins, 0, sizeof(bins));
		n_like = binaries_load_workloads(&cur, bins, &like);
		if (n_like < 0)
			return PROF_EXIT_FAILURE;
		ref.like = like;
		ref.n_like = n_like;
	}
	rc2 = counted(&ref, fn);
	free(ref_argv);
	while (n_like > 0)
		json_object_put(like[--n_like].desc);
	free(like);
	return rc2 > rc ? rc2 : rc;
}

/* An option the runner's table stores itself (cli.h), in struct opts; the
 * tool's table, under the same id, shows it. */
#define BOUND(name, letter, arg, id, bind_, field, ctype, min_, max_) \
	CLI_ENTRY(name, letter, arg, id, NULL, CLI_OPT_HIDDEN, \
		  .bind = (bind_), .at = CLI_AT(struct opts, field, ctype), \
		  .min = (min_), .max = (max_))
#define BOUND_NUMBER(name, id, field, min, max) \
	BOUND(name, 0, "ARG", id, CLI_BIND_NUMBER, field, long long, min, max)
#define BOUND_STRING(name, letter, id, field) \
	BOUND(name, letter, "ARG", id, CLI_BIND_STRING, field, const char *, \
	      0, 0)

static const struct cli_opt runner_parsed[] = {
	CLI_HIDDEN("workloads", 0, "ARG", OPT_WORKLOADS),
	BOUND_NUMBER("repeat", OPT_REPEAT, repeat, 1, 1000000),
	BOUND_NUMBER("warmup", OPT_WARMUP, warmup, 0, 1000000),
	CLI_HIDDEN("category", 0, "ARG", OPT_CATEGORY),
	CLI_HIDDEN("exclude-category", 0, "ARG", OPT_EXCLUDE),
	CLI_HIDDEN("only", 0, "ARG", OPT_ONLY),
	CLI_HIDDEN("backend", 0, "ARG", OPT_BACKEND),
	BOUND_STRING("output", 'o', 'o', output),
	CLI_HIDDEN("timeout", 0, "ARG", OPT_TIMEOUT),
	CLI_HIDDEN("seed", 0, "ARG", OPT_SEED),
	CLI_HIDDEN("shard", 0, "ARG", OPT_SHARD),
	BOUND_STRING("name", 0, OPT_NAME, name),
	BOUND("warning-floor", 0, "ARG", OPT_FLOOR, CLI_BIND_REAL,
	      warning_floor_ms, double, 0, 0),
	BOUND_STRING("problem-size", 0, OPT_PSIZE, problem_size),
	BOUND_NUMBER("expect-exit", OPT_EXPECT, expect_exit, 0, 255),
	CLI_HIDDEN("list", 0, NULL, OPT_LIST),
	CLI_HIDDEN("artifacts", 0, "ARG", OPT_ARTIFACTS),
	CLI_HIDDEN("min-seconds", 0, "ARG", OPT_MIN_SECONDS),
	CLI_HIDDEN("functions", 0, "ARG", OPT_FUNCTIONS),
	CLI_HIDDEN("against", 0, "ARG", OPT_AGAINST),
	CLI_HIDDEN("against-output", 0, "ARG", OPT_AGAINST_OUTPUT),
	BOUND_STRING("against-command", 0, OPT_AGAINST_COMMAND,
		     against_command),
	BOUND_NUMBER("batch", OPT_BATCH, batch, 1, 1000000),
	BOUND_NUMBER("max-repeat", OPT_MAX_REPEAT, max_repeat, 1,
		     1000000),
	CLI_HIDDEN("threshold", 0, "ARG", OPT_THRESHOLD),
	CLI_HIDDEN("time-threshold", 0, "ARG", OPT_TIME_THRESHOLD),
	CLI_HIDDEN("env", 0, "ARG", OPT_ENV),
	CLI_HIDDEN("check-output", 0, NULL, OPT_CHECK_OUTPUT),
	CLI_HIDDEN("memory", 0, NULL, OPT_MEMORY),
	BOUND("quiet", 'q', NULL, 'q', CLI_BIND_TRUE, quiet, int, 0, 0),
	CLI_STD(OPT_VERSION),
	CLI_END,
};

/* Fold the phase's options into o: 0, or the exit code (said). */
static int
take_phase_option(struct opts *o, int c)
{
	switch (c) {
	case OPT_ARTIFACTS:
		if (o->phase != RUNNER_PROFILE)
			return cli_fail("--artifacts: only prof-trace "
					"writes artifacts");
		o->artifacts = optarg;
		break;
	case OPT_MIN_SECONDS:
		if (o->phase != RUNNER_PROFILE)
			return cli_fail("--min-seconds: only for prof-trace");
		if (cli_real("--min-seconds", optarg, &o->min_seconds))
			return PROF_EXIT_FAILURE;
		break;
	case OPT_AGAINST:
		if (o->n_against == 64)
			return cli_fail("--against: at most 64");
		o->against[o->n_against++] = optarg;
		break;
	case OPT_AGAINST_OUTPUT:
		if (!optarg[0])
			return cli_fail("--against-output: empty file "
					"name");
		o->against_output = optarg;
		break;
	case OPT_THRESHOLD:
		if (o->phase != RUNNER_COUNT)
			return cli_fail("--threshold: only for prof-count");
		if (cli_real("--threshold", optarg, &o->threshold_pct))
			return PROF_EXIT_FAILURE;
		break;
	case OPT_TIME_THRESHOLD:
		if (o->phase != RUNNER_TIMING)
			return cli_fail("--time-threshold: only for "
					"prof-time");
		if (cli_real("--time-threshold", optarg,
			     &o->time_threshold_pct))
			return PROF_EXIT_FAILURE;
		if (!(o->time_threshold_pct > 0) ||
		    o->time_threshold_pct > PROF_CMP_THRESHOLD_MAX)
			return cli_fail("--time-threshold: '%s' is not "
					"a percentage above 0 and at "
					"most %g",
					optarg, PROF_CMP_THRESHOLD_MAX);
		break;
	case OPT_FUNCTIONS:
		if (o->phase != RUNNER_COUNT)
			return cli_fail("--functions: only for prof-count");
		o->functions = optarg;
		break;
	case OPT_ENV:
		if (o->phase != RUNNER_COUNT)
			return cli_fail("--env: only for prof-count");
		if (!strchr(optarg, '=') || optarg[0] == '=')
			return cli_fail("--env: '%s' is not NAME=VALUE",
					optarg);
		if (o->n_env == 32)
			return cli_fail("--env: at most 32");
		o->env[o->n_env++] = optarg;
		break;
	case OPT_CHECK_OUTPUT:
		if (o->phase != RUNNER_TIMING && o->phase != RUNNER_COUNT)
			return cli_fail("--check-output: only for "
					"prof-time and prof-count");
		o->check_output = 1;
		break;
	case OPT_MEMORY:
		if (o->phase != RUNNER_TIMING && o->phase != RUNNER_COUNT)
			return cli_fail("--memory: only for prof-time "
					"and prof-count (prof-mem is "
					"the memory phase)");
		o->memory = 1;
		break;
	}
	return 0;
}

/* Fold option c (its argument optarg) into o, *list for --list: 0, or
 * the exit code (said). */
static int
take_option(struct opts *o, int c, int *list)
{
	long long v;

	switch (c) {
	case OPT_WORKLOADS:
		if (o->n_bins == 64)
			return cli_fail("--workloads: at most 64");
		o->bins[o->n_bins++] = optarg;
		break;
	case OPT_CATEGORY:
		if (o->n_cats == 63)
			return cli_fail("--category: at most 63");
		o->cats[o->n_cats++] = optarg;
		break;
	case OPT_EXCLUDE:
		if (o->n_excl == 64)
			return cli_fail("--exclude-category: at most 64");
		o->excl[o->n_excl++] = optarg;
		break;
	case OPT_ONLY:
		if (o->n_only == 64)
			return cli_fail("--only: at most 64");
		if (!optarg[0])
			return cli_fail("--only: an empty pattern");
		o->only[o->n_only++] = optarg;
		break;
	case OPT_BACKEND:
		if (strcmp(optarg, "cpu") && strcmp(optarg, "gpu") &&
		    strcmp(optarg, "all") && strcmp(optarg, "auto"))
			return cli_fail("--backend: '%s' is not one of "
					"cpu, gpu, all, auto",
					optarg);
		if (o->phase == RUNNER_COUNT && strcmp(optarg, "cpu"))
			return cli_fail("--backend: prof-count counts "
					"the CPU path only");
		o->backend = optarg;
		break;
	case OPT_TIMEOUT:
		if (cli_real("--timeout", optarg, &o->timeout_s))
			return PROF_EXIT_FAILURE;
		/* Below this no process even starts: every sample
		 * would be a timeout. */
		if (o->timeout_s < 0.01)
			return cli_fail("--timeout: '%s' is less than "
					"0.01 s, too short to start a "
					"process",
					optarg);
		break;
	case OPT_SEED:
		/* 2^53: every JSON reader keeps it exact. */
		if (cli_number("--seed", optarg, 0, (1LL << 53) - 1, &v))
			return PROF_EXIT_FAILURE;
		o->seed = (unsigned long long)v;
		o->has_seed = 1;
		break;
	case OPT_SHARD:
		if (parse_shard(optarg, &o->shard_i, &o->shard_n))
			return PROF_EXIT_FAILURE;
		break;
	case OPT_LIST:
		*list = 1;
		break;
	default:
		return take_phase_option(o, c);
	}
	return 0;
}

/* The defaults that need the whole command line (the workload binary, the
 * seed), the checks across options, the phase's interposer and folder:
 * 0, or the exit code (said). */
static int
settle_options(struct opts *o)
{
	int timing = o->phase == RUNNER_TIMING;
	int profile = o->phase == RUNNER_PROFILE;
	int counting = o->phase == RUNNER_COUNT;
	uint64_t mix;

	if (!o->n_bins) {
		const char *env = getenv("PROF_WORKLOADS");

		o->bins[o->n_bins++] = env && env[0] ? env : binaries_default();
		/* An installed prof has no workloads of its own beside it. */
		if (!(env && env[0]) && !o->name && access(o->bins[0], X_OK))
			return cli_fail(
				"no workload binary: give --workloads BIN (one "
				"linked with `pkg-config --libs prof-harness`), "
				"or WORKLOADS= in a Makefile that includes "
				"prof.mk");
	}
	if (!o->has_seed) {
		mix = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		o->seed = plan_splitmix64(&mix) & ((1ULL << 53) - 1);
	}
	if (o->memory && !o->name)
		return cli_fail("--memory: only for a command (--name ID -- "
				"CMD); workloads have the memory phase "
				"(prof-mem, MEMORY=1)");
	if (o->memory && o->against_command && timing)
		return cli_fail("--memory: not with --against-command (run "
				"prof-mem --name ID -- CMD on each command)");
	if ((!timing && !counting) || o->memory) {
		binaries_beside_me(profile ? "libprof-cpuprofile.so" :
					     "libprof-alloc.so",
				   o->preload, sizeof(o->preload));
		if (access(o->preload, R_OK) != 0)
			return cli_fail("'%s' is missing (run make to build it)",
					o->preload);
	}
	if (profile && artifacts_dir(o) < 0)
		return PROF_EXIT_FAILURE;
	return 0;
}

/* --name ID -- CMD: the command after optind, in the phase's way. */
static int
run_command(struct opts *o, int argc, char **argv)
{
	int timing = o->phase == RUNNER_TIMING;
	int profile = o->phase == RUNNER_PROFILE;
	int counting = o->phase == RUNNER_COUNT;
	char why[256];

	if (optind >= argc)
		return cli_fail("--name needs a command after '--'");
	if (!prof_id_valid(o->name, why, sizeof(why)))
		return cli_fail("--name: not a workload id: %s", why);
	if (o->n_cats > 1)
		return cli_fail("--category: a command has one category");
	if (o->n_only)
		return cli_fail("--only: a command is one workload, "
				"--name's");
	if (o->shard_n && !o->against_command)
		return cli_fail("--shard: a command is one workload; "
				"shards split quick, full and diagnose");
	o->mode = "command";
	o->argv = argv + optind;
	if (o->repeat < 0)
		o->repeat = timing     ? 10 :
			    counting ? 2 :
			    profile  ? 1 :
				       COMMAND_MEMORY_RUNS;
	if (o->warmup < 0)
		o->warmup = 0;
	if (counting && o->against_command)
		return counted_ab(o, count_run);
	if (counting)
		return counted(o, count_run);
	if (o->against_command)
		return ab_budget(o) ? PROF_EXIT_FAILURE : ab_run_command(o);
	return command_run(o);
}

/* The mode at optind (quick, full, diagnose ID) and its defaults: 0, or
 * the exit code (said). */
static int
take_mode(struct opts *o, int argc, char **argv)
{
	o->mode = argv[optind++];
	if (!strcmp(o->mode, "quick")) {
		if (o->warmup < 0)
			o->warmup = 1;
		if (o->repeat < 0)
			o->repeat = 3;
		if (!o->backend)
			o->backend = "cpu";
	} else if (!strcmp(o->mode, "full")) {
		if (o->warmup < 0)
			o->warmup = 2;
		if (o->repeat < 0)
			o->repeat = 10;
		if (!o->backend)
			o->backend = "all";
	} else if (!strcmp(o->mode, "diagnose")) {
		if (optind >= argc)
			return cli_fail("diagnose needs a workload id");
		o->diagnose_id = argv[optind++];
		if (o->warmup < 0)
			o->warmup = 1;
		if (o->repeat < 0)
			o->repeat = 5;
		if (!o->backend)
			o->backend = "auto";
	} else {
		return cli_fail("unknown mode '%s' (quick, full, diagnose ID, or "
				"--name ID -- CMD)",
				o->mode);
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	return 0;
}

/* The workloads in the mode after optind, in the phase's way; the
 * counts' warm-up and repeats their own unless given. */
static int
run_workloads(struct opts *o, int argc, char **argv, int warmup_given,
	      int repeat_given)
{
	int rc = take_mode(o, argc, argv);

	if (rc)
		return rc;
	/* One measured call per workload in the memory phase, straight after
	 * prepare(); the profile phase covers min_seconds after one warmup. */
	if (o->phase == RUNNER_MEMORY) {
		o->warmup = 0;
		o->repeat = 1;
	} else if (o->phase == RUNNER_PROFILE) {
		o->warmup = 1;
		o->repeat = 1;
	} else if (o->phase == RUNNER_COUNT) {
		/* One warmup call resolves lazy bindings and first-touch
		 * paths, so the counted calls repeat each other; 2 counts in
		 * quick and 3 in full and diagnose show that they agree. */
		o->warmup = warmup_given ? o->warmup : 1;
		if (!repeat_given)
			o->repeat = strcmp(o->mode, "quick") ? 3 : 2;
		o->backend = "cpu";
	}
	if (o->phase == RUNNER_COUNT && o->n_against)
		return counted_ab(o, workloads_run);
	if (o->phase == RUNNER_COUNT)
		return counted(o, workloads_run);
	if (o->n_against)
		return ab_budget(o) ? PROF_EXIT_FAILURE : ab_run_workloads(o);
	return workloads_run(o);
}

int
runner_main(const struct runner_tool *tool, int argc, char **argv)
{
	struct cli_getopt g;
	struct opts o = {0};
	int c, list = 0, warmup_given, repeat_given;

	cli_init(argv[0]);
	if (cli_opt_init(&g, tool->options, runner_parsed) < 0)
		return cli_fail("%s", g.why);
	o.tool = tool;
	o.phase = tool->phase;
	o.repeat = o.warmup = o.max_repeat = -1;
	o.output = "-";
	o.timeout_s = 600;
	o.warning_floor_ms = 5;
	o.min_seconds = 2;
	o.threshold_pct = 1;
	while ((c = cli_opt_parse(&g, argc, argv, &o)) != -1)
		if ((c = take_option(&o, c, &list)) != 0)
			return c;
	if ((c = ab_check_options(&o, o.phase == RUNNER_TIMING,
				  o.phase == RUNNER_COUNT)) != 0)
		return c;
	warmup_given = o.warmup >= 0;
	repeat_given = o.repeat >= 0;
	if ((c = settle_options(&o)) != 0)
		return c;
	signals_catch();

	if (list) {
		if (optind != argc)
			return cli_fail("--list takes no mode");
		return workloads_list(&o);
	}
	if (o.check_output && !o.name)
		return cli_fail("--check-output: only for a command (--name ID "
				"-- CMD); a workload checksums its own output, "
				"and a Google Benchmark binary's has none to "
				"check");
	if (o.name)
		return run_command(&o, argc, argv);
	if (optind >= argc) {
		cli_opt_usage(tool->options, stderr);
		return PROF_EXIT_FAILURE;
	}
	return run_workloads(&o, argc, argv, warmup_given, repeat_given);
}
