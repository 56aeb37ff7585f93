/* engine-range.c: numbers that overflow are refused; the largest accepted
 * drawing gives finite totals, plans and previews. */
#include "tap.h"

#include "engine/buf.h"
#include "engine/compose.h"
#include "engine/estimate.h"
#include "engine/path.h"
#include "engine/svg.h"
#include "engine/xform.h"
#include "engine/order.h"

static int
xparse(const char *s, const char **at)
{
	struct pk_xform m;

	return pk_xform_parse(s, s + strlen(s), &m, at);
}

static void
transforms(void)
{
	const char *s = "scale(1e200) scale(1e200)", *at = NULL;

	is_int(xparse(s, &at), -2, "a list whose product overflows is -2");
	is_str(at, "scale(1e200)", "pointing at the item that overflowed");
	ok(at == s + 13, "the second one");
	is_int(xparse("scale(1e308)", &at), 0, "1e308 alone is finite");
	is_int(xparse("scale(1e308", &at), -1, "bad syntax is still -1");
	is_int(xparse("matrix(1e308 0 0 1e308 1e308 0) translate(1e308)",
		      &at),
	       -2, "a translation that overflows");
}

static void
paths(void)
{
	static const char *const bad[][2] = {
		{"m1e308 0 1e308 0", "number out of range at '1e308 0'"},
		{"M0 0 h1e308 h1e308", "number out of range at 'h1e308'"},
		{"M0 0 l1 1 a1 1 0 0 1 1e308 0 a1 1 0 0 1 1e308 0",
		 "number out of range at 'a1 1 0 0 1 1'"},
		{"M-1e300 0 C 1e300 1e300 -1e300 1e300 1e300 0",
		 "coordinates out of range (beyond 1e12 mm)"},
		{"M0 0 L 1e13 0", "coordinates out of range (beyond 1e12 mm)"},
	};
	struct pk_style st = {0, 0, 0, 0};
	struct pk_flatten f = {PK_FLATTEN_STEP, PK_FLATTEN_TOL};
	struct pk_xform id;
	struct pk_drawing d;
	char why[160];
	size_t i;

	pk_xform_identity(&id);
	pk_drawing_init(&d);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *s = bad[i][0];

		why[0] = '\0';
		pk_drawing_clear(&d);
		ok(pk_path_parse(s, s + strlen(s), &id, &st, &f, &d, why,
				 sizeof(why)) < 0,
		   s);
		is_str(why, bad[i][1], "  and why");
	}
	pk_drawing_clear(&d);
	{
		const char *s = "M-1e12 -1e12 L 1e12 1e12";

		ok(pk_path_parse(s, s + strlen(s), &id, &st, &f, &d, why,
				 sizeof(why)) == 0,
		   "coordinates at the limit are fine");
	}
	pk_drawing_free(&d);
}

/* An SVG of one element inside a 100 mm page. */
static int
svg(const char *el, struct pk_drawing *d, struct pk_err *err)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf),
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			 "width=\"100mm\" height=\"100mm\">\n%s\n</svg>\n",
			 el);

	return pk_svg_parse(buf, (size_t)n, NULL, d, err);
}

static void
elements(void)
{
	static const char *const bad[][2] = {
		{"<circle r=\"5\" stroke=\"red\" transform=\"scale(1e308)\"/>",
		 "element 'circle' is out of range (coordinates or sizes "
		 "beyond 1e12 mm)"},
		{"<circle r=\"1e300\" fill=\"red\"/>",
		 "element 'circle' is out of range (coordinates or sizes "
		 "beyond 1e12 mm)"},
		{"<ellipse rx=\"1e300\" ry=\"1\" fill=\"none\"/>",
		 "element 'ellipse' is out of range (coordinates or sizes "
		 "beyond 1e12 mm)"},
		{"<rect width=\"1e308in\" height=\"1\" fill=\"red\"/>",
		 "length out of range '1e308in' in attribute 'width'"},
		{"<line x2=\"1\" stroke=\"red\" stroke-width=\"1e300\"/>",
		 "element 'line' is out of range (coordinates or sizes "
		 "beyond 1e12 mm)"},
		{"<g transform=\"scale(1e300)\"><g transform=\"scale(1e300)\"/>"
		 "</g>",
		 "transform out of range 'scale(1e300)'"},
		{"<polygon points=\"0,0 1e300,0 0,1e300\" fill=\"red\"/>",
		 "element 'polygon' is out of range (coordinates or sizes "
		 "beyond 1e12 mm)"},
		{"<svg viewBox=\"0 0 1e-300 1e-300\" width=\"1e300\" "
		 "height=\"1e300\"/>",
		 "viewport out of range in element 'svg'"},
	};
	struct pk_drawing d;
	struct pk_err err;
	size_t i;

	pk_drawing_init(&d);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(svg(bad[i][0], &d, &err) < 0 && err.line == 2, bad[i][0]);
		is_str(err.reason, bad[i][1], "  and why");
		is_int((long long)d.npaths, 0, "  and nothing is kept");
	}
	pk_drawing_free(&d);
}

/*
 * The largest drawing accepted: paths from corner to corner of the
 * +-1e12 mm square. Its totals, plan and preview are finite.
 */
static void
limits(void)
{
	/* 1e12 mm in px (96 per inch), a little under. */
	static const char el[] =
		"<polyline stroke=\"red\" points=\"-3.77e12,-3.77e12 "
		"3.77e12,3.77e12 -3.77e12,3.77e12 3.77e12,-3.77e12\"/>"
		"<circle cx=\"-3.7e12\" cy=\"3.7e12\" r=\"7e10\" fill=\"red\"/>";
	static const struct pk_plotter plotter = PK_PLOTTER_DEFAULTS;
	struct pk_drawing d;
	double ends[4 * 2];
	int32_t order[2];
	unsigned char rev[2];
	struct pk_stats st;
	struct pk_estimate e;
	struct pk_err err;
	struct pk_buf out;

	pk_drawing_init(&d);
	pk_buf_init(&out);
	ok(svg(el, &d, &err) == 0, "coordinates just under 1e12 mm are read");
	pk_drawing_stats(&d, &st);
	ok(isfinite(st.length_mm) && st.length_mm > 4e12,
	   "the length is finite");
	ok(pk_estimate_plot(&d, &plotter, &e) == 0 && isfinite(e.total_s) &&
		   isfinite(e.up_mm),
	   "so is the plot estimate");
	pk_drawing_ends(&d, ends);
	ok(d.npaths == 2 && pk_order_greedy(ends, 2, 0, 0, 1, order, rev) == 0 &&
		   isfinite(pk_order_travel(ends, 2, 0, 0, order, rev)),
	   "and the path order");
	ok(pk_compose_visible(&d, &out, NULL) == 0 && out.len > 0 &&
		   !strstr(out.data, "inf") && !strstr(out.data, "nan"),
	   "and the preview has numbers only");
	pk_buf_free(&out);
	pk_drawing_free(&d);
}

int
main(void)
{
	plan(6 + 5 * 2 + 1 + 8 * 3 + 5);
	transforms();
	paths();
	elements();
	limits();
	return done();
}
