/* id.c: checking workload ids, baseline names, run ids and project names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/date.h"
#include "base/id.h"
#include "base/utf8.h"

#define ID_CHARS                                                               \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
#define ID_ALLOWED "letters, digits, '.', '_' and '-'"

static int say(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fill why (when given) and return 0, "not valid". */
static int
say(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why && n) {
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return 0;
}

/* A name's length checked: 1, or 0 (why says so) where it is missing,
 * empty or longer than PROF_ID_MAX bytes. */
static int
length_ok(const char *s, char *why, size_t why_n)
{
	if (!s)
		return say(why, why_n, "missing");
	if (!s[0])
		return say(why, why_n, "empty");
	if (strlen(s) > PROF_ID_MAX)
		return say(why, why_n, "longer than %d bytes", PROF_ID_MAX);
	return 1;
}

/* The byte c at offset at is not of the allowed set: 0, why saying it
 * as a character where it prints, else as a byte. */
static int
not_allowed(char *why, size_t why_n, unsigned char c, size_t at,
	    const char *allowed)
{
	if (c > 0x20 && c < 0x7f)
		return say(why, why_n, "'%c' at offset %zu is not allowed (%s)",
			   c, at, allowed);
	return say(why, why_n, "byte 0x%02x at offset %zu is not allowed (%s)",
		   c, at, allowed);
}

int
prof_id_valid(const char *id, char *why, size_t why_n)
{
	size_t n, bad;

	if (!length_ok(id, why, why_n))
		return 0;
	n = strlen(id);
	bad = strspn(id, ID_CHARS);
	if (bad < n)
		return not_allowed(why, why_n, (unsigned char)id[bad], bad,
				   ID_ALLOWED);
	if (id[0] == '.' || id[0] == '-' || id[0] == '_')
		return say(why, why_n,
			   "starts with '%c' (the first must be a letter or a "
			   "digit)",
			   id[0]);
	return 1;
}

#define COMMIT_ALLOWED "printable ASCII"

int
prof_commit_valid(const char *commit, char *why, size_t why_n)
{
	size_t n, i;
	unsigned char c;

	if (!length_ok(commit, why, why_n))
		return 0;
	n = strlen(commit);
	for (i = 0; i < n; i++) {
		c = (unsigned char)commit[i];
		if (c < 0x20 || c > 0x7e)
			return not_allowed(why, why_n, c, i, COMMIT_ALLOWED);
	}
	if (commit[0] == ' ' || commit[0] == '-')
		return say(why, why_n,
			   "starts with '%c' (never a space or an option)",
			   commit[0]);
	return 1;
}

int
prof_commit_time_valid(const char *t, char *utc, char *why, size_t why_n)
{
	struct prof_err err = {0};
	struct prof_date d;

	if (!t || !t[0])
		return say(why, why_n, "empty");
	if (prof_date_parse(t, PROF_DATE_UTC | PROF_DATE_OFFSET, &d, &err) < 0)
		return say(why, why_n, "%s", err.reason);
	if (utc)
		prof_date_utc(&d, utc);
	return 1;
}

int
prof_parent_valid(const char *sha, char *why, size_t why_n)
{
	size_t n = sha ? strlen(sha) : 0, i;

	if (n < 4 || n > 64)
		return say(why, why_n,
			   "'%.80s' is not 4 to 64 lowercase hex digits",
			   sha ? sha : "");
	for (i = 0; i < n; i++)
		if (!((sha[i] >= '0' && sha[i] <= '9') ||
		      (sha[i] >= 'a' && sha[i] <= 'f')))
			return say(why, why_n,
				   "'%.80s' is not 4 to 64 lowercase hex "
				   "digits", sha);
	return 1;
}

int
prof_project_valid(const char *name, char *why, size_t why_n)
{
	size_t n, i;

	if (!name)
		return say(why, why_n, "missing");
	n = strlen(name);
	if (n == 0)
		return say(why, why_n, "empty");
	if (n > PROF_PROJECT_MAX)
		return say(why, why_n, "longer than %d bytes (%zu)",
			   PROF_PROJECT_MAX, n);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c == 0x7f)
			return say(why, why_n,
				   "byte 0x%02x at offset %zu is a control "
				   "character", c, i);
	}
	if (!prof_utf8_valid(name, why, why_n))
		return 0;
	return 1;
}
