/* id.c: checking workload ids and baseline names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "id.h"

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

int
prof_id_valid(const char *id, char *why, size_t why_n)
{
	size_t n, bad;
	unsigned char c;

	if (!id)
		return say(why, why_n, "missing");
	n = strlen(id);
	if (n == 0)
		return say(why, why_n, "empty");
	if (n > PROF_ID_MAX)
		return say(why, why_n, "longer than %d bytes", PROF_ID_MAX);
	bad = strspn(id, ID_CHARS);
	if (bad < n) {
		c = (unsigned char)id[bad];
		if (c > 0x20 && c < 0x7f)
			return say(why, why_n,
				   "'%c' at offset %zu is not allowed (%s)", c,
				   bad, ID_ALLOWED);
		return say(why, why_n,
			   "byte 0x%02x at offset %zu is not allowed (%s)", c,
			   bad, ID_ALLOWED);
	}
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

	if (!commit)
		return say(why, why_n, "missing");
	n = strlen(commit);
	if (n == 0)
		return say(why, why_n, "empty");
	if (n > PROF_ID_MAX)
		return say(why, why_n, "longer than %d bytes", PROF_ID_MAX);
	for (i = 0; i < n; i++) {
		c = (unsigned char)commit[i];
		if (c < 0x20 || c > 0x7e)
			return say(why, why_n,
				   "byte 0x%02x at offset %zu is not allowed "
				   "(%s)",
				   c, i, COMMIT_ALLOWED);
	}
	if (commit[0] == ' ' || commit[0] == '-')
		return say(why, why_n,
			   "starts with '%c' (never a space or an option)",
			   commit[0]);
	return 1;
}
