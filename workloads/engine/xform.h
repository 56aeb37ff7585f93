/* xform.h: 2-D affine transforms and the SVG transform attribute. */
#ifndef PK_XFORM_H
#define PK_XFORM_H

/*
 * The SVG matrix(a b c d e f):
 *   x' = a x + c y + e
 *   y' = b x + d y + f
 */
struct pk_xform {
	double a, b, c, d, e, f;
};

void pk_xform_identity(struct pk_xform *m);

/* r = m n: n is applied first, then m. r may alias m or n. */
void pk_xform_mul(struct pk_xform *r, const struct pk_xform *m,
		  const struct pk_xform *n);

/* m = m t: t applied before what m already does (as SVG lists compose). */
void pk_xform_then(struct pk_xform *m, const struct pk_xform *t);

void pk_xform_translate(struct pk_xform *m, double tx, double ty);
void pk_xform_scale(struct pk_xform *m, double sx, double sy);
/* The rotation by deg degrees (positive turns x towards y). */
void pk_xform_rotate(struct pk_xform *m, double deg);

static inline void
pk_xform_apply(const struct pk_xform *m, double x, double y, double *ox,
	       double *oy)
{
	*ox = m->a * x + m->c * y + m->e;
	*oy = m->b * x + m->d * y + m->f;
}

/* The determinant a d - b c: how areas scale (negative: a mirror). */
double pk_xform_det(const struct pk_xform *m);

/* Whether all six numbers of m are finite: 1, or 0. */
int pk_xform_finite(const struct pk_xform *m);

/*
 * Whether the linear part is a rotation times a uniform scale, mirrored
 * or not (a circle stays a circle), to 1e-9 of its size; *scale is then
 * the factor radii grow by.
 */
int pk_xform_similar(const struct pk_xform *m, double *scale);

/* The largest factor the linear part stretches a length by. */
double pk_xform_max_scale(const struct pk_xform *m);

/*
 * Parse a transform list in [s, end): matrix(a b c d e f), translate(x
 * [y]), scale(x [y]), rotate(a [cx cy]), skewX(a), skewY(a), separated by
 * white space and/or commas; an empty list is the identity. The list
 * composes left to right ("translate(1) scale(2)" scales first). Returns
 * 0; -1 on bad syntax, with *at pointing where parsing stopped; -2 when
 * the composed matrix overflows, with *at pointing at the item that made
 * it (a list that parses always gives a finite matrix).
 */
int pk_xform_parse(const char *s, const char *end, struct pk_xform *out,
		   const char **at);

#endif /* PK_XFORM_H */
