/* engine-svg.c: the SVG reader, element by element, and its errors. */

/*
 * Units, viewBox, groups and inheritance, transforms, every element and
 * path command, layers, hidden shapes, and malformed input (an error with
 * its line, never a crash).
 */
#include "tap.h"

#include "engine/rng.h"
#include "engine/svg.h"

static struct pk_drawing D;
static struct pk_err E;

#define HEAD "<svg xmlns=\"http://www.w3.org/2000/svg\" "
#define MM HEAD "width=\"100mm\" height=\"100mm\" viewBox=\"0 0 100 100\">"

static int
parse_flags(const char *svg, unsigned flags)
{
	struct pk_svg_opts o = {{0.5, 0.01}, flags};

	return pk_svg_parse(svg, strlen(svg), &o, &D, &E);
}

static int
parse(const char *svg)
{
	return parse_flags(svg, 0);
}

/* Point j of path i (negative j counts from the end). */
static const struct pk_pt *
pt(size_t i, long j)
{
	const struct pk_path *p = &D.paths[i];

	return &D.pts[p->first + (j < 0 ? (long)p->n + j : j)];
}

static int
at(size_t i, long j, double x, double y)
{
	const struct pk_pt *q;

	if (i >= D.npaths)
		return 0;
	q = pt(i, j);
	if (fabs(q->x - x) < 1e-9 && fabs(q->y - y) < 1e-9)
		return 1;
	fprintf(stderr, "#   path %zu point %ld is (%.12g, %.12g), want "
			"(%g, %g)\n", i, j, q->x, q->y, x, y);
	return 0;
}

static double
length(size_t i)
{
	return pk_path_length(&D, &D.paths[i]);
}

static void
page(void)
{
	static const struct {
		const char *w, *h;
		double wmm, hmm;
	} cases[] = {
		{"210mm", "297mm", 210, 297}, {"21cm", "29.7cm", 210, 297},
		{"8.5in", "11in", 215.9, 279.4}, {"96px", "48", 25.4, 12.7},
		{"72pt", "6pc", 25.4, 25.4},
	};
	char svg[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[64];

		snprintf(svg, sizeof(svg), HEAD "width=\"%s\" height=\"%s\"/>",
			 cases[i].w, cases[i].h);
		snprintf(name, sizeof(name), "page %s x %s", cases[i].w,
			 cases[i].h);
		ok(parse(svg) == 0 && fabs(D.width_mm - cases[i].wmm) < 1e-9 &&
			   fabs(D.height_mm - cases[i].hmm) < 1e-9,
		   name);
	}
	ok(parse(HEAD "viewBox=\"0 0 96 192\"/>") == 0 &&
		   fabs(D.width_mm - 25.4) < 1e-9 &&
		   fabs(D.height_mm - 50.8) < 1e-9,
	   "no size: the viewBox in px");
	ok(parse(HEAD "width=\"100mm\" viewBox=\"0 0 200 100\"/>") == 0 &&
		   fabs(D.height_mm - 50) < 1e-9,
	   "a width and a viewBox: the height follows its aspect");
	ok(parse(HEAD "/>") == 0 && D.width_mm == 0 && D.height_mm == 0,
	   "no size at all: unknown (0)");
	/* User units: px without a viewBox, the viewBox's with one. */
	ok(parse(HEAD "width=\"1in\" height=\"1in\"><line x1=\"0\" y1=\"0\" "
		      "x2=\"96\" y2=\"48\" stroke=\"black\"/></svg>") == 0 &&
		   at(0, 1, 25.4, 12.7),
	   "no viewBox: a user unit is a px");
	ok(parse(HEAD
		 "width=\"200mm\" height=\"100mm\" viewBox=\"0 0 100 100\">"
		 "<line x1=\"0\" y1=\"0\" x2=\"100\" y2=\"100\" "
		 "stroke=\"black\"/></svg>") == 0 &&
	       at(0, 0, 50, 0) && at(0, 1, 150, 100),
	   "xMidYMid meet: scale 1, centred");
	ok(parse(HEAD
		 "width=\"200mm\" height=\"100mm\" viewBox=\"0 0 100 100\" "
		 "preserveAspectRatio=\"xMinYMin meet\"><line x1=\"0\" "
		 "y1=\"0\" x2=\"100\" y2=\"100\" stroke=\"black\"/></svg>") ==
		   0 &&
	       at(0, 0, 0, 0) && at(0, 1, 100, 100),
	   "xMinYMin meet: at the left");
	ok(parse(HEAD
		 "width=\"200mm\" height=\"100mm\" viewBox=\"0 0 100 100\" "
		 "preserveAspectRatio=\"xMaxYMax slice\"><line x1=\"0\" "
		 "y1=\"0\" x2=\"100\" y2=\"100\" stroke=\"black\"/></svg>") ==
		   0 &&
	       at(0, 0, 0, -100) && at(0, 1, 200, 100),
	   "xMaxYMax slice: scale 2, the bottom kept");
	ok(parse(HEAD
		 "width=\"200mm\" height=\"100mm\" viewBox=\"0 0 100 100\" "
		 "preserveAspectRatio=\"none\"><line x1=\"0\" y1=\"0\" "
		 "x2=\"100\" y2=\"100\" stroke=\"black\"/></svg>") == 0 &&
	       at(0, 1, 200, 100),
	   "none: stretched");
	ok(parse(HEAD "width=\"10mm\" height=\"10mm\" viewBox=\"-5,-5,10,10\">"
		      "<line x1=\"-5\" y1=\"0\" x2=\"5\" y2=\"0\" "
		      "stroke=\"black\"/></svg>") == 0 &&
		   at(0, 0, 0, 5) && at(0, 1, 10, 5),
	   "a viewBox with commas and a negative origin");
}

static void
elements(void)
{
	const struct pk_path *p;

	ok(parse(MM "<circle cx=\"50\" cy=\"40\" r=\"20\" stroke=\"red\" "
		    "fill=\"none\"/></svg>") == 0 &&
		   D.npaths == 1,
	   "circle: one path");
	p = &D.paths[0];
	ok((p->flags & (PK_PATH_CIRCLE | PK_PATH_CLOSED)) ==
			   (PK_PATH_CIRCLE | PK_PATH_CLOSED) &&
		   p->cx == 50 && p->cy == 40 && p->r == 20,
	   "circle: closed, and known as a circle with its centre and radius");
	ok(at(0, 0, 70, 40) && at(0, -1, 70, 40) && p->n % 4 == 1,
	   "circle: from (cx + r, cy) and back, 4k chords");
	ok(at(0, (long)(p->n - 1) / 4, 50, 60),
	   "circle: a quarter on, the bottom (y is down, angles clockwise)");
	ok(parse(MM "<ellipse cx=\"50\" cy=\"50\" rx=\"30\" ry=\"10\" "
		    "stroke=\"red\"/></svg>") == 0 &&
		   D.npaths == 1 && !(D.paths[0].flags & PK_PATH_CIRCLE) &&
		   at(0, 0, 80, 50) &&
		   at(0, (long)(D.paths[0].n - 1) / 4, 50, 60),
	   "ellipse: from (cx + rx, cy), not a circle");
	ok(parse(MM "<ellipse cx=\"50\" cy=\"50\" rx=\"10\" stroke=\"red\"/>"
		    "</svg>") == 0 &&
		   D.npaths == 1 && (D.paths[0].flags & PK_PATH_CIRCLE) &&
		   D.paths[0].r == 10,
	   "ellipse: ry auto is rx, so a circle");
	ok(parse(MM "<rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" "
		    "stroke=\"red\"/></svg>") == 0 &&
		   D.npaths == 1 && D.paths[0].n == 5 && at(0, 0, 10, 20) &&
		   at(0, 1, 40, 20) && at(0, 2, 40, 60) && at(0, 3, 10, 60) &&
		   at(0, 4, 10, 20) && (D.paths[0].flags & PK_PATH_CLOSED),
	   "rect: four corners, clockwise, closed");
	ok(parse(MM "<rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" "
		    "rx=\"5\" stroke=\"red\"/></svg>") == 0 &&
		   D.npaths == 1 && at(0, 0, 15, 20) && at(0, 1, 35, 20) &&
		   at(0, -1, 15, 20) &&
		   fabs(length(0) - (2 * 20 + 2 * 30 + 2 * M_PI * 5)) < 0.03,
	   "rect rx: from (x + rx, y), sides and four quarter circles");
	ok(parse(MM "<rect width=\"0\" height=\"10\" stroke=\"red\"/></svg>") ==
			   0 &&
		   D.npaths == 0,
	   "rect: zero width draws nothing");
	ok(parse(MM "<line x1=\"1\" y1=\"2\" x2=\"3\" y2=\"4\" stroke=\"red\"/>"
		    "</svg>") == 0 &&
		   D.npaths == 1 && D.paths[0].n == 2 && at(0, 0, 1, 2) &&
		   at(0, 1, 3, 4) && !(D.paths[0].flags & PK_PATH_CLOSED),
	   "line");
	ok(parse(MM
		 "<polyline points=\"1,2 3,4 5,6\" stroke=\"red\"/></svg>") ==
		   0 &&
	       D.paths[0].n == 3 && at(0, 2, 5, 6) &&
	       !(D.paths[0].flags & PK_PATH_CLOSED),
	   "polyline: open");
	ok(parse(MM "<polygon points=\"1 2,3 4 5-6\" stroke=\"red\"/></svg>") ==
			   0 &&
		   D.paths[0].n == 4 && at(0, 2, 5, -6) && at(0, 3, 1, 2) &&
		   (D.paths[0].flags & PK_PATH_CLOSED),
	   "polygon: closed on its first point");
	ok(parse(MM "<circle r=\"0\" stroke=\"red\"/><polyline points=\"\" "
		    "stroke=\"red\"/><polygon points=\"1 1\" stroke=\"red\"/>"
		    "<path d=\"\" stroke=\"red\"/><path d=\"M 1 1\" "
		    "stroke=\"red\"/></svg>") == 0 &&
		   D.npaths == 0,
	   "empty and one-point shapes draw nothing");
}

static void
path_commands(void)
{
	const char *s;

	s = MM "<path stroke=\"red\" d=\"M 10 10 L 20 10 H 30 V 20 Z\"/></svg>";
	ok(parse(s) == 0 && D.npaths == 1 && D.paths[0].n == 5 &&
		   at(0, 2, 30, 10) && at(0, 3, 30, 20) && at(0, 4, 10, 10) &&
		   (D.paths[0].flags & PK_PATH_CLOSED),
	   "M L H V Z, absolute");
	s = MM "<path stroke=\"red\" d=\"m 10 10 l 10 0 h 10 v 10 z\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 5 && at(0, 2, 30, 10) &&
		   at(0, 3, 30, 20) && at(0, 4, 10, 10),
	   "m l h v z, relative");
	s = MM "<path stroke=\"red\" d=\"M 0 0 10 0 10 10 m 5 5 1 1 2 2\"/>"
	       "</svg>";
	ok(parse(s) == 0 && D.npaths == 2 && D.paths[0].n == 3 &&
		   at(0, 2, 10, 10) && at(1, 0, 15, 15) && at(1, 1, 16, 16) &&
		   at(1, 2, 18, 18),
	   "implicit repeats: after M lines, after m relative lines");
	s = MM "<path stroke=\"red\" d=\"M0,0L10,0 20,0H30 40V5 6\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 7 && at(0, 4, 40, 0) &&
		   at(0, 6, 40, 6),
	   "repeated L, H and V");
	s = MM "<path stroke=\"red\" d=\"M 0 0 L 10 0 Z L 0 10\"/></svg>";
	ok(parse(s) == 0 && D.npaths == 2 && at(0, -1, 0, 0) &&
		   at(1, 0, 0, 0) && at(1, 1, 0, 10),
	   "after Z a new subpath starts at the old start");
	s = MM "<path stroke=\"red\" d=\"M 0 0 C 0 10 10 10 10 0 "
	       "S 20 -10 20 0\"/></svg>";
	ok(parse(s) == 0 && D.npaths == 1 && at(0, -1, 20, 0), "C S");
	{
		/* S reflects (10,10) about (10,0): (10,-10); the middle of the
		 * second cubic is then (15, -7.5). */
		const struct pk_path *p = &D.paths[0];
		size_t k, found = 0;

		for (k = 0; k < p->n; k++)
			found += fabs(pt(0, (long)k)->x - 15) < 1e-9 &&
				 fabs(pt(0, (long)k)->y + 7.5) < 1e-9;
		is_int((long long)found, 1, "S: the reflected control point");
	}
	s = MM "<path stroke=\"red\" d=\"M 0 0 c 0 10 10 10 10 0 "
	       "s 10 -10 10 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 20, 0), "c s, relative");
	s = MM "<path stroke=\"red\" d=\"M 0 0 S 10 10 20 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 20, 0),
	   "S alone: its first control point is the current point");
	s = MM "<path stroke=\"red\" d=\"M 0 0 Q 10 20 20 0 T 40 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 40, 0), "Q T");
	{
		/* T reflects (10,20) about (20,0): apex of the second at y -10
		 */
		const struct pk_path *p = &D.paths[0];
		double ymin = 0, ymax = 0;
		size_t k;

		for (k = 0; k < p->n; k++) {
			ymin =
			    pt(0, (long)k)->y < ymin ? pt(0, (long)k)->y : ymin;
			ymax =
			    pt(0, (long)k)->y > ymax ? pt(0, (long)k)->y : ymax;
		}
		ok(fabs(ymin + 10) < 1e-9 && fabs(ymax - 10) < 1e-9,
		   "T: the reflected control point");
	}
	s = MM "<path stroke=\"red\" d=\"M 0 0 q 10 20 20 0 t 20 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 40, 0), "q t, relative");
	s = MM "<path stroke=\"red\" d=\"M 10 50 A 40 40 0 0 1 90 50\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 90, 50) &&
		   fabs(length(0) - 40 * M_PI) < 0.01,
	   "A: half a circle");
	s = MM "<path stroke=\"red\" d=\"M 10 50 a 40 40 0 0 0 80 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 90, 50) && pt(0, 5)->y > 50,
	   "a, relative, sweep 0: under");
	s = MM "<path stroke=\"red\" d=\"M 50 30 A 20 20 0 1 0 70 50\"/></svg>";
	ok(parse(s) == 0 && fabs(length(0) - 30 * M_PI) < 0.01,
	   "A large-arc: three quarters");
	s = MM "<path stroke=\"red\" d=\"M0 0a10 10 0 1020 0\"/></svg>";
	ok(parse(s) == 0 && at(0, -1, 20, 0) &&
		   fabs(length(0) - 10 * M_PI) < 0.01,
	   "A with flags run together: 1020 is 1, 0, 20");
	s = MM "<path stroke=\"red\" d=\"M 0 0 A 0 10 0 0 1 10 0\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 2 && at(0, 1, 10, 0),
	   "A with a zero radius: a line");
	s = MM "<path stroke=\"red\" d=\"M 0 0 L 5 0 A 3 3 0 0 1 5 0\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 2, "A to the same point: nothing");
	s = MM "<path stroke=\"red\" d=\"M1.5.5-2e1-.5e1L3 4\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 3 && at(0, 0, 1.5, 0.5) &&
		   at(0, 1, -20, -5) && at(0, 2, 3, 4),
	   "compact numbers");
	s = MM "<path stroke=\"red\" d=\" \n M 1 1 \t L 2 2 , 3 3 \n\"/></svg>";
	ok(parse(s) == 0 && D.paths[0].n == 3, "white space and commas");
}

static void
transforms(void)
{
	ok(parse(MM
		 "<g transform=\"translate(10 20)\"><g transform=\"scale(2)\">"
		 "<line x1=\"1\" y1=\"1\" x2=\"2\" y2=\"1\" stroke=\"red\" "
		 "transform=\"rotate(90)\"/></g></g></svg>") == 0 &&
	       at(0, 0, 8, 22) && at(0, 1, 8, 24),
	   "nested transforms: the innermost first");
	ok(parse(MM "<circle cx=\"10\" cy=\"0\" r=\"5\" stroke=\"red\" "
		    "transform=\"rotate(90) scale(2)\"/></svg>") == 0 &&
		   (D.paths[0].flags & PK_PATH_CIRCLE) &&
		   fabs(D.paths[0].cx - 0) < 1e-9 &&
		   fabs(D.paths[0].cy - 20) < 1e-9 && D.paths[0].r == 10,
	   "a turned, scaled circle is still a circle");
	ok(parse(MM "<circle r=\"5\" stroke=\"red\" transform=\"scale(-1 1)\"/>"
		    "</svg>") == 0 &&
		   (D.paths[0].flags & PK_PATH_CIRCLE),
	   "a mirrored one too");
	ok(parse(MM "<circle r=\"5\" stroke=\"red\" transform=\"scale(2 1)\"/>"
		    "</svg>") == 0 &&
		   !(D.paths[0].flags & PK_PATH_CIRCLE) && at(0, 0, 10, 0),
	   "a stretched one is not");
	ok(parse(MM "<circle r=\"5\" stroke=\"red\" transform=\"skewX(45)\"/>"
		    "</svg>") == 0 &&
		   !(D.paths[0].flags & PK_PATH_CIRCLE),
	   "nor a skewed one");
	ok(parse(HEAD
		 "width=\"1in\" height=\"1in\"><circle cx=\"48\" cy=\"48\" "
		 "r=\"24\" stroke=\"red\"/></svg>") == 0 &&
	       fabs(D.paths[0].cx - 12.7) < 1e-9 &&
	       fabs(D.paths[0].r - 6.35) < 1e-9,
	   "the circle's centre and radius are in page mm");
	ok(parse(MM "<path stroke=\"red\" transform=\"matrix(2 0 0 2 5 5)\" "
		    "d=\"M 0 0 C 0 10 10 10 10 0\"/></svg>") == 0 &&
		   at(0, 0, 5, 5) && at(0, -1, 25, 5),
	   "curves are mapped, then flattened in page mm");
	ok(parse(MM "<svg x=\"10\" y=\"20\" width=\"20\" height=\"20\" "
		    "viewBox=\"0 0 10 10\"><line x1=\"0\" y1=\"0\" x2=\"10\" "
		    "y2=\"10\" stroke=\"red\"/></svg></svg>") == 0 &&
		   at(0, 0, 10, 20) && at(0, 1, 30, 40),
	   "a nested svg: its own viewport and viewBox");
}

static void
inheritance(void)
{
	ok(parse(MM "<g stroke=\"#123456\" stroke-width=\"2\"><g "
		    "transform=\"scale(3)\"><line x2=\"1\"/></g></g></svg>") ==
			   0 &&
		   D.npaths == 1 && D.npens == 1 && D.pens[0] == 0x123456 &&
		   fabs(D.paths[0].width_mm - 6) < 1e-9,
	   "stroke and stroke-width inherit; the width scales");
	ok(parse(MM "<g stroke=\"red\" style=\"stroke: blue !important; "
		    "stroke-width:0.5\"><line x2=\"1\"/></g></svg>") == 0 &&
		   D.pens[D.paths[0].pen] == 0x0000ff &&
		   D.paths[0].width_mm == 0.5,
	   "style beats the attributes");
	ok(parse(MM "<g stroke=\"red\"><line x2=\"1\" stroke=\"inherit\"/>"
		    "<line x2=\"1\" stroke=\"none\"/></g></svg>") == 0 &&
		   D.npaths == 1 && D.pens[0] == 0xff0000,
	   "inherit keeps the parent's; none draws nothing");
	ok(parse(MM "<g color=\"green\"><line x2=\"1\" "
		    "stroke=\"currentColor\"/><g color=\"blue\"><line x2=\"1\" "
		    "stroke=\"currentColor\"/></g></g></svg>") == 0 &&
		   D.npaths == 2 && D.pens[D.paths[0].pen] == 0x008000 &&
		   D.pens[D.paths[1].pen] == 0x0000ff,
	   "currentColor is the color in force");
	ok(parse(MM
		 "<rect width=\"1\" height=\"1\"/><rect width=\"1\" "
		 "height=\"1\" fill=\"none\"/><line x2=\"1\"/></svg>") == 0 &&
	       D.npaths == 1 && D.pens[0] == 0x000000,
	   "no stroke: a filled shape is drawn with its fill (black by "
	   "default); a line, or no paint, is not");
	ok(parse(MM
		 "<line x2=\"1\" stroke=\"red\"/><line x2=\"1\" "
		 "stroke=\"#f00\"/><line x2=\"1\" stroke=\"blue\"/></svg>") ==
		   0 &&
	       D.npens == 2 && D.paths[1].pen == D.paths[0].pen,
	   "pens are colours: red and #f00 are one pen");
}

static void
hidden_and_layers(void)
{
	const char *s =
	    MM "<line x2=\"1\" stroke=\"red\"/>"
	       "<g id=\"a\" inkscape:label=\"Inks\" "
	       "xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\">"
	       "<line x2=\"2\" stroke=\"red\"/></g>"
	       "<g id=\"b\" style=\"display:none\"><line x2=\"3\" "
	       "stroke=\"blue\"/></g>"
	       "<g id=\"c\" visibility=\"hidden\"><line x2=\"4\" "
	       "stroke=\"red\"/><line x2=\"5\" stroke=\"red\" "
	       "visibility=\"visible\"/></g>"
	       "</svg>";

	ok(parse(s) == 0 && D.npaths == 3 && D.nlayers == 4,
	   "hidden shapes are dropped; every top-level group is a layer");
	ok(D.nlayers == 4 && !D.layers[0].id &&
	       !strcmp(D.layers[1].id, "Inks") &&
	       !strcmp(D.layers[2].id, "b") && D.layers[2].hidden &&
	       D.layers[3].hidden && !D.layers[1].hidden,
	   "layers: label over id, hidden ones marked");
	ok(D.npaths == 3 && D.paths[0].layer == 0 && D.paths[1].layer == 1 &&
		   D.paths[2].layer == 3 && at(2, 1, 5, 0),
	   "paths know their layer; visibility can be undone inside");
	ok(parse_flags(s, PK_SVG_KEEP_HIDDEN) == 0 && D.npaths == 5 &&
		   (D.paths[2].flags & PK_PATH_HIDDEN) &&
		   (D.paths[3].flags & PK_PATH_HIDDEN) &&
		   !(D.paths[4].flags & PK_PATH_HIDDEN),
	   "PK_SVG_KEEP_HIDDEN keeps them, marked");
	{
		struct pk_stats st;

		pk_drawing_stats(&D, &st);
		is_int((long long)st.paths, 3,
		       "stats count visible paths only");
	}
	ok(parse(MM
		 "<defs><circle r=\"5\" stroke=\"red\"/></defs><title>t"
		 "</title><desc/><metadata><rdf:RDF "
		 "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>"
		 "</metadata><style>circle { stroke: red }</style>"
		 "<linearGradient id=\"g\"><stop/></linearGradient>"
		 "<sodipodi:namedview xmlns:sodipodi=\"http://sodipodi."
		 "sourceforge.net/DTD/sodipodi-0.dtd\"><foo/></sodipodi:"
		 "namedview><circle r=\"5\" stroke=\"red\"><title>hi</title>"
		 "<animate/></circle></svg>") == 0 &&
	       D.npaths == 1,
	   "defs, title, metadata, style, gradients and other namespaces "
	   "are skipped whole");
	ok(parse(MM "<a><line x2=\"1\" stroke=\"red\"/></a></svg>") == 0 &&
		   D.npaths == 1,
	   "a link is a group");
	ok(parse("<svg width=\"10mm\" height=\"10mm\" viewBox=\"0 0 10 10\">"
		 "<line x2=\"1\" stroke=\"red\"/></svg>") == 0 &&
		   D.npaths == 1,
	   "no namespace at all is fine");
	ok(parse(MM
		 "<line x1=\"10%\" x2=\"50%\" y1=\"0\" y2=\"0\" "
		 "stroke=\"red\"/><circle r=\"10%\" stroke=\"red\"/></svg>") ==
		   0 &&
	       at(0, 0, 10, 0) && at(0, 1, 50, 0) && D.paths[1].r == 10,
	   "percentages of the viewport");
	ok(parse(MM "<circle r=\"5mm\" cx=\"1in\" stroke=\"red\"/></svg>") ==
		   0 &&
	       fabs(D.paths[0].r - 5 * 96 / 25.4) < 1e-9 &&
	       fabs(D.paths[0].cx - 96) < 1e-9,
	   "units in user space are px based (a mm unit is 96/25.4 units)");
}

struct bad {
	const char *svg;
	int line;
	const char *reason;
};

static void
errors(void)
{
	static const struct bad cases[] = {
		{MM "\n<g>\n<circle r=\"1\"/>\n</svg>", 2,
		 "unclosed element 'g'"},
		{MM "\n<g>\n<circle r=\"1\">\n</g></svg>", 3,
		 "unclosed element 'circle'"},
		{MM "\n<g>\n", 2, "unclosed element 'g'"},
		{MM "\n\n<circle cx=\"1x\"/></svg>", 3,
		 "bad length '1x' in attribute 'cx'"},
		{MM "\n<circle cx=\"\"/></svg>", 2,
		 "bad length '' in attribute 'cx'"},
		{MM "\n<circle r=\"-1\"/></svg>", 2,
		 "negative value '-1' in attribute 'r'"},
		{MM "\n<circle r=\"x\" fill=\"none\"/></svg>", 2,
		 "bad length 'x' in attribute 'r'"},
		{MM "\n<path d=\"M 1 1 L 2\"/></svg>", 2,
		 "bad path data: expected a number at the end"},
		{MM "\n<path d=\"M 1 1 X 2\"/></svg>", 2,
		 "bad path data: unknown command at 'X 2'"},
		{MM "\n<path d=\"M 1 1 Z 2 2\"/></svg>", 2,
		 "bad path data: expected a command at '2 2'"},
		{MM "\n<path d=\"M 1 1 A 1 1 0 2 1 3 3\"/></svg>", 2,
		 "bad path data: expected a number or an arc flag at "
		 "'2 1 3 3'"},
		{MM "\n<path d=\"10 10\"/></svg>", 2,
		 "bad path data: expected 'M' or 'm' at '10 10'"},
		{MM "\n\n\n<blob/></svg>", 4, "unknown element 'blob'"},
		{MM "\n<image href=\"x.png\"/></svg>", 2,
		 "unsupported element 'image'"},
		{MM "\n<use href=\"#a\"/></svg>", 2,
		 "unsupported element 'use'"},
		{MM "\n<g transform=\"scale(1 2 3)\"/></svg>", 2,
		 "bad transform 'scale(1 2 3)'"},
		{MM "\n<g stroke=\"#12\"/></svg>", 2,
		 "bad colour '#12' in attribute 'stroke'"},
		{MM "\n<polygon points=\"1 2 3\"/></svg>", 2,
		 "odd number of coordinates in attribute 'points'"},
		{MM "\n<polygon points=\"1 2 x 3\"/></svg>", 2,
		 "bad number at 'x 3' in attribute 'points'"},
		{HEAD "viewBox=\"0 0 -1 1\"/>", 1, "bad viewBox '0 0 -1 1'"},
		{HEAD "viewBox=\"0 0 1 1\" "
		      "preserveAspectRatio=\"xMidYMad\"/>",
		 1,
		 "bad preserveAspectRatio 'xMidYMad'"},
		{HEAD "width=\"-1mm\"/>", 1,
		 "negative value '-1mm' in attribute 'width'"},
		{"<?xml version=\"1.0\"?>\n<html/>", 2,
		 "root element is 'html', not 'svg'"},
		{"<svg xmlns=\"urn:x\"/>", 1,
		 "root element 'svg' is in namespace 'urn:x', not SVG's"},
		{"", 1, "document is empty"},
		{"   \n ", 2, "start tag expected, '<' not found"},
		{MM "</svg>\n<svg/>", 2,
		 "extra content at the end of the document"},
		{MM "\n<line x1=1/></svg>", 2, "attValue: \" or ' expected"},
		{MM "&nope;</svg>", 1, "entity 'nope' not defined"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[200];
		int rc = parse(cases[i].svg);

		snprintf(name, sizeof(name), "error: line %d: %s",
			 cases[i].line, cases[i].reason);
		if (!ok(rc == -1 && E.line == cases[i].line &&
				!strcmp(E.reason, cases[i].reason) &&
				D.npaths == 0 && D.npts == 0,
			name))
			fprintf(stderr, "#   got %d, line %d: %s\n", rc, E.line,
				E.reason);
	}
}

/*
 * Cut a good SVG at every byte, and scribble on it: the reader must
 * answer each time, an error with a line and a reason, never a crash.
 */
static void
robustness(void)
{
	static const char good[] =
	    "<?xml version=\"1.0\"?>\n" MM "\n"
	    "<g stroke=\"red\" transform=\"rotate(3 1 2) skewX(4)\">\n"
	    "<path d=\"M 1 2 C 3 4 5 6 7 8 S 9 1 2 3 Q 4 5 6 7 T 8 9 "
	    "A 5 6 7 1 0 9 9 Z\"/>\n"
	    "<rect x=\"1\" y=\"2\" width=\"30\" height=\"40\" rx=\"3\"/>\n"
	    "<polygon points=\"1,2 3,4 5,6\"/><ellipse rx=\"3\" ry=\"4\"/>\n"
	    "</g>\n</svg>\n";
	size_t n = strlen(good), i;
	struct pk_rng rng;
	char *buf = malloc(n + 1);
	int bad = 0, errs = 0;

	/* Up to "</svg>" whole: only the last newline may go. */
	for (i = 0; i + 1 < n; i++) {
		int rc = pk_svg_parse(good, i, NULL, &D, &E);

		bad += rc != -1 || E.line < 1 || !E.reason[0];
	}
	is_int(bad, 0, "every prefix of a good SVG is an error with a line");
	pk_rng_seed(&rng, 99);
	bad = 0;
	for (i = 0; i < 3000; i++) {
		int k, rc;

		memcpy(buf, good, n + 1);
		for (k = 0; k < 3; k++)
			buf[pk_rng_below(&rng, n)] =
			    "<>/=\" 0-.eMLZAz#(),\n\x80"[pk_rng_below(&rng,
								      22)];
		rc = pk_svg_parse(buf, n, NULL, &D, &E);
		errs += rc < 0;
		bad += rc < 0 && (E.line < 1 || !E.reason[0]);
		bad += rc == 0 && D.oom;
	}
	is_int(bad, 0, "3000 scribbled SVGs: each parses or says where not");
	ok(errs > 1000, "and most of them are errors");
	free(buf);
}

static void
determinism(void)
{
	const char *s =
	    MM "<g stroke=\"red\" transform=\"rotate(17)\">"
	       "<circle cx=\"40\" cy=\"50\" r=\"12.5\"/>"
	       "<path d=\"M 0 0 C 10 40 60 -20 80 30 A 20 10 30 1 1 "
	       "10 90\"/></g></svg>";
	struct pk_drawing first;

	pk_drawing_init(&first);
	parse(s);
	pk_drawing_permute(&D, (const int32_t[]){0, 1}, NULL, &first);
	parse(s);
	ok(D.npts == first.npts &&
		   !memcmp(D.pts, first.pts, D.npts * sizeof(*D.pts)),
	   "the same SVG twice: the same points, bit for bit");
	pk_drawing_free(&first);
}

int
main(void)
{
	pk_drawing_init(&D);
	plan(14 + 13 + 20 + 8 + 6 + 10 + 29 + 3 + 1);
	page();
	elements();
	path_commands();
	transforms();
	inheritance();
	hidden_and_layers();
	errors();
	robustness();
	determinism();
	pk_drawing_free(&D);
	return done();
}
