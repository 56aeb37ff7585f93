/* git.h: what a tool asks git, in the current folder. */
#ifndef PROF_CLI_GIT_H
#define PROF_CLI_GIT_H

/* The full commit id git gives rev (git rev-parse --verify rev^{commit})
 * into out, if git knows it here: 0, or -1 (no git, not a repository,
 * not a commit). prof-history changes --since takes a revision so. */
int cli_git_commit(const char *rev, char out[128]);

#endif /* PROF_CLI_GIT_H */
