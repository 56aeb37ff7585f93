/* alloc.c: libprof-alloc.so, an LD_PRELOAD allocation interposer that
 * tracks live heap bytes, their peak and the number of allocations.
 *
 * It wraps malloc, calloc, realloc, free, memalign, aligned_alloc,
 * posix_memalign, valloc and pvalloc, and calls glibc's own __libc_*
 * functions underneath (no dlsym, so no recursion at start-up). Sizes are
 * the usable size of each block (malloc_usable_size), which includes
 * glibc's rounding: a 1 MiB block counts as 1 MiB plus a few bytes. Live
 * bytes are one atomic counter; the peak follows it by a compare-and-swap
 * loop, so threads are counted together.
 *
 * The harness finds prof_alloc_reset(), prof_alloc_read() and
 * prof_alloc_bytes() with dlsym: reset after prepare(), read after the
 * call. With PROF_ALLOC_LOG naming a folder, every process that loads it
 * keeps its heap record there (heaprec.h): a file mapped shared that holds
 * the counters themselves, made at its start, marked at its exit (also at
 * _exit(), which dash uses and which skips destructors). So a process
 * killed by a signal leaves its numbers as they were at its end, and
 * nothing needs a file descriptor at exit. A forked child counts from the
 * fork on in a record of its own: what its parent did is the parent's,
 * and the heap it inherited is not in its peak. (A vfork() child shares
 * its parent's memory, and so its counters and record.)
 *
 * The exec functions (and posix_spawn, system, popen) are wrapped to say
 * in the record what the interposer cannot count: a process about to run
 * exec marks its record with the program, which that program's own
 * record replaces when the loader preloads the interposer into it (the
 * same file: the same pid and start time), and which stays when it does
 * not (a static or setuid program, or an environment without LD_PRELOAD
 * or PROF_ALLOC_LOG, as env -i makes); a program started in a new process
 * with such an environment is counted in the starter's record.
 *
 * Everything that runs at exit, at a fork or around an exec uses a few
 * hundred bytes of stack and no stdio: a thread with the smallest stack
 * (PTHREAD_STACK_MIN) may call exit().
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/model/heaprec.h"

extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);
extern char **environ;

#define EXPORT __attribute__((visibility("default")))

/* The counters: this process's record's once it has one (C then points
 * into the mapping), until then and without a folder these. */
static struct prof_heaprec_counts own;
static struct prof_heaprec_counts *C = &own;
static struct prof_heaprec *R;		/* the record, or NULL */
static char dir[PATH_MAX];		/* $PROF_ALLOC_LOG at the start */
static char name[PATH_MAX + 64];	/* a record's path, while made */

static inline void
added(void *p)
{
	struct prof_heaprec_counts *c = C;
	long long now, top, size;

	if (!p)
		return;
	size = (long long)malloc_usable_size(p);
	now = __atomic_add_fetch(&c->live, size, __ATOMIC_RELAXED);
	__atomic_add_fetch(&c->allocs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&c->bytes, size, __ATOMIC_RELAXED);
	top = __atomic_load_n(&c->peak, __ATOMIC_RELAXED);
	while (now > top &&
	       !__atomic_compare_exchange_n(&c->peak, &top, now, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline void
removed(size_t n)
{
	struct prof_heaprec_counts *c = C;

	__atomic_sub_fetch(&c->live, (long long)n, __ATOMIC_RELAXED);
	__atomic_add_fetch(&c->frees, 1, __ATOMIC_RELAXED);
}

EXPORT void *
malloc(size_t n)
{
	void *p = __libc_malloc(n);

	added(p);
	return p;
}

EXPORT void
free(void *p)
{
	if (!p)
		return;
	removed(malloc_usable_size(p));
	__libc_free(p);
}

EXPORT void *
calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	added(p);
	return p;
}

EXPORT void *
realloc(void *p, size_t n)
{
	size_t old = p ? malloc_usable_size(p) : 0;
	void *q = __libc_realloc(p, n);

	if (q) {
		if (p)
			removed(old);
		added(q);
	} else if (p && n == 0) {
		removed(old);	/* glibc frees the block */
	}
	return q;
}

EXPORT void *
memalign(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	added(p);
	return p;
}

EXPORT void *
aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

EXPORT int
posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align % sizeof(void *) || (align & (align - 1)) || !align)
		return EINVAL;
	p = __libc_memalign(align, n);
	if (!p)
		return ENOMEM;
	added(p);
	*out = p;
	return 0;
}

EXPORT void *
valloc(size_t n)
{
	void *p = __libc_valloc(n);

	added(p);
	return p;
}

EXPORT void *
pvalloc(size_t n)
{
	void *p = __libc_pvalloc(n);

	added(p);
	return p;
}

/* Start a measured region: the peak restarts from what is live now. */
EXPORT void
prof_alloc_reset(void)
{
	struct prof_heaprec_counts *c = C;
	long long now = __atomic_load_n(&c->live, __ATOMIC_RELAXED);

	__atomic_store_n(&c->base, now, __ATOMIC_RELAXED);
	__atomic_store_n(&c->peak, now, __ATOMIC_RELAXED);
	__atomic_store_n(&c->allocs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->frees, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->bytes, 0, __ATOMIC_RELAXED);
}

/* live, peak, base (live at reset), allocations and frees since reset. */
EXPORT void
prof_alloc_read(long long out[5])
{
	struct prof_heaprec_counts *c = C;

	out[0] = __atomic_load_n(&c->live, __ATOMIC_RELAXED);
	out[1] = __atomic_load_n(&c->peak, __ATOMIC_RELAXED);
	out[2] = __atomic_load_n(&c->base, __ATOMIC_RELAXED);
	out[3] = __atomic_load_n(&c->allocs, __ATOMIC_RELAXED);
	out[4] = __atomic_load_n(&c->frees, __ATOMIC_RELAXED);
}

/* The usable bytes of the allocations since reset (a realloc counts its
 * new block whole). Apart from prof_alloc_read() so that a harness built
 * before it still reads the rest. */
EXPORT long long
prof_alloc_bytes(void)
{
	return __atomic_load_n(&C->bytes, __ATOMIC_RELAXED);
}

/* ---- the record: no stdio, small frames (see the top) ---- */

/* Decimal digits of v at p; returns the end. */
static char *
put_num(char *p, unsigned long long v)
{
	char d[24];
	int n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = d[--n];
	return p;
}

/* Copy s into out (n bytes), cut, NUL-terminated. */
static void
put_str(char *out, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < n && s[i]; i++)
		out[i] = s[i];
	out[i] = '\0';
}

/* The 22nd field of /proc/PID/stat (start time; pid 0: this process's),
 * after the name in parentheses, which may hold anything; 0 when
 * unknown. */
static unsigned long long
start_time(int pid)
{
	char buf[640], *p = buf;
	unsigned long long v = 0;
	ssize_t n;
	int fd, field;

	put_str(p, 16, "/proc/");
	p += 6;
	if (pid) {
		p = put_num(p, (unsigned long long)pid);
		put_str(p, 8, "/stat");
	} else {
		put_str(p, 16, "self/stat");
	}
	fd = open(buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* ") S ppid ..." : the state is field 3, the start time 22. */
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	return v;
}

/* DIR/PID-START.SUFFIX into out (n bytes, room for dir and 64 more). */
static void
rec_path(char *out, size_t n, int pid, unsigned long long start,
	 const char *suffix)
{
	char *p = out;

	put_str(p, n, dir);
	p += strlen(p);
	*p++ = '/';
	p = put_num(p, (unsigned long long)pid);
	*p++ = '-';
	p = put_num(p, start);
	put_str(p, n - (size_t)(p - out), suffix);
}

/* VmHWM from /proc/self/status, in bytes; -1 when unknown. Read a piece
 * at a time and matched a character at a time: a line may span two. */
static long long
vm_hwm(void)
{
	static const char key[] = "VmHWM:";
	char buf[256];
	size_t at = 0, i;	/* characters of key matched; -1: another line */
	ssize_t n;
	long long kb = -1;
	int in_num = 0, fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)n; i++) {
			char ch = buf[i];

			if (in_num) {
				if (ch >= '0' && ch <= '9')
					kb = (kb < 0 ? 0 : kb) * 10 + (ch - '0');
				else if (kb >= 0 || (ch != ' ' && ch != '\t'))
					goto out;
			} else if (ch == '\n') {
				at = 0;
			} else if (at != (size_t)-1) {
				at = ch == key[at] ? at + 1 : (size_t)-1;
				in_num = at == sizeof(key) - 1;
			}
		}
	}
out:
	close(fd);
	return kb < 0 ? -1 : kb * 1024;
}

/*
 * Make this process's record, its counters from c (a fork: live, base and
 * peak from what was live, nothing else), and count there from now on.
 * Only while one thread runs (the start, a fork's child). Without the
 * folder, or when the file cannot be made, the counters stay private.
 */
static void
record_open(const struct prof_heaprec_counts *c, const char *exe)
{
	struct prof_heaprec *r;
	unsigned long long start;
	int fd;

	if (!dir[0])
		return;
	start = start_time(0);
	rec_path(name, sizeof(name), (int)getpid(), start,
		 PROF_HEAPREC_SUFFIX);
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return;
	if (ftruncate(fd, (off_t)sizeof(*r)) < 0) {
		close(fd);
		return;
	}
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (r == MAP_FAILED)
		return;
	r->pid = (int)getpid();
	r->ppid = (int)getppid();
	r->start = start;
	r->state = PROF_HEAPREC_RUNNING;
	r->rss_peak = -1;
	r->c = *c;
	if (exe) {
		put_str(r->exe, sizeof(r->exe), exe);
	} else {
		ssize_t n = readlink("/proc/self/exe", r->exe,
				     sizeof(r->exe) - 1);

		r->exe[n > 0 ? n : 0] = '\0';
	}
	__atomic_store_n(&r->magic, PROF_HEAPREC_MAGIC, __ATOMIC_RELEASE);
	C = &r->c;
	R = r;
}

/* Whether r is this process's own (a vfork() child runs in its
 * parent's memory, with its parent's record). */
static int
own_record(const struct prof_heaprec *r)
{
	return r && r->pid == (int)getpid();
}

/* Mark this process's record exited, with its RSS peak: once. */
static void
record_close(void)
{
	struct prof_heaprec *r = R;
	int running = PROF_HEAPREC_RUNNING;

	if (!own_record(r) ||
	    __atomic_load_n(&r->state, __ATOMIC_ACQUIRE) != running)
		return;
	r->rss_peak = vm_hwm();
	__atomic_compare_exchange_n(&r->state, &running, PROF_HEAPREC_EXITED,
				    0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static void __attribute__((destructor))
log_at_exit(void)
{
	record_close();
}

/* _exit() and _Exit() run no destructors: the record first. */
EXPORT void
_exit(int status)
{
	record_close();
	for (;;)
		syscall(SYS_exit_group, status);
}

EXPORT void
_Exit(int status)
{
	_exit(status);
}

/* A forked child starts its own count, and its own record, from what is
 * live at the fork. */
static void
forked_child(void)
{
	struct prof_heaprec *parent = R;
	struct prof_heaprec_counts c = {0};

	c.live = __atomic_load_n(&C->live, __ATOMIC_RELAXED);
	c.base = c.peak = c.live;
	own = c;
	C = &own;
	R = NULL;
	record_open(&c, parent ? parent->exe : NULL);
	if (parent)
		munmap(parent, sizeof(*parent));
}

/* ---- exec and new processes ---- */

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *,
			const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);
typedef int (*system_fn)(const char *);
typedef FILE *(*popen_fn)(const char *, const char *);

static struct {
	execve_fn execve, execvpe;
	fexecve_fn fexecve;
	execv_fn execv, execvp;
	spawn_fn posix_spawn, posix_spawnp;
	system_fn system;
	popen_fn popen;
} next;

/* The next definition of a function (libc's), found at the start, before
 * any vfork() child could need it. */
static void *
next_fn(const char *fn)
{
	return dlsym(RTLD_NEXT, fn);
}

#define FIND_NEXT(fn) memcpy(&next.fn, &(void *){next_fn(#fn)}, sizeof(void *))

static void
find_next(void)
{
	FIND_NEXT(execve);
	FIND_NEXT(execvpe);
	FIND_NEXT(fexecve);
	FIND_NEXT(execv);
	FIND_NEXT(execvp);
	FIND_NEXT(posix_spawn);
	FIND_NEXT(posix_spawnp);
	FIND_NEXT(system);
	FIND_NEXT(popen);
}

/* Whether env gives a new program the interposer and this folder. */
static int
env_has_us(char *const *env)
{
	int preload = 0, log = 0;
	size_t i;

	for (i = 0; env && env[i]; i++) {
		if (!strncmp(env[i], "LD_PRELOAD=", 11) &&
		    strstr(env[i] + 11, "libprof-alloc.so"))
			preload = 1;
		else if (!strncmp(env[i], "PROF_ALLOC_LOG=", 15) &&
			 !strcmp(env[i] + 15, dir))
			log = 1;
	}
	return preload && log;
}

/* A program started in another process without the interposer. */
static void
note_untracked(const char *prog)
{
	struct prof_heaprec *r = R;

	if (r && __atomic_fetch_add(&r->untracked, 1, __ATOMIC_RELAXED) == 0)
		put_str(r->spawned, sizeof(r->spawned), prog ? prog : "?");
}

/* prog made whole with the working directory (and without its leading
 * "./") in buf (n bytes) when it is a relative path and both fit there;
 * else prog as it is. */
static const char *
whole_path(char *buf, size_t n, const char *prog)
{
	const char *rest = prog;
	size_t k;

	if (!prog)
		return "?";
	if (prog[0] == '/' || !strchr(prog, '/'))
		return prog;
	while (rest[0] == '.' && rest[1] == '/')
		for (rest += 2; *rest == '/'; rest++)
			;
	if (!getcwd(buf, n - 2) || (k = strlen(buf)) + strlen(rest) + 2 > n)
		return prog;
	if (k > 1)
		buf[k++] = '/';
	put_str(buf + k, n - k, rest);
	return buf;
}

/*
 * The note that process pid (started by this one, in its memory) was to
 * run prog with env (heaprec.h): its head, the starter's program and prog,
 * written one after the other, nothing mapped (a vfork() child must not
 * change its parent's memory), and the magic last.
 */
static void
spawn_note(int pid, const char *prog, int without)
{
	struct prof_heaprec_note h = {0};
	char path[strlen(dir) + 64], whole[512];
	unsigned long long magic = PROF_HEAPREC_SPAWN_MAGIC;
	const char *by = R ? R->exe : "";
	size_t n_by = strnlen(by, PROF_HEAPREC_PATH - 1), n_whole;
	off_t at = (off_t)sizeof(h);
	int fd, ok;

	h.pid = pid;
	h.ppid = R ? R->pid : 0;
	h.exec_env = without;
	h.start = start_time(pid);
	rec_path(path, sizeof(path), pid, h.start, PROF_HEAPREC_SPAWN_SUFFIX);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return;
	prog = whole_path(whole, sizeof(whole), prog);
	n_whole = strnlen(prog, PROF_HEAPREC_PATH - 1);
	ok = pwrite(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
	     pwrite(fd, by, n_by, at) == (ssize_t)n_by &&
	     pwrite(fd, "", 1, at + (off_t)n_by) == 1 &&
	     pwrite(fd, prog, n_whole, at + (off_t)n_by + 1) ==
		     (ssize_t)n_whole &&
	     pwrite(fd, "", 1, at + (off_t)(n_by + 1 + n_whole)) == 1 &&
	     pwrite(fd, &magic, sizeof(magic), 0) == (ssize_t)sizeof(magic);
	close(fd);
	if (!ok)
		unlink(path);
}

/*
 * Before an exec of prog with env: this process's record says so until
 * the new program's replaces it (a relative path made whole with the
 * working directory, as the reader has no other). A vfork() child, whose
 * record is its parent's, leaves a note of its own instead.
 */
static void
before_exec(const char *prog, char *const *env)
{
	struct prof_heaprec *r = R;
	int without = !env_has_us(env);

	if (!r)
		return;
	if (!own_record(r)) {
		spawn_note((int)getpid(), prog, without);
		return;
	}
	put_str(r->exec, sizeof(r->exec),
		whole_path(r->exec, sizeof(r->exec), prog));
	r->exec_env = without;
	__atomic_store_n(&r->state, PROF_HEAPREC_EXEC, __ATOMIC_RELEASE);
}

/* The exec failed: the process goes on as it was, and a vfork() child's
 * note goes. */
static int
exec_failed(int rc)
{
	int e = errno;

	if (own_record(R)) {
		__atomic_store_n(&R->state, PROF_HEAPREC_RUNNING,
				 __ATOMIC_RELEASE);
	} else if (R) {
		char path[strlen(dir) + 64];

		rec_path(path, sizeof(path), (int)getpid(), start_time(0),
			 PROF_HEAPREC_SPAWN_SUFFIX);
		unlink(path);
	}
	errno = e;
	return rc;
}

EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	before_exec(path, envp);
	if (!next.execve)
		return exec_failed((int)syscall(SYS_execve, path, argv, envp));
	return exec_failed(next.execve(path, argv, envp));
}

EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!next.execvpe) {
		errno = ENOSYS;
		return -1;
	}
	before_exec(file, envp);
	return exec_failed(next.execvpe(file, argv, envp));
}

EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	if (!next.fexecve) {
		errno = ENOSYS;
		return -1;
	}
	before_exec("(a file descriptor)", envp);
	return exec_failed(next.fexecve(fd, argv, envp));
}

EXPORT int
execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int
execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* execl's arguments up to the NULL, as a vector on the stack. */
#define EXECL_ARGV(first, ap, argv)                                          \
	do {                                                                 \
		size_t n_ = 1, i_;                                           \
		va_list c_;                                                  \
		va_copy(c_, ap);                                             \
		while (va_arg(c_, char *))                                   \
			n_++;                                                \
		va_end(c_);                                                  \
		argv = __builtin_alloca((n_ + 1) * sizeof(char *));          \
		argv[0] = (char *)(first);                                   \
		for (i_ = 1; i_ <= n_; i_++)                                 \
			argv[i_] = va_arg(ap, char *);                       \
	} while (0)

EXPORT int
execl(const char *path, const char *arg, ...)
{
	char **argv;
	va_list ap;

	va_start(ap, arg);
	EXECL_ARGV(arg, ap, argv);
	va_end(ap);
	return execve(path, argv, environ);
}

EXPORT int
execlp(const char *file, const char *arg, ...)
{
	char **argv;
	va_list ap;

	va_start(ap, arg);
	EXECL_ARGV(arg, ap, argv);
	va_end(ap);
	return execvpe(file, argv, environ);
}

EXPORT int
execle(const char *path, const char *arg, ...)
{
	char **argv, **envp;
	va_list ap;

	va_start(ap, arg);
	EXECL_ARGV(arg, ap, argv);
	envp = va_arg(ap, char **);
	va_end(ap);
	return execve(path, argv, envp);
}

/* After posix_spawn(): its child ran exec in this memory, and its note is
 * left from here (a child whose pid is not asked for is noted only when
 * its environment lacks the interposer). */
static void
spawned(int rc, const pid_t *pid, const char *prog, char *const *env)
{
	if (rc != 0 || !R)
		return;
	if (pid)
		spawn_note((int)*pid, prog, !env_has_us(env));
	else if (!env_has_us(env))
		note_untracked(prog);
}

EXPORT int
posix_spawn(pid_t *pid, const char *path,
	    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
	    char *const argv[], char *const envp[])
{
	int rc;

	if (!next.posix_spawn)
		return ENOSYS;
	rc = next.posix_spawn(pid, path, fa, at, argv, envp);
	spawned(rc, pid, path, envp);
	return rc;
}

EXPORT int
posix_spawnp(pid_t *pid, const char *file,
	     const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
	     char *const argv[], char *const envp[])
{
	int rc;

	if (!next.posix_spawnp)
		return ENOSYS;
	rc = next.posix_spawnp(pid, file, fa, at, argv, envp);
	spawned(rc, pid, file, envp);
	return rc;
}

/* system() and popen() start /bin/sh with environ, which the program may
 * have emptied of the interposer. */
EXPORT int
system(const char *cmd)
{
	int rc;

	if (!next.system) {
		errno = ENOSYS;
		return -1;
	}
	rc = next.system(cmd);
	if (cmd && R && !env_has_us(environ))
		note_untracked("/bin/sh");
	return rc;
}

EXPORT FILE *
popen(const char *cmd, const char *mode)
{
	FILE *fp;

	if (!next.popen) {
		errno = ENOSYS;
		return NULL;
	}
	fp = next.popen(cmd, mode);
	if (fp && R && !env_has_us(environ))
		note_untracked("/bin/sh");
	return fp;
}

static void __attribute__((constructor))
start(void)
{
	const char *d = getenv("PROF_ALLOC_LOG");

	find_next();
	pthread_atfork(NULL, NULL, forked_child);
	if (d && d[0] && strlen(d) < sizeof(dir)) {
		struct prof_heaprec_counts c = own;

		put_str(dir, sizeof(dir), d);
		record_open(&c, NULL);
	}
}
