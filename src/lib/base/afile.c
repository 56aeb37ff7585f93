/* afile.c: atomic file output, directory creation, and inputs opened to
 * be read (regular files only). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/grow.h"

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
	/* A closed pipe ends the tool as it always did, without a word. */
	if (hook && sig != SIGPIPE)
		hook(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

int
prof_afile_trap_signals(void (*on_signal)(int sig), struct prof_err *err)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trapped;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	signal_hook = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* A tool that ignores SIGPIPE (to see EPIPE) keeps doing so. */
		if (sigs[i] == SIGPIPE && sigaction(SIGPIPE, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return prof_err_set(err, "sigaction: %s",
					    strerror(errno));
	}
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

int
prof_afile_mkstemp(char *tmpl)
{
	sigset_t old;
	int fd;

	/* Registered at once, so a signal never misses it. */
	block_signals(&old);
	fd = mkstemp(tmpl);
	if (fd >= 0)
		tmp_register(tmpl);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd;
}

void
prof_afile_remove(const char *path)
{
	sigset_t old;

	block_signals(&old);
	unlink(path);
	tmp_forget(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * The files read so far, by device and inode. Filled by the main program
 * only, never read by a signal handler.
 */
struct input_id {
	dev_t dev;
	ino_t ino;
};
static struct input_id *inputs;
static size_t n_inputs, cap_inputs;
static int stdin_read;

void
prof_afile_note_input(int fd)
{
	struct stat st;
	size_t i;

	if (fd == STDIN_FILENO)
		stdin_read = 1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < n_inputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return;
	/* Out of memory: the -o checks of the tools still hold. */
	if (PROF_GROW(inputs, n_inputs + 1, cap_inputs) < 0)
		return;
	inputs[n_inputs].dev = st.st_dev;
	inputs[n_inputs].ino = st.st_ino;
	n_inputs++;
}

void
prof_afile_forget_input(const char *path)
{
	struct stat st;
	size_t i;

	if (stat(path, &st) != 0)
		return;
	for (i = 0; i < n_inputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			inputs[i] = inputs[--n_inputs];
}

/* Whether the regular file st is an input read so far, or stdin's file
 * when stdin was read. */
static int
is_input(const struct stat *st)
{
	struct stat in;
	size_t i;

	if (!S_ISREG(st->st_mode))
		return 0;
	for (i = 0; i < n_inputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return 1;
	return stdin_read && fstat(STDIN_FILENO, &in) == 0 &&
	       S_ISREG(in.st_mode) && in.st_dev == st->st_dev &&
	       in.st_ino == st->st_ino;
}

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* Whether the folder of path (a link) is one of /proc's: its links name
 * open files (/proc/self/fd/1), not paths. */
static int
in_proc(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct statfs sf;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return statfs(dir, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/*
 * Follow the symbolic links of path to the file they name: its path in
 * af->target (a relative link is read from the link's folder). A link of
 * /proc's (/dev/stdout -> /proc/self/fd/1) names an open file, not a path:
 * *magic is set and the target is path itself. Returns 0, or -1 with err.
 */
static int
resolve(struct prof_afile *af, const char *path, int *magic,
	struct prof_err *err)
{
	char link[4096], next[8192];
	struct stat st;
	int hops;

	*magic = 0;
	snprintf(af->target, sizeof(af->target), "%s", af->path);
	for (hops = 0; hops < 40; hops++) {
		const char *slash;
		ssize_t k;

		if (lstat(af->target, &st) != 0 || !S_ISLNK(st.st_mode))
			return 0;
		if (in_proc(af->target)) {
			*magic = 1;
			snprintf(af->target, sizeof(af->target), "%s", path);
			return 0;
		}
		k = readlink(af->target, link, sizeof(link) - 1);
		if (k < 0)
			return prof_err_at(err, path, 0, 0,
					   "cannot read the link: %s",
					   strerror(errno));
		link[k] = '\0';
		slash = strrchr(af->target, '/');
		if (link[0] == '/' || !slash)
			snprintf(next, sizeof(next), "%s", link);
		else
			snprintf(next, sizeof(next), "%.*s/%s",
				 (int)(slash - af->target), af->target, link);
		if (strlen(next) >= sizeof(af->target))
			return prof_err_at(err, path, 0, 0, "path too long");
		memcpy(af->target, next, strlen(next) + 1);
	}
	return prof_err_at(err, path, 0, 0, "too many symbolic links");
}

/* What a file of mode m is, in words. */
static const char *
file_kind(mode_t m)
{
	return S_ISREG(m)   ? "a regular file" :
	       S_ISFIFO(m)  ? "a FIFO" :
	       S_ISSOCK(m)  ? "a socket" :
	       S_ISCHR(m)   ? "a character device" :
	       S_ISBLK(m)   ? "a block device" :
	       S_ISDIR(m)   ? "a folder" :
	       S_ISLNK(m)   ? "a symbolic link" :
			      "not a regular file";
}

/*
 * 1 when path names an anonymous pipe (what a shell's <(command) and
 * /dev/stdin on a pipe give: /dev/fd/N, whose link reads "pipe:[...]"),
 * which a writer holds open; a FIFO made with mkfifo(1) has a name in a
 * folder instead, and may have no writer at all.
 */
static int
anonymous_pipe(const char *path)
{
	char link[64];
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return 0;
	link[n] = '\0';
	return !strncmp(link, "pipe:[", 6);
}

/* 1 for /dev/null (character device 1, 3 on Linux): it reads as empty. */
static int
dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       minor(st->st_rdev) == 3;
}

FILE *
prof_input_open(const char *path, int flags, long long max,
		struct prof_err *err)
{
	struct stat st;
	FILE *fp;
	int fd, fl;

	if ((flags & PROF_INPUT_STDIN) && !strcmp(path, "-")) {
		prof_afile_note_input(STDIN_FILENO);
		return stdin;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for its writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;

		prof_err_at(err, path, 0, 0, "cannot open: %s", strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;

		prof_err_at(err, path, 0, 0, "cannot open: %s", strerror(e));
		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) && !dev_null(&st) &&
	    !((flags & PROF_INPUT_STDIN) && S_ISFIFO(st.st_mode) &&
	      anonymous_pipe(path))) {
		prof_err_at(err, path, 0, 0, "%s, not a regular file (the tools "
			    "read regular files only)",
			    file_kind(st.st_mode));
		close(fd);
		errno = 0;
		return NULL;
	}
	if (max > 0 && (long long)st.st_size > max) {
		prof_err_at(err, path, 0, 0, "%lld bytes, more than the %lld "
			    "a reader of such a file takes",
			    (long long)st.st_size, max);
		close(fd);
		errno = 0;
		return NULL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	fp = fdopen(fd, "rb");
	if (!fp) {
		int e = errno;

		prof_err_at(err, path, 0, 0, "cannot open: %s", strerror(e));
		close(fd);
		errno = e;
		return NULL;
	}
	prof_afile_note_input(fd);
	return fp;
}

FILE *
prof_afile_open(struct prof_afile *af, const char *path, struct prof_err *err)
{
	const char *slash;
	struct stat st;
	int fd, magic;

	memset(af, 0, sizeof(*af));
	if (snprintf(af->path, sizeof(af->path), "%s", path) >=
	    (int)sizeof(af->path)) {
		prof_err_at(err, path, 0, 0, "path too long");
		return NULL;
	}
	if (resolve(af, path, &magic, err) < 0)
		return NULL;
	if (stat(af->target, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			prof_err_at(err, path, 0, 0, "is a directory");
			return NULL;
		}
		if (is_input(&st)) {
			prof_err_at(err, path, 0, 0,
				    "is an input; refusing to overwrite it");
			return NULL;
		}
	}
	/*
	 * What is not a regular file is written straight through: renaming
	 * over a device or a FIFO would replace it with a file. So is an
	 * open file named by /proc (/dev/stdout), appended to as the tool's
	 * own stream would be.
	 */
	if (magic || (stat(af->target, &st) == 0 && !S_ISREG(st.st_mode))) {
		af->fp = fopen(af->target, magic ? "a" : "w");
		if (!af->fp)
			prof_err_at(err, path, 0, 0, "cannot open: %s",
				    strerror(errno));
		af->direct = 1;
		return af->fp;
	}
	slash = strrchr(af->target, '/');
	if ((slash ? snprintf(af->tmp, sizeof(af->tmp), "%.*s/.%s.tmp.XXXXXX",
			      (int)(slash - af->target), af->target,
			      slash + 1) :
		     snprintf(af->tmp, sizeof(af->tmp), ".%s.tmp.XXXXXX",
			      af->target)) >= (int)sizeof(af->tmp)) {
		af->tmp[0] = '\0';
		prof_err_at(err, path, 0, 0, "path too long");
		return NULL;
	}
	fd = prof_afile_mkstemp(af->tmp);
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
		prof_afile_remove(af->tmp);
		af->tmp[0] = '\0';
		return NULL;
	}
	return af->fp;
}

int
prof_afile_commit(struct prof_afile *af, struct prof_err *err)
{
	struct stat st;
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

		prof_afile_remove(af->tmp);
		af->tmp[0] = '\0';
		return prof_err_at(err, af->path, 0, 0, "write failed: %s",
				   strerror(e));
	}
	/* An input read after the output was opened is never replaced. */
	if (stat(af->target, &st) == 0 && is_input(&st)) {
		prof_afile_remove(af->tmp);
		af->tmp[0] = '\0';
		return prof_err_at(err, af->path, 0, 0,
				   "is an input; refusing to overwrite it");
	}
	{
		sigset_t old;
		int e = 0;

		/* The rename and the registry agree, whatever signal comes. */
		block_signals(&old);
		if (rename(af->tmp, af->target) != 0) {
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
		prof_afile_remove(af->tmp);
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
	int got;

	if (!output || !input || !strcmp(output, "-"))
		return 0;
	if (stat(output, &a) != 0 || !S_ISREG(a.st_mode))
		return 0;
	got = strcmp(input, "-") ? stat(input, &b) : fstat(STDIN_FILENO, &b);
	return got == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
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

static const char *const RUN_MARKS[] = {
	"results.json", "samples.jsonl", "bisect.json", "steps.jsonl",
};

/* The first of RUN_MARKS that dir holds, or NULL. */
static const char *
run_mark(const char *dir)
{
	char p[PATH_MAX + 32];
	struct stat sb;
	size_t i;

	for (i = 0; i < sizeof(RUN_MARKS) / sizeof(RUN_MARKS[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, RUN_MARKS[i]);
		if (stat(p, &sb) == 0)
			return RUN_MARKS[i];
	}
	return NULL;
}

/* Whether the absolute path abs is the working folder here or a folder
 * above it ("/" always is). */
static int
holds_here(const char *abs, const char *here)
{
	size_t k = strlen(abs);

	if (!strcmp(abs, "/"))
		return 1;
	return !strncmp(here, abs, k) && (here[k] == '\0' || here[k] == '/');
}

/* The folder above an absolute path (of "/x": "/"). */
static void
up(char *abs)
{
	char *sl = strrchr(abs, '/');

	if (sl == abs)
		sl[1] = '\0';
	else if (sl)
		*sl = '\0';
}

int
prof_in_run(const char *dir, char *run, size_t n, const char **mark)
{
	char abs[PATH_MAX], p[PATH_MAX], here[PATH_MAX], *sl;
	struct stat sb;
	int exists = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);

	if (exists && (*mark = run_mark(dir)))
		return 1;
	/* The folders above it: from the nearest that exists. */
	snprintf(p, sizeof(p), "%s", dir);
	while (!realpath(p, abs)) {
		sl = strrchr(p, '/');
		if (sl == p) {
			snprintf(abs, sizeof(abs), "/");
			break;
		}
		if (!sl) {
			if (!realpath(".", abs))
				return -1;
			break;
		}
		*sl = '\0';
	}
	/* abs: the folder, or the nearest above it that exists; up from
	 * the folder's parent, or from that one. */
	if (exists && strcmp(abs, "/"))
		up(abs);
	/* The working folder and those above it are never runs (afile.h). */
	if (!realpath(".", here))
		return -1;
	for (;;) {
		if (!holds_here(abs, here) && (*mark = run_mark(abs))) {
			snprintf(run, n, "%s", abs);
			return 2;
		}
		if (!strcmp(abs, "/"))
			return 0;
		up(abs);
	}
}
