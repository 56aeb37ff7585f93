/* afile.c: atomic file output and directory creation. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "afile.h"

/*
 * The registry of temporary files. A slot is filled (path first, then the
 * flag) and emptied (flag first) by the main program only; the handler
 * reads flags and paths. A program writes a handful of outputs at a time;
 * a file beyond the slots is still written, just not cleaned on a signal.
 */
#define TMP_SLOTS 16
static char tmp_path[TMP_SLOTS][4096];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];
static volatile sig_atomic_t n_committed;
static void (*volatile signal_hook)(int);

static void
tmp_register(const char *path)
{
	int i;

	for (i = 0; i < TMP_SLOTS; i++) {
		if (tmp_used[i])
			continue;
		snprintf(tmp_path[i], sizeof(tmp_path[i]), "%s", path);
		tmp_used[i] = 1;
		return;
	}
}

static void
tmp_forget(const char *path)
{
	int i;

	for (i = 0; i < TMP_SLOTS; i++)
		if (tmp_used[i] && !strcmp(tmp_path[i], path)) {
			tmp_used[i] = 0;
			return;
		}
}

void
prof_afile_unlink_all(void)
{
	int i, e = errno;

	for (i = 0; i < TMP_SLOTS; i++)
		if (tmp_used[i]) {
			unlink(tmp_path[i]);
			tmp_used[i] = 0;
		}
	errno = e;
}

int
prof_afile_committed(void)
{
	return (int)n_committed;
}

static void
on_trapped(int sig)
{
	void (*hook)(int) = signal_hook;

	prof_afile_unlink_all();
	if (hook)
		hook(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

int
prof_afile_trap_signals(void (*on_signal)(int sig), struct prof_err *err)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trapped;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	signal_hook = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return prof_err_set(err, "sigaction: %s",
					    strerror(errno));
	return 0;
}

/* Block the trapped signals (around a rename), or restore the mask. */
static void
block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

FILE *
prof_afile_open(struct prof_afile *af, const char *path, struct prof_err *err)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	memset(af, 0, sizeof(*af));
	if (snprintf(af->path, sizeof(af->path), "%s", path) >=
	    (int)sizeof(af->path)) {
		prof_err_at(err, path, 0, 0, "path too long");
		return NULL;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			prof_err_at(err, path, 0, 0, "is a directory");
			return NULL;
		}
		af->fp = fopen(path, "w");
		if (!af->fp)
			prof_err_at(err, path, 0, 0, "cannot open: %s",
				    strerror(errno));
		af->direct = 1;
		return af->fp;
	}
	if (slash)
		snprintf(af->tmp, sizeof(af->tmp), "%.*s/.%s.tmp.XXXXXX",
			 (int)(slash - path), path, slash + 1);
	else
		snprintf(af->tmp, sizeof(af->tmp), ".%s.tmp.XXXXXX", path);
	{
		sigset_t old;

		/* Registered at once, so a signal never misses it. */
		block_signals(&old);
		fd = mkstemp(af->tmp);
		if (fd >= 0)
			tmp_register(af->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (fd < 0) {
		prof_err_at(err, path, 0, 0, "cannot create a file beside it: %s",
			    strerror(errno));
		af->tmp[0] = '\0';
		return NULL;
	}
	/* mkstemp makes 0600; outputs are ordinary files. */
	fchmod(fd, 0644);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		prof_err_at(err, path, 0, 0, "%s", strerror(errno));
		close(fd);
		unlink(af->tmp);
		tmp_forget(af->tmp);
		af->tmp[0] = '\0';
		return NULL;
	}
	return af->fp;
}

int
prof_afile_commit(struct prof_afile *af, struct prof_err *err)
{
	int failed;

	if (!af->fp)
		return prof_err_at(err, af->path, 0, 0, "not open");
	if (af->direct) {
		failed = fflush(af->fp) != 0 || ferror(af->fp);
		if (fclose(af->fp) != 0)
			failed = 1;
		af->fp = NULL;
		if (failed)
			return prof_err_at(err, af->path, 0, 0,
					   "write failed: %s", strerror(errno));
		return 0;
	}
	failed = fflush(af->fp) != 0 || ferror(af->fp);
	if (!failed)
		failed = fsync(fileno(af->fp)) != 0 && errno != EINVAL;
	if (fclose(af->fp) != 0)
		failed = 1;
	af->fp = NULL;
	if (failed) {
		int e = errno;

		unlink(af->tmp);
		tmp_forget(af->tmp);
		af->tmp[0] = '\0';
		return prof_err_at(err, af->path, 0, 0, "write failed: %s",
				   strerror(e));
	}
	{
		sigset_t old;
		int e = 0;

		/* The rename and the registry agree, whatever signal comes. */
		block_signals(&old);
		if (rename(af->tmp, af->path) != 0) {
			e = errno;
			unlink(af->tmp);
		} else {
			n_committed++;
		}
		tmp_forget(af->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
		af->tmp[0] = '\0';
		if (e)
			return prof_err_at(err, af->path, 0, 0,
					   "cannot rename into place: %s",
					   strerror(e));
	}
	return 0;
}

void
prof_afile_abort(struct prof_afile *af)
{
	if (af->fp) {
		fclose(af->fp);
		af->fp = NULL;
	}
	if (af->tmp[0]) {
		unlink(af->tmp);
		tmp_forget(af->tmp);
		af->tmp[0] = '\0';
	}
}

int
prof_afile_write(const char *path, const void *data, size_t len,
		 struct prof_err *err)
{
	struct prof_afile af;
	FILE *fp = prof_afile_open(&af, path, err);

	if (!fp)
		return -1;
	if (len && fwrite(data, 1, len, fp) != len) {
		int e = errno;

		prof_afile_abort(&af);
		return prof_err_at(err, path, 0, 0, "write failed: %s",
				   strerror(e));
	}
	return prof_afile_commit(&af, err);
}

int
prof_same_file(const char *output, const char *input)
{
	struct stat a, b;

	if (!output || !input || !strcmp(output, "-") || !strcmp(input, "-"))
		return 0;
	if (stat(output, &a) != 0 || stat(input, &b) != 0)
		return 0;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int
prof_mkdirs(const char *path, struct prof_err *err)
{
	char buf[4096];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof(buf))
		return prof_err_at(err, path, 0, 0, "bad directory name");
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return prof_err_at(err, buf, 0, 0, "cannot create directory: %s",
					   strerror(errno));
		if (i < n)
			buf[i] = '/';
	}
	return 0;
}
