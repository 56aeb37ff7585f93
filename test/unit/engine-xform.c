/* engine-xform.c: affine transforms and the SVG transform attribute. */
#include "tap.h"

#include "engine/xform.h"

static int
parse(const char *s, struct pk_xform *m)
{
	const char *at = NULL;

	return pk_xform_parse(s, s + strlen(s), m, &at);
}

/* Whether m is (a b c d e f) to within eps. */
static int
is_m(const struct pk_xform *m, double a, double b, double c, double d,
     double e, double f, double eps)
{
	return fabs(m->a - a) <= eps && fabs(m->b - b) <= eps &&
	       fabs(m->c - c) <= eps && fabs(m->d - d) <= eps &&
	       fabs(m->e - e) <= eps && fabs(m->f - f) <= eps;
}

static void
check(const char *s, double a, double b, double c, double d, double e,
      double f)
{
	struct pk_xform m;
	char name[160];

	snprintf(name, sizeof(name), "'%s'", s);
	ok(parse(s, &m) == 0 && is_m(&m, a, b, c, d, e, f, 1e-12), name);
}

static void
kinds(void)
{
	double c30 = cos(M_PI / 6), s30 = sin(M_PI / 6), t30 = tan(M_PI / 6);

	check("", 1, 0, 0, 1, 0, 0);
	check("matrix(1 2 3 4 5 6)", 1, 2, 3, 4, 5, 6);
	check("matrix(1,2,3,4,5,6)", 1, 2, 3, 4, 5, 6);
	check("translate(10)", 1, 0, 0, 1, 10, 0);
	check("translate(10 -20)", 1, 0, 0, 1, 10, -20);
	check("scale(2)", 2, 0, 0, 2, 0, 0);
	check("scale(2, -3)", 2, 0, 0, -3, 0, 0);
	check("rotate(90)", 0, 1, -1, 0, 0, 0);
	check("rotate(30)", c30, s30, -s30, c30, 0, 0);
	check("rotate(-270)", 0, 1, -1, 0, 0, 0);
	/* About (10, 0): the origin goes to (10, -10). */
	check("rotate(90 10 0)", 0, 1, -1, 0, 10, -10);
	check("skewX(30)", 1, 0, t30, 1, 0, 0);
	check("skewY(30)", 1, t30, 0, 1, 0, 0);
	/* Lists compose left to right: the last applies first. */
	check("translate(10) scale(2)", 2, 0, 0, 2, 10, 0);
	check("scale(2) translate(10)", 2, 0, 0, 2, 20, 0);
	check("\ttranslate( 1 , 2 ) ,scale(3) ", 3, 0, 0, 3, 1, 2);
	check("translate(1e1,.5)", 1, 0, 0, 1, 10, 0.5);
}

static void
errors(void)
{
	static const char *bad[] = {
		"rotate(30",	   "rotate 30",	     "rotate(30 1)",
		"matrix(1 2 3)",   "translate()",    "scale(1 2 3)",
		"skewX(1 2)",	   "turn(3)",	     "translatex(1)",
		"translate(1) x",  "rotate(a)",	     "scale(1,,2)",
	};
	struct pk_xform m;
	const char *at = NULL, *s = "translate(1) bogus(2)";
	size_t i;
	char name[96];

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "'%s' is an error", bad[i]);
		ok(parse(bad[i], &m) < 0, name);
	}
	ok(pk_xform_parse(s, s + strlen(s), &m, &at) < 0 && at == s + 13,
	   "the error says where");
}

static void
algebra(void)
{
	struct pk_xform m, n, r;
	double x, y, k;

	parse("translate(5 7) rotate(90)", &m);
	pk_xform_apply(&m, 1, 0, &x, &y);
	ok(fabs(x - 5) < 1e-12 && fabs(y - 8) < 1e-12,
	   "apply: rotate first, then move");
	parse("scale(2)", &n);
	pk_xform_mul(&r, &m, &n);
	pk_xform_apply(&r, 1, 0, &x, &y);
	ok(fabs(x - 5) < 1e-12 && fabs(y - 9) < 1e-12, "mul: n first");
	pk_xform_then(&m, &n);
	ok(is_m(&m, r.a, r.b, r.c, r.d, r.e, r.f, 0), "then is mul in place");
	is_num(pk_xform_det(&r), 4, 1e-12, "det of a rotation by 2");
	parse("rotate(33) scale(3)", &m);
	ok(pk_xform_similar(&m, &k) && fabs(k - 3) < 1e-12,
	   "a turned scale keeps circles, radius x 3");
	parse("scale(-2 2)", &m);
	ok(pk_xform_similar(&m, &k) && fabs(k - 2) < 1e-12,
	   "a mirror keeps circles");
	parse("scale(2 1)", &m);
	ok(!pk_xform_similar(&m, &k), "a stretch does not");
	parse("skewX(10)", &m);
	ok(!pk_xform_similar(&m, &k), "nor does a skew");
	parse("scale(0)", &m);
	ok(!pk_xform_similar(&m, &k), "nor a collapse");
	parse("scale(3 0.5) rotate(20)", &m);
	is_num(pk_xform_max_scale(&m), 3, 1e-12, "max stretch of a scale");
	parse("skewX(45)", &m);
	/* [1 1; 0 1]: singular values (1 +- sqrt 5) / 2 ... the larger. */
	is_num(pk_xform_max_scale(&m), (1 + sqrt(5)) / 2, 1e-12,
	       "max stretch of a shear");
}

int
main(void)
{
	plan(17 + 13 + 11);
	kinds();
	errors();
	algebra();
	return done();
}
