/* count.c: prof-count's instruction phase: workers and commands under
 * valgrind's callgrind, in an environment that never changes, and their
 * dumps read back into "instructions". */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callgrind.h"
#include "runner-int.h"

/* What a counted process finds in its environment, and nothing else. */
#define COUNT_PATH "PATH=/usr/local/bin:/usr/bin:/bin"
#define COUNT_INSTALL "sudo apt-get install -y valgrind"
#define MAX_ENV 64

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
	char *env[MAX_ENV + 1];
};

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
	const char *path = getenv("PATH");

	errno = ENOENT;
	if (strchr(name, '/')) {
		snprintf(out, n, "%s", name);
		return runnable(name);
	}
	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", name);
		if (runnable(out) == 0)
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return -1;
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
valgrind_version(struct count *c)
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
 * The fixed folder: /tmp/prof-count-UID, ours and no link, with the lock
 * that one run holds while it uses home and cwd in it: a second prof-count
 * of the same user waits for the first.
 */
static int
fixed_folder(struct count *c, int quiet)
{
	char lock[PATH_MAX + 8];
	struct stat st;

	snprintf(c->base, sizeof(c->base), "/tmp/prof-count-%u",
		 (unsigned)getuid());
	if (mkdir(c->base, 0700) < 0 && errno != EEXIST) {
		cli_say("cannot create '%s': %s", c->base, strerror(errno));
		return -1;
	}
	if (lstat(c->base, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 0077)) {
		cli_say("'%s' is not a private folder of this user; remove it",
			c->base);
		return -1;
	}
	snprintf(lock, sizeof(lock), "%s/lock", c->base);
	c->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (c->lock_fd >= 0 && flock(c->lock_fd, LOCK_EX | LOCK_NB) == 0)
		goto locked;
	if (c->lock_fd >= 0 && errno == EWOULDBLOCK && !quiet)
		cli_say("waiting for another prof-count of this user (%s)",
			lock);
	if (c->lock_fd < 0 || flock(c->lock_fd, LOCK_EX) < 0) {
		cli_say("cannot lock '%s': %s", lock, strerror(errno));
		return -1;
	}
locked:
	snprintf(c->home, sizeof(c->home), "%s/home", c->base);
	snprintf(c->cwd, sizeof(c->cwd), "%s/cwd", c->base);
	return 0;
}

int
count_open(struct opts *o)
{
	struct count *c = calloc(1, sizeof(*c));

	if (!c) {
		cli_say("out of memory");
		return -1;
	}
	c->lock_fd = -1;
	o->count = c;
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
	if (valgrind_version(c) < 0)
		return -1;
	beside_me("libprof-fixedtime.so", c->fixedtime, sizeof(c->fixedtime));
	if (access(c->fixedtime, R_OK) != 0) {
		cli_say("'%s' is missing (run make to build it)", c->fixedtime);
		return -1;
	}
	return fixed_folder(c, o->quiet);
}

void
count_close(struct opts *o)
{
	struct count *c = o->count;

	if (!c)
		return;
	if (c->home[0])
		prof_tmpdir_remove(c->home);
	if (c->cwd[0])
		unlink(c->cwd);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c);
	o->count = NULL;
}

const char *
count_version(const struct opts *o)
{
	return o->count ? o->count->version : NULL;
}

/* A fresh, empty HOME at the fixed path. */
static int
fresh_home(struct count *c)
{
	prof_tmpdir_remove(c->home);
	if (mkdir(c->home, 0700) < 0) {
		cli_say("cannot create '%s': %s", c->home, strerror(errno));
		return -1;
	}
	return 0;
}

/* The fixed environment: PATH, HOME, C locale, UTC; extra after it. */
static int
fixed_env(struct count *c, char **extra, int n_extra)
{
	int k = 0, i;

	snprintf(c->home_env, sizeof(c->home_env), "HOME=%s", c->home);
	c->env[k++] = COUNT_PATH;
	c->env[k++] = c->home_env;
	c->env[k++] = "LANG=C";
	c->env[k++] = "LC_ALL=C";
	c->env[k++] = "TZ=UTC";
	for (i = 0; i < n_extra && k < MAX_ENV; i++) {
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
count_worker_begin(struct opts *o, char **argv, struct prof_spawn *sp)
{
	struct count *c = o->count;
	struct prof_err err = {0};
	char *extra[1];
	int k = 0, i;

	if (fresh_home(c) < 0)
		return -1;
	if (prof_tmpdir_new("prof-count", c->dumps, sizeof(c->dumps), &err) <
	    0) {
		cli_err(&err);
		return -1;
	}
	snprintf(c->out_opt, sizeof(c->out_opt),
		 "--callgrind-out-file=%s/callgrind.out", c->dumps);
	c->argv[k++] = c->valgrind;
	c->argv[k++] = "-q";
	c->argv[k++] = "--tool=callgrind";
	/* Instrumented from the first counted call on (the worker starts
	 * it), so that prepare() runs at the speed of valgrind's core. */
	c->argv[k++] = "--instr-atstart=no";
	c->argv[k++] = c->out_opt;
	for (i = 0; argv[i] && k < 60; i++)
		c->argv[k++] = argv[i];
	c->argv[k++] = "--valgrind";
	c->argv[k++] = c->version;
	c->argv[k] = NULL;
	snprintf(c->preload_env, sizeof(c->preload_env), "LD_PRELOAD=%s",
		 c->fixedtime);
	extra[0] = c->preload_env;
	fixed_env(c, extra, 1);
	sp->argv = c->argv;
	sp->env_set = c->env;
	sp->env_unset = NULL;
	sp->env_clear = 1;
	sp->no_aslr = 1;
	return 0;
}

void
count_worker_end(struct opts *o)
{
	struct count *c = o->count;

	if (c && c->dumps[0]) {
		prof_tmpdir_remove(c->dumps);
		c->dumps[0] = '\0';
	}
}

/*
 * --functions DIR: the first counted call's dump, functions only, kept as
 * DIR/WORKLOAD.BACKEND.callgrind and named in the sample's artifacts
 * relative to the folder of --output (the run folder), or by its full
 * path when it lies elsewhere. -1 with why filled.
 */
static int
keep_functions(struct opts *o, struct json_object *s, const char *dump,
	       char *why, size_t n)
{
	struct prof_callgrind_profile p = {0};
	struct prof_err err = {0};
	char path[PATH_MAX], real[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX];
	char buf[1024];
	const char *slash = strrchr(o->output, '/'), *name = path;
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
	if (realpath(path, real) && realpath(dir, rdir)) {
		len = strlen(rdir);
		name = strncmp(real, rdir, len) || real[len] != '/' ?
			       real : real + len + 1;
	}
	json_object_array_add(json_object_object_get(s, "artifacts"),
			      json_object_new_string(name));
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
void
count_fill(struct opts *o, struct json_object *s)
{
	struct count *c = o->count;
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

/* The sample of one counted run of a command, before its outcome. */
static struct json_object *
count_sample(struct opts *o, const char *fixture_sum, long index,
	     const struct prof_spawn_result *res)
{
	struct json_object *s, *metrics;

	s = command_base_sample(o, fixture_sum, index, o->count->version);
	metrics = json_object_new_object();
	json_object_object_add(
		metrics, "exit_status",
		json_object_new_int(res->exited ? res->exit_code : -1));
	json_object_object_add(s, "metrics", metrics);
	json_object_object_add(s, "instructions", NULL);
	json_object_object_add(s, "count_threshold_pct",
			       prof_json_double(o->threshold_pct));
	return s;
}

/*
 * The working directory as the command sees it: PWD names base/cwd, a
 * link to where we are. Shells take PWD when it names their directory,
 * and never call getcwd(), whose answer is as long as the real path: so
 * the count is the same from any folder. A program that calls getcwd()
 * itself still sees the real path.
 */
static int
link_cwd(struct count *c)
{
	char here[PATH_MAX];

	if (!getcwd(here, sizeof(here))) {
		cli_say("cannot read the working directory: %s",
			strerror(errno));
		return -1;
	}
	unlink(c->cwd);
	if (symlink(here, c->cwd) < 0) {
		cli_say("cannot link '%s': %s", c->cwd, strerror(errno));
		return -1;
	}
	snprintf(c->cwd_env, sizeof(c->cwd_env), "PWD=%s", c->cwd);
	return 0;
}

/*
 * A command counted: the whole process tree under callgrind
 * (--trace-children=yes), one dump per process at its exit and one before
 * each execve (a process that replaces itself keeps what it did before),
 * all summed. Fixed environment, fixed HOME, PWD as link_cwd() says, no
 * address-space randomization.
 */
int
count_command(struct opts *o)
{
	struct count *c = o->count;
	struct prof_afile af = {0};
	struct run r = {0};
	char fixture_sum[PROF_SUM_HEX];
	char *extra[MAX_ENV];
	struct prof_err err = {0};
	long total = (long)(o->warmup + o->repeat), i;
	int ok = 0, rc = PROF_EXIT_FAILURE, k, n_extra = 0;
	double *counts = calloc((size_t)o->repeat + 1, sizeof(*counts));
	size_t n_counts = 0;

	command_fixture_sum(o->argv, fixture_sum);
	r.o = o;
	if (!counts || link_cwd(c) < 0 || open_output(o, &af, &r.out) < 0)
		goto out;
	extra[n_extra++] = c->cwd_env;
	for (k = 0; k < o->n_env && n_extra < MAX_ENV - 8; k++)
		extra[n_extra++] = o->env[k];
	fixed_env(c, extra, n_extra);
	for (i = 0; i < total && !runner_interrupted; i++) {
		struct prof_spawn sp = {0};
		struct prof_spawn_result res;
		struct json_object *s;
		long index = i - (long)o->warmup;
		long long ir = 0;
		int files = 0, pids = 0, a = 0, j;
		char why[1400], buf[1024];

		if (fresh_home(c) < 0)
			goto out;
		if (prof_tmpdir_new("prof-count", c->dumps, sizeof(c->dumps),
				    &err) < 0) {
			cli_err(&err);
			goto out;
		}
		snprintf(c->out_opt, sizeof(c->out_opt),
			 "--callgrind-out-file=%s/callgrind.out.%%p", c->dumps);
		c->argv[a++] = c->valgrind;
		c->argv[a++] = "-q";
		c->argv[a++] = "--tool=callgrind";
		c->argv[a++] = "--trace-children=yes";
		c->argv[a++] = "--dump-before=execve";
		c->argv[a++] = c->out_opt;
		c->argv[a++] = c->program;
		for (j = 1; o->argv[j] && a < 62; j++)
			c->argv[a++] = o->argv[j];
		c->argv[a] = NULL;
		sp.argv = c->argv;
		sp.env_set = c->env;
		sp.env_clear = 1;
		sp.no_aslr = 1;
		sp.timeout_s = o->timeout_s;
		sp.stdout_fd = PROF_SPAWN_DEVNULL;
		sp.stderr_fd = -1;
		sp.cancel = &runner_interrupted;
		if (prof_spawn_run(&sp, &res, &err) < 0) {
			cli_err(&err);
			count_worker_end(o);
			goto out;
		}
		if (res.cancelled) {
			prof_spawn_free(&res);
			count_worker_end(o);
			break;	/* interrupted: no sample for this run */
		}
		if (res.exec_errno) {
			prof_spawn_describe(&res, c->valgrind, o->timeout_s, why,
					    sizeof(why));
			cli_say("%s", why);
			prof_spawn_free(&res);
			count_worker_end(o);
			goto out;
		}
		if (index < 0) {
			prof_spawn_free(&res);
			count_worker_end(o);
			continue;	/* warmup: no sample */
		}
		s = count_sample(o, fixture_sum, index, &res);
		command_outcome(o, &res, why, sizeof(why));
		if (!why[0] &&
		    prof_callgrind_sum(c->dumps, "callgrind.out.", &ir, &files,
				       &pids, &err) < 0)
			snprintf(why, sizeof(why), "callgrind: %s",
				 prof_err_str(&err, buf, sizeof(buf)));
		count_worker_end(o);
		if (why[0]) {
			prof_sample_fail(s, why, res.wall_ms);
		} else {
			struct json_object *m = json_object_object_get(s, "metrics");

			prof_sample_succeed(s, res.wall_ms, NULL, NULL);
			json_object_object_add(s, "instructions",
					       json_object_new_int64(ir));
			json_object_object_add(m, "processes",
					       json_object_new_int(pids));
			json_object_object_add(m, "callgrind_dumps",
					       json_object_new_int(files));
			counts[n_counts++] = (double)ir;
		}
		prof_spawn_free(&res);
		if (put_sample(&r, s, o->output) < 0)
			goto out;
	}
	if (runner_interrupted) {
		say_interrupted(o, &r);
		goto out;
	}
	ok = 1;
out:
	prof_lines_free(&r.out_lines);
	if (close_output(o, &af, r.out ? r.out : stdout, ok) < 0)
		ok = 0;
	if (ok) {
		struct prof_stats st;

		prof_stats_compute(counts, n_counts, &st);
		if (!o->quiet)
			cli_say("%s: median %.0f instructions (n=%zu), %ld "
				"error(s)",
				o->name, st.median, st.n, r.errors);
		rc = r.errors ? PROF_EXIT_ERRORED : PROF_EXIT_OK;
	}
	free(counts);
	return rc;
}
