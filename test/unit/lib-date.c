/* lib-date.c: the one calendar of dates and times from outside (date.h). */
#include <string.h>

#include "base/date.h"
#include "tap.h"

static struct prof_err e;

/* The reason of s in forms, or "" when it is taken. */
static const char *
reason(const char *s, unsigned forms)
{
	memset(&e, 0, sizeof(e));
	return prof_date_parse(s, forms, NULL, &e) == 0 ? "" : e.reason;
}

static const char *
utc(const char *s)
{
	static char out[21];
	struct prof_date d;

	memset(&e, 0, sizeof(e));
	if (prof_date_parse(s, PROF_DATE_DAY | PROF_DATE_UTC |
				       PROF_DATE_OFFSET, &d, &e) < 0)
		return e.reason;
	prof_date_utc(&d, out);
	return out;
}

int
main(void)
{
	const unsigned day = PROF_DATE_DAY | PROF_DATE_UTC;

	plan(13);
	is_str(reason("2024-02-29", day), "", "a leap day");
	is_str(reason("2000-02-29", day), "", "2000 is a leap year");
	is_str(reason("2100-02-29", day),
	       "day 29 is out of range (expected 01 to 28 in 2100-02)",
	       "2100 is not");
	is_str(reason("2026-13-01", day),
	       "month 13 is out of range (expected 01 to 12)", "no month 13");
	is_str(reason("2026-00-10", day),
	       "month 00 is out of range (expected 01 to 12)", "no month 0");
	is_str(reason("2026-06-00", day),
	       "day 00 is out of range (expected 01 to 30 in 2026-06)",
	       "no day 0");
	is_str(reason("2026-01-01T23:59:60Z", day), "", "a leap second");
	is_str(reason("2026-01-01", PROF_DATE_UTC),
	       "not an RFC 3339 UTC time (expected YYYY-MM-DDTHH:MM:SSZ, e.g. "
	       "2026-12-01T08:30:54Z)", "a day where a time is asked for");
	is_str(reason("2026-01-01T00:00:00+01:00", day),
	       "not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ)",
	       "an offset where only UTC is taken");
	is_str(reason("2026-01-01T00:00:00+24:00",
		      PROF_DATE_UTC | PROF_DATE_OFFSET),
	       "not ISO 8601 (YYYY-MM-DDTHH:MM:SS and Z or +HH:MM)",
	       "an offset of 24 hours");
	is_str(utc("2026-03-01T00:30:00+01:00"), "2026-02-28T23:30:00Z",
	       "an offset east, back over the month's end");
	is_str(utc("2024-12-31T23:00:00-02:00"), "2025-01-01T01:00:00Z",
	       "an offset west, over the year's end");
	is_str(utc("2026-07-04"), "2026-07-04T00:00:00Z", "a day: its midnight");
	return done();
}
