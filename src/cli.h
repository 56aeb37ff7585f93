/* cli.h: what the tools share for talking to the user: messages, numbers,
 * and the exit path. The library never prints; the tools do, through here. */
#ifndef PROF_CLI_H
#define PROF_CLI_H

#include <stdio.h>

#include "err.h"
#include "prof.h"

/* The tool's name for messages; set once from main(). */
extern const char *cli_name;

void cli_init(const char *argv0);

/* "<tool>: <message>" on stderr. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print err in its one-line form, prefixed with the tool's name. */
void cli_err(const struct prof_err *e);

/* Print the message and return PROF_EXIT_FAILURE (for `return cli_fail()`). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parse a whole number in [min, max] (OpenBSD strtonum, reworded). On error
 * prints "<tool>: <opt>: '<s>' is not a whole number from min to max" and
 * returns -1; otherwise 0 and *out.
 */
int cli_number(const char *opt, const char *s, long long min, long long max,
	       long long *out);

/* Parse a non-negative decimal (seconds, ms). Same error shape. */
int cli_real(const char *opt, const char *s, double *out);

/* Flush stdout and check that writing it worked; returns rc or 2. */
int cli_finish(int rc);

#endif /* PROF_CLI_H */
