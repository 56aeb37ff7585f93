/* heap.c: a program that keeps 48 MiB live (50,331,648 bytes, one block)
 * and then ends as its first argument says, for the tests of the
 * allocation interposer's records (t1103-t1105):
 *   exit      returns from main()
 *   kill      raises SIGKILL (nothing of it runs at its end)
 *   segv      raises SIGSEGV
 *   fds       opens files until it has no descriptor left, then exits
 *   nofile    lowers its limit of descriptors to 0, closes them all, exits
 *   thread    a thread of the smallest stack (PTHREAD_STACK_MIN) calls
 *             exit()
 *   thread_   the same thread calls _exit()
 *   threadfork the same thread forks; the child and then it call exit()
 *   threadexec the same thread runs exec of the second argument
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK (48L << 20)

static char **args;

static void *
small(void *how)
{
	if (!strcmp(how, "thread_"))
		_exit(0);
	if (!strcmp(how, "threadfork")) {
		pid_t pid = fork();

		if (pid == 0)
			exit(0);
		waitpid(pid, NULL, 0);
	}
	if (!strcmp(how, "threadexec"))
		execv(args[2], args + 2);
	exit(0);
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "exit";
	char *p = malloc(BLOCK);
	int i;

	args = argv;
	memset(p, 1, BLOCK);
	if (!strcmp(how, "kill"))
		raise(SIGKILL);
	if (!strcmp(how, "segv"))
		raise(SIGSEGV);
	if (!strcmp(how, "fds"))
		while (open("/dev/null", O_RDONLY) >= 0)
			;
	if (!strcmp(how, "nofile")) {
		struct rlimit none = {0, 0};

		setrlimit(RLIMIT_NOFILE, &none);
		for (i = 0; i < 1024; i++)
			close(i);
	}
	if (!strncmp(how, "thread", 6)) {
		pthread_attr_t at;
		pthread_t t;

		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
		if (pthread_create(&t, &at, small, (void *)how))
			return 3;
		for (;;)
			pause();
	}
	free(p);
	return 0;
}
