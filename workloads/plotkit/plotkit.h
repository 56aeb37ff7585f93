/* plotkit.h: what the subcommands of bin/plotkit share. */
#ifndef PLOTKIT_H
#define PLOTKIT_H

#include <stddef.h>

/* Exit codes, as every prof tool has them. */
#define PLOTKIT_EXIT_OK 0
#define PLOTKIT_EXIT_FAILURE 2	/* bad arguments or bad input */

/* A subcommand: argv[0] is its name; returns the exit code. */
int cmd_flatten(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* "plotkit: " fmt "\n" on stderr. Returns PLOTKIT_EXIT_FAILURE. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read all of path ("-" is stdin) into a malloc'd, NUL-terminated buffer.
 * Returns 0, or -1 after saying why on stderr.
 */
int cli_read_file(const char *path, char **buf, size_t *len);

/* How messages name path: "<stdin>" for "-". */
const char *cli_display_name(const char *path);

/* A positive, finite number of millimetres, or -1 after saying why. */
int cli_parse_mm(const char *opt, const char *arg, double *out);

/* Write n bytes to stdout and flush; -1 after saying why. */
int cli_write_stdout(const void *p, size_t n);

#endif /* PLOTKIT_H */
