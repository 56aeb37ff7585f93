/* lib-range.c: numbers and times from outside, range-checked where they
 * enter (range.h). */
#include <limits.h>
#include <string.h>

#include "base/range.h"
#include "tap.h"

/* The error each check fills; why() is its reason. */
static struct prof_err e;

static const char *
why(void)
{
	return e.reason;
}

static void
test_numbers(void)
{
	const char *end;
	long long x = 0;
	double d = 0;

	memset(&e, 0, sizeof(e));
	is_int(prof_range_count(" 9223372036854775807 5", &end, 0, LLONG_MAX,
				"a cost", &x, &e), 0, "INT64_MAX is a count");
	is_int(x, LLONG_MAX, "read whole");
	is_str(end, " 5", "and end is after it");
	is_int(prof_range_count("9223372036854775808", NULL, 0, LLONG_MAX,
				"a cost", &x, &e), -1, "one more is not");
	is_str(why(), "a cost 9223372036854775808 is out of range (expected "
		      "a whole number from 0 to 9223372036854775807)",
	       "named with the range");
	is_int(prof_range_count("x", NULL, 0, 10, "a cost", &x, &e), 1,
	       "no digits: 1, the caller says what was expected");
	is_int(prof_range_count("11", NULL, 0, 10, "a count", &x, &e), -1,
	       "above max");

	is_int(prof_range_real("1e-300 100", &end, 1, 1e12, "CALLS", &d, &e),
	       -1, "1e-300 calls is out of range");
	is_str(why(), "CALLS 1e-300 is out of range (expected from 1 to 1e+12)",
	       "said with the range");
	is_int(prof_range_real("inf", NULL, 1, 1e12, "CALLS", &d, &e), 1,
	       "inf is not a number here");
	is_int(prof_range_real("0x10", NULL, 1, 1e12, "CALLS", &d, &e), 1,
	       "nor hex");
	is_int(prof_range_real("+nan", NULL, 1, 1e12, "CALLS", &d, &e), -1,
	       "nan is out of every range");
	is_int(prof_range_real(" 2.5\n", &end, 1, 1e12, "CALLS", &d, &e), 0,
	       "2.5 is in range");
	is_num(d, 2.5, 0, "read");

	is_int(prof_range_ms(1e308, &e), -1, "1e308 ms cannot be judged");
	is_str(why(), "1e+308 ms cannot be judged (expected 0, or from 1e-09 "
		      "to 1e+09 ms)", "with the range");
	is_int(prof_range_ms(0, &e), 0, "0 ms can");
	is_int(prof_range_double(-1, 0, 100, "a steal", "%", &e), -1,
	       "a double below its range");
	is_str(why(), "a steal -1 % is out of range (expected from 0 % to "
		      "100 %)", "with its unit");
}

static void
test_sums(void)
{
	long long sum = LLONG_MAX - 1, x = 0;

	is_int(prof_range_add(&sum, 1, "the costs", &e), 0,
	       "a sum up to INT64_MAX");
	is_int(sum, LLONG_MAX, "is added");
	is_int(prof_range_add(&sum, 1, "the costs", &e), -1, "one beyond is not");
	is_int(sum, LLONG_MAX, "and the sum is kept");
	is_str(why(), "the costs adds up to more than 9223372036854775807",
	       "saying so");
	is_int(prof_range_scale(100, 1e9 / 100 / 1e-300, "a cost", &x, &e), -1,
	       "a cost times infinity");
	is_int(prof_range_scale(LLONG_MAX, 1, "a cost", &x, &e), -1,
	       "INT64_MAX as a double is 2^63, beyond");
	is_int(prof_range_scale(900, 0.5, "a cost", &x, &e), 0, "half of 900");
	is_int(x, 450, "is 450");
}

static void
test_timestamps(void)
{
	static const char *const good[] = {
		"2026-12-01T08:30:54Z", "2024-02-29T00:00:00Z",
		"2000-02-29T23:59:60Z", "0001-01-01T00:00:00Z", NULL};
	static const struct {
		const char *s, *why;
	} bad[] = {
		{"tomorrow", "not an RFC 3339 UTC time (expected "
			     "YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T08:30:54Z)"},
		{"2026-13-45T99:99:99Z", "month 13 is out of range (expected "
					 "01 to 12)"},
		{"2026-12-32T00:00:00Z", "day 32 is out of range (expected 01 to "
					 "31 in 2026-12)"},
		{"1900-02-29T00:00:00Z", "day 29 is out of range (expected 01 to "
					 "28 in 1900-02)"},
		{"2026-12-01T08:60:00Z", "minute 60 is out of range (expected 00 "
					 "to 59)"},
		{"2026-12-01T08:30:61Z", "second 61 is out of range (expected 00 "
					 "to 60)"},
		{"2026-12-01T08:30:54.5Z", "not a time to the second: fractional "
					   "seconds are not taken (expected "
					   "RFC 3339 UTC, "
					   "YYYY-MM-DDTHH:MM:SSZ)"},
		{"2026-12-1T08:30:54Z", NULL},
		{"2026-12-01 08:30:54Z", NULL},
		{"2026-12-01T08:30:54", NULL},
		{"2026-12-01T08:30:54Zx", NULL},
		{"2026-12-01T08:30:54+00:00", NULL},
		{"<b>2026-12-01T08:30:54Z", NULL},
		{"", NULL},
	};
	size_t i;
	int n = 0;

	for (i = 0; good[i]; i++)
		n += prof_range_timestamp(good[i], &e) == 0;
	is_int(n, 4, "real dates, a leap day and a leap second are taken");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[96];

		snprintf(name, sizeof(name), "'%s' is refused", bad[i].s);
		memset(&e, 0, sizeof(e));
		if (!ok(prof_range_timestamp(bad[i].s, &e) == -1, name))
			continue;
		if (bad[i].why)
			is_str(why(), bad[i].why, "saying why");
	}
}

int
main(void)
{
	plan(19 + 9 + 1 + 14 + 7);
	test_numbers();
	test_sums();
	test_timestamps();
	return done();
}
