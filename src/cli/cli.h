/* cli.h: what the tools share for talking to the user: messages, numbers,
 * and the exit path. The library never prints; the tools do, through here. */
#ifndef PROF_CLI_H
#define PROF_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "base/date.h"
#include "base/err.h"
#include "base/prof.h"

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
 * A date or time argument in one of forms (date.h: PROF_DATE_DAY, _UTC,
 * _OFFSET), read by prof_date_parse(): 0, or -1 after "<tool>: <opt>:
 * '<s>': <why>" (month 13 is out of range (expected 01 to 12)). Every
 * option that takes a date or a time goes through here.
 */
int cli_date(const char *opt, const char *s, unsigned forms);

/*
 * A project name (prof_project_valid(), id.h): 0, or -1 after "<tool>:
 * <opt>: '<s>' is not a project name: <why>", s cut after 40 bytes as the
 * library's message for $PROF_PROJECT is (history.h).
 */
int cli_project(const char *opt, const char *s);

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
 * Refuse to write into a run folder or into one inside a run
 * (prof_in_run(), afile.h): "'DIR' is a run folder (it holds 'MARK'):
 * NEVER; give another folder", "'DIR' is inside the run folder 'RUN' (it
 * holds 'MARK'): NEVER; give a folder outside it", or that the current
 * folder cannot be read; each returns PROF_EXIT_FAILURE. 0 otherwise.
 * never says what is never done, e.g. "export-runs never writes into a
 * run".
 */
int cli_not_in_run(const char *dir, const char *never);

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

/*
 * One option table per tool: each option is declared once (long name,
 * short letter, argument name, help line), with the usage synopsis, the
 * sections and the free text of --help around it; getopt_long's tables,
 * the --help text and the hidden --help-options list (what t6202 checks
 * the man page against) are made from it. git's parse-options is the
 * model.
 *
 *	static const struct cli_opt option_table[] = {
 *		CLI_USAGE("prof-x [-o FILE] RESULTS"),
 *		CLI_TEXT("What it does."),
 *		CLI_GROUP("options:"),
 *		CLI_STRING("output", 'o', "FILE", struct opts, output,
 *			   "write there"),
 *		CLI_TRUE("add", 0, struct opts, add, "add, do not replace"),
 *		CLI_OPTION("mode", 0, "M", OPT_MODE, "checked by the tool"),
 *		CLI_STD(OPT_VERSION),
 *		CLI_END,
 *	};
 *
 * An option that names its variable (CLI_STRING, CLI_TRUE, CLI_NUMBER,
 * CLI_REAL: a field of the tool's options struct, given by type and
 * name) is stored by cli_opt_parse() itself; one with an id (CLI_OPTION,
 * CLI_FLAG) goes to the tool's switch. redis's config table and git's
 * OPT_STRING, OPT_INTEGER are the model.
 *
 * Help text: '\n' breaks a line, and the generator indents what follows
 * (a usage's next line by the width of "usage: ", an option's by its
 * section's help column). Each CLI_TEXT and CLI_GROUP is a paragraph with
 * a blank line before it.
 */
enum cli_opt_kind {
	CLI_KIND_END,
	CLI_KIND_USAGE,	 /* a synopsis line: "usage: " before the first */
	CLI_KIND_TEXT,	 /* a paragraph of free text, written as it is */
	CLI_KIND_GROUP,	 /* a section's title; its options follow */
	CLI_KIND_OPTION, /* an option */
};

/* An option in getopt_long's tables only: not in --help or
 * --help-options (--help and --version themselves, a runner option that
 * another tool takes, so that its message can say so). */
#define CLI_OPT_HIDDEN 1u
/* Written in a run-in list with the other brief options beside it,
 * "--a N, --b; HELP" by their long names, not one a line (the help of the first is the
 * list's). */
#define CLI_OPT_BRIEF 2u

/* What cli_opt_parse() stores for a bound option, in the field at its
 * offset in the options struct the tool gives. */
enum cli_bind {
	CLI_BIND_NONE,	 /* none: the option goes to the tool's switch */
	CLI_BIND_STRING, /* const char *: the argument */
	CLI_BIND_TRUE,	 /* int: 1 */
	CLI_BIND_NUMBER, /* long long: cli_number("--NAME", min, max) */
	CLI_BIND_REAL,	 /* double: cli_real("--NAME") */
	CLI_BIND_HELP,	 /* -h, --help: the --help text, exit 0 */
	CLI_BIND_VERSION, /* --version: "<tool> <version>", exit 0 */
};

struct cli_opt {
	enum cli_opt_kind kind;
	const char *name; /* the long name, without "--" */
	int letter;	  /* the short letter, or 0 */
	const char *arg;  /* the argument's name; NULL: takes none */
	int id;		  /* what getopt_long returns: letter, or >= 256;
			   * 0 for a bound option without a letter */
	const char *text; /* help line, paragraph, title or synopsis */
	unsigned flags;	  /* CLI_OPT_* */
	enum cli_bind bind;
	size_t at;	       /* the bound field's offset */
	long long min, max; /* CLI_BIND_NUMBER's range */
};

#define CLI_USAGE(s) {.kind = CLI_KIND_USAGE, .text = (s)}
#define CLI_TEXT(s) {.kind = CLI_KIND_TEXT, .text = (s)}
#define CLI_GROUP(s) {.kind = CLI_KIND_GROUP, .text = (s)}
#define CLI_ENTRY(name_, letter_, arg_, id_, help, flags_, ...) \
	{.kind = CLI_KIND_OPTION, .name = (name_), .letter = (letter_), \
	 .arg = (arg_), .id = (id_), .text = (help), .flags = (flags_), \
	 __VA_ARGS__}
#define CLI_OPTION(name, letter, arg, id, help) \
	CLI_ENTRY(name, letter, arg, id, help, 0)
#define CLI_FLAG(name, letter, id, help) \
	CLI_OPTION(name, letter, NULL, id, help)
#define CLI_BRIEF(name, letter, arg, id, help) \
	CLI_ENTRY(name, letter, arg, id, help, CLI_OPT_BRIEF)
#define CLI_HIDDEN(name, letter, arg, id) \
	CLI_ENTRY(name, letter, arg, id, NULL, CLI_OPT_HIDDEN)
/* -h, --help (id 'h') and --version (version_id); cli_opt_parse() does
 * what each says itself. */
#define CLI_STD(version_id) \
	CLI_ENTRY("help", 'h', NULL, 'h', NULL, CLI_OPT_HIDDEN, \
		  .bind = CLI_BIND_HELP), \
	CLI_ENTRY("version", 0, NULL, (version_id), NULL, CLI_OPT_HIDDEN, \
		  .bind = CLI_BIND_VERSION)
/* The same for a tool whose switch never sees them (cli_opt_parse()). */
#define CLI_STANDARD CLI_STD(0)
#define CLI_END {.kind = CLI_KIND_END}

/* The offset of field in type, checked to be of ctype at compile time. */
#define CLI_AT(type, field, ctype) \
	(offsetof(type, field) + 0 * sizeof((ctype *){&((type *)0)->field}))
#define CLI_BOUND(name, letter, arg, bind_, at_, min_, max_, help, flags) \
	CLI_ENTRY(name, letter, arg, letter, help, flags, .bind = (bind_), \
		  .at = (at_), .min = (min_), .max = (max_))
/* --NAME ARG sets the const char * field. */
#define CLI_STRING(name, letter, arg, type, field, help) \
	CLI_BOUND(name, letter, arg, CLI_BIND_STRING, \
		  CLI_AT(type, field, const char *), 0, 0, help, 0)
/* --NAME sets the int field to 1. */
#define CLI_TRUE(name, letter, type, field, help) \
	CLI_BOUND(name, letter, NULL, CLI_BIND_TRUE, \
		  CLI_AT(type, field, int), 0, 0, help, 0)
/* --NAME N sets the long long field to a whole number in [min, max]. */
#define CLI_NUMBER(name, letter, arg, type, field, min, max, help) \
	CLI_BOUND(name, letter, arg, CLI_BIND_NUMBER, \
		  CLI_AT(type, field, long long), min, max, help, 0)
/* --NAME X sets the double field to a non-negative decimal. */
#define CLI_REAL(name, letter, arg, type, field, help) \
	CLI_BOUND(name, letter, arg, CLI_BIND_REAL, \
		  CLI_AT(type, field, double), 0, 0, help, 0)

#define CLI_OPT_MAX 64

/* getopt_long's tables, made from one or more option tables. */
struct cli_getopt {
	const struct cli_opt *opts; /* the tool's table: its --help */
	struct option longopts[CLI_OPT_MAX + 1];
	const struct cli_opt *of[CLI_OPT_MAX]; /* each long option's entry */
	char shortopts[2 * CLI_OPT_MAX + 2];
	char why[160]; /* what cli_opt_init() found wrong */
};

/*
 * Make g's getopt_long tables from more (NULL: none: the hidden options a
 * shared parser adds; first, so that getopt's messages list them in its
 * order), then from opts. An option named twice (in two sections, or in
 * both tables) is in the tables once; its id, letter and whether it takes
 * an argument must agree (a binding may be in one of them: the runner's
 * table binds, the tool's shows), and an id below 256 is its letter (one
 * >= 256 has none; a bound option without a letter gets one from the
 * tables). Returns 0, or -1 with the reason in g->why (a mistake in the
 * table, not the user's).
 */
int cli_opt_init(struct cli_getopt *g, const struct cli_opt *opts,
		 const struct cli_opt *more);

/*
 * The next option for the tool's switch, by getopt_long() over g's
 * tables: what the table says of itself is done here. A command line that
 * is --help-options alone (hidden, and not in the tables: no abbreviation
 * of --help becomes ambiguous) writes cli_opt_list() to stdout and ends
 * the tool (exit 0, or 2 when stdout fails). A bound option is stored into the
 * options struct at base; -h or --help writes the --help text to stdout
 * and --version "<tool> <version>" (the tool named by the first usage
 * line), each ending the tool (exit 0, or 2 when stdout fails); an option
 * getopt_long refuses writes the --help text to stderr after its message,
 * and a bound number that does not parse ends it after cli_number()'s or
 * cli_real()'s message, both with exit 2. Returns the id of an option the
 * table leaves to the tool, or -1 after the last option.
 */
int cli_opt_parse(const struct cli_getopt *g, int argc, char **argv,
		  void *base);

/*
 * The whole command line's options by opts, a table that binds every
 * one: cli_opt_init() and cli_opt_parse() to the last option. Returns 0,
 * or -1 after saying what is wrong with the table (an option it does not
 * bind, or cli_opt_init()'s reason).
 */
int cli_opt_parse_all(const struct cli_opt *opts, int argc, char **argv,
		      void *base);

/* The --help text of opts, to fp. */
void cli_opt_usage(const struct cli_opt *opts, FILE *fp);

/*
 * Every option --help shows, one a line, as its term: "-o, --output FILE",
 * "--add"; one line each time it is shown (a section may show it again).
 */
void cli_opt_list(const struct cli_opt *opts, FILE *fp);

#endif /* PROF_CLI_H */
