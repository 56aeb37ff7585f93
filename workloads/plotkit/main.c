/* main.c: bin/plotkit, the plotter engine on the command line. */
#include <stdio.h>
#include <string.h>

#include "plotkit.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"flatten", cmd_flatten,
	 "read an SVG, flatten it and print its totals as JSON"},
	{"serve", cmd_serve, "serve the viewer and the engine's API over HTTP"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
usage(FILE *fp)
{
	size_t i;

	fputs("usage: plotkit <command> [<args>]\n"
	      "\n"
	      "The pen-plotter engine that prof's reference workloads run.\n"
	      "\n"
	      "commands:\n",
	      fp);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'plotkit <command> --help' describes one command.\n", fp);
}

int
main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return PLOTKIT_EXIT_FAILURE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return PLOTKIT_EXIT_OK;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return cli_error("unknown command '%s' (see 'plotkit --help')",
			 argv[1]);
}
