/* engine-num.c: SVG numbers, lengths and units, colours, the byte buffer. */
#include <stdint.h>

#include "tap.h"

#include "engine/buf.h"
#include "engine/color.h"
#include "engine/num.h"
#include "engine/rng.h"

/* Scan s whole; the number, or NAN when it is not one number. */
static double
scan(const char *s, size_t *used)
{
	const char *p = s;
	double v;

	if (pk_num_scan(&p, s + strlen(s), &v) < 0)
		return NAN;
	*used = (size_t)(p - s);
	return v;
}

static void
numbers(void)
{
	static const struct {
		const char *text;
		double value;
		size_t used;
	} cases[] = {
		{"0", 0, 1},
		{"42", 42, 2},
		{"-3.25", -3.25, 5},
		{"+7", 7, 2},
		{".5", 0.5, 2},
		{"-.5", -0.5, 3},
		{"5.", 5, 2},
		{"1e3", 1000, 3},
		{"1E-3", 0.001, 4},
		{"2.5e+2", 250, 6},
		{"1em", 1, 1},		/* the e of a unit is not an exponent */
		{"1e", 1, 1},
		{"10.5.5", 10.5, 4},	/* the second point starts a number */
		{"3-4", 3, 1},
		{"0.1", 0.1, 3},
		{"123456789012345678901234567890", 1.2345678901234568e29, 30},
		{"0.000000000000000000000000001", 1e-27, 29},
		{"4.9e-324", 4.9e-324, 8},
	};
	size_t i, used;
	char name[128];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = scan(cases[i].text, &used);

		snprintf(name, sizeof(name), "'%s' is %.17g, %zu bytes",
			 cases[i].text, cases[i].value, cases[i].used);
		ok(v == cases[i].value && used == cases[i].used, name);
	}
	ok(isnan(scan("", &used)), "an empty string is no number");
	ok(isnan(scan("-", &used)), "a sign alone is no number");
	ok(isnan(scan(".", &used)), "a point alone is no number");
	ok(isnan(scan("inf", &used)) && isnan(scan("nan", &used)),
	   "no inf or nan");
	ok(isnan(scan(" 1", &used)), "no leading white space");
	ok(isnan(scan("1e999", &used)), "an overflow is no number");
	is_num(scan("0x10", &used), 0, 0, "no hex: '0x10' is 0 then 'x'");
	is_int((long long)used, 1, "and stops at the x");
	{
		const char *s = "12345";
		const char *p = s;
		double v;

		ok(pk_num_scan(&p, s + 3, &v) == 0 && v == 123 && p == s + 3,
		   "never reads past end");
	}
}

/* The fast path gives what strtod gives, on random decimal strings. */
static void
fast_path(void)
{
	struct pk_rng rng;
	char buf[64];
	int i, bad = 0;

	pk_rng_seed(&rng, 7);
	for (i = 0; i < 100000; i++) {
		int digits = 1 + (int)pk_rng_below(&rng, 17);
		int point = (int)pk_rng_below(&rng, (uint64_t)digits + 1);
		int exp = (int)pk_rng_below(&rng, 41) - 20;
		char *p = buf;
		const char *q;
		double v;
		int k;

		if (pk_rng_below(&rng, 2))
			*p++ = '-';
		for (k = 0; k < digits; k++) {
			if (k == point)
				*p++ = '.';
			*p++ = (char)('0' + pk_rng_below(&rng, 10));
		}
		if (pk_rng_below(&rng, 2))
			p += sprintf(p, "e%d", exp);
		*p = '\0';
		q = buf;
		if (pk_num_scan(&q, p, &v) < 0 || *q || v != strtod(buf, NULL))
			bad++;
	}
	is_int(bad, 0, "100000 random decimals read exactly as strtod reads "
		       "them");
}

static void
lengths(void)
{
	static const struct {
		const char *text;
		double value;
		enum pk_unit unit;
	} cases[] = {
		{"12", 12, PK_UNIT_NONE},   {"12px", 12, PK_UNIT_PX},
		{"2.5mm", 2.5, PK_UNIT_MM}, {"1cm", 1, PK_UNIT_CM},
		{"4in", 4, PK_UNIT_IN},	    {"72pt", 72, PK_UNIT_PT},
		{"6pc", 6, PK_UNIT_PC},	    {"50%", 50, PK_UNIT_PERCENT},
		{" 3mm ", 3, PK_UNIT_MM},   {"1e1mm", 10, PK_UNIT_MM},
	};
	static const char *bad[] = {"", "mm", "12 mm", "12qq", "12MM",
				    "1.2.3", "12mmm", "- 1"};
	size_t i;
	char name[64];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].text;
		enum pk_unit u;
		double v;

		snprintf(name, sizeof(name), "length '%s'", s);
		ok(pk_length_parse(s, s + strlen(s), &v, &u) == 0 &&
			   v == cases[i].value && u == cases[i].unit,
		   name);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *s = bad[i];
		enum pk_unit u;
		double v;

		snprintf(name, sizeof(name), "'%s' is not a length", s);
		ok(pk_length_parse(s, s + strlen(s), &v, &u) < 0, name);
	}
	is_num(pk_unit_px(PK_UNIT_IN), 96, 0, "96 px an inch");
	is_num(pk_unit_px(PK_UNIT_MM), 96 / 25.4, 1e-15, "96 / 25.4 px a mm");
	is_num(pk_unit_px(PK_UNIT_PT), 4.0 / 3, 1e-15, "4/3 px a point");
	is_num(pk_unit_px(PK_UNIT_PC), 16, 0, "16 px a pica");
	is_num(pk_unit_mm(PK_UNIT_CM), 10, 0, "10 mm a cm");
	is_num(pk_unit_mm(PK_UNIT_PX), 25.4 / 96, 1e-15, "25.4 / 96 mm a px");
	is_num(pk_unit_mm(PK_UNIT_PT), 25.4 / 72, 1e-15, "25.4 / 72 mm a pt");
}

static uint32_t
color(const char *s)
{
	uint32_t c;

	if (pk_color_parse(s, s + strlen(s), &c) < 0)
		return 0xdeadbeef;
	return c;
}

static void
colors(void)
{
	char name[8];

	is_int(color("#ff0000"), 0xff0000, "#rrggbb");
	is_int(color("#F0a"), 0xff00aa, "#rgb, any case");
	is_int(color("black"), 0x000000, "black");
	is_int(color("RebeccaPurple"), 0x663399, "a name, any case");
	is_int(color("yellowgreen"), 0x9acd32, "the last name");
	is_int(color("aliceblue"), 0xf0f8ff, "the first name");
	is_int(color(" red "), 0xff0000, "white space around");
	is_int(color("rgb(255, 128, 0)"), 0xff8000, "rgb() of integers");
	is_int(color("rgb(100%,50%,0%)"), 0xff8000, "rgb() of percentages");
	is_int(color("rgb(300, -5, 0)"), 0xff0000, "rgb() clamps");
	is_int(color("none"), PK_COLOR_NONE, "none");
	is_int(color("transparent"), PK_COLOR_NONE, "transparent is none");
	is_int(color("currentColor"), PK_COLOR_CURRENT, "currentColor");
	is_int(color("url(#grad) blue"), 0x0000ff, "url() with a fallback");
	is_int(color("url(#grad)"), 0x000000, "url() alone is black");
	is_int(color("#12345"), 0xdeadbeef, "five hex digits are an error");
	is_int(color("#ggg"), 0xdeadbeef, "bad hex is an error");
	is_int(color("bleu"), 0xdeadbeef, "an unknown name is an error");
	is_int(color("rgb(1,2)"), 0xdeadbeef, "rgb() of two is an error");
	is_int(color(""), 0xdeadbeef, "empty is an error");
	pk_color_name(0x1f77b4, name);
	is_str(name, "#1f77b4", "a pen's name");
	pk_color_name(PK_COLOR_NONE, name);
	is_str(name, "none", "no pen's name");
}

static void
buffers(void)
{
	struct pk_buf b;

	pk_buf_init(&b);
	pk_buf_num(&b, 1.5, 3);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, 2.0, 3);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, -0.0001, 3);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, -12.3456, 3);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, 0.0006, 3);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, 1234567.0625, 6);
	pk_buf_str(&b, " ");
	pk_buf_num(&b, 1e20, 2);
	is_str(b.data,
	       "1.5 2 0 -12.346 0.001 1234567.0625 100000000000000000000.00",
	       "numbers: trimmed, rounded, no -0, huge ones by printf");
	pk_buf_reset(&b);
	pk_buf_xml(&b, "a<b>&\"c'");
	is_str(b.data, "a&lt;b&gt;&amp;&quot;c&apos;", "XML escaping");
	pk_buf_reset(&b);
	pk_buf_printf(&b, "%d-%s", 42, "x");
	is_str(b.data, "42-x", "printf");
	is_int((long long)b.len, 4, "and its length");
	pk_buf_free(&b);
}

int
main(void)
{
	plan(27 + 1 + 25 + 22 + 4);
	numbers();
	fast_path();
	lengths();
	colors();
	buffers();
	return done();
}
