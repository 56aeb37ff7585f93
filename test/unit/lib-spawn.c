/* lib-spawn.c: the stray sweep of prof_spawn_run() takes the command's
 * descendants, never a child the caller had before the spawn. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/spawn.h"
#include "tap.h"

int
main(void)
{
	char *argv[] = {"sh", "-c", "sleep 30 & exit 0", NULL};
	struct prof_spawn sp = {.argv = argv, .timeout_s = 20,
				.stdout_fd = PROF_SPAWN_DEVNULL,
				.stderr_fd = -1};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	pid_t mine;
	int st;

	plan(5);
	/* A child of the caller's own, alive across the spawn. */
	mine = fork();
	if (mine == 0) {
		for (;;)
			pause();
	}
	is_int(prof_spawn_run(&sp, &res, &err), 0, "the command runs");
	is_int(res.exited && res.exit_code == 0, 1, "and exits 0");
	is_int(res.strays, 1, "its background child is the one stray");
	is_int(kill(mine, 0), 0, "the caller's own child is still alive");
	is_int(waitpid(mine, &st, WNOHANG), 0, "and was not reaped by the sweep");
	prof_spawn_free(&res);
	kill(mine, SIGKILL);
	waitpid(mine, &st, 0);
	return done();
}
