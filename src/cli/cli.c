/* cli.c: messages, checked number parsing and the exit path of the tools. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/id.h"
#include "base/utf8.h"
#include "cli.h"

const char *cli_name = "prof";

void
cli_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	cli_name = slash ? slash + 1 : argv0;
}

/* A message is one line: a control character that a value brought in (a
 * reason, a path, a name) is written \xNN, never raw to a terminal or a
 * CI log. */
static void
vsay(const char *fmt, va_list ap)
{
	struct prof_buf b = {0};
	char small[1024];
	const char *buf = small;
	va_list aq;

	/* Whole however long; cut to small only out of memory. */
	va_copy(aq, ap);
	if (prof_buf_vprintf(&b, fmt, aq) == 0)
		buf = b.p ? b.p : "";
	else
		vsnprintf(small, sizeof(small), fmt, ap);
	va_end(aq);
	fprintf(stderr, "%s: ", cli_name);
	for (const char *p = buf; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fputc('\n', stderr);
	prof_buf_free(&b);
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
	char buf[2048], safe[4096];

	/* A JSON path or a reason may quote the input: keep it one line. */
	fprintf(stderr, "%s: %s\n", cli_name,
		cli_safe(prof_err_str(e, buf, sizeof(buf)), safe,
			 sizeof(safe)));
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
cli_date(const char *opt, const char *s, unsigned forms)
{
	struct prof_err err = {0};
	char safe[256];

	if (prof_date_parse(s, forms, NULL, &err) == 0)
		return 0;
	cli_say("%s: '%s': %s", opt, cli_safe(s, safe, sizeof(safe)),
		err.reason);
	return -1;
}

int
cli_project(const char *opt, const char *s)
{
	char why[128];

	if (prof_project_valid(s, why, sizeof(why)))
		return 0;
	cli_say("%s: '%.*s%s' is not a project name: %s", opt,
		(int)prof_utf8_cut(s, strlen(s), 40), s,
		strlen(s) > 40 ? "..." : "", why);
	return -1;
}

const char *
cli_safe(const char *s, char *buf, size_t n)
{
	size_t o = 0;

	if (!n)
		return buf;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char tmp[8];
		size_t k;

		if (c < 0x20 || c >= 0x7f)
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		else
			snprintf(tmp, sizeof(tmp), "%c", c);
		k = strlen(tmp);
		if (o + k + 4 > n) {
			if (n >= 4) {
				o = o + 3 < n ? o : n - 4;
				memcpy(buf + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(buf + o, tmp, k);
		o += k;
	}
	buf[o < n ? o : n - 1] = '\0';
	return buf;
}

int
cli_not_input(const char *opt, const char *output, const char *const *inputs,
	      int n)
{
	char safe[512];
	int i;

	for (i = 0; i < n; i++) {
		if (!prof_same_file(output, inputs[i]))
			continue;
		cli_say("%s: '%s' is an input%s; refusing to overwrite it",
			opt, cli_safe(output, safe, sizeof(safe)),
			inputs[i] && !strcmp(inputs[i], "-") ? " (stdin)" : "");
		return -1;
	}
	return 0;
}

int
cli_not_in_run(const char *dir, const char *never)
{
	char run[PATH_MAX], safe[512], rsafe[512];
	const char *m;

	cli_safe(dir, safe, sizeof(safe));
	switch (prof_in_run(dir, run, sizeof(run), &m)) {
	case 1:
		return cli_fail("'%s' is a run folder (it holds '%s'): %s; give "
				"another folder", safe, m, never);
	case 2:
		return cli_fail("'%s' is inside the run folder '%s' (it holds "
				"'%s'): %s; give a folder outside it", safe,
				cli_safe(run, rsafe, sizeof(rsafe)), m, never);
	case -1:
		return cli_fail("cannot read the current folder: %s",
				strerror(errno));
	}
	return 0;
}

/* What the signal handler writes: prepared outside it. */
static char sig_output[1024];
static int sig_stdout;

static void
put_str(const char *s)
{
	ssize_t k = write(STDERR_FILENO, s, strlen(s));

	(void)k;
}

/* Async-signal-safe: strlen(), write(), _exit() only. */
static void
on_signal(int sig)
{
	put_str(cli_name);
	put_str(sig == SIGINT ? ": interrupted by SIGINT; " :
		sig == SIGTERM ? ": interrupted by SIGTERM; " :
				 ": interrupted by SIGHUP; ");
	if (sig_stdout) {
		put_str("stdout may hold part of the output\n");
	} else {
		put_str("'");
		put_str(sig_output);
		put_str(prof_afile_committed() ?
				"' was written before the interrupt\n" :
				"' was not written (no temporary file is "
				"left)\n");
	}
	_exit(PROF_EXIT_FAILURE);
}

int
cli_trap_signals(const char *output)
{
	struct prof_err err = {0};

	sig_stdout = !strcmp(output, "-");
	cli_safe(output, sig_output, sizeof(sig_output));
	if (prof_afile_trap_signals(on_signal, &err) < 0) {
		cli_err(&err);
		return -1;
	}
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
