/* xform.c: affine transforms and the SVG transform-list grammar. */
#include <math.h>
#include <string.h>

#include "num.h"
#include "xform.h"

#define DEG (M_PI / 180.0)

void
pk_xform_identity(struct pk_xform *m)
{
	m->a = 1;
	m->b = 0;
	m->c = 0;
	m->d = 1;
	m->e = 0;
	m->f = 0;
}

void
pk_xform_mul(struct pk_xform *r, const struct pk_xform *m,
	     const struct pk_xform *n)
{
	struct pk_xform t;

	t.a = m->a * n->a + m->c * n->b;
	t.b = m->b * n->a + m->d * n->b;
	t.c = m->a * n->c + m->c * n->d;
	t.d = m->b * n->c + m->d * n->d;
	t.e = m->a * n->e + m->c * n->f + m->e;
	t.f = m->b * n->e + m->d * n->f + m->f;
	*r = t;
}

void
pk_xform_then(struct pk_xform *m, const struct pk_xform *t)
{
	pk_xform_mul(m, m, t);
}

void
pk_xform_translate(struct pk_xform *m, double tx, double ty)
{
	pk_xform_identity(m);
	m->e = tx;
	m->f = ty;
}

void
pk_xform_scale(struct pk_xform *m, double sx, double sy)
{
	pk_xform_identity(m);
	m->a = sx;
	m->d = sy;
}

/* cos and sin of deg degrees, exact at multiples of 90. */
static void
sincos_deg(double deg, double *s, double *c)
{
	double r = fmod(deg, 360.0);

	if (r < 0)
		r += 360.0;
	if (r == 0) {
		*s = 0;
		*c = 1;
	} else if (r == 90) {
		*s = 1;
		*c = 0;
	} else if (r == 180) {
		*s = 0;
		*c = -1;
	} else if (r == 270) {
		*s = -1;
		*c = 0;
	} else {
		*s = sin(r * DEG);
		*c = cos(r * DEG);
	}
}

void
pk_xform_rotate(struct pk_xform *m, double deg)
{
	double s, c;

	sincos_deg(deg, &s, &c);
	pk_xform_identity(m);
	m->a = c;
	m->b = s;
	m->c = -s;
	m->d = c;
}

double
pk_xform_det(const struct pk_xform *m)
{
	return m->a * m->d - m->b * m->c;
}

int
pk_xform_finite(const struct pk_xform *m)
{
	return isfinite(m->a) && isfinite(m->b) && isfinite(m->c) &&
	       isfinite(m->d) && isfinite(m->e) && isfinite(m->f);
}

int
pk_xform_similar(const struct pk_xform *m, double *scale)
{
	double size = fabs(m->a) + fabs(m->b) + fabs(m->c) + fabs(m->d);
	double eps = 1e-9 * size;
	int rot = fabs(m->a - m->d) <= eps && fabs(m->b + m->c) <= eps;
	int mirror = fabs(m->a + m->d) <= eps && fabs(m->b - m->c) <= eps;

	if (size == 0 || !(rot || mirror))
		return 0;
	*scale = sqrt(fabs(pk_xform_det(m)));
	return 1;
}

double
pk_xform_max_scale(const struct pk_xform *m)
{
	/* The largest singular value of [a c; b d], in closed form. */
	double s1 = m->a * m->a + m->b * m->b + m->c * m->c + m->d * m->d;
	double det = pk_xform_det(m);
	double disc = s1 * s1 - 4 * det * det;

	if (disc < 0)
		disc = 0;
	return sqrt((s1 + sqrt(disc)) / 2);
}

/* Up to max numbers inside "( ... )"; -1 on bad syntax. */
static int
args(const char **pp, const char *end, double *v, int max)
{
	const char *p = pk_num_ws(*pp, end);
	int n = 0;

	if (p >= end || *p != '(')
		return -1;
	p = pk_num_ws(p + 1, end);
	while (p < end && *p != ')') {
		if (n == max)
			return -1;
		if (n > 0)
			p = pk_num_sep(p, end);
		if (pk_num_scan(&p, end, &v[n]) < 0)
			return -1;
		n++;
		p = pk_num_ws(p, end);
	}
	if (p >= end)
		return -1;
	*pp = p + 1;
	return n;
}

int
pk_xform_parse(const char *s, const char *end, struct pk_xform *out,
	       const char **at)
{
	static const struct {
		const char *name;
		int min, max;
	} kinds[] = {
		{"matrix", 6, 6}, {"translate", 1, 2}, {"scale", 1, 2},
		{"rotate", 1, 3}, {"skewX", 1, 1},     {"skewY", 1, 1},
	};
	const char *p = pk_num_ws(s, end);
	struct pk_xform m, t, u;
	double v[6];
	const char *q, *item = p;
	size_t k, len;
	int n, first = 1, rc = -1;

	pk_xform_identity(&m);
	while (p < end) {
		if (!first)
			p = pk_num_sep(p, end);
		first = 0;
		item = p;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			len = strlen(kinds[k].name);
			if ((size_t)(end - p) > len &&
			    !strncmp(p, kinds[k].name, len))
				break;
		}
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			goto bad;
		q = p + len;
		n = args(&q, end, v, kinds[k].max);
		if (n < kinds[k].min || (k == 3 && n == 2))
			goto bad;
		p = q;
		switch (k) {
		case 0:
			t = (struct pk_xform){v[0], v[1], v[2],
					      v[3], v[4], v[5]};
			break;
		case 1:
			pk_xform_translate(&t, v[0], n > 1 ? v[1] : 0);
			break;
		case 2:
			pk_xform_scale(&t, v[0], n > 1 ? v[1] : v[0]);
			break;
		case 3:
			pk_xform_rotate(&t, v[0]);
			if (n == 3) {
				/* translate(cx cy) rotate(a) translate(-cx -cy)
				 */
				pk_xform_translate(&u, v[1], v[2]);
				pk_xform_mul(&t, &u, &t);
				pk_xform_translate(&u, -v[1], -v[2]);
				pk_xform_mul(&t, &t, &u);
			}
			break;
		case 4:
			pk_xform_identity(&t);
			t.c = tan(v[0] * DEG);
			break;
		default:
			pk_xform_identity(&t);
			t.b = tan(v[0] * DEG);
			break;
		}
		pk_xform_then(&m, &t);
		if (!pk_xform_finite(&m)) {
			/* An overflow: the item that made it. */
			p = item;
			rc = -2;
			goto bad;
		}
		p = pk_num_ws(p, end);
	}
	*out = m;
	return 0;
bad:
	if (at)
		*at = p;
	return rc;
}
