/* pause-open.c: an LD_PRELOAD shim for the tests of writers at once. A
 * tool that opens a file whose path ends with $PROF_TEST_PAUSE_OPEN stops
 * there: the shim creates $PROF_TEST_PAUSE_OPEN_MARK.N (N = 1, 2, ... the
 * pauses so far) and waits until the test creates
 * $PROF_TEST_PAUSE_OPEN_MARK.N.go (one made before lets the tool through),
 * so that a test holds a writer inside its transaction at a known point,
 * never by timing. With $PROF_TEST_PAUSE_REARM, it stops at the first such
 * open after each open of a file whose path ends with that (a transaction
 * that runs again reads its files again from the first: one pause a try,
 * however many times a try opens the file). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int pauses, disarmed;

/* Whether path ends with the value of the variable env. */
static int
ends_with(const char *path, const char *env)
{
	const char *end = getenv(env);
	size_t n = path ? strlen(path) : 0, k = end ? strlen(end) : 0;

	return k && n >= k && !strcmp(path + n - k, end);
}

static void
maybe_pause(const char *path)
{
	const char *mark = getenv("PROF_TEST_PAUSE_OPEN_MARK");
	char name[4096], go[4096 + 8];
	struct timespec tick = {0, 10 * 1000000};
	int fd;

	if (ends_with(path, "PROF_TEST_PAUSE_REARM"))
		disarmed = 0;
	if (!mark || !mark[0] || !ends_with(path, "PROF_TEST_PAUSE_OPEN") ||
	    disarmed)
		return;
	if (getenv("PROF_TEST_PAUSE_REARM"))
		disarmed = 1;
	snprintf(name, sizeof(name), "%s.%d", mark, ++pauses);
	snprintf(go, sizeof(go), "%s.go", name);
	if (access(go, F_OK) == 0)
		return;		/* let through: the test said so before */
	fd = creat(name, 0644);
	if (fd >= 0)
		close(fd);
	/* (a test that ended meanwhile removed the mark: go on) */
	while (access(go, F_OK) != 0 && access(name, F_OK) == 0)
		nanosleep(&tick, NULL);
}

#define OPEN_SHIM(fn)                                                          \
	__attribute__((visibility("default"))) int fn(const char *path,        \
						      int flags, ...)          \
	{                                                                      \
		int (*real)(const char *, int, ...) =                          \
			(int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #fn); \
		mode_t mode = 0;                                               \
		va_list ap;                                                    \
                                                                               \
		if (flags & (O_CREAT | O_TMPFILE)) {                           \
			va_start(ap, flags);                                   \
			mode = (mode_t)va_arg(ap, int);                        \
			va_end(ap);                                            \
		}                                                              \
		maybe_pause(path);                                             \
		return real(path, flags, mode);                                \
	}

OPEN_SHIM(open)
OPEN_SHIM(open64)
