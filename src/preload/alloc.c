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
 * call. With PROF_ALLOC_LOG set,
 * every process that loads it appends one JSON line about itself to that
 * file at exit (for commands: the whole process tree, one line each),
 * also when it ends by _exit() (dash does), which skips destructors. A
 * forked child counts from the fork on: what its parent did is the
 * parent's line, and the heap it inherited is not in its peak. (A vfork() child that fails its exec and calls _exit()
 * shares its parent's counters: its line repeats them.)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

#define EXPORT __attribute__((visibility("default")))

static long long live;
static long long peak;
static long long base;
static long long allocs;
static long long frees;
static long long bytes;		/* usable bytes of the allocations */

static inline void
added(void *p)
{
	long long now, top, size;

	if (!p)
		return;
	size = (long long)malloc_usable_size(p);
	now = __atomic_add_fetch(&live, size, __ATOMIC_RELAXED);
	__atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&bytes, size, __ATOMIC_RELAXED);
	top = __atomic_load_n(&peak, __ATOMIC_RELAXED);
	while (now > top &&
	       !__atomic_compare_exchange_n(&peak, &top, now, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline void
removed(size_t n)
{
	__atomic_sub_fetch(&live, (long long)n, __ATOMIC_RELAXED);
	__atomic_add_fetch(&frees, 1, __ATOMIC_RELAXED);
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
	long long now = __atomic_load_n(&live, __ATOMIC_RELAXED);

	__atomic_store_n(&base, now, __ATOMIC_RELAXED);
	__atomic_store_n(&peak, now, __ATOMIC_RELAXED);
	__atomic_store_n(&allocs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&frees, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&bytes, 0, __ATOMIC_RELAXED);
}

/* live, peak, base (live at reset), allocations and frees since reset. */
EXPORT void
prof_alloc_read(long long out[5])
{
	out[0] = __atomic_load_n(&live, __ATOMIC_RELAXED);
	out[1] = __atomic_load_n(&peak, __ATOMIC_RELAXED);
	out[2] = __atomic_load_n(&base, __ATOMIC_RELAXED);
	out[3] = __atomic_load_n(&allocs, __ATOMIC_RELAXED);
	out[4] = __atomic_load_n(&frees, __ATOMIC_RELAXED);
}

/* The usable bytes of the allocations since reset (a realloc counts its
 * new block whole). Apart from prof_alloc_read() so that a harness built
 * before it still reads the rest. */
EXPORT long long
prof_alloc_bytes(void)
{
	return __atomic_load_n(&bytes, __ATOMIC_RELAXED);
}

/* VmHWM from /proc/self/status, in bytes; -1 when unknown. */
static long long
vm_hwm(void)
{
	char buf[4096];
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	char *p;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "VmHWM:");
	if (!p)
		return -1;
	return strtoll(p + 6, NULL, 10) * 1024;
}

/* The process whose line is written: a pid, not a flag, since a vfork()
 * child that ends by _exit() writes into its parent's memory. */
static int logged_pid;

/* Append one JSON line about this process to $PROF_ALLOC_LOG, once. Its
 * heap peak and live bytes at exit are above what was live when it
 * started: 0 for a program, the live bytes at the fork for a forked child
 * (which inherits its parent's heap and would count it again, once per
 * child, in a tree's sum of peaks). */
static void
log_line(void)
{
	const char *path = getenv("PROF_ALLOC_LOG");
	/* The whole path, each character escaped at most to two, and room
	 * for the numbers: the line is never cut (nor read past its end). */
	char exe[PATH_MAX], esc[2 * PATH_MAX + 1], line[2 * PATH_MAX + 512];
	long long from = __atomic_load_n(&base, __ATOMIC_RELAXED);
	ssize_t n;
	size_t i, k = 0;
	int fd, len;

	if (!path || !path[0] || logged_pid == (int)getpid())
		return;
	logged_pid = (int)getpid();
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	for (i = 0; exe[i] && k < sizeof(esc) - 3; i++) {
		if (exe[i] == '"' || exe[i] == '\\')
			esc[k++] = '\\';
		esc[k++] = (unsigned char)exe[i] < 0x20 ? '?' : exe[i];
	}
	esc[k] = '\0';
	len = snprintf(line, sizeof(line),
		       "{\"pid\":%d,\"ppid\":%d,\"exe\":\"%s\","
		       "\"host_peak_bytes\":%lld,\"host_allocs\":%lld,"
		       "\"host_allocated_bytes\":%lld,"
		       "\"host_live_at_exit_bytes\":%lld,\"rss_peak_bytes\":%lld}\n",
		       (int)getpid(), (int)getppid(), esc,
		       __atomic_load_n(&peak, __ATOMIC_RELAXED) - from,
		       __atomic_load_n(&allocs, __ATOMIC_RELAXED),
		       __atomic_load_n(&bytes, __ATOMIC_RELAXED),
		       __atomic_load_n(&live, __ATOMIC_RELAXED) - from,
		       vm_hwm());
	if (len < 0 || (size_t)len >= sizeof(line))
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* One write with O_APPEND: lines of processes never interleave. */
	if (write(fd, line, (size_t)len) < 0)
		len = 0;
	close(fd);
}

static void __attribute__((destructor))
log_at_exit(void)
{
	log_line();
}

/* _exit() and _Exit() run no destructors: the line first. */
EXPORT void
_exit(int status)
{
	log_line();
	for (;;)
		syscall(SYS_exit_group, status);
}

EXPORT void
_Exit(int status)
{
	_exit(status);
}

/* A forked child starts its own count from what is live at the fork. */
static void
forked_child(void)
{
	prof_alloc_reset();
}

static void __attribute__((constructor))
watch_forks(void)
{
	pthread_atfork(NULL, NULL, forked_child);
}
