/* runfiles.h: the run files under folders, as prof-history import finds
 * them. */
#ifndef PROF_CLI_RUNFILES_H
#define PROF_CLI_RUNFILES_H

#include <stddef.h>

/* A list of paths, each its own copy. */
struct cli_paths {
	char **paths;
	size_t n, cap;
};

/*
 * The *.json files under the n folders dirs, walked without following
 * symbolic links, then the links met followed once each (as find -L
 * would; a link to what was walked or read already is not followed
 * again): the regular files into *found, sorted by path, each file read
 * once however many names lead to it; one line said for each file named
 * *.json that is not a regular file, each folder that cannot be read,
 * each link to nothing. *followed and *again count the links followed
 * and those to what was read already. 0, or -1 after saying why (a path
 * that is not a folder, one that cannot be read, out of memory).
 */
int cli_run_files(int n, char **dirs, struct cli_paths *found,
		  size_t *followed, size_t *again);

/* One line for a file named *.json that import skips unread: what it is
 * ("a FIFO", ...), or that it is no longer there. */
void cli_run_file_skipped(const char *path);

void cli_paths_free(struct cli_paths *l);

#endif /* PROF_CLI_RUNFILES_H */
