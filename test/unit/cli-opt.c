/* cli-opt.c: one option table gives getopt_long's tables, the --help text
 * and the list of options the man page is checked against (cli.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tap.h"

enum { OPT_ADD = 256, OPT_BY, OPT_WORKLOADS, OPT_VERSION, OPT_OTHER };

static const struct cli_opt opts[] = {
	CLI_USAGE("prof-x [--by self|inclusive] [-o FILE]\n"
		  "              RESULTS"),
	CLI_USAGE("prof-x --add RESULTS"),
	CLI_TEXT("Say what it does,\nin two lines."),
	CLI_GROUP("options:"),
	CLI_OPTION("output", 'o', "FILE", 'o', "write there\n(default -)"),
	CLI_FLAG("add", 0, OPT_ADD, "add"),
	CLI_OPTION("by", 0, "self|inclusive-and-more", OPT_BY,
		   "a term too long for the column"),
	CLI_FLAG("quiet", 'q', 'q', NULL),
	CLI_STD(OPT_VERSION),
	CLI_GROUP("common options:"),
	CLI_BRIEF("workloads", 0, "BIN", OPT_WORKLOADS,
		  "as for prof-time (see prof-time --help), a help that fills "
		  "more than one line"),
	CLI_BRIEF("output", 'o', "FILE", 'o', NULL),
	CLI_BRIEF("quiet", 'q', NULL, 'q', NULL),
	CLI_TEXT("example:\n  prof-x r.json"),
	CLI_END,
};

static const char want_usage[] =
	"usage: prof-x [--by self|inclusive] [-o FILE]\n"
	"                     RESULTS\n"
	"       prof-x --add RESULTS\n"
	"\n"
	"Say what it does,\n"
	"in two lines.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE  write there\n"
	"                     (default -)\n"
	"  --add              add\n"
	"  --by self|inclusive-and-more\n"
	"                     a term too long for the column\n"
	"  -q, --quiet\n"
	"\n"
	"common options:\n"
	"  --workloads BIN, --output FILE, --quiet; as for prof-time (see\n"
	"  prof-time --help), a help that fills more than one line\n"
	"\n"
	"example:\n"
	"  prof-x r.json\n";

static const char want_list[] = "-o, --output FILE\n"
				"--add\n"
				"--by self|inclusive-and-more\n"
				"-q, --quiet\n"
				"--workloads BIN\n"
				"-o, --output FILE\n"
				"-q, --quiet\n";

/* What fn writes of opts, as a string (static). */
static const char *
written(void (*fn)(const struct cli_opt *, FILE *), const struct cli_opt *t)
{
	static char *buf;
	size_t n = 0;
	FILE *fp;

	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &n);
	fn(t, fp);
	fclose(fp);
	return buf;
}

/* The long names of g's table, space-separated (static). */
static const char *
names(const struct cli_getopt *g)
{
	static char buf[1024];

	buf[0] = '\0';
	for (const struct option *l = g->longopts; l->name; l++) {
		char one[80];

		snprintf(one, sizeof(one), "%s%s%s=%d", buf[0] ? " " : "",
			 l->name, l->has_arg ? ":" : "", l->val);
		strcat(buf, one);
	}
	return buf;
}

static const char *
init_why(const struct cli_opt *t, const struct cli_opt *more)
{
	static struct cli_getopt g;

	if (cli_opt_init(&g, t, more) == 0)
		return "(ok)";
	return g.why;
}

struct bound {
	const char *output;
	int quiet;
	long long top;
	double floor;
};

/* Bound options stored by cli_opt_parse(), the others returned. */
static void
parse_bound(void)
{
	static const struct cli_opt t[] = {
		CLI_USAGE("prof-y [-o FILE] RESULTS"),
		CLI_STRING("output", 'o', "FILE", struct bound, output, "o"),
		CLI_TRUE("quiet", 'q', struct bound, quiet, "q"),
		CLI_NUMBER("top", 0, "N", struct bound, top, 0, 9, "t"),
		CLI_REAL("floor", 0, "MS", struct bound, floor, "f"),
		CLI_FLAG("add", 0, OPT_ADD, "a"),
		CLI_STANDARD,
		CLI_END,
	};
	static const struct cli_opt shown[] = {
		CLI_OPTION("top", 0, "N", OPT_BY, "shown, bound in the other"),
		CLI_END,
	};
	static const struct cli_opt binds[] = {
		CLI_ENTRY("top", 0, "N", OPT_BY, NULL, CLI_OPT_HIDDEN,
			  .bind = CLI_BIND_NUMBER,
			  .at = CLI_AT(struct bound, top, long long), .max = 9),
		CLI_END,
	};
	char a0[] = "prof-y", a1[] = "-qo", a2[] = "r.md", a3[] = "--top=7",
	     a4[] = "--add", a5[] = "--floor", a6[] = "2.5", a7[] = "in";
	char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, NULL};
	struct bound b = {.output = "-"};
	struct cli_getopt g;
	int c, n = 0;

	optind = 1;
	ok(cli_opt_init(&g, t, NULL) == 0, "a bound table builds, its ids "
					     "given by the tables");
	while ((c = cli_opt_parse(&g, 8, argv, &b)) != -1)
		n += c == OPT_ADD ? 1 : 100;
	is_int(n, 1, "only the unbound option reaches the tool");
	ok(b.quiet == 1 && !strcmp(b.output, "r.md") && b.top == 7 &&
		   b.floor == 2.5,
	   "each bound option is stored in its field, by its type");
	is_str(argv[optind], "in", "the operand is left");
	ok(cli_opt_init(&g, shown, binds) == 0 && g.of[0]->bind ==
		   CLI_BIND_NUMBER,
	   "an option shown in one table and bound in the other is bound");
}

int
main(void)
{
	static const struct cli_opt more[] = {
		CLI_HIDDEN("threshold", 0, "PCT", OPT_OTHER),
		CLI_HIDDEN("output", 'o', "FILE", 'o'),
		CLI_END,
	};
	static const struct cli_opt twice[] = {
		CLI_FLAG("add", 0, OPT_ADD, "a"),
		CLI_OPTION("add", 0, "N", OPT_ADD, "b"),
		CLI_END,
	};
	static const struct cli_opt letter[] = {
		CLI_FLAG("add", 'a', 'a', "a"),
		CLI_FLAG("all", 'a', 'a', "b"),
		CLI_END,
	};
	static const struct cli_opt bad_id[] = {
		CLI_FLAG("add", 'a', OPT_ADD, "a"),
		CLI_END,
	};
	static const struct cli_opt no_letter[] = {
		CLI_OPTION("output", 0, "DIR", 'o', "o"),
		CLI_END,
	};
	char a0[] = "prof-x", a1[] = "--output=r", a2[] = "-q",
	     a3[] = "--threshold", a4[] = "5", a5[] = "-or2", a6[] = "--by",
	     a7[] = "x", a8[] = "--add", a9[] = "in";
	char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL};
	struct cli_getopt g;
	int got[8], n = 0, c, base = 0;

	plan(20);
	is_str(written(cli_opt_usage, opts), want_usage,
	       "--help: synopsis, paragraphs, a column per section, a long "
	       "term on its own line, brief options run in and filled");
	is_str(written(cli_opt_list, opts), want_list,
	       "--help-options: each option --help shows, as it names it, "
	       "and no hidden one");

	ok(cli_opt_init(&g, opts, more) == 0,
	   "a table with options named twice (same declaration) builds");
	is_str(names(&g),
	       "threshold:=260 output:=111 add=256 by:=257 quiet=113 help=104 "
	       "version=259 workloads:=258",
	       "getopt_long's table: each option once, the second table's "
	       "first (in getopt's messages, its order), never "
	       "--help-options (--hel would be ambiguous)");
	is_str(g.shortopts, "o:qh", "the short options, with ':' for an "
				    "argument");

	opterr = 0;
	optind = 1;
	/* None of them bound: cli_opt_parse() returns each to the switch (an
	 * unknown one would end the test: t0104 has them). */
	while (n < 8 && (c = cli_opt_parse(&g, 10, argv, &base)) != -1) {
		got[n++] = c;
		if (c == OPT_OTHER)
			is_str(optarg, "5", "a hidden option's argument");
		if (c == 'o' && n == 4)
			is_str(optarg, "r2", "-oFILE");
	}
	is_int(n, 6, "six options parsed");
	ok(n == 6 && got[0] == 'o' && got[1] == 'q' && got[2] == OPT_OTHER &&
		   got[3] == 'o' && got[4] == OPT_BY && got[5] == OPT_ADD,
	   "each returns its id");
	is_str(argv[optind], "in", "the operand is left");

	is_str(init_why(twice, NULL),
	       "option '--add' is declared twice, differently",
	       "an option declared twice, once with an argument, is refused");
	is_str(init_why(letter, NULL), "letter -a is of two options ('--all')",
	       "one letter for two options is refused");
	is_str(init_why(bad_id, NULL),
	       "option 'add': needs a name, and an id that is its letter or "
	       ">= 256",
	       "a letter whose id is not the letter is refused");
	is_str(init_why(no_letter, NULL),
	       "option 'output': needs a name, and an id that is its letter or "
	       ">= 256",
	       "an id that is a letter, without the letter, is refused (the "
	       "tool's case 'o' would be reached by --output alone)");
	is_str(init_why(more, twice), "option '--add' is declared twice, differently",
	       "the second table is checked too");
	parse_bound();
	return done();
}
