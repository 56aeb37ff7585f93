/* date.h: the one reader of the dates and times that come from outside. */
#ifndef PROF_DATE_H
#define PROF_DATE_H

#include "base/err.h"

/*
 * Every date or time a tool takes goes through prof_date_parse(): the
 * records' timestamps (prof_range_timestamp(), range.h), a commit's time
 * (prof_commit_time_valid(), id.h), prof-merge's --timestamp and
 * --commit-time, prof-history prune's --before. So one calendar decides
 * what a day is: the month's days (leap years by the Gregorian rule),
 * hours 00-23, minutes 00-59, seconds 00-60 (a leap second); 2026-13-01,
 * 2026-02-30 and 24:00 are no times, whatever reads them.
 *
 * The forms a caller takes, one or more of:
 */
#define PROF_DATE_DAY 1u    /* YYYY-MM-DD */
#define PROF_DATE_UTC 2u    /* YYYY-MM-DDTHH:MM:SSZ (RFC 3339 in UTC) */
#define PROF_DATE_OFFSET 4u /* YYYY-MM-DDTHH:MM:SS+HH:MM (or -HH:MM) */

/* A date or time as read; the time fields are 0 for a day. */
struct prof_date {
	int year, month, day, hour, minute, second;
	int offset_min;	/* minutes east of UTC (PROF_DATE_OFFSET) */
	unsigned form;	/* the one of PROF_DATE_* that s was in */
};

/*
 * s in one of forms: 0 with *d (when not NULL), or -1 with err's reason
 * (its place left as it was). A text in none of the forms says which it
 * expected, by the forms asked for: "not an RFC 3339 UTC time (expected
 * YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T08:30:54Z)" (PROF_DATE_UTC), "not
 * ISO 8601 (YYYY-MM-DDTHH:MM:SS and Z or +HH:MM)" (with an offset), "not
 * a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ)" (a day or a UTC time);
 * fractional seconds are named as such. A field out of range names it:
 * "month 13 is out of range (expected 01 to 12)", "day 30 is out of range
 * (expected 01 to 28 in 2026-02)", "hour 24 is out of range (expected 00
 * to 23)".
 */
int prof_date_parse(const char *s, unsigned forms, struct prof_date *d,
		    struct prof_err *err);

/* d's moment in UTC, as YYYY-MM-DDTHH:MM:SSZ (21 bytes with the NUL),
 * which sorts as time does; a day is its midnight. */
void prof_date_utc(const struct prof_date *d, char out[21]);

#endif /* PROF_DATE_H */
