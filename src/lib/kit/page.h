/* page.h: what every HTML page (report.html, the dashboard) and summary.md
 * share: escaping, the CSP hash of an inline text, axis ticks and the
 * number formats, so that one number reads the same on every page. */
#ifndef PROF_PAGE_H
#define PROF_PAGE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Text from outside (a commit, a reason, a path, a name) as HTML content
 * or an attribute value (prof_utf8_html()): every field reaches a page
 * through here. prof_page_esc_cut() writes at most max characters, never
 * part of one. NULL writes nothing.
 */
void prof_page_esc(FILE *fp, const char *s);
void prof_page_esc_cut(FILE *fp, const char *s, size_t max);

/* A link target: each byte outside [A-Za-z0-9-._~/] percent-encoded. */
void prof_page_esc_url(FILE *fp, const char *s);

/*
 * The Content-Security-Policy source that allows one inline element's
 * text: 'sha256-BASE64' of its bytes (sum.h), in out. Returns 0, or -1
 * when out of memory.
 */
#define PROF_PAGE_CSP 64
int prof_page_csp(char out[PROF_PAGE_CSP], const char *text);

/*
 * The ticks of an axis over [lo, hi] as given (report.html's strips):
 * multiples of a round step (1, 2 or 5 times a power of ten, about four a
 * range), counted by index so that a step below the doubles' spacing
 * never makes the loop run on, each greater than the one before, at most
 * PROF_PAGE_MAX_TICKS; none when the range is not finite. *step is the
 * step. Returns the count.
 */
#define PROF_PAGE_MAX_TICKS 16
int prof_page_ticks(double lo, double hi, double tick[PROF_PAGE_MAX_TICKS],
		    double *step);

/*
 * Widen [lo, hi] by a margin, as a strip's range. A single value, or a
 * range too narrow to tell its ticks apart, gets at least a billionth of
 * its magnitude (and 1e-5) each side of its middle. A range that starts
 * at zero or above never goes below zero.
 */
void prof_page_pad(double *lo, double *hi);

/*
 * A chart's value axis fitted to its values (the dashboard's trends): its
 * range, from zero or a zoom that says so, and round ticks. zoom is 0
 * when the axis starts at zero (or holds it), 1 when it shows only the
 * values' neighbourhood: a chart must then say so, with the range, since
 * a step on a zoomed axis looks larger than it is.
 */
#define PROF_PAGE_AXIS_TICKS 12
struct prof_page_axis {
	double lo, hi;			/* the range drawn, lo < hi */
	int zoom;
	double step;			/* between ticks */
	double tick[PROF_PAGE_AXIS_TICKS];
	int n;				/* ticks, ascending, inside [lo, hi] */
};

/*
 * Fit an axis to values from lo to hi (finite, lo <= hi). An axis starts
 * at zero when that costs at most half its height (the lowest value is at
 * most half the highest, or the values hold zero); otherwise it zooms on
 * the values, spanning at least least (a fraction of their level, e.g.
 * 0.2: noise of a few per cent stays small and a 0.1% change is no
 * cliff). Numbers a double can hardly tell apart still get a range whose
 * ends and ticks differ: about five ticks, the step doubled until there
 * are at most PROF_PAGE_AXIS_TICKS. Returns 0, or -1 (a->n = 0) when lo
 * or hi is not finite or lo > hi.
 */
int prof_page_axis_fit(struct prof_page_axis *a, double lo, double hi,
		       double least);

/*
 * The range of the finite values of v[0..n) and, when w is not NULL, of
 * w[0..n). Returns 0, or -1 when none is finite.
 */
int prof_page_axis_extent(const double *v, const double *w, size_t n,
			  double *lo, double *hi);

/* A tick label with as many decimals as the step needs: "0", "2.5". */
void prof_page_tick(char *buf, size_t n, double v, double step);

/* A count's tick label in the unit of mag (the axis's largest
 * magnitude): "58.5M", "120k", "3G", with the decimals the step needs. */
void prof_page_count_tick(char *buf, size_t n, double v, double step,
			  double mag);

/*
 * The one rule for a time on every page, in summary.md, the compact table
 * and the progress lines: the time v (in ms, as the samples hold it) in
 * the unit its size asks for, three decimals and the unit: "15.234 ns"
 * below a microsecond, "120.000 µs" below a millisecond, "13.000 ms",
 * "1.235 s" from a second on (a value that would round up to 1000 of its
 * unit takes the next one); zero is "0.000 ms". With sign, a positive
 * value (and zero) gets its "+" ("+3.000 ms"). "-" when not finite.
 */
void prof_page_time(char *buf, size_t n, double v, int sign);

/*
 * The unit a chart of times up to mag ms is drawn in (its largest
 * magnitude): "ns", "µs", "ms" or "s", as prof_page_time() would write
 * mag, and in *scale its size in ms (1e-6, 1e-3, 1, 1e3).
 */
const char *prof_page_time_unit(double mag, double *scale);

/* A time tick label (v ms, ticks step ms apart) in the unit of mag
 * (prof_page_time_unit()), the number only: "250" on a µs axis. */
void prof_page_time_tick(char *buf, size_t n, double v, double step,
			 double mag);

/*
 * A time row's change from its ratio (current / baseline median, the
 * row's "ratio"), one decimal: "+1.4%"; "-" when not finite. summary.md's
 * "Δ median %" and prof-time's A/B progress line print it.
 */
void prof_page_ratio_pct(char *buf, size_t n, double ratio);

/* A count held as a double, grouped ("56,099,498"; sign: "+1,000");
 * "-" when not finite or beyond a long long. */
void prof_page_count(char *buf, size_t n, double v, int sign);

/* Bytes for a reader: "1.5 MiB", "512 B"; "-" when not finite. */
void prof_page_bytes(char *buf, size_t n, double v);

#endif /* PROF_PAGE_H */
