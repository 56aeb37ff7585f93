/* git.c: what a tool asks git (git.h). */
#include <stdio.h>

#include "base/spawn.h"
#include "git.h"

int
cli_git_commit(const char *rev, char out[128])
{
	char spec[512];
	char *argv[] = {"git", "rev-parse", "--verify", "-q", spec, NULL};

	out[0] = '\0';
	if (snprintf(spec, sizeof(spec), "%s^{commit}", rev) >=
	    (int)sizeof(spec))
		return -1;
	return prof_spawn_line(argv, 0, out, 128);
}
