/* spawn.c: child processes with a timeout, stdout lines and stderr kept. */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/spawn.h"

extern char **environ;

double
prof_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* environ with env_set applied and env_unset removed; malloc'd array. */
static char **
make_env(const struct prof_spawn *sp)
{
	size_t n = 0, k = 0, i, j;
	char **out;

	while (!sp->env_clear && environ[n])
		n++;
	for (i = 0; sp->env_set && sp->env_set[i]; i++)
		n++;
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; !sp->env_clear && environ[i]; i++) {
		size_t len = strcspn(environ[i], "=");
		int drop = 0;

		for (j = 0; sp->env_unset && sp->env_unset[j]; j++)
			if (strlen(sp->env_unset[j]) == len &&
			    !strncmp(environ[i], sp->env_unset[j], len))
				drop = 1;
		for (j = 0; sp->env_set && sp->env_set[j]; j++)
			if (!strncmp(environ[i], sp->env_set[j], len + 1))
				drop = 1;
		if (!drop)
			out[k++] = environ[i];
	}
	for (i = 0; sp->env_set && sp->env_set[i]; i++)
		out[k++] = sp->env_set[i];
	out[k] = NULL;
	return out;
}

/* Hand complete lines to on_line; returns its non-zero answer. */
static int
lb_lines(struct prof_buf *b, const struct prof_spawn *sp)
{
	size_t start = 0;
	int rc = 0;

	while (!rc) {
		char *nl = memchr(b->p + start, '\n', b->len - start);

		if (!nl)
			break;
		*nl = '\0';
		rc = sp->on_line(sp->arg, b->p + start,
				 (size_t)(nl - (b->p + start)), 1);
		start = (size_t)(nl - b->p) + 1;
	}
	memmove(b->p, b->p + start, b->len - start);
	b->len -= start;
	if (b->p)
		b->p[b->len] = '\0';
	return rc;
}

/* Keep the last `keep` bytes of stderr. */
static void
tail_append(struct prof_buf *t, const char *p, size_t n, size_t keep)
{
	if (prof_buf_put(t, p, n) < 0)
		return;
	if (t->len > keep * 2) {
		memmove(t->p, t->p + t->len - keep, keep);
		t->len = keep;
		t->p[t->len] = '\0';
	}
}

/* The child's two pipes while it runs, and what came through them. */
struct io {
	const struct prof_spawn *sp;
	int out, err;		/* read ends, -1 when not piped */
	int out_open, err_open;
	struct prof_buf lines, tail;
	size_t keep;
};

/*
 * Read what fd has: stdout lines go to on_line (or nowhere, when discard),
 * stderr to the kept tail; end of file closes that side. Returns non-zero
 * when on_line asked to stop.
 */
static int
read_ready(struct io *io, int fd, int discard)
{
	char buf[65536];
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got < 0 && errno == EINTR)
		return 0;
	if (fd == io->out) {
		if (got <= 0)
			io->out_open = 0;
		else if (!discard && io->sp->on_data)
			return io->sp->on_data(io->sp->arg, buf, (size_t)got);
		else if (!discard &&
			 (prof_buf_put(&io->lines, buf, (size_t)got) < 0 ||
			  lb_lines(&io->lines, io->sp)))
			return 1;
	} else if (got <= 0) {
		io->err_open = 0;
	} else {
		tail_append(&io->tail, buf, (size_t)got, io->keep);
	}
	return 0;
}

/* The spawn attributes: a new process group, stdin from /dev/null, the
 * signals a parent may have changed back to their defaults. */
static int
spawn_setup(const struct prof_spawn *sp, posix_spawn_file_actions_t *fa,
	    posix_spawnattr_t *at, int out_w, int err_w)
{
	sigset_t def, none;

	if (posix_spawn_file_actions_init(fa) || posix_spawnattr_init(at))
		return -1;
	posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (sp->stdout_fd == PROF_SPAWN_PIPE)
		posix_spawn_file_actions_adddup2(fa, out_w, 1);
	else if (sp->stdout_fd == PROF_SPAWN_DEVNULL)
		posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	else if (sp->stdout_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, sp->stdout_fd, 1);
	if (sp->stderr_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, sp->stderr_fd, 2);
	else
		posix_spawn_file_actions_adddup2(fa, err_w, 2);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGCHLD);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(at, &def);
	posix_spawnattr_setsigmask(at, &none);
	posix_spawnattr_setpgroup(at, 0);
	return posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP |
						    POSIX_SPAWN_SETSIGDEF |
						    POSIX_SPAWN_SETSIGMASK);
}

/* Whether any process of group pgid is still there (zombies count). */
static int
group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* Children of this process, by pid. */
#define MAX_KIDS 256
struct kids {
	int n;
	pid_t pid[MAX_KIDS];
};

/*
 * This process's children now, zombies included: each thread's
 * /proc/self/task/TID/children, or where the kernel has no such files, a
 * scan of /proc for the processes whose parent we are.
 */
static void
children_of_self(struct kids *k)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long self = (long)getpid(), p;
	int found = 0;

	k->n = 0;
	while (d && (e = readdir(d))) {
		char path[300];
		FILE *fp;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children",
			 e->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		found = 1;
		while (k->n < MAX_KIDS && fscanf(fp, "%ld", &p) == 1)
			k->pid[k->n++] = (pid_t)p;
		fclose(fp);
	}
	if (d)
		closedir(d);
	if (found)
		return;
	d = opendir("/proc");
	while (d && (e = readdir(d)) && k->n < MAX_KIDS) {
		char path[300], buf[512], *rp;
		FILE *fp;
		long ppid = 0;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (fgets(buf, sizeof(buf), fp) && (rp = strrchr(buf, ')')) &&
		    sscanf(rp + 1, " %*c %ld", &ppid) == 1 && ppid == self)
			k->pid[k->n++] = (pid_t)atol(e->d_name);
		fclose(fp);
	}
	if (d)
		closedir(d);
}

static int
in_kids(const struct kids *k, pid_t p)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (k->pid[i] == p)
			return 1;
	return 0;
}

/*
 * The stray-process policy: when the command's own process has been
 * reaped, every descendant still there is killed and reaped: its process
 * group, and those that left it with setsid() (this process is their
 * subreaper, so they come back to it as children when their parent dies).
 * Children this process had before the spawn (before) are not the
 * command's and are left alone. Returns how many strays were reaped that
 * were still running: those that our SIGKILL ended. A zombie (a process
 * that had exited, never reaped by its parent) is reaped, not counted.
 */
static int
sweep_strays(pid_t pgid, const struct kids *before)
{
	struct timespec ms = {0, 1000000};
	int strays = 0, round;

	for (round = 0; round < 2000; round++) {
		struct kids now;
		int i, st, reaped = 0, left = 0;

		kill(-pgid, SIGKILL);
		children_of_self(&now);
		for (i = 0; i < now.n; i++) {
			if (in_kids(before, now.pid[i]))
				continue;
			kill(now.pid[i], SIGKILL);
			if (waitpid(now.pid[i], &st, WNOHANG) != now.pid[i]) {
				left++;
				continue;
			}
			reaped++;
			if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
				strays++;
		}
		if (reaped)
			continue;
		if (!left && !group_alive(pgid))
			break;
		nanosleep(&ms, NULL);
	}
	return strays;
}

/* Whether the child pid has exited, left unreaped (WNOWAIT); with block,
 * once it has. */
static int
has_exited(pid_t pid, int block)
{
	siginfo_t si;
	int rc;

	for (;;) {
		memset(&si, 0, sizeof(si));
		rc = waitid(P_PID, (id_t)pid, &si,
			    WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
		if (rc < 0 && errno == EINTR)
			continue;
		return rc == 0 && si.si_pid == pid;
	}
}


int
prof_path_search(const char *name, int (*ok)(const char *path), char *out,
		 size_t n)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", name);
		if (ok ? ok(out) == 0 : access(out, X_OK) == 0)
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return -1;
}

/* Where prof_spawn_line() keeps its line. */
struct spawn_line {
	char *out;
	size_t n;
	int last;
};

static int
keep_line(void *arg, char *line, size_t len, int complete)
{
	struct spawn_line *l = arg;

	(void)complete;
	if (l->last || !l->out[0])
		snprintf(l->out, l->n, "%.*s", (int)len, line);
	return 0;
}

int
prof_spawn_read(char *const *argv, double timeout_s,
		int (*on_line)(void *arg, char *line, size_t len, int complete),
		void *arg, struct prof_spawn_result *res, struct prof_err *err)
{
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = timeout_s,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = on_line,
		.arg = arg,
		.stderr_fd = -1,
	};

	return prof_spawn_run(&sp, res, err);
}

int
prof_spawn_line(char *const *argv, int last, char *out, size_t n)
{
	struct spawn_line l = {out, n, last};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int ok;

	out[0] = '\0';
	if (prof_spawn_read(argv, 30, keep_line, &l, &res, &err) < 0)
		return -1;
	ok = prof_spawn_ok(&res) && out[0];
	prof_spawn_free(&res);
	if (!ok)
		out[0] = '\0';
	return ok ? 0 : -1;
}

/* Reap the exited child pid, sp->exited told first. */
static void
reap(const struct prof_spawn *sp, pid_t pid, int *status, struct rusage *ru)
{
	if (sp->exited)
		sp->exited(sp->exited_arg, (int)pid);
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
}

/* The command's process while it is watched. */
struct child {
	pid_t pid;
	int pidfd;		/* -1 where the kernel has no pidfd_open */
	double t0, t1, deadline;	/* deadline 0: none */
	int status, alive, stop;
};

/* Spawn the command, its personality without address randomization where
 * asked. Returns posix_spawnp's error (0: it runs; c->t0 its start). */
static int
spawn_start(const struct prof_spawn *sp, posix_spawn_file_actions_t *fa,
	    posix_spawnattr_t *at, char **envp, struct child *c)
{
	int e, pers = -1;

	/* The child inherits the personality at its exec; ours is set for
	 * that moment only (our own address space is laid out already). */
	if (sp->no_aslr) {
		pers = personality(0xffffffff);
		if (pers != -1)
			personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
	}
	c->t0 = prof_now_ms();
	e = posix_spawnp(&c->pid, sp->argv[0], fa, at, sp->argv, envp);
	if (sp->no_aslr && pers != -1)
		personality((unsigned long)pers);
	return e;
}

/*
 * Until the command's own process is reaped: its output is read as it
 * comes, and the clock stops at the reaping, not at end of file (a
 * background child may hold the pipes long after). Leaves c->alive set
 * where it timed out, was cancelled or was stopped by the caller.
 */
static void
watch(const struct prof_spawn *sp, struct io *io, struct child *c,
      struct prof_spawn_result *res)
{
	while (c->alive) {
		struct pollfd pf[3];
		int nf = 0, wait_ms = -1, i;

		if (sp->cancel && *sp->cancel) {
			res->cancelled = 1;
			break;
		}
		if (c->deadline) {
			double left = c->deadline - prof_now_ms();

			if (left <= 0) {
				res->timed_out = 1;
				break;
			}
			wait_ms = (int)left + 1;
		}
		if (c->pidfd < 0 && (wait_ms < 0 || wait_ms > 1))
			wait_ms = 1; /* no pidfd: look for the exit each ms */
		if (c->pidfd >= 0)
			pf[nf++] = (struct pollfd){c->pidfd, POLLIN, 0};
		if (io->out_open)
			pf[nf++] = (struct pollfd){io->out, POLLIN, 0};
		if (io->err_open)
			pf[nf++] = (struct pollfd){io->err, POLLIN, 0};
		if (poll(pf, (nfds_t)nf, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < nf && !c->stop; i++)
			if (pf[i].revents && pf[i].fd != c->pidfd)
				c->stop = read_ready(io, pf[i].fd, 0);
		if (c->stop)
			break;
		if ((c->pidfd < 0 || pf[0].revents) && has_exited(c->pid, 0)) {
			c->t1 = prof_now_ms();
			reap(sp, c->pid, &c->status, &res->ru);
			c->alive = 0;
		}
	}
}

/* Every writer is gone: what is left in the pipes is read to the end
 * (bounded, in case a process outside the tree holds one). */
static void
drain(struct io *io, struct child *c, const struct prof_spawn_result *res)
{
	while ((io->out_open || io->err_open) && !c->stop) {
		struct pollfd pf[2];
		int nf = 0, i;

		if (io->out_open)
			pf[nf++] = (struct pollfd){io->out, POLLIN, 0};
		if (io->err_open)
			pf[nf++] = (struct pollfd){io->err, POLLIN, 0};
		if (poll(pf, (nfds_t)nf, 2000) <= 0)
			break;
		for (i = 0; i < nf && !c->stop; i++)
			if (pf[i].revents)
				c->stop = read_ready(io, pf[i].fd,
						     res->timed_out ||
						     res->cancelled);
	}
}

/* The command watched to its end (killed, its group with it, where it
 * is still alive), its output drained and its status in res. */
static void
finish(const struct prof_spawn *sp, struct io *io, struct child *c,
       const struct kids *before, struct prof_spawn_result *res)
{
	watch(sp, io, c, res);
	if (c->alive) {
		/* Timed out, cancelled or stopped by the caller. */
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		has_exited(c->pid, 1);
		c->t1 = prof_now_ms();
		reap(sp, c->pid, &c->status, &res->ru);
		res->stopped_by_caller = c->stop;
	}
	res->wall_ms = c->t1 - c->t0;
	res->strays = sweep_strays(c->pid, before);
	drain(io, c, res);
	if (!res->timed_out && !res->cancelled && !c->stop && io->lines.len &&
	    sp->on_line)
		sp->on_line(sp->arg, io->lines.p, io->lines.len, 0);
	if (WIFEXITED(c->status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(c->status);
	} else if (WIFSIGNALED(c->status)) {
		res->signaled = 1;
		res->signo = WTERMSIG(c->status);
	}
	res->stderr_tail = io->tail.p ? io->tail.p : strdup("");
	io->tail.p = NULL;
}

int
prof_spawn_run(const struct prof_spawn *sp, struct prof_spawn_result *res,
	       struct prof_err *err)
{
	int out_p[2] = {-1, -1}, err_p[2] = {-1, -1};
	char **envp = NULL;
	struct io io = {.sp = sp, .out = -1, .err = -1};
	struct child c = {.pidfd = -1, .alive = 1};
	struct kids before;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc = -1, e, set_up = 0;

	memset(res, 0, sizeof(*res));
	io.keep = sp->stderr_keep ? sp->stderr_keep : 16384;
	envp = make_env(sp);
	if (!envp)
		return prof_err_set(err, "out of memory");
	if ((sp->stdout_fd == PROF_SPAWN_PIPE && pipe2(out_p, O_CLOEXEC) < 0) ||
	    (sp->stderr_fd < 0 && pipe2(err_p, O_CLOEXEC) < 0)) {
		prof_err_set(err, "cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	if (spawn_setup(sp, &fa, &at, out_p[1], err_p[1]) != 0) {
		prof_err_set(err, "cannot set up a process: %s", strerror(errno));
		goto out;
	}
	set_up = 1;
	/* Descendants that leave the command's group still come back here
	 * when their parent dies, so that none outlives the run. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	children_of_self(&before);
	e = spawn_start(sp, &fa, &at, envp, &c);
	if (e) {
		res->wall_ms = prof_now_ms() - c.t0;
		res->exec_errno = e;
		res->exited = 1;
		res->exit_code = 127;
		res->stderr_tail = strdup("");
		rc = 0;
		goto out;
	}
	res->pid = (int)c.pid;
	c.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
	if (out_p[1] >= 0)
		close(out_p[1]);
	if (err_p[1] >= 0)
		close(err_p[1]);
	out_p[1] = err_p[1] = -1;
	c.deadline = sp->timeout_s > 0 ? c.t0 + sp->timeout_s * 1e3 : 0;
	io.out = out_p[0];
	io.err = err_p[0];
	io.out_open = io.out >= 0;
	io.err_open = io.err >= 0;
	finish(sp, &io, &c, &before, res);
	rc = 0;
out:
	if (set_up) {
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&at);
	}
	if (c.pidfd >= 0)
		close(c.pidfd);
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0)
			close(out_p[i]);
		if (err_p[i] >= 0)
			close(err_p[i]);
	}
	free(io.lines.p);
	free(io.tail.p);
	free(envp);
	return rc;
}

void
prof_spawn_free(struct prof_spawn_result *res)
{
	free(res->stderr_tail);
	res->stderr_tail = NULL;
}

int
prof_spawn_ok(const struct prof_spawn_result *res)
{
	return !res->exec_errno && !res->timed_out && res->exited &&
	       res->exit_code == 0;
}

void
prof_last_line(const char *text, char *buf, size_t n)
{
	const char *end, *start;

	buf[0] = '\0';
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' ||
			      end[-1] == ' ' || end[-1] == '\t'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, n, "%.*s", (int)(end - start), start);
}

void
prof_spawn_describe(const struct prof_spawn_result *res, const char *program,
		    double timeout_s, char *buf, size_t n)
{
	char last[512];
	size_t off;

	if (res->exec_errno)
		snprintf(buf, n, "cannot run '%s': %s", program,
			 strerror(res->exec_errno));
	else if (res->timed_out)
		snprintf(buf, n, "timed out after %g s", timeout_s);
	else if (res->signaled) {
		const char *abbrev = sigabbrev_np(res->signo);

		snprintf(buf, n, "killed by signal %d (SIG%s: %s)", res->signo,
			 abbrev ? abbrev : "?", strsignal(res->signo));
	} else if (res->exited && res->exit_code)
		snprintf(buf, n, "exited with status %d", res->exit_code);
	else
		snprintf(buf, n, "exited normally");
	prof_last_line(res->stderr_tail, last, sizeof(last));
	off = strlen(buf);
	if (last[0] && off < n)
		snprintf(buf + off, n - off, ": %s", last);
}

int
prof_tmpdir_new(const char *prefix, char *out, size_t n, struct prof_err *err)
{
	const char *base = getenv("TMPDIR");

	if (!base || !base[0])
		base = "/tmp";
	if (snprintf(out, n, "%s/%s.XXXXXX", base, prefix) >= (int)n)
		return prof_err_set(err, "temporary path too long");
	if (!mkdtemp(out))
		return prof_err_set(err, "cannot create a directory in '%s': %s",
				    base, strerror(errno));
	return 0;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

int
prof_tmpdir_remove(const char *path)
{
	if (!path || !path[0])
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
