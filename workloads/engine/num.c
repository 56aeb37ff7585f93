/* num.c: SVG numbers and lengths, with a fast exact path and strtod after. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

const char *
pk_num_ws(const char *p, const char *end)
{
	while (p < end && is_ws(*p))
		p++;
	return p;
}

const char *
pk_num_sep(const char *p, const char *end)
{
	p = pk_num_ws(p, end);
	if (p < end && *p == ',')
		p = pk_num_ws(p + 1, end);
	return p;
}

/* Exact powers of ten: every one up to 1e22 is a double. */
static const double pow10_exact[] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* strtod on a copy of [s, e), for what the fast path cannot do exactly. */
static double
slow_value(const char *s, const char *e)
{
	char small[64], *copy = small;
	size_t n = (size_t)(e - s);
	double v;

	if (n >= sizeof(small)) {
		copy = malloc(n + 1);
		if (!copy)
			return NAN;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	v = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	return v;
}

int
pk_num_scan(const char **pp, const char *end, double *v)
{
	const char *p = *pp, *start = *pp;
	uint64_t mant = 0;
	int neg = 0, digits = 0, sig = 0, exp10 = 0, exact = 1;
	long e = 0;
	double x;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
		if (sig < 19) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			if (mant)
				sig++;
		} else {
			exp10++;
			exact = 0;
		}
	}
	if (p < end && *p == '.') {
		p++;
		for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
			if (sig < 19) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				if (mant)
					sig++;
				exp10--;
			} else if (*p != '0') {
				exact = 0;
			}
		}
	}
	if (!digits)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;
		int eneg = 0;

		if (q < end && (*q == '+' || *q == '-'))
			eneg = *q++ == '-';
		if (q < end && *q >= '0' && *q <= '9') {
			for (; q < end && *q >= '0' && *q <= '9'; q++)
				if (e < 100000)
					e = e * 10 + (*q - '0');
			exp10 += (int)(eneg ? -e : e);
			p = q;
		}
	}
	/*
	 * Clinger's fast path: a mantissa below 2^53 times or over an exact
	 * power of ten is one correctly rounded operation.
	 */
	if (exact && mant < (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
		x = (double)mant;
		x = exp10 < 0 ? x / pow10_exact[-exp10]
			      : x * pow10_exact[exp10];
		if (neg)
			x = -x;
	} else if (mant == 0 && exact) {
		x = neg ? -0.0 : 0.0;
	} else {
		x = slow_value(start, p);
	}
	if (!isfinite(x))
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int
pk_length_parse(const char *s, const char *end, double *v,
		enum pk_unit *unit)
{
	static const struct {
		const char *name;
		enum pk_unit unit;
	} units[] = {
		{"px", PK_UNIT_PX}, {"mm", PK_UNIT_MM}, {"cm", PK_UNIT_CM},
		{"in", PK_UNIT_IN}, {"pt", PK_UNIT_PT}, {"pc", PK_UNIT_PC},
		{"%", PK_UNIT_PERCENT},
	};
	const char *p = pk_num_ws(s, end);
	size_t i, n;

	while (end > p && is_ws(end[-1]))
		end--;
	if (pk_num_scan(&p, end, v) < 0)
		return -1;
	n = (size_t)(end - p);
	if (n == 0) {
		*unit = PK_UNIT_NONE;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n &&
		    !strncmp(p, units[i].name, n)) {
			*unit = units[i].unit;
			return 0;
		}
	return -1;
}

double
pk_unit_px(enum pk_unit unit)
{
	switch (unit) {
	case PK_UNIT_NONE:
	case PK_UNIT_PX:
		return 1.0;
	case PK_UNIT_MM:
		return 96.0 / 25.4;
	case PK_UNIT_CM:
		return 960.0 / 25.4;
	case PK_UNIT_IN:
		return 96.0;
	case PK_UNIT_PT:
		return 96.0 / 72.0;
	case PK_UNIT_PC:
		return 16.0;
	case PK_UNIT_PERCENT:
		break;
	}
	return 0.0;
}

double
pk_unit_mm(enum pk_unit unit)
{
	switch (unit) {
	case PK_UNIT_NONE:
	case PK_UNIT_PX:
		return 25.4 / 96.0;
	case PK_UNIT_MM:
		return 1.0;
	case PK_UNIT_CM:
		return 10.0;
	case PK_UNIT_IN:
		return 25.4;
	case PK_UNIT_PT:
		return 25.4 / 72.0;
	case PK_UNIT_PC:
		return 25.4 / 6.0;
	case PK_UNIT_PERCENT:
		break;
	}
	return 0.0;
}
