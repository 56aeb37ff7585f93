/* id.c: checking workload ids and baseline names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

static int
digits(const char *s, int n, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

int
prof_commit_time_valid(const char *t, char *utc, char *why, size_t why_n)
{
	static const char form[] = "YYYY-MM-DDTHH:MM:SS and Z or +HH:MM";
	int y, mo, d, h, mi, s, oh = 0, om = 0, sign = 0;
	struct tm tm = {0};
	time_t at;

	if (!t || !t[0])
		return say(why, why_n, "empty");
	if (strlen(t) < 20 || !digits(t, 4, &y) || t[4] != '-' ||
	    !digits(t + 5, 2, &mo) || t[7] != '-' || !digits(t + 8, 2, &d) ||
	    t[10] != 'T' || !digits(t + 11, 2, &h) || t[13] != ':' ||
	    !digits(t + 14, 2, &mi) || t[16] != ':' ||
	    !digits(t + 17, 2, &s))
		return say(why, why_n, "not ISO 8601 (%s)", form);
	if (!strcmp(t + 19, "Z"))
		sign = 0;
	else if ((t[19] == '+' || t[19] == '-') && strlen(t) == 25 &&
		 digits(t + 20, 2, &oh) && t[22] == ':' &&
		 digits(t + 23, 2, &om) && oh < 24 && om < 60)
		sign = t[19] == '+' ? 1 : -1;
	else
		return say(why, why_n, "not ISO 8601 (%s)", form);
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    s > 60)
		return say(why, why_n, "no such date or time");
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	at = timegm(&tm);
	if (tm.tm_mday != d)
		return say(why, why_n, "no such date or time");
	at -= (time_t)sign * (oh * 3600 + om * 60);
	if (utc) {
		gmtime_r(&at, &tm);
		strftime(utc, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
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
