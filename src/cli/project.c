/* project.c: the project a tool names to a history by default (project.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/id.h"
#include "base/spawn.h"
#include "cli.h"
#include "project.h"

/* The name of the git repository of the current folder (its top
 * level's) where that is a project name, else "". */
static void
git_project(char *out, size_t n)
{
	char *argv[] = {"git", "rev-parse", "--show-toplevel", NULL};
	char top[4096];
	const char *slash;

	out[0] = '\0';
	if (prof_spawn_line(argv, 1, top, sizeof(top)) < 0)
		return;
	slash = strrchr(top, '/');
	if (prof_project_valid(slash ? slash + 1 : top, NULL, 0))
		snprintf(out, n, "%s", slash ? slash + 1 : top);
}

int
cli_project_default(const char *given, char *out, size_t n)
{
	const char *env = getenv("PROF_PROJECT");

	out[0] = '\0';
	if (given) {
		if (given[0] && cli_project("--project", given) < 0)
			return -1;
		snprintf(out, n, "%s", given);
	} else if (env && env[0]) {
		if (cli_project("PROF_PROJECT", env) < 0)
			return -1;
		snprintf(out, n, "%s", env);
	} else {
		git_project(out, n);
	}
	return 0;
}
