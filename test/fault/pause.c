/* pause.c: an LD_PRELOAD shim for the fault tests. A tool that fsyncs an
 * output (afile.h, the step before the rename) stops there: the shim
 * creates the file $PROF_TEST_PAUSE_MARK and waits for a signal, so a test
 * interrupts the tool mid-write at a known point, never by timing. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((visibility("default"))) int
fsync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	const char *mark = getenv("PROF_TEST_PAUSE_MARK");

	if (mark && mark[0]) {
		int m = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644);

		if (m >= 0)
			close(m);
		for (;;)
			pause();
	}
	return real ? real(fd) : 0;
}
