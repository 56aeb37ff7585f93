/* spawn.c: child processes with a timeout, stdout lines and stderr kept. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"

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

	while (environ[n])
		n++;
	for (i = 0; sp->env_set && sp->env_set[i]; i++)
		n++;
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; environ[i]; i++) {
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

struct linebuf {
	char *s;
	size_t len, cap;
};

static int
lb_append(struct linebuf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 4096;
		char *q;

		while (ncap < b->len + n + 1)
			ncap *= 2;
		q = realloc(b->s, ncap);
		if (!q)
			return -1;
		b->s = q;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* Hand complete lines to on_line; returns its non-zero answer. */
static int
lb_lines(struct linebuf *b, const struct prof_spawn *sp)
{
	size_t start = 0;
	int rc = 0;

	while (!rc) {
		char *nl = memchr(b->s + start, '\n', b->len - start);

		if (!nl)
			break;
		*nl = '\0';
		rc = sp->on_line(sp->arg, b->s + start,
				 (size_t)(nl - (b->s + start)), 1);
		start = (size_t)(nl - b->s) + 1;
	}
	memmove(b->s, b->s + start, b->len - start);
	b->len -= start;
	if (b->s)
		b->s[b->len] = '\0';
	return rc;
}

/* Keep the last `keep` bytes of stderr. */
static void
tail_append(struct linebuf *t, const char *p, size_t n, size_t keep)
{
	if (lb_append(t, p, n) < 0)
		return;
	if (t->len > keep * 2) {
		memmove(t->s, t->s + t->len - keep, keep);
		t->len = keep;
		t->s[t->len] = '\0';
	}
}

static void
child(const struct prof_spawn *sp, char **envp, int out_w, int err_w,
      int exec_w)
{
	int e, devnull;

	setpgid(0, 0);
	/* Restore what a parent may have changed. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0)
		dup2(devnull, 0);
	if (sp->stdout_fd == PROF_SPAWN_PIPE)
		dup2(out_w, 1);
	else if (sp->stdout_fd == PROF_SPAWN_DEVNULL && devnull >= 0)
		dup2(devnull, 1);
	else if (sp->stdout_fd >= 0)
		dup2(sp->stdout_fd, 1);
	if (sp->stderr_fd >= 0)
		dup2(sp->stderr_fd, 2);
	else
		dup2(err_w, 2);
	execvpe(sp->argv[0], sp->argv, envp);
	e = errno;
	if (write(exec_w, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int
prof_spawn_run(const struct prof_spawn *sp, struct prof_spawn_result *res,
	       struct prof_err *err)
{
	int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, exec_p[2] = {-1, -1};
	char **envp = NULL;
	struct linebuf lines = {0}, tail = {0};
	size_t keep = sp->stderr_keep ? sp->stderr_keep : 16384;
	double t0, deadline;
	pid_t pid;
	int status = 0, rc = -1, stop = 0, n_exec, e;
	int out_open, err_open;

	memset(res, 0, sizeof(*res));
	envp = make_env(sp);
	if (!envp)
		return prof_err_set(err, "out of memory");
	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(exec_p, O_CLOEXEC) < 0) {
		prof_err_set(err, "cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	t0 = prof_now_ms();
	pid = fork();
	if (pid < 0) {
		prof_err_set(err, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(sp, envp, out_p[1], err_p[1], exec_p[1]);
	setpgid(pid, pid);
	res->pid = (int)pid;
	close(out_p[1]);
	close(err_p[1]);
	close(exec_p[1]);
	out_p[1] = err_p[1] = exec_p[1] = -1;
	deadline = sp->timeout_s > 0 ? t0 + sp->timeout_s * 1e3 : 0;
	out_open = sp->stdout_fd == PROF_SPAWN_PIPE;
	if (!out_open) {
		close(out_p[0]);
		out_p[0] = -1;
	}
	err_open = 1;
	while (out_open || err_open) {
		struct pollfd pf[2];
		int nf = 0, wait_ms = -1, i;
		char buf[65536];

		if (deadline) {
			double left = deadline - prof_now_ms();

			if (left <= 0) {
				res->timed_out = 1;
				break;
			}
			wait_ms = (int)left + 1;
		}
		if (out_open)
			pf[nf++] = (struct pollfd){out_p[0], POLLIN, 0};
		if (err_open)
			pf[nf++] = (struct pollfd){err_p[0], POLLIN, 0};
		if (sp->cancel && *sp->cancel) {
			res->timed_out = 1;
			break;
		}
		if (poll(pf, (nfds_t)nf, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < nf; i++) {
			ssize_t got;

			if (!pf[i].revents)
				continue;
			got = read(pf[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (pf[i].fd == out_p[0]) {
				if (got <= 0) {
					out_open = 0;
				} else if (lb_append(&lines, buf, (size_t)got) < 0 ||
					   lb_lines(&lines, sp)) {
					stop = 1;
				}
			} else {
				if (got <= 0)
					err_open = 0;
				else
					tail_append(&tail, buf, (size_t)got, keep);
			}
		}
		if (stop)
			break;
	}
	if (res->timed_out || stop) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		res->stopped_by_caller = stop;
	} else if (lines.len && sp->on_line) {
		sp->on_line(sp->arg, lines.s, lines.len, 0);
	}
	while (wait4(pid, &status, 0, &res->ru) < 0 && errno == EINTR)
		;
	res->wall_ms = prof_now_ms() - t0;
	/* Whatever the group left behind goes too. */
	kill(-pid, SIGKILL);
	n_exec = (int)read(exec_p[0], &e, sizeof(e));
	if (n_exec == (int)sizeof(e))
		res->exec_errno = e;
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signaled = 1;
		res->signo = WTERMSIG(status);
	}
	res->stderr_tail = tail.s ? tail.s : strdup("");
	tail.s = NULL;
	rc = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0)
			close(out_p[i]);
		if (err_p[i] >= 0)
			close(err_p[i]);
		if (exec_p[i] >= 0)
			close(exec_p[i]);
	}
	free(lines.s);
	free(tail.s);
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
