/* project.h: the project a tool names to a history (history.h), found
 * by the tool: the library never asks git. */
#ifndef PROF_CLI_PROJECT_H
#define PROF_CLI_PROJECT_H

#include <stddef.h>

/*
 * The project a tool names: given (its --project), else $PROF_PROJECT
 * (where set and not empty), else the name of the git repository of the
 * current folder (the last part of `git rev-parse --show-toplevel`) where
 * that is a project name (prof_project_valid(), id.h), else "" (no git,
 * not in a repository). Written into out; 0, or -1 after "<tool>: <opt>:
 * '<s>' is not a project name: <why>" (cli_project()) where given or
 * $PROF_PROJECT is not one: the bytes prof_history_project() and
 * prof_history_open() would say. Used by prof-history, prof-dashboard
 * and prof-report (for its page's trends).
 */
int cli_project_default(const char *given, char *out, size_t n);

#endif /* PROF_CLI_PROJECT_H */
