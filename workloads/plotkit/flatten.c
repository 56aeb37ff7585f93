/* flatten.c: plotkit flatten: an SVG's paths, points, length and pens. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/buf.h"
#include "engine/svg.h"
#include "plotkit.h"
#include "server/report.h"

static const char usage_text[] =
	"usage: plotkit flatten [--step MM] [--tolerance MM] FILE|-\n"
	"\n"
	"Read an SVG, flatten its curves into polylines in page millimetres\n"
	"and print one JSON object: paths, points, circles, length_mm (the\n"
	"pen-down length), bounds_mm [x0, y0, x1, y1], page_mm [w, h] and\n"
	"pens (paths per stroke colour).\n"
	"\n"
	"  --step MM       the longest chord of a flattened curve (0.5)\n"
	"  --tolerance MM  the farthest a chord may stray from the curve "
	"(0.01)\n"
	"Each is taken from 0.000001 to 1000000 mm.\n"
	"\n"
	"Exit status: 0 done, 2 bad arguments or a bad SVG (one line on\n"
	"stderr names the file and the line).\n";

/* The totals as one line of JSON: the same object POST /api/flatten gives. */
static int
report(const struct pk_drawing *d, const struct pk_svg_opts *o)
{
	struct pk_buf b;
	int rc = -1;

	pk_buf_init(&b);
	if (pk_report_flatten(d, &o->flatten, &b) < 0) {
		cli_error("out of memory");
		goto out;
	}
	rc = cli_write_stdout(b.data, b.len);
out:
	pk_buf_free(&b);
	return rc;
}

int
cmd_flatten(int argc, char **argv)
{
	static const struct option opts[] = {
		{"step", required_argument, NULL, 's'},
		{"tolerance", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pk_svg_opts o = {{PK_FLATTEN_STEP, PK_FLATTEN_TOL}, 0};
	struct pk_drawing d;
	struct pk_err err;
	char *buf = NULL;
	size_t len;
	int c, rc = PLOTKIT_EXIT_FAILURE;

	pk_drawing_init(&d);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (cli_parse_mm("--step", optarg, &o.flatten.step) < 0)
				goto out;
			break;
		case 't':
			if (cli_parse_mm("--tolerance", optarg,
					 &o.flatten.tol) < 0)
				goto out;
			break;
		case 'h':
			fputs(usage_text, stdout);
			rc = PLOTKIT_EXIT_OK;
			goto out;
		case ':':
			cli_error("flatten: option '%s' needs a value",
				  argv[optind - 1]);
			goto out;
		default:
			cli_error("flatten: unknown option '%s'",
				  argv[optind - 1]);
			fputs(usage_text, stderr);
			goto out;
		}
	}
	if (argc - optind != 1) {
		cli_error("flatten: give one FILE, or - for stdin");
		fputs(usage_text, stderr);
		goto out;
	}
	if (cli_read_file(argv[optind], &buf, &len) < 0)
		goto out;
	if (pk_svg_parse(buf, len, &o, &d, &err) < 0) {
		if (err.line > 0)
			cli_error("%s:%d: %s", cli_display_name(argv[optind]),
				  err.line, err.reason);
		else
			cli_error("%s: %s", cli_display_name(argv[optind]),
				  err.reason);
		goto out;
	}
	if (report(&d, &o) < 0)
		goto out;
	rc = PLOTKIT_EXIT_OK;
out:
	free(buf);
	pk_drawing_free(&d);
	return rc;
}
