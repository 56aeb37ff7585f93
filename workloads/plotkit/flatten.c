/* flatten.c: plotkit flatten: an SVG's paths, points, length and pens. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/buf.h"
#include "engine/color.h"
#include "engine/svg.h"
#include "plotkit.h"

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
	"\n"
	"Exit status: 0 done, 2 bad arguments or a bad SVG (one line on\n"
	"stderr names the file and the line).\n";

static void
json_num(struct pk_buf *b, const char *key, double v)
{
	pk_buf_printf(b, "\"%s\":", key);
	pk_buf_num(b, v, 6);
}

static int
report(const struct pk_drawing *d, const struct pk_svg_opts *o)
{
	struct pk_stats st;
	struct pk_buf b;
	size_t *counts = NULL, i;
	int first = 1, rc = -1;

	pk_buf_init(&b);
	pk_drawing_stats(d, &st);
	counts = calloc(d->npens ? d->npens : 1, sizeof(*counts));
	if (!counts) {
		cli_error("out of memory");
		goto out;
	}
	pk_drawing_pen_counts(d, counts);
	pk_buf_printf(&b, "{\"paths\":%zu,\"points\":%zu,\"circles\":%zu,",
		      st.paths, st.points, st.circles);
	json_num(&b, "length_mm", st.length_mm);
	pk_buf_str(&b, ",\"bounds_mm\":");
	if (st.paths) {
		for (i = 0; i < 4; i++) {
			pk_buf_str(&b, i ? "," : "[");
			pk_buf_num(&b, st.bounds[i], 6);
		}
		pk_buf_str(&b, "]");
	} else {
		pk_buf_str(&b, "null");
	}
	pk_buf_str(&b, ",\"page_mm\":[");
	pk_buf_num(&b, d->width_mm, 6);
	pk_buf_str(&b, ",");
	pk_buf_num(&b, d->height_mm, 6);
	pk_buf_str(&b, "],\"pens\":{");
	for (i = 0; i < d->npens; i++) {
		char name[8];

		if (!counts[i])
			continue;
		pk_color_name(d->pens[i], name);
		pk_buf_printf(&b, "%s\"%s\":%zu", first ? "" : ",", name,
			      counts[i]);
		first = 0;
	}
	pk_buf_str(&b, "},");
	json_num(&b, "step_mm", o->flatten.step);
	pk_buf_str(&b, ",");
	json_num(&b, "tolerance_mm", o->flatten.tol);
	pk_buf_str(&b, "}\n");
	if (b.oom) {
		cli_error("out of memory");
		goto out;
	}
	rc = cli_write_stdout(b.data, b.len);
out:
	free(counts);
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
