/* gbloop.c: libprof-gbloop.so, preloaded after libprof-alloc.so into a
 * Google Benchmark binary in the memory phase: the allocations of each
 * benchmark loop alone.
 *
 * A loop (`for (auto _ : state)`, or KeepRunning()) begins with a call of
 * benchmark::State::StartKeepRunning() and ends with one of
 * FinishKeepRunning(), both called by the benchmark's own code through
 * the binary's PLT, so a preloaded definition comes first. After the real
 * StartKeepRunning() the interposer's counters restart
 * (prof_alloc_reset()) and so does the RSS peak; before the real
 * FinishKeepRunning() one JSON line per loop is appended to the file
 * PROF_GBENCH_LOOPS names (one write, O_APPEND): the heap peak above what
 * was live at the start, what was live then, the allocations, their
 * bytes and the RSS peak. Without libprof-alloc.so, or without the
 * variable, the calls only go through. A binary linked with a static
 * libbenchmark calls its own copies, and nothing is written.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../harness/rss.h"

#define EXPORT __attribute__((visibility("default")))

#define START "_ZN9benchmark5State16StartKeepRunningEv"
#define FINISH "_ZN9benchmark5State17FinishKeepRunningEv"

typedef void (*member_fn)(void *);

/* The next definition of name (libbenchmark's); exits when there is none,
 * as the dynamic linker would have. */
static member_fn
next(const char *name)
{
	union {
		void *p;
		member_fn f;
	} u;

	u.p = dlsym(RTLD_NEXT, name);
	if (!u.p) {
		fprintf(stderr, "libprof-gbloop.so: no %s after it\n", name);
		_exit(127);
	}
	return u.f;
}

EXPORT void
_ZN9benchmark5State16StartKeepRunningEv(void *state)
{
	void (*reset)(void) = (void (*)(void))dlsym(RTLD_DEFAULT,
						    "prof_alloc_reset");
	int fd;

	next(START)(state);
	if (!reset || !getenv("PROF_GBENCH_LOOPS"))
		return;
	fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "5", 1) != 1) {
			/* the peak is then the process's */
		}
		close(fd);
	}
	reset();
}

EXPORT void
_ZN9benchmark5State17FinishKeepRunningEv(void *state)
{
	void (*read)(long long *) = (void (*)(long long *))dlsym(
		RTLD_DEFAULT, "prof_alloc_read");
	long long (*bytes)(void) = (long long (*)(void))dlsym(
		RTLD_DEFAULT, "prof_alloc_bytes");
	const char *log = getenv("PROF_GBENCH_LOOPS");
	long long heap[5], allocated;
	char line[256];
	int fd, n;

	if (read && log) {
		read(heap);
		allocated = bytes ? bytes() : -1;
		n = snprintf(line, sizeof(line),
			     "{\"host_peak_bytes\":%lld,"
			     "\"host_live_before_bytes\":%lld,"
			     "\"host_allocs\":%lld,"
			     "\"host_allocated_bytes\":%lld,"
			     "\"rss_peak_bytes\":%lld}\n",
			     heap[1] - heap[2], heap[2], heap[3], allocated,
			     rss_peak());
		fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0) {
			if (n > 0 && write(fd, line, (size_t)n) != n) {
				/* a short line is refused by its reader */
			}
			close(fd);
		}
	}
	next(FINISH)(state);
}
