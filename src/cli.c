/* cli.c: messages, checked number parsing and the exit path of the tools. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_name = "prof";

void
cli_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	cli_name = slash ? slash + 1 : argv0;
}

static void
vsay(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cli_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cli_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void
cli_err(const struct prof_err *e)
{
	char buf[2048];

	fprintf(stderr, "%s: %s\n", cli_name, prof_err_str(e, buf, sizeof(buf)));
}

int
cli_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return PROF_EXIT_FAILURE;
}

int
cli_number(const char *opt, const char *s, long long min, long long max,
	   long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*s || errno || *end || v < min || v > max) {
		cli_say("%s: '%s' is not a whole number from %lld to %lld", opt,
			s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int
cli_real(const char *opt, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || *end || !isfinite(v) || v < 0) {
		cli_say("%s: '%s' is not a number >= 0", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

int
cli_finish(int rc)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_say("cannot write to stdout: %s", strerror(errno));
		return PROF_EXIT_FAILURE;
	}
	return rc;
}
