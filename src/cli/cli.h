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

/*
 * s made safe for one line of a terminal or a CI log: control bytes,
 * DEL and bytes that are not printable ASCII become \xNN. Written into buf (always terminated, cut with "..." when it does
 * not fit). Returns buf. A NULL s gives "".
 */
const char *cli_safe(const char *s, char *buf, size_t n);

/*
 * Refuse an output that is one of the inputs (prof_same_file()): says
 * "<opt>: 'FILE' is an input; refusing to overwrite it" (with "(stdin)"
 * after "input" when the input is "-", stdin's file) and returns -1;
 * otherwise 0. inputs may hold NULLs.
 */
int cli_not_input(const char *opt, const char *output,
		  const char *const *inputs, int n);

/*
 * SIGINT, SIGTERM and SIGHUP end the tool at once: the temporary file of
 * an output being written is removed (afile.h), one line says what
 * happened to output ("-" is stdout), e.g. "prof-merge: interrupted by
 * SIGINT; 'r.json' was not written", and the exit code is 2. Call it once
 * the output is known. Returns 0, or -1 after saying why.
 */
int cli_trap_signals(const char *output);

/* Flush stdout and check that writing it worked; returns rc or 2. */
int cli_finish(int rc);

#endif /* PROF_CLI_H */
