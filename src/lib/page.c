/* page.c: escaping, CSP hashes, axis ticks and number formats of the pages. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "channels.h"
#include "page.h"
#include "sum.h"
#include "utf8.h"

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

/* Round tick steps, about four a range (halves first: the width of
 * [-DBL_MAX, DBL_MAX] is not a double). */
static double
tick_step(double lo, double hi)
{
	double raw = (hi / 2 - lo / 2) / 2, mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

int
prof_page_ticks(double lo, double hi, double tick[PROF_PAGE_MAX_TICKS],
		double *step)
{
	double s = tick_step(lo, hi), k0, k1, t;
	int n = 0;
	long i;

	*step = s;
	if (!isfinite(lo) || !isfinite(hi) || !(hi >= lo))
		return 0;
	k0 = ceil(lo / s);
	k1 = floor(hi / s + 1e-9);
	if (!isfinite(k0) || !isfinite(k1) || k1 < k0)
		return 0;
	if (k1 - k0 >= PROF_PAGE_MAX_TICKS)
		k1 = k0 + PROF_PAGE_MAX_TICKS - 1;
	for (i = 0; i <= (long)(k1 - k0); i++) {
		t = (k0 + (double)i) * s;
		if (!n || t > tick[n - 1])
			tick[n++] = t;
	}
	return n;
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

void
prof_page_tick(char *buf, size_t n, double v, double step)
{
	int d = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	snprintf(buf, n, "%.*f", d > 6 ? 6 : d, fabs(v) < step * 1e-9 ? 0 : v);
}

void
prof_page_count_tick(char *buf, size_t n, double v, double step, double mag)
{
	double unit = mag >= 1e9 ? 1e9 : mag >= 1e6 ? 1e6 : mag >= 1e3 ? 1e3 : 1;
	const char *u = unit == 1e9 ? "G" : unit == 1e6 ? "M" :
			unit == 1e3 ? "k" : "";
	int d = step >= unit ? 0 : (int)ceil(-log10(step / unit) - 1e-9);

	snprintf(buf, n, "%.*f%s", d > 6 ? 6 : d,
		 fabs(v) < step * 1e-9 ? 0 : v / unit, u);
}

void
prof_page_ms(char *buf, size_t n, double v)
{
	if (isfinite(v))
		snprintf(buf, n, "%.3f", v);
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
