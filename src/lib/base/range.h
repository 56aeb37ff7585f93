/* range.h: numbers and times from outside, range-checked where they enter
 * the record. */
#ifndef PROF_RANGE_H
#define PROF_RANGE_H

#include "base/err.h"

/*
 * Every reader of a file takes the numbers it reads through these: the
 * sample and results reader (sample.c: times in ms, timestamps), the
 * browser rows (browser.c), callgrind dumps (callgrind.c: costs, counts
 * and their sums) and the CALLS HZ files beside CPU profiles. A value the
 * record cannot hold, or that would overflow a sum, a ratio or a scaled
 * cost, is refused there, and the reason names the value and the range it
 * must lie in; the caller gives the place (prof_err_at() for a line and
 * column, prof_err_path() for a JSON path). Each function returns 0, or
 * -1 with err's reason set (and its place left as it was).
 */

/* v within [min, max] (so finite): "WHAT V is out of range (expected from
 * MIN to MAX)", with unit after each number when it is not "". */
int prof_range_double(double v, double min, double max, const char *what,
		      const char *unit, struct prof_err *err);

/*
 * The times a sample may hold (duration_ms, warning_floor_ms): 0, or from
 * one picosecond to about eleven days. A call prof times itself is
 * rounded to its clock's nanosecond (prof_sample_succeed()); a Google
 * Benchmark iteration is a loop's mean, finer than that (gbench.h).
 * Outside that range a comparison cannot be judged (a ratio to a
 * denormal, a delta beyond int64 nanoseconds).
 */
#define PROF_MS_MIN 1e-9
#define PROF_MS_MAX 1e9
int prof_range_ms(double v, struct prof_err *err);

/*
 * A whole number in decimal digits at s (blanks before it skipped), from
 * min to max (min >= 0): *out gets it, *end (when not NULL) the first byte
 * after it. Digits beyond 64 bits are out of range, not cut or wrapped.
 * Returns 0, 1 when s holds no digits (nothing set; the caller says what
 * was expected there), or -1 with err when it is out of range.
 */
int prof_range_count(const char *s, const char **end, long long min,
		     long long max, const char *what, long long *out,
		     struct prof_err *err);

/* A decimal number (strtod's forms, no hex, no inf or nan) at s, blanks
 * before it skipped, from min to max; as prof_range_count(). */
int prof_range_real(const char *s, const char **end, double min, double max,
		    const char *what, double *out, struct prof_err *err);

/* *sum += x (both >= 0) when the sum fits in 64 bits; else -1 with "WHAT
 * adds up to more than 9223372036854775807" and *sum as it was. */
int prof_range_add(long long *sum, long long x, const char *what,
		   struct prof_err *err);

/* llround(v * factor) into *out when it is finite and fits in 64 bits;
 * else -1 with "WHAT V times F is out of range". */
int prof_range_scale(long long v, double factor, const char *what,
		     long long *out, struct prof_err *err);

/*
 * A time as every record holds it: RFC 3339 in UTC, to the second,
 * YYYY-MM-DDTHH:MM:SSZ (2026-12-01T08:30:54Z): a real date (the month's
 * days, leap years), hours 00-23, minutes 00-59, seconds 00-60 (a leap
 * second), upper-case T and Z. Fractional seconds and offsets are
 * refused: the history orders runs by this text, and only one form of a
 * time sorts as the times do (54.5Z would sort before 54Z). Returns 0, or
 * -1 with err saying which part is wrong.
 */
int prof_range_timestamp(const char *s, struct prof_err *err);

#endif /* PROF_RANGE_H */
