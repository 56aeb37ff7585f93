/* range.c: numbers and times from outside, range-checked where they
 * enter the record. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/date.h"
#include "base/range.h"

int
prof_range_double(double v, double min, double max, const char *what,
		  const char *unit, struct prof_err *err)
{
	const char *sp = unit[0] ? " " : "";

	if (v >= min && v <= max)
		return 0;
	return prof_err_set(err, "%s %g%s%s is out of range (expected from "
			    "%g%s%s to %g%s%s)", what, v, sp, unit, min, sp,
			    unit, max, sp, unit);
}

int
prof_range_ms(double v, struct prof_err *err)
{
	if (v == 0 || (v >= PROF_MS_MIN && v <= PROF_MS_MAX))
		return 0;
	return prof_err_set(err, "%g ms cannot be judged (expected 0, or "
			    "from %g to %g ms)", v, PROF_MS_MIN, PROF_MS_MAX);
}

int
prof_range_count(const char *s, const char **end, long long min,
		 long long max, const char *what, long long *out,
		 struct prof_err *err)
{
	unsigned long long x;
	size_t digits;
	char *e;

	s += strspn(s, " \t");
	digits = strspn(s, "0123456789");
	if (!digits)
		return 1;
	errno = 0;
	x = strtoull(s, &e, 10);
	if (errno || x > (unsigned long long)LLONG_MAX ||
	    (long long)x < min || (long long)x > max)
		return prof_err_set(err, "%s %.*s%s is out of range (expected "
				    "a whole number from %lld to %lld)", what,
				    digits > 40 ? 40 : (int)digits, s,
				    digits > 40 ? "..." : "", min, max);
	*out = (long long)x;
	if (end)
		*end = e;
	return 0;
}

int
prof_range_real(const char *s, const char **end, double min, double max,
		const char *what, double *out, struct prof_err *err)
{
	double v;
	char *e;

	s += strspn(s, " \t");
	/* strtod would take "inf", "nan" and hex: no reader writes them */
	if (!strchr("0123456789+-.", *s) || !*s ||
	    !strncmp(s + strspn(s, "+-"), "0x", 2) ||
	    !strncmp(s + strspn(s, "+-"), "0X", 2))
		return 1;
	errno = 0;
	v = strtod(s, &e);
	if (e == s)
		return 1;
	/* an underflow is a value near 0, which the range judges */
	if (prof_range_double(v, min, max, what, "", err) < 0)
		return -1;
	*out = v;
	if (end)
		*end = e;
	return 0;
}

int
prof_range_add(long long *sum, long long x, const char *what,
	       struct prof_err *err)
{
	if (x > LLONG_MAX - *sum)
		return prof_err_set(err, "%s adds up to more than %lld", what,
				    LLONG_MAX);
	*sum += x;
	return 0;
}

int
prof_range_scale(long long v, double factor, const char *what,
		 long long *out, struct prof_err *err)
{
	double x = (double)v * factor;

	/* 2^63 is the first double beyond LLONG_MAX */
	if (!isfinite(x) || x >= 9223372036854775808.0 ||
	    x <= -9223372036854775808.0)
		return prof_err_set(err, "%s %lld times %g is out of range "
				    "(expected at most %lld)", what, v, factor,
				    LLONG_MAX);
	*out = llround(x);
	return 0;
}

int
prof_range_timestamp(const char *s, struct prof_err *err)
{
	return prof_date_parse(s, PROF_DATE_UTC, NULL, err);
}
