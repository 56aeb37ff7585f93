/* opt.c: a tool's option table made into getopt_long's tables, its --help
 * text and the list of its options (cli.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A term longer than this goes on a line of its own, its help below it. */
#define TERM_MAX 22
/* The run-in list of brief options is filled to this width. */
#define LIST_WIDTH 72
/* The ids the tables give bound options without one: past any enum's. */
#define CLI_AUTO_ID 0x10000

/* "-o, --output FILE", "--add": how --help and --help-options name it. */
static void
term(const struct cli_opt *o, char *buf, size_t n)
{
	char letter[8] = "";

	if (o->letter)
		snprintf(letter, sizeof(letter), "-%c, ", o->letter);
	snprintf(buf, n, "%s--%s%s%s", letter, o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
}

/* Text whose '\n's each start a line that begins with indent spaces. */
static void
put_indented(const char *s, int indent, FILE *fp)
{
	for (; *s; s++) {
		fputc(*s, fp);
		if (*s == '\n' && s[1])
			fprintf(fp, "%*s", indent, "");
	}
	fputc('\n', fp);
}

static int
shown(const struct cli_opt *o)
{
	return o->kind == CLI_KIND_OPTION && !(o->flags & CLI_OPT_HIDDEN);
}

/* The help column of the run of options that starts at o: two spaces,
 * the longest term that fits TERM_MAX, two spaces. */
static int
help_column(const struct cli_opt *o)
{
	char buf[256];
	int w = 0;

	for (; o->kind == CLI_KIND_OPTION; o++) {
		int k;

		if (!shown(o) || (o->flags & CLI_OPT_BRIEF))
			continue;
		term(o, buf, sizeof(buf));
		k = (int)strlen(buf);
		if (k <= TERM_MAX && k > w)
			w = k;
	}
	return 2 + w + 2;
}

/* Write one word of a filled list: a new line, indented 2, when it would
 * pass LIST_WIDTH. */
static void
put_word(const char *w, int *col, FILE *fp)
{
	int k = (int)strlen(w);

	if (*col > 2 && *col + 1 + k > LIST_WIDTH) {
		fputs("\n  ", fp);
		*col = 2;
	} else if (*col > 2) {
		fputc(' ', fp);
		(*col)++;
	}
	fputs(w, fp);
	*col += k;
}

/* The brief options from o on, "--a N, --b; HELP" filled to LIST_WIDTH;
 * returns the last one written. */
static const struct cli_opt *
put_brief(const struct cli_opt *o, FILE *fp)
{
	const char *help = o->text;
	char buf[256];
	int col = 2;

	fputs("  ", fp);
	for (;;) {
		const struct cli_opt *next = o + 1;
		const char *end;
		int last;

		while (next->kind == CLI_KIND_OPTION && !shown(next))
			next++;
		last = !(next->kind == CLI_KIND_OPTION &&
			 (next->flags & CLI_OPT_BRIEF));
		end = !last ? "," : help ? ";" : "";
		/* By its long name; it and its argument stay on one line. */
		snprintf(buf, sizeof(buf), "--%s%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "", end);
		put_word(buf, &col, fp);
		if (last)
			break;
		o = next;
	}
	/* The help, word by word: its own line breaks are refilled. */
	for (const char *p = help; p && *p;) {
		size_t k = strcspn(p, " \n");

		if (k && k < sizeof(buf)) {
			memcpy(buf, p, k);
			buf[k] = '\0';
			put_word(buf, &col, fp);
		}
		p += k;
		p += strspn(p, " \n");
	}
	fputc('\n', fp);
	return o;
}

void
cli_opt_usage(const struct cli_opt *opts, FILE *fp)
{
	const struct cli_opt *o, *prev = NULL;
	int usages = 0, col = 0, any = 0;
	char buf[256];

	for (o = opts; o->kind != CLI_KIND_END; prev = o, o++) {
		if (o->kind != CLI_KIND_OPTION || shown(o))
			any++;
		switch (o->kind) {
		case CLI_KIND_USAGE:
			fputs(usages++ ? "       " : "usage: ", fp);
			put_indented(o->text, 7, fp);
			break;
		case CLI_KIND_TEXT:
		case CLI_KIND_GROUP:
			/* A paragraph: a blank line after what came before. */
			if (any > 1)
				fputc('\n', fp);
			put_indented(o->text, 0, fp);
			break;
		case CLI_KIND_OPTION:
			if (!prev || prev->kind != CLI_KIND_OPTION)
				col = help_column(o);
			if (!shown(o))
				break;
			if (o->flags & CLI_OPT_BRIEF) {
				o = put_brief(o, fp);
				break;
			}
			term(o, buf, sizeof(buf));
			if (!o->text) {
				fprintf(fp, "  %s\n", buf);
				break;
			}
			if (2 + (int)strlen(buf) + 2 > col)
				fprintf(fp, "  %s\n%*s", buf, col, "");
			else
				fprintf(fp, "  %-*s", col - 2, buf);
			put_indented(o->text, col, fp);
			break;
		case CLI_KIND_END:
			break;
		}
	}
}

void
cli_opt_list(const struct cli_opt *opts, FILE *fp)
{
	char buf[256];

	for (; opts->kind != CLI_KIND_END; opts++) {
		if (!shown(opts))
			continue;
		term(opts, buf, sizeof(buf));
		fprintf(fp, "%s\n", buf);
	}
}

/* Add o to g's tables unless it is there; -1 when it is there otherwise. */
static int
add(struct cli_getopt *g, int *n, const struct cli_opt *o)
{
	char *why = g->why;
	size_t wn = sizeof(g->why);
	int has_arg = o->arg ? required_argument : no_argument;
	char *s = g->shortopts + strlen(g->shortopts);
	int i;

	/* An id below 256 is what getopt_long returns for a letter: an
	 * option with such an id and no letter of its own would take the
	 * letter's case in the tool's switch while -LETTER is refused. A
	 * bound option may leave its id to the tables (0). */
	if (!o->name || !o->name[0] || o->id < 0 ||
	    (o->id == 0 && o->bind == CLI_BIND_NONE) ||
	    (o->id && (o->id < 256 ? o->id != o->letter : o->letter != 0))) {
		snprintf(why, wn, "option '%s': needs a name, and an id that "
			 "is its letter or >= 256", o->name ? o->name : "");
		return -1;
	}
	for (i = 0; i < *n; i++) {
		const struct option *l = &g->longopts[i];
		const struct cli_opt *was = g->of[i];

		if (strcmp(l->name, o->name))
			continue;
		if (l->has_arg != has_arg || was->id != o->id ||
		    was->letter != o->letter ||
		    (o->bind && was->bind &&
		     (o->bind != was->bind || o->at != was->at ||
		      o->min != was->min || o->max != was->max))) {
			snprintf(why, wn, "option '--%s' is declared twice, "
				 "differently", o->name);
			return -1;
		}
		/* The binding, where only this one has it. */
		if (o->bind && !was->bind)
			g->of[i] = o;
		return 0;
	}
	if (o->letter) {
		const char *at = strchr(g->shortopts, o->letter);

		if (at) {
			snprintf(why, wn, "letter -%c is of two options ('--%s')",
				 o->letter, o->name);
			return -1;
		}
	}
	if (*n == CLI_OPT_MAX) {
		snprintf(why, wn, "more than %d options", CLI_OPT_MAX);
		return -1;
	}
	g->of[*n] = o;
	g->longopts[*n] = (struct option){o->name, has_arg, NULL,
					  o->id ? o->id : CLI_AUTO_ID + *n};
	(*n)++;
	if (o->letter) {
		*s++ = (char)o->letter;
		if (o->arg)
			*s++ = ':';
		*s = '\0';
	}
	return 0;
}

int
cli_opt_init(struct cli_getopt *g, const struct cli_opt *opts,
	     const struct cli_opt *more)
{
	/* more first: a shared parser's list keeps its order in getopt's
	 * messages ("possibilities: '--against' '--against-output' ...");
	 * what only the tool's table has follows. */
	const struct cli_opt *tables[] = {more, opts};
	int k = 0;

	memset(g, 0, sizeof(*g));
	g->opts = opts;
	for (size_t t = 0; t < 2; t++) {
		for (const struct cli_opt *o = tables[t]; o && o->kind; o++) {
			if (o->kind == CLI_KIND_OPTION &&
			    add(g, &k, o) < 0)
				return -1;
		}
	}
	g->longopts[k] = (struct option){NULL, 0, NULL, 0};
	return 0;
}

/* getopt_long() over g's tables, --help-options alone done here
 * (cli_opt_parse()). */
static int
opt_next(const struct cli_getopt *g, int argc, char **argv)
{
	/* --help-options is the whole command line, never in getopt_long's
	 * table: there it would make --he and --hel (abbreviations of
	 * --help) ambiguous and join every list of an ambiguous option's
	 * possibilities. */
	if (optind <= 1 && argc == 2 && !strcmp(argv[1], "--help-options")) {
		cli_opt_list(g->opts, stdout);
		exit(cli_finish(PROF_EXIT_OK));
	}
	return getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
}

/* The entry getopt_long's c stands for: a long option's, or a letter's. */
static const struct cli_opt *
entry_of(const struct cli_getopt *g, int c)
{
	for (size_t i = 0; i < CLI_OPT_MAX && g->longopts[i].name; i++)
		if (g->longopts[i].val == c)
			return g->of[i];
	return NULL;
}

/* The tool's name, as its first usage line begins. */
static void
put_version(const struct cli_opt *opts)
{
	const char *name = cli_name;

	for (; opts->kind != CLI_KIND_END; opts++)
		if (opts->kind == CLI_KIND_USAGE) {
			name = opts->text;
			break;
		}
	printf("%.*s %s\n", (int)strcspn(name, " \n"), name, PROF_VERSION);
}

int
cli_opt_parse(const struct cli_getopt *g, int argc, char **argv, void *base)
{
	char flag[80];
	int c;

	for (;;) {
		const struct cli_opt *o;
		char *at;
		int bad;

		c = opt_next(g, argc, argv);
		if (c == -1)
			return -1;
		o = entry_of(g, c);
		if (!o) {
			/* getopt_long said why ('?'). */
			cli_opt_usage(g->opts, stderr);
			exit(PROF_EXIT_FAILURE);
		}
		at = (char *)base + o->at;
		snprintf(flag, sizeof(flag), "--%s", o->name);
		switch (o->bind) {
		case CLI_BIND_NONE:
			return c;
		case CLI_BIND_HELP:
			cli_opt_usage(g->opts, stdout);
			exit(cli_finish(PROF_EXIT_OK));
		case CLI_BIND_VERSION:
			put_version(g->opts);
			exit(cli_finish(PROF_EXIT_OK));
		case CLI_BIND_STRING:
			*(const char **)(void *)at = optarg;
			break;
		case CLI_BIND_TRUE:
			*(int *)(void *)at = 1;
			break;
		case CLI_BIND_NUMBER:
			bad = cli_number(flag, optarg, o->min, o->max,
					 (long long *)(void *)at);
			if (bad)
				exit(PROF_EXIT_FAILURE);
			break;
		case CLI_BIND_REAL:
			if (cli_real(flag, optarg, (double *)(void *)at))
				exit(PROF_EXIT_FAILURE);
			break;
		}
	}
}

int
cli_opt_parse_all(const struct cli_opt *opts, int argc, char **argv,
		  void *base)
{
	struct cli_getopt g;
	const struct cli_opt *o;
	int c;

	if (cli_opt_init(&g, opts, NULL) < 0) {
		cli_say("%s", g.why);
		return -1;
	}
	c = cli_opt_parse(&g, argc, argv, base);
	if (c == -1)
		return 0;
	o = entry_of(&g, c);
	cli_say("option '--%s' is bound to no variable", o ? o->name : "?");
	return -1;
}
