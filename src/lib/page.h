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
 * The ticks of an axis over [lo, hi]: multiples of a round step (1, 2 or
 * 5 times a power of ten, about four a range), counted by index so that a
 * step below the doubles' spacing never makes the loop run on, each
 * greater than the one before, at most PROF_PAGE_MAX_TICKS; none when the
 * range is not finite. *step is the step. Returns the count.
 */
#define PROF_PAGE_MAX_TICKS 16
int prof_page_ticks(double lo, double hi, double tick[PROF_PAGE_MAX_TICKS],
		    double *step);

/*
 * Widen [lo, hi] by a margin, as a chart's range. A single value, or a
 * range too narrow to tell its ticks apart, gets at least a billionth of
 * its magnitude (and 1e-5) each side of its middle. A range that starts
 * at zero or above never goes below zero.
 */
void prof_page_pad(double *lo, double *hi);

/* A tick label with as many decimals as the step needs ("0.25"). */
void prof_page_tick(char *buf, size_t n, double v, double step);

/* A count axis's tick label in the unit of mag: "56.1M", "12k". */
void prof_page_count_tick(char *buf, size_t n, double v, double step,
			  double mag);

/*
 * The one rule for a time in ms on every page and in summary.md: three
 * decimals ("0.120", "1234.500"); "-" when not finite.
 */
void prof_page_ms(char *buf, size_t n, double v);

/* A count held as a double, grouped ("56,099,498"; sign: "+1,000");
 * "-" when not finite or beyond a long long. */
void prof_page_count(char *buf, size_t n, double v, int sign);

/* Bytes for a reader: "1.5 MiB", "512 B"; "-" when not finite. */
void prof_page_bytes(char *buf, size_t n, double v);

#endif /* PROF_PAGE_H */
