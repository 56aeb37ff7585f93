/* date.c: dates and times from outside, read by one calendar (date.h). */
#include <stdio.h>
#include <string.h>

#include "base/date.h"

/* n digits at s as a number; -1 when one is not a digit. */
static int
digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* What forms expects, for the message of a text in none of them. */
static const char *
expected(unsigned forms)
{
	if (forms & PROF_DATE_OFFSET)
		return "YYYY-MM-DDTHH:MM:SS and Z or +HH:MM";
	if ((forms & PROF_DATE_DAY) && (forms & PROF_DATE_UTC))
		return "YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ";
	if (forms & PROF_DATE_DAY)
		return "YYYY-MM-DD";
	return "RFC 3339 UTC, YYYY-MM-DDTHH:MM:SSZ";
}

static int
not_a_date(unsigned forms, struct prof_err *err)
{
	if (forms & PROF_DATE_OFFSET)
		return prof_err_set(err, "not ISO 8601 (%s)", expected(forms));
	if (forms & PROF_DATE_DAY)
		return prof_err_set(err, "not a date (%s)", expected(forms));
	return prof_err_set(err, "not an RFC 3339 UTC time (expected "
			    "YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T08:30:54Z)");
}

static int
leap(int year)
{
	return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

static int
month_days(int year, int month)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};

	return mdays[month - 1] + (month == 2 && leap(year));
}

int
prof_date_parse(const char *s, unsigned forms, struct prof_date *d,
		struct prof_err *err)
{
	struct prof_date x = {0};
	const char *t;
	int oh, om;

	if (!s || digits(s, 4) < 0 || s[4] != '-' || digits(s + 5, 2) < 0 ||
	    s[7] != '-' || digits(s + 8, 2) < 0)
		return not_a_date(forms, err);
	x.year = digits(s, 4);
	x.month = digits(s + 5, 2);
	x.day = digits(s + 8, 2);
	if (!s[10]) {
		x.form = PROF_DATE_DAY;
	} else {
		if (s[10] != 'T' || digits(s + 11, 2) < 0 || s[13] != ':' ||
		    digits(s + 14, 2) < 0 || s[16] != ':' ||
		    digits(s + 17, 2) < 0)
			return not_a_date(forms, err);
		x.hour = digits(s + 11, 2);
		x.minute = digits(s + 14, 2);
		x.second = digits(s + 17, 2);
		t = s + 19;
		if ((*t == '.' || *t == ',') && (forms & ~PROF_DATE_DAY))
			return prof_err_set(err, "not a time to the second: "
					    "fractional seconds are not taken "
					    "(expected %s)", expected(forms));
		if (!strcmp(t, "Z")) {
			x.form = PROF_DATE_UTC;
		} else if ((*t == '+' || *t == '-') && strlen(t) == 6 &&
			   (oh = digits(t + 1, 2)) >= 0 && t[3] == ':' &&
			   (om = digits(t + 4, 2)) >= 0 && oh < 24 && om < 60) {
			x.form = PROF_DATE_OFFSET;
			x.offset_min = (*t == '+' ? 1 : -1) * (oh * 60 + om);
		} else {
			return not_a_date(forms, err);
		}
	}
	/* Z is a form of its own, and one of the offsets too. */
	if (!(x.form & forms) &&
	    !(x.form == PROF_DATE_UTC && (forms & PROF_DATE_OFFSET)))
		return not_a_date(forms, err);
	if (x.month < 1 || x.month > 12)
		return prof_err_set(err, "month %02d is out of range (expected "
				    "01 to 12)", x.month);
	if (x.day < 1 || x.day > month_days(x.year, x.month))
		return prof_err_set(err, "day %02d is out of range (expected "
				    "01 to %02d in %.7s)", x.day,
				    month_days(x.year, x.month), s);
	if (x.hour > 23)
		return prof_err_set(err, "hour %02d is out of range (expected "
				    "00 to 23)", x.hour);
	if (x.minute > 59)
		return prof_err_set(err, "minute %02d is out of range (expected "
				    "00 to 59)", x.minute);
	if (x.second > 60)
		return prof_err_set(err, "second %02d is out of range (expected "
				    "00 to 60)", x.second);
	if (d)
		*d = x;
	return 0;
}

/* Days since 1970-01-01 of a day of the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil), and back. */
static long long
days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void
civil_from_days(long long z, long long *y, int *m, int *d)
{
	long long era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

void
prof_date_utc(const struct prof_date *d, char out[21])
{
	long long t = days_from_civil(d->year, d->month, d->day) * 86400 +
		      d->hour * 3600 + d->minute * 60 + d->second -
		      d->offset_min * 60LL;
	long long days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
	long long sec = t - days * 86400, y;
	int m, dd;

	civil_from_days(days, &y, &m, &dd);
	/* (an offset can move year 0000 or 9999 out of four digits) */
	y = y < 0 ? 0 : y > 9999 ? 9999 : y;
	snprintf(out, 21, "%04u-%02u-%02uT%02u:%02u:%02uZ",
		 (unsigned)y % 10000u, (unsigned)m % 100u, (unsigned)dd % 100u,
		 (unsigned)(sec / 3600) % 100u, (unsigned)(sec / 60) % 60u,
		 (unsigned)sec % 60u);
}
