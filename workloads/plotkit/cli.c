/* cli.c: messages, file reading and number options for the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/flatten.h"
#include "plotkit.h"

int
cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("plotkit: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PLOTKIT_EXIT_FAILURE;
}

const char *
cli_display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

int
cli_read_file(const char *path, char **buf, size_t *len)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *p = NULL, *q;
	int rc = -1;

	if (!fp) {
		cli_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t got;

		if (!p || n + 1 >= cap) {
			if (p)
				cap *= 2;
			q = realloc(p, cap);
			if (!q) {
				cli_error("%s: out of memory",
					  cli_display_name(path));
				goto out;
			}
			p = q;
		}
		got = fread(p + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		cli_error("cannot read '%s': %s", cli_display_name(path),
			  strerror(errno));
		goto out;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	p = NULL;
	rc = 0;
out:
	free(p);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

int
cli_parse_mm(const char *opt, const char *arg, double *out)
{
	int rc = pk_flatten_parse_mm(arg, out);

	if (rc == -1)
		cli_error("%s: '%s' is not a positive number of millimetres",
			  opt, arg);
	else if (rc == -2)
		cli_error("%s: '%s' is out of range (" PK_FLATTEN_MM_RANGE
			  " millimetres)",
			  opt, arg);
	return rc < 0 ? -1 : 0;
}

int
cli_write_stdout(const void *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n || fflush(stdout) == EOF) {
		cli_error("cannot write to stdout: %s", strerror(errno));
		return -1;
	}
	return 0;
}
