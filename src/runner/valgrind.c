/* valgrind.c: what prof-count's instruction phase runs on: valgrind
 * found, the fixed folder and environment every counted process sees, a
 * worker wrapped in callgrind, and its dumps read back into
 * "instructions". */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/utf8.h"
#include "model/callgrind.h"
#include "prof/sum.h"
#include "verdict/channels.h"
#include "runner-int.h"

/* What a counted process finds in its environment, and nothing else. */
#define COUNT_PATH "PATH=/usr/local/bin:/usr/bin:/bin"
#define COUNT_INSTALL "sudo apt-get install -y valgrind"

/* Whether path is a file execve(2) may run: a folder is not, and says
 * EACCES as execve would ("cannot run '/tmp': Permission denied"). */
static int
runnable(const char *path)
{
	struct stat sb;

	if (access(path, X_OK) != 0)
		return -1;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

/* The first executable name in PATH, or -1. */
static int
find_program(const char *name, char *out, size_t n)
{
	errno = ENOENT;
	if (strchr(name, '/')) {
		snprintf(out, n, "%s", name);
		return runnable(name);
	}
	return prof_path_search(name, runnable, out, n);
}

static int
version_line(void *arg, char *line, size_t len, int complete)
{
	char *version = arg;

	(void)complete;
	/* "valgrind-3.19.0" */
	if (!version[0] && len > 9 && !strncmp(line, "valgrind-", 9))
		snprintf(version, 64, "%.*s", (int)(len - 9), line + 9);
	return 0;
}

/* valgrind --version; -1 after a message. */
static int
valgrind_find_version(struct valgrind_setup *c)
{
	char *argv[] = {c->valgrind, "--version", NULL};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 60,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = version_line,
		.arg = c->version,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	char why[1024];

	if (prof_spawn_run(&sp, &res, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	if (!prof_spawn_ok(&res) || !c->version[0]) {
		prof_spawn_describe(&res, c->valgrind, sp.timeout_s, why,
				    sizeof(why));
		cli_say("'%s --version' did not say its version: %s",
			c->valgrind, why);
		prof_spawn_free(&res);
		return -1;
	}
	prof_spawn_free(&res);
	return 0;
}

/*
 * The project a count belongs to: $PROF_PROJECT, else the name of the
 * git repository of the working directory: the folder that holds its
 * .git, the same for every worktree of it (their counts compare), else
 * "" (no repository, or no git).
 */
static void
project_name(char *out, size_t n)
{
	const char *env = getenv("PROF_PROJECT");
	char *argv[] = {"git", "rev-parse", "--path-format=absolute",
			"--git-common-dir", NULL};
	char common[PATH_MAX];
	size_t len;
	char *slash;

	out[0] = '\0';
	if (env && env[0]) {
		snprintf(out, n, "%s", env);
		return;
	}
	if (prof_spawn_line(argv, 0, common, sizeof(common)) < 0)
		return;
	/* /x/NAME/.git, or a bare /x/NAME.git */
	len = strlen(common);
	if (len > 5 && !strcmp(common + len - 5, "/.git"))
		common[len - 5] = '\0';
	slash = strrchr(common, '/');
	snprintf(out, n, "%s", slash ? slash + 1 : common);
}

/* A private folder of this user: made, or there, ours and no link. */
static int
private_folder(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		cli_say("cannot create '%s': %s", path, strerror(errno));
		return -1;
	}
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 0077)) {
		cli_say("'%s' is not a private folder of this user; remove it",
			path);
		return -1;
	}
	return 0;
}

/*
 * The fixed folder: /tmp/prof-count-UID/KEY, KEY the first 16 hex digits
 * of the SHA-256 of the project's name (project_name()), with the lock
 * that one run holds while it uses home and cwd in it. Every run of a
 * project sees the same HOME and PWD, of the same length in every
 * project: so a second prof-count of the same project waits for the
 * first, and another project's counts at once in a folder of their own
 * (one folder for the whole user made every project wait).
 */
static int
fixed_folder(struct valgrind_setup *c, int quiet)
{
	char lock[PATH_MAX + 8], name[PATH_MAX], hex[PROF_SUM_HEX], top[64];
	struct prof_sum sum;

	project_name(name, sizeof(name));
	if (prof_sum_init(&sum) < 0) {
		cli_say("out of memory");
		return -1;
	}
	prof_sum_raw(&sum, name, strlen(name));
	prof_sum_final(&sum, hex);
	snprintf(top, sizeof(top), "/tmp/prof-count-%u", (unsigned)getuid());
	snprintf(c->base, sizeof(c->base), "%s/%.16s", top, hex);
	if (private_folder(top) < 0 || private_folder(c->base) < 0)
		return -1;
	snprintf(lock, sizeof(lock), "%s/lock", c->base);
	c->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (c->lock_fd >= 0 && flock(c->lock_fd, LOCK_EX | LOCK_NB) == 0)
		goto locked;
	if (c->lock_fd >= 0 && errno == EWOULDBLOCK && !quiet) {
		char *shown = prof_utf8_line(name, 256);

		if (name[0])
			cli_say("waiting for another prof-count of project "
				"'%s' (%s)", shown ? shown : "", lock);
		else
			cli_say("waiting for another prof-count outside a "
				"project (%s)", lock);
		free(shown);
	}
	if (c->lock_fd < 0 || flock(c->lock_fd, LOCK_EX) < 0) {
		cli_say("cannot lock '%s': %s", lock, strerror(errno));
		return -1;
	}
locked:
	snprintf(c->home, sizeof(c->home), "%s/home", c->base);
	snprintf(c->cwd, sizeof(c->cwd), "%s/cwd", c->base);
	return 0;
}

/* The count phase's part of a workload's run (runner-int.h). */
static const struct worker_hook count_hook;

int
valgrind_open(struct opts *o)
{
	struct valgrind_setup *c = calloc(1, sizeof(*c));

	if (!c) {
		cli_say("out of memory");
		return -1;
	}
	c->lock_fd = -1;
	o->count = c;
	o->hook = &count_hook;
	/* A command is found with the caller's PATH and run by its full
	 * path; before anything waits for the lock. */
	if (o->argv &&
	    find_program(o->argv[0], c->program, sizeof(c->program)) < 0) {
		cli_say("cannot run '%s': %s", o->argv[0], strerror(errno));
		return -1;
	}
	if (find_program("valgrind", c->valgrind, sizeof(c->valgrind)) < 0) {
		cli_say("valgrind is not installed; install it with: %s",
			COUNT_INSTALL);
		return -1;
	}
	if (valgrind_find_version(c) < 0)
		return -1;
	binaries_beside_me("libprof-fixedtime.so", c->fixedtime,
			   sizeof(c->fixedtime));
	if (access(c->fixedtime, R_OK) != 0) {
		cli_say("'%s' is missing (run make to build it)", c->fixedtime);
		return -1;
	}
	return fixed_folder(c, o->quiet);
}

void
valgrind_close(struct opts *o)
{
	struct valgrind_setup *c = o->count;

	if (!c)
		return;
	if (c->home[0])
		prof_tmpdir_remove(c->home);
	if (c->cwd[0])
		unlink(c->cwd);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	argv_free(&c->argv);
	free(c);
	o->count = NULL;
	o->hook = NULL;
}

/* The valgrind version the counts were made by, as the samples record it. */
static const char *
valgrind_version(const struct opts *o)
{
	return o->count ? o->count->version : NULL;
}

/* A fresh, empty HOME at the fixed path. */
int
valgrind_fresh_home(struct valgrind_setup *c)
{
	prof_tmpdir_remove(c->home);
	if (mkdir(c->home, 0700) < 0) {
		cli_say("cannot create '%s': %s", c->home, strerror(errno));
		return -1;
	}
	return 0;
}

/* The fixed environment: PATH, HOME, C locale, UTC; extra after it. */
int
valgrind_fixed_env(struct valgrind_setup *c, char **extra, int n_extra)
{
	int k = 0, i;

	snprintf(c->home_env, sizeof(c->home_env), "HOME=%s", c->home);
	c->env[k++] = COUNT_PATH;
	c->env[k++] = c->home_env;
	c->env[k++] = "LANG=C";
	c->env[k++] = "LC_ALL=C";
	c->env[k++] = "TZ=UTC";
	for (i = 0; i < n_extra && k < VALGRIND_MAX_ENV; i++) {
		size_t len = strcspn(extra[i], "=");
		int j;

		/* A later NAME=VALUE replaces an earlier one. */
		for (j = 0; j < k; j++)
			if (!strncmp(c->env[j], extra[i], len + 1))
				break;
		c->env[j] = extra[i];
		if (j == k)
			k++;
	}
	c->env[k] = NULL;
	return 0;
}

int
valgrind_argv_begin(struct valgrind_setup *c, const char *dump)
{
	struct prof_err err = {0};

	if (valgrind_fresh_home(c) < 0)
		return -1;
	if (prof_tmpdir_new("prof-count", c->dumps, sizeof(c->dumps), &err) <
	    0) {
		cli_err(&err);
		return -1;
	}
	snprintf(c->out_opt, sizeof(c->out_opt),
		 "--callgrind-out-file=%s/%s", c->dumps, dump);
	argv_reset(&c->argv);
	argv_add(&c->argv, c->valgrind);
	argv_add(&c->argv, "-q");
	argv_add(&c->argv, "--tool=callgrind");
	return 0;
}

/* Wrap a worker's argv in callgrind, in the fixed environment. */
static int
valgrind_worker_begin(struct opts *o, char **argv, struct prof_spawn *sp)
{
	struct valgrind_setup *c = o->count;
	char *extra[1];

	if (valgrind_argv_begin(c, "callgrind.out") < 0)
		return -1;
	/* Instrumented from the first counted call on (the worker starts
	 * it), so that prepare() runs at the speed of valgrind's core. */
	argv_add(&c->argv, "--instr-atstart=no");
	argv_add(&c->argv, c->out_opt);
	argv_add_all(&c->argv, argv);
	argv_add(&c->argv, "--valgrind");
	argv_add(&c->argv, c->version);
	sp->argv = argv_done(&c->argv);
	if (!sp->argv) {
		cli_say("out of memory");
		valgrind_worker_end(o);
		return -1;
	}
	snprintf(c->preload_env, sizeof(c->preload_env), "LD_PRELOAD=%s",
		 c->fixedtime);
	extra[0] = c->preload_env;
	valgrind_fixed_env(c, extra, 1);
	sp->env_set = c->env;
	sp->env_unset = NULL;
	sp->env_clear = 1;
	sp->no_aslr = 1;
	return 0;
}

void
valgrind_worker_end(struct opts *o)
{
	struct valgrind_setup *c = o->count;

	if (c && c->dumps[0]) {
		prof_tmpdir_remove(c->dumps);
		c->dumps[0] = '\0';
	}
}

/*
 * --functions DIR: the first counted call's dump, functions only, kept as
 * DIR/WORKLOAD.BACKEND.callgrind and named in the sample's artifacts
 * relative to the folder of --output (the run folder) when it lies in
 * it. -1 with why filled.
 */
static int
keep_functions(struct opts *o, struct json_object *s, const char *dump,
	       char *why, size_t n)
{
	struct prof_callgrind_profile p = {0};
	struct prof_err err = {0};
	char path[PATH_MAX], real[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX];
	char buf[1024];
	const char *slash = strrchr(o->output, '/');
	size_t len;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/%s.%s.callgrind", o->functions,
		 prof_json_str(s, "workload"), prof_json_str(s, "backend"));
	if (prof_mkdirs(o->functions, &err) < 0 ||
	    prof_callgrind_load(dump, &p, &err) < 0 ||
	    prof_callgrind_write_functions(&p, path, &err) < 0) {
		snprintf(why, n, "callgrind: %s",
			 prof_err_str(&err, buf, sizeof(buf)));
		goto out;
	}
	snprintf(dir, sizeof(dir), "%.*s",
		 slash ? (int)(slash - o->output) : 1,
		 slash ? o->output : ".");
	/* A sample's artifacts lie inside the run folder: a file kept
	 * elsewhere is not named. */
	if (realpath(path, real) && realpath(dir, rdir)) {
		len = strlen(rdir);
		if (!strncmp(real, rdir, len) && real[len] == '/')
			json_object_array_add(
				json_object_object_get(s, "artifacts"),
				json_object_new_string(real + len + 1));
	}
	rc = 0;
out:
	prof_callgrind_profile_free(&p);
	return rc;
}

/*
 * A worker's instruction sample names its call by index; its count is in
 * the dump "prof-call-INDEX", which callgrind numbered INDEX + 1 (one
 * dump per counted call, in order). A dump that is missing or says
 * another call makes the sample an error.
 */
static void
valgrind_fill(struct opts *o, struct json_object *s)
{
	struct valgrind_setup *c = o->count;
	struct prof_callgrind_dump d;
	struct prof_err err = {0};
	char path[PATH_MAX + 64], want[64], why[1200], buf[1024];
	struct json_object *v;
	long long index;

	if (!prof_sample_is(s, "phase", "instructions") ||
	    !prof_sample_is(s, "outcome", "success"))
		return;
	v = json_object_object_get(s, "index");
	if (!json_object_is_type(v, json_type_int))
		return;	/* not a sample: the check says why */
	index = json_object_get_int64(v);
	snprintf(path, sizeof(path), "%s/callgrind.out.%lld", c->dumps,
		 index + 1);
	snprintf(want, sizeof(want), "Client Request: prof-call-%lld", index);
	if (prof_callgrind_read(path, &d, &err) < 0) {
		snprintf(why, sizeof(why), "callgrind: %s",
			 prof_err_str(&err, buf, sizeof(buf)));
	} else if (strcmp(d.trigger, want)) {
		snprintf(why, sizeof(why),
			 "callgrind: dump %lld is '%s', expected '%s'",
			 index + 1, d.trigger, want);
	} else {
		json_object_object_add(s, "instructions",
				       json_object_new_int64(d.ir));
		if (index == 0 && o->functions &&
		    keep_functions(o, s, path, why, sizeof(why)) < 0)
			goto failed;
		return;
	}
failed:
	prof_sample_fail(s, why, prof_sample_num(s, "duration_ms"));
}

/* The functions between whose return and call a Google Benchmark loop
 * runs: begin() of `for (auto _ : state)` (and KeepRunning()) calls the
 * first, the loop's end the second. Public API, so every binary calls
 * them by these names. */
#define GBENCH_LOOP_START "benchmark::State::StartKeepRunning*"
#define GBENCH_LOOP_END "benchmark::State::FinishKeepRunning*"

/*
 * A Google Benchmark run counted: argv (the binary, its filter and flags,
 * two repetitions) under callgrind instrumented from the start, with a
 * dump after each benchmark::State::StartKeepRunning() and one before each
 * FinishKeepRunning(), so that each loop is a dump of its own.
 */
static int
valgrind_gbench_begin(struct opts *o, char **argv, struct prof_spawn *sp)
{
	struct valgrind_setup *c = o->count;

	/* As a worker, but instrumented from the start and dumped around
	 * each loop: what lies between the two dumps is the loop alone. */
	if (valgrind_worker_begin(o, argv, sp) < 0)
		return -1;
	argv_reset(&c->argv);
	argv_add(&c->argv, c->valgrind);
	argv_add(&c->argv, "-q");
	argv_add(&c->argv, "--tool=callgrind");
	argv_add(&c->argv, "--dump-after=" GBENCH_LOOP_START);
	argv_add(&c->argv, "--dump-before=" GBENCH_LOOP_END);
	argv_add(&c->argv, c->out_opt);
	argv_add_all(&c->argv, argv);
	sp->argv = argv_done(&c->argv);
	if (!sp->argv) {
		cli_say("out of memory");
		valgrind_worker_end(o);
		return -1;
	}
	return 0;
}

/*
 * Fill in s (the last repetition's sample) with "instructions": its loop's
 * count (the last loop dump; the first repetition warmed lazy binding and
 * first-call paths) divided by its iterations, rounded; the loop's count
 * in metrics.loop_instructions. A sample without two loop dumps, or of a
 * benchmark on more than one thread, fails with why.
 */
static void
valgrind_gbench_fill(struct opts *o, struct json_object *s)
{
	static const char loop_end[] = "--dump-before=benchmark::State::"
				       "FinishKeepRunning";
	struct valgrind_setup *c = o->count;
	struct prof_callgrind_dump d;
	struct prof_err err = {0};
	char path[PATH_MAX + 64], last[PATH_MAX + 64] = "", why[1200];
	char buf[1024];
	long long ir = -1, iters = 0;
	double threads = prof_sample_num(s, "threads");
	int part, loops = 0;

	if (!prof_sample_is(s, "outcome", "success"))
		return;
	iters = (long long)prof_sample_num(s, "iterations");
	/* Dumps are callgrind.out.1, .2, ... in order, callgrind.out the
	 * rest at exit; the last loop's is the counted repetition's. */
	for (part = 1;; part++) {
		snprintf(path, sizeof(path), "%s/callgrind.out.%d", c->dumps,
			 part);
		if (access(path, F_OK) != 0)
			break;
		if (prof_callgrind_read(path, &d, &err) < 0) {
			snprintf(why, sizeof(why), "callgrind: %s",
				 prof_err_str(&err, buf, sizeof(buf)));
			goto failed;
		}
		if (strncmp(d.trigger, loop_end, sizeof(loop_end) - 1))
			continue;
		loops++;
		ir = d.ir;
		snprintf(last, sizeof(last), "%s", path);
	}
	if (loops < 2) {
		snprintf(why, sizeof(why),
			 "callgrind: %d benchmark loop%s, expected one for "
			 "each of the 2 repetitions (no call of %s: not a "
			 "loop of benchmark::State?)",
			 loops, loops == 1 ? "" : "s", GBENCH_LOOP_END);
		goto failed;
	}
	if (!isnan(threads) && threads > 1) {
		snprintf(why, sizeof(why),
			 "instruction counts of a benchmark on %.0f threads "
			 "are not taken (their loops interleave)",
			 threads);
		goto failed;
	}
	if (iters < 1) {
		snprintf(why, sizeof(why),
			 "its JSON output says %lld iterations", iters);
		goto failed;
	}
	/* Per iteration, rounded: the loop's entry and exit are a few
	 * instructions, spread over the iterations (one, unless the
	 * benchmark fixes its own iterations or minimum time). */
	json_object_object_add(s, "instructions",
			       json_object_new_int64((ir + iters / 2) / iters));
	json_object_object_add(json_object_object_get(s, "metrics"),
			       "loop_instructions",
			       json_object_new_int64(ir));
	if (prof_sample_num(s, "index") == 0 && o->functions &&
	    keep_functions(o, s, last, why, sizeof(why)) < 0)
		goto failed;
	return;
failed:
	prof_sample_fail(s, why, prof_sample_num(s, "duration_ms"));
}

/* A Google Benchmark sample counted: an instruction sample keyed by
 * valgrind's version, as a worker's are, its count from the dumps. */
static void
count_gbench_fill(struct opts *o, struct json_object *s)
{
	struct json_object *env = json_object_object_get(s, "env");
	char *seg;

	json_object_object_add(
		s, "phase", json_object_new_string(runner_phase_name(o->phase)));
	json_object_object_add(env, "valgrind",
			       json_object_new_string(valgrind_version(o)));
	seg = prof_env_segment(env);
	json_object_object_add(s, "segment",
			       json_object_new_string(seg ? seg : "{}"));
	free(seg);
	json_object_object_add(s, "instructions", NULL);
	json_object_object_add(s, "count_threshold_pct",
			       prof_json_double(o->threshold_pct));
	valgrind_gbench_fill(o, s);
}

/* The row's count (the lower median), grouped as every page writes it. */
static void
count_progress(const double *v, size_t n, char *buf, size_t size)
{
	struct prof_stats st;
	char c[32];

	prof_stats_counts(v, n, &st);
	prof_fmt_count(c, sizeof(c), llround(st.median), 0);
	snprintf(buf, size, "median %s instructions (n=%zu)", c, st.n);
}

static const struct worker_hook count_hook = {
	.value = "instructions",
	.version = valgrind_version,
	.begin = valgrind_worker_begin,
	.gbench_begin = valgrind_gbench_begin,
	.end = valgrind_worker_end,
	.fill = valgrind_fill,
	.gbench_fill = count_gbench_fill,
	.progress = count_progress,
};
