/* git.c: what a tool asks git (git.h). */
#include <stdio.h>

#include "base/err.h"
#include "base/spawn.h"
#include "git.h"

/* The first stdout line of git, kept. */
static int
first_line(void *arg, char *line, size_t len, int complete)
{
	char *out = arg;

	(void)complete;
	if (!out[0])
		snprintf(out, 128, "%.*s", (int)len, line);
	return 0;
}

int
cli_git_commit(const char *rev, char out[128])
{
	char spec[512];
	char *argv[] = {"git", "rev-parse", "--verify", "-q", spec, NULL};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 30,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = first_line,
		.arg = out,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int rc = -1;

	out[0] = '\0';
	if (snprintf(spec, sizeof(spec), "%s^{commit}", rev) >=
		    (int)sizeof(spec) ||
	    prof_spawn_run(&sp, &res, &err) < 0)
		return -1;
	if (prof_spawn_ok(&res) && out[0])
		rc = 0;
	prof_spawn_free(&res);
	return rc;
}
