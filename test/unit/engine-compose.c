/* engine-compose.c: visible layers and pens to SVG, and read back. */
#include "tap.h"

#include "engine/compose.h"
#include "engine/svg.h"

static const char SRC[] =
	"<svg xmlns=\"http://www.w3.org/2000/svg\" "
	"xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\" "
	"width=\"200mm\" height=\"100mm\" viewBox=\"0 0 200 100\">\n"
	"<line x1=\"1\" y1=\"1\" x2=\"9\" y2=\"1\" stroke=\"black\"/>\n"
	"<g id=\"l1\" inkscape:label=\"A &amp; B\" stroke=\"red\" "
	"stroke-width=\"0.5\">\n"
	"  <circle cx=\"50\" cy=\"50\" r=\"20.25\"/>\n"
	"  <path d=\"M 10 10 C 20 0 30 20 40 10 L 40 30 Z\"/>\n"
	"  <rect x=\"60\" y=\"60\" width=\"10\" height=\"5\" rx=\"2\" "
	"stroke=\"blue\" transform=\"rotate(10)\"/>\n"
	"</g>\n"
	"<g id=\"l2\" style=\"display:none\" stroke=\"green\">\n"
	"  <circle cx=\"10\" cy=\"10\" r=\"5\"/>\n"
	"</g>\n"
	"<g id=\"l3\" stroke=\"blue\">\n"
	"  <polyline points=\"100,10 110,20 120,10\"/>\n"
	"  <line x2=\"5\" stroke=\"red\" visibility=\"hidden\"/>\n"
	"</g>\n"
	"</svg>\n";

static int
parse(const char *svg, size_t len, unsigned flags, struct pk_drawing *d)
{
	struct pk_svg_opts o = {{0.5, 0.01}, flags};
	struct pk_err err;
	int rc = pk_svg_parse(svg, len, &o, d, &err);

	if (rc < 0)
		fprintf(stderr, "#   line %d: %s\n", err.line, err.reason);
	return rc;
}

/* The largest distance between the paths of a and b, point by point;
 * INFINITY when their shapes differ. */
static double
apart(const struct pk_drawing *a, const struct pk_drawing *b)
{
	double worst = 0;
	size_t i, j, ia = 0, ib = 0;

	for (;;) {
		while (ia < a->npaths && (a->paths[ia].flags & PK_PATH_HIDDEN))
			ia++;
		while (ib < b->npaths && (b->paths[ib].flags & PK_PATH_HIDDEN))
			ib++;
		if (ia == a->npaths || ib == b->npaths)
			break;
		if (a->paths[ia].n != b->paths[ib].n ||
		    a->pens[a->paths[ia].pen] != b->pens[b->paths[ib].pen] ||
		    fabs(a->paths[ia].width_mm - b->paths[ib].width_mm) > 1e-3)
			return INFINITY;
		for (j = 0; j < a->paths[ia].n; j++) {
			const struct pk_pt *p = &a->pts[a->paths[ia].first + j];
			const struct pk_pt *q = &b->pts[b->paths[ib].first + j];
			double dist = hypot(p->x - q->x, p->y - q->y);

			worst = dist > worst ? dist : worst;
		}
		ia++;
		ib++;
	}
	i = ia == a->npaths && ib == b->npaths;
	return i ? worst : INFINITY;
}

int
main(void)
{
	struct pk_drawing d, back;
	struct pk_buf out;
	struct pk_pen_svg *pens = NULL;
	size_t shapes = 0, npens = 0, i, total = 0;

	plan(14);
	pk_drawing_init(&d);
	pk_drawing_init(&back);
	pk_buf_init(&out);
	ok(parse(SRC, sizeof(SRC) - 1, PK_SVG_KEEP_HIDDEN, &d) == 0 &&
		   d.npaths == 7 && d.nlayers == 4,
	   "the layered drawing, hidden parts kept");
	ok(pk_compose_visible(&d, &out, &shapes) == 0, "compose");
	is_int((long long)shapes, 5, "five visible shapes");
	if (!ok(strstr(out.data, "\n<g id=\"A &amp; B\">\n") &&
			strstr(out.data, "\n<g id=\"l3\">\n") &&
			!strstr(out.data, "l2") && !strstr(out.data, "green"),
		"one group per visible layer, named; the hidden layer is gone"))
		fprintf(stderr, "%s", out.data);
	ok(strstr(out.data,
		  "<circle cx=\"50\" cy=\"50\" r=\"20.25\" "
		  "stroke=\"#ff0000\" stroke-width=\"0.5\"/>") != NULL,
	   "a circle stays a circle");
	ok(strstr(out.data, "width=\"200mm\" height=\"100mm\" "
			    "viewBox=\"0 0 200 100\" fill=\"none\">\n<path "
			    "d=\"M1 1L9 1\"") != NULL,
	   "the page, in mm, and layer 0 outside any group");
	ok(parse(out.data, out.len, 0, &back) == 0 && apart(&d, &back) < 2e-3,
	   "read back: the same visible paths, pens and widths, within 2 um");
	ok(back.nlayers == 3 && back.paths[0].layer == 0 &&
		   back.paths[1].layer == 1 && back.paths[4].layer == 2 &&
		   !strcmp(back.layers[1].id, "A & B"),
	   "and the same layers, names and all");

	ok(pk_split_by_pen(&d, &pens, &npens) == 0 && npens == 3,
	   "split: three pens with visible shapes (green is hidden)");
	ok(npens == 3 && pens[0].pen == 0x000000 && pens[0].shapes == 1 &&
		   pens[1].pen == 0xff0000 && pens[1].shapes == 2 &&
		   pens[2].pen == 0x0000ff && pens[2].shapes == 2,
	   "pens in order of appearance, with their shape counts");
	for (i = 0; i < npens; i++) {
		char stroke[40];

		if (parse(pens[i].svg.data, pens[i].svg.len, 0, &back) < 0 ||
		    back.npens != 1 || back.pens[0] != pens[i].pen)
			break;
		snprintf(stroke, sizeof(stroke), "<g stroke=\"#%06x\"",
			 (unsigned)pens[i].pen);
		if (!strstr(pens[i].svg.data, stroke))
			break;
		total += back.npaths;
	}
	ok(i == npens, "each pen's SVG reads back with that pen only");
	is_int((long long)total, 5, "and together they hold every shape");
	pk_pen_svgs_free(pens, npens);

	pk_drawing_clear(&d);
	ok(pk_compose_visible(&d, &out, &shapes) == 0 && shapes == 0 &&
		   strstr(out.data, "</svg>"),
	   "an empty drawing composes to an empty page");
	ok(pk_split_by_pen(&d, &pens, &npens) == 0 && npens == 0,
	   "and splits into nothing");
	pk_pen_svgs_free(pens, npens);
	pk_buf_free(&out);
	pk_drawing_free(&d);
	pk_drawing_free(&back);
	return done();
}
