/* terminal.h: prof-history's list, trend and changes as tables on a
 * terminal, where it does not print JSON. */
#ifndef PROF_TERMINAL_H
#define PROF_TERMINAL_H

#include <json-c/json.h>

/*
 * a, the JSON array prof-history's cmd ("list", "trend" or "changes")
 * read, as a table on stdout: its columns as wide as their widest cell,
 * numbers to the right, a sparse column left out when none of its cells
 * holds anything, text from the history made safe for a terminal
 * (cli_safe()); "no runs", "no rows" or "no change points" when a is
 * empty; under changes' table, the line that finds each change's commit.
 * Consumes a. Returns PROF_EXIT_OK, or PROF_EXIT_FAILURE after "out of
 * memory".
 */
int prof_terminal_table(const char *cmd, struct json_object *a);

#endif /* PROF_TERMINAL_H */
