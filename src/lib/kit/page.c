/* page.c: escaping, CSP hashes, axis ticks and number formats of the pages. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"
#include "kit/page.h"
#include "prof/sum.h"
#include "verdict/channels.h"

void
prof_page_esc_cut(FILE *fp, const char *s, size_t max)
{
	prof_utf8_html(fp, s, max);
}

void
prof_page_esc(FILE *fp, const char *s)
{
	prof_utf8_html(fp, s, (size_t)-1);
}

void
prof_page_esc_url(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			fputc(c, fp);
		else
			fprintf(fp, "%%%02X", c);
	}
}

static int
hex_digit(char c)
{
	return c >= 'a' ? c - 'a' + 10 : c - '0';
}

int
prof_page_csp(char out[PROF_PAGE_CSP], const char *text)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				  "qrstuvwxyz0123456789+/";
	unsigned char d[33] = {0};
	char hex[PROF_SUM_HEX];
	struct prof_sum s;
	size_t i, j = 0;

	out[0] = '\0';
	if (prof_sum_init(&s) < 0)
		return -1;
	prof_sum_raw(&s, text, strlen(text));
	prof_sum_final(&s, hex);
	if (strlen(hex) != 64)
		return -1;
	for (i = 0; i < 32; i++)
		d[i] = (unsigned char)(hex_digit(hex[2 * i]) << 4 |
				       hex_digit(hex[2 * i + 1]));
	j = (size_t)snprintf(out, PROF_PAGE_CSP, "'sha256-");
	/* 32 bytes: ten groups of three, then two bytes and one '='. */
	for (i = 0; i < 32; i += 3) {
		unsigned v = (unsigned)d[i] << 16 | (unsigned)d[i + 1] << 8 |
			     (i + 2 < 32 ? d[i + 2] : 0);

		out[j++] = b64[v >> 18 & 63];
		out[j++] = b64[v >> 12 & 63];
		out[j++] = b64[v >> 6 & 63];
		out[j++] = i + 2 < 32 ? b64[v & 63] : '=';
	}
	out[j++] = '\'';
	out[j] = '\0';
	return 0;
}

/* A round step, 1, 2 or 5 times a power of ten, of about (hi - lo) / per
 * (halves first: the width of [-DBL_MAX, DBL_MAX] is not a double). */
static double
round_step(double lo, double hi, double per)
{
	double raw = (hi / 2 - lo / 2) / (per / 2), mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/*
 * The multiples of s inside [lo, hi], at most max of them (the first),
 * counted by index before any is written: adding steps never ends where
 * a step is below the doubles' spacing. Each is greater than the one
 * before. Returns their number; *all whether none was left out.
 */
static int
multiples(double lo, double hi, double s, double *tick, int max, int *all)
{
	double k0, k1, t;
	int n = 0;
	long i;

	*all = 0;
	if (!isfinite(lo) || !isfinite(hi) || !(hi >= lo))
		return 0;
	k0 = ceil(lo / s);
	k1 = floor(hi / s + 1e-9);
	if (!isfinite(k0) || !isfinite(k1) || k1 < k0)
		return 0;
	*all = k1 - k0 < max;
	if (!*all)
		k1 = k0 + max - 1;
	for (i = 0; i <= (long)(k1 - k0); i++) {
		t = (k0 + (double)i) * s;
		if (!n || t > tick[n - 1])
			tick[n++] = t;
	}
	return n;
}

int
prof_page_ticks(double lo, double hi, double tick[PROF_PAGE_MAX_TICKS],
		double *step)
{
	int all;

	*step = round_step(lo, hi, 4);
	return multiples(lo, hi, *step, tick, PROF_PAGE_MAX_TICKS, &all);
}

void
prof_page_pad(double *lo, double *hi)
{
	double half = *hi / 2 - *lo / 2, mid = *lo / 2 + *hi / 2,
	       least = fmax(fmax(fabs(*lo), fabs(*hi)) * 1e-9, 1e-5);
	int from_zero = *lo >= 0;

	if (!(half > 0))
		half = fabs(*hi) > 0 ? fabs(*hi) * 0.008 : 0.08;
	else
		half *= 1.16;
	if (half < least)
		half = least;
	*lo = fmax(mid - half, -DBL_MAX);
	*hi = fmin(mid + half, DBL_MAX);
	if (*lo < 0 && from_zero)
		*lo = 0;
}

/* Room above the highest value (and below the lowest of a zoom), as a
 * fraction of the values' span. */
#define PAD 0.05

static double
clamp(double v)
{
	return fmax(fmin(v, DBL_MAX), -DBL_MAX);
}

/* A fitted axis's ticks: about five, the step doubled until they are at
 * most PROF_PAGE_AXIS_TICKS. */
static void
axis_ticks(struct prof_page_axis *a)
{
	double s = round_step(a->lo, a->hi, 5);
	int tries, all = 0;

	a->n = 0;
	for (tries = 0; tries < 64; tries++) {
		a->n = multiples(a->lo, a->hi, s, a->tick,
				 PROF_PAGE_AXIS_TICKS, &all);
		if (all || !a->n)
			break;
		s *= 2;
	}
	a->step = s;
	if (!all)
		a->n = 0;
}

int
prof_page_axis_fit(struct prof_page_axis *a, double lo, double hi,
		   double least)
{
	memset(a, 0, sizeof(*a));
	if (!isfinite(lo) || !isfinite(hi) || lo > hi)
		return -1;
	if (!(least >= 0) || !isfinite(least))
		least = 0;
	if (lo == 0 && hi == 0) {
		a->hi = 1;
	} else if (lo <= 0 && hi >= 0) {
		/* The values hold zero: their own range, padded. */
		double span = hi / 2 - lo / 2;

		a->lo = lo < 0 ? clamp(lo - 2 * PAD * span) : 0;
		a->hi = hi > 0 ? clamp(hi + 2 * PAD * span) : 0;
	} else if (lo > 0 && lo <= hi / 2) {
		a->hi = clamp(hi * (1 + PAD));
	} else if (hi < 0 && hi >= lo / 2) {
		a->lo = clamp(lo * (1 + PAD));
	} else {
		double mid = lo / 2 + hi / 2, level = fabs(mid);
		double half = (hi / 2 - lo / 2) * (1 + 2 * PAD);

		half = fmax(half, least * level / 2);
		/* Values a few doubles apart: still ends that differ. */
		half = fmax(half, level * 1e-9);
		a->lo = clamp(mid - half);
		a->hi = clamp(mid + half);
		a->zoom = 1;
		if (lo > 0 && a->lo <= 0) {
			a->lo = 0;
			a->zoom = 0;
		} else if (hi < 0 && a->hi >= 0) {
			a->hi = 0;
			a->zoom = 0;
		}
	}
	if (!(a->hi > a->lo))
		return -1;
	axis_ticks(a);
	return 0;
}

int
prof_page_axis_extent(const double *v, const double *w, size_t n, double *lo,
		      double *hi)
{
	size_t i;
	int any = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < n; i++) {
		double x[2] = {v[i], w ? w[i] : NAN};
		int j;

		for (j = 0; j < 2; j++) {
			if (!isfinite(x[j]))
				continue;
			any = 1;
			*lo = fmin(*lo, x[j]);
			*hi = fmax(*hi, x[j]);
		}
	}
	return any ? 0 : -1;
}

/* Decimals that tell ticks step apart in unit. */
static int
decimals(double step, double unit)
{
	int d;

	if (!(step > 0) || step / unit >= 1)
		return 0;
	d = (int)ceil(-log10(step / unit) - 1e-9);
	return d > 6 ? 6 : d;
}

void
prof_page_tick(char *buf, size_t n, double v, double step)
{
	snprintf(buf, n, "%.*f", decimals(step, 1),
		 fabs(v) < step * 1e-9 ? 0 : v);
}

void
prof_page_count_tick(char *buf, size_t n, double v, double step, double mag)
{
	double m = fabs(mag);
	double unit = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e3 ? 1e3 : 1;
	const char *u = unit == 1e9 ? "G" : unit == 1e6 ? "M" :
			unit == 1e3 ? "k" : "";

	snprintf(buf, n, "%.*f%s", decimals(step, unit),
		 fabs(v) < step * 1e-9 ? 0 : v / unit, u);
}

/* The units of a time, smallest first, and their sizes in ms. */
static const struct {
	const char *name;
	double ms;
} time_units[] = {
	{"ns", 1e-6}, {"\xc2\xb5s", 1e-3}, {"ms", 1}, {"s", 1e3},
};
#define N_TIME_UNITS (sizeof(time_units) / sizeof(time_units[0]))

/* The index of the unit that v ms is written in: the largest whose value
 * is at least 1 (ms for zero), and the next where three decimals would
 * round it up to 1000. */
static size_t
time_unit_of(double v)
{
	double a = fabs(v);
	size_t u;

	if (!(a > 0) || !isfinite(a))
		return 2;
	for (u = N_TIME_UNITS - 1; u > 0 && a < time_units[u].ms; u--)
		;
	if (u + 1 < N_TIME_UNITS &&
	    round(a / time_units[u].ms * 1000) >= 1000 * 1000)
		u++;
	return u;
}

void
prof_page_time(char *buf, size_t n, double v, int sign)
{
	size_t u = time_unit_of(v);

	if (isfinite(v))
		snprintf(buf, n, sign ? "%+.3f %s" : "%.3f %s",
			 v / time_units[u].ms, time_units[u].name);
	else
		snprintf(buf, n, "-");
}

const char *
prof_page_time_unit(double mag, double *scale)
{
	size_t u = time_unit_of(mag);

	*scale = time_units[u].ms;
	return time_units[u].name;
}

void
prof_page_time_tick(char *buf, size_t n, double v, double step, double mag)
{
	double unit;

	prof_page_time_unit(mag, &unit);
	snprintf(buf, n, "%.*f", decimals(step, unit),
		 fabs(v) < step * 1e-9 ? 0 : v / unit);
}

void
prof_page_ratio_pct(char *buf, size_t n, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, n, "%+.1f%%", (ratio - 1) * 100);
	else
		snprintf(buf, n, "-");
}

void
prof_page_count(char *buf, size_t n, double v, int sign)
{
	if (isfinite(v) && fabs(v) < 9e18)
		prof_fmt_count(buf, n, llround(v), sign);
	else
		snprintf(buf, n, "-");
}

void
prof_page_bytes(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (v >= 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.2f GiB", v / (1024.0 * 1024 * 1024));
	else if (v >= 1024.0 * 1024)
		snprintf(buf, n, "%.1f MiB", v / (1024.0 * 1024));
	else if (v >= 1024.0)
		snprintf(buf, n, "%.1f KiB", v / 1024.0);
	else
		snprintf(buf, n, "%.0f B", v);
}
