/* num.h: SVG numbers and lengths, scanned without strtod's surprises. */
#ifndef PK_NUM_H
#define PK_NUM_H

/*
 * All scanners work on [p, end) and never read past end, because libxml2
 * hands attribute values over without a terminating NUL.
 */

enum pk_unit {
	PK_UNIT_NONE,	/* a plain number: user units */
	PK_UNIT_PX,
	PK_UNIT_MM,
	PK_UNIT_CM,
	PK_UNIT_IN,
	PK_UNIT_PT,
	PK_UNIT_PC,
	PK_UNIT_PERCENT,
};

/*
 * Scan one number of the SVG grammar at *p: an optional sign, digits with
 * an optional fraction (or a fraction alone: ".5"), and an optional
 * exponent ("1e-3"; the e of "1em" is not one). No "inf", "nan", hex or
 * leading white space. On success *p moves past the number, *v is its
 * value (correctly rounded) and 0 is returned; -1 when no number starts at
 * *p or it is not finite, with *p unchanged.
 */
int pk_num_scan(const char **p, const char *end, double *v);

/* Skip white space, at most one comma, and white space again. */
const char *pk_num_sep(const char *p, const char *end);

/* Skip white space only. */
const char *pk_num_ws(const char *p, const char *end);

/*
 * The whole of [s, end), less surrounding white space, as a length: a
 * number and an optional unit (px, mm, cm, in, pt, pc, %). Returns 0, or
 * -1 when it is anything else.
 */
int pk_length_parse(const char *s, const char *end, double *v,
		    enum pk_unit *unit);

/* How many CSS px (user units at scale 1) one unit is; 1 for none, 0 for %. */
double pk_unit_px(enum pk_unit unit);

/* How many mm one unit is (none counts as px); 0 for %. */
double pk_unit_mm(enum pk_unit unit);

/* Millimetres per CSS px: 25.4 / 96. */
#define PK_MM_PER_PX (25.4 / 96.0)

#endif /* PK_NUM_H */
