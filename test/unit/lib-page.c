/* lib-page.c: the page kit (page.h) gives one form of each number on every
 * page, hashes the inline style as the CSP needs it, and a row's
 * instruction count is one definition (stats.h) (issue 30). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "kit/page.h"
#include "tap.h"

/* What fn wrote for s, as a string. */
static const char *
written(void (*fn)(FILE *, const char *), const char *s)
{
	static char out[256];
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	fn(fp, s);
	fclose(fp);
	snprintf(out, sizeof(out), "%s", buf ? buf : "(oom)");
	free(buf);
	return out;
}

int
main(void)
{
	char b[64], csp[PROF_PAGE_CSP];
	double t[PROF_PAGE_MAX_TICKS], step;
	double two[] = {59077854, 58054805}, three[] = {5, 1, 3};
	struct prof_stats st;
	int n;

	plan(35);
	prof_page_time(b, sizeof(b), 13, 0);
	is_str(b, "13.000 ms", "a time has three decimals and its unit");
	prof_page_time(b, sizeof(b), 150.25, 0);
	is_str(b, "150.250 ms", "also at 100 ms and above: one rule");
	prof_page_time(b, sizeof(b), 12345.6789, 0);
	is_str(b, "12.346 s", "seconds from a second on");
	prof_page_time(b, sizeof(b), 0.12, 0);
	is_str(b, "120.000 \xc2\xb5s", "microseconds below a millisecond");
	prof_page_time(b, sizeof(b), 0.000015234, 0);
	is_str(b, "15.234 ns", "nanoseconds below a microsecond: never 0.000 ms");
	prof_page_time(b, sizeof(b), 0.9999996, 0);
	is_str(b, "1.000 ms", "a value that rounds up to 1000 takes the next unit");
	prof_page_time(b, sizeof(b), 0, 0);
	is_str(b, "0.000 ms", "zero is in ms");
	prof_page_time(b, sizeof(b), 3, 1);
	is_str(b, "+3.000 ms", "with its sign where asked");
	prof_page_time(b, sizeof(b), -0.5, 1);
	is_str(b, "-500.000 \xc2\xb5s", "a negative one by its size");
	prof_page_time(b, sizeof(b), NAN, 0);
	is_str(b, "-", "no time is a dash");
	{
		double sc;

		is_str(prof_page_time_unit(0.04, &sc), "\xc2\xb5s",
		       "an axis up to 0.04 ms is in microseconds");
		ok(sc == 1e-3, "a microsecond is 1e-3 ms");
		prof_page_time_tick(b, sizeof(b), 0.025, 0.005, 0.04);
		is_str(b, "25", "its tick labels in that unit");
	}
	prof_page_ratio_pct(b, sizeof(b), 2.858 / 2.816);
	is_str(b, "+1.5%", "a change from its ratio, one decimal, signed");
	prof_page_ratio_pct(b, sizeof(b), NAN);
	is_str(b, "-", "no ratio is a dash");
	prof_page_count(b, sizeof(b), 58054805, 0);
	is_str(b, "58,054,805", "a count is grouped");
	prof_page_count(b, sizeof(b), 1000, 1);
	is_str(b, "+1,000", "with its sign where asked");
	prof_page_count(b, sizeof(b), INFINITY, 0);
	is_str(b, "-", "no count is a dash");
	prof_page_bytes(b, sizeof(b), 1536 * 1024);
	is_str(b, "1.5 MiB", "bytes in binary units");
	prof_page_bytes(b, sizeof(b), 512);
	is_str(b, "512 B", "small ones as they are");

	is_str(written(prof_page_esc, "<a href=\"x\">&'</a>"),
	       "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;",
	       "markup becomes references");
	is_str(written(prof_page_esc_url, "run 1/a\"b.prof"),
	       "run%201/a%22b.prof", "a link target is percent-encoded");

	ok(prof_page_csp(csp, "body{}") == 0, "a CSP hash is made");
	is_str(csp, "'sha256-fJgEClQWV1hGkK4qHMO0KotTsVnMYMXTq7/suurGyUo='",
	       "it is the SHA-256 of the bytes, in base64 (openssl dgst)");
	prof_page_csp(csp, "");
	is_str(csp, "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
	       "also of nothing");

	n = prof_page_ticks(0, 10, t, &step);
	ok(n == 6 && t[0] == 0 && t[1] == 2 && t[5] == 10 && step == 2,
	   "ticks over [0, 10]: 0, 2, ... 10");
	n = prof_page_ticks(1e9, nextafter(1e9, 2e9), t, &step);
	ok(n >= 0 && n <= PROF_PAGE_MAX_TICKS,
	   "a range below the doubles' spacing still ends");
	ok(prof_page_ticks(NAN, 1, t, &step) == 0, "no ticks on no range");
	prof_page_tick(b, sizeof(b), 0.25, 0.05);
	is_str(b, "0.25", "a tick label has the step's decimals");
	prof_page_count_tick(b, sizeof(b), 56.1e6, 0.1e6, 56e6);
	is_str(b, "56.1M", "a count tick in the axis's unit");
	{
		double lo = 3, hi = 3;

		prof_page_pad(&lo, &hi);
		ok(lo < 3 && hi > 3 && lo >= 0, "one value gets a range");
	}

	is_int((long long)prof_stats_count_index(2), 0,
	       "of two counted calls, the count is the fewer");
	ok(prof_stats_counts(two, 2, &st) == 0 && st.median == 58054805,
	   "so a row of 59,077,854 and 58,054,805 counts 58,054,805");
	ok(prof_stats_compute(two, 2, &st) == 0 && st.median == 58566329.5,
	   "where a time's median is the mean of the middle two");
	ok(prof_stats_counts(three, 3, &st) == 0 && st.median == 3,
	   "of three, the middle one");
	return done();
}
