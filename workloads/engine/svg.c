/* svg.c: the SVG reader on libxml2's SAX2 parser. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "color.h"
#include "num.h"
#include "path.h"
#include "svg.h"

#define SVG_NS "http://www.w3.org/2000/svg"

/* The attributes the reader looks at; presentation ones last. */
enum attr {
	A_X,
	A_Y,
	A_WIDTH,
	A_HEIGHT,
	A_RX,
	A_RY,
	A_CX,
	A_CY,
	A_R,
	A_X1,
	A_Y1,
	A_X2,
	A_Y2,
	A_POINTS,
	A_D,
	A_TRANSFORM,
	A_VIEWBOX,
	A_PAR,
	A_ID,
	A_LABEL,
	A_STYLE,
	A_STROKE,	/* the presentation attributes, also read in style */
	A_FILL,
	A_COLOR,
	A_STROKE_WIDTH,
	A_DISPLAY,
	A_VISIBILITY,
	A_COUNT,
};

static const char *const attr_names[A_COUNT] = {
	"x",	 "y",	   "width",  "height", "rx",	      "ry",
	"cx",	 "cy",	   "r",	     "x1",     "y1",	      "x2",
	"y2",	 "points", "d",	     "transform", "viewBox",
	"preserveAspectRatio",	     "id",	"inkscape:label", "style",
	"stroke", "fill",  "color",  "stroke-width", "display", "visibility",
};

/* An attribute's value: [s, e), s NULL when absent. */
struct val {
	const char *s, *e;
};

enum kind {
	K_UNKNOWN,
	K_SKIP,		/* draws nothing: skipped with its children */
	K_UNSUPPORTED,	/* would draw, but not here: an error */
	K_SVG,
	K_G,
	K_CIRCLE,
	K_ELLIPSE,
	K_RECT,
	K_LINE,
	K_POLYLINE,
	K_POLYGON,
	K_PATH,
};

static const struct {
	const char *name;
	enum kind kind;
} kinds[] = {
	{"a", K_G},
	{"animate", K_SKIP},
	{"animateColor", K_SKIP},
	{"animateMotion", K_SKIP},
	{"animateTransform", K_SKIP},
	{"circle", K_CIRCLE},
	{"clipPath", K_SKIP},
	{"color-profile", K_SKIP},
	{"cursor", K_SKIP},
	{"defs", K_SKIP},
	{"desc", K_SKIP},
	{"ellipse", K_ELLIPSE},
	{"filter", K_SKIP},
	{"font", K_SKIP},
	{"font-face", K_SKIP},
	{"foreignObject", K_SKIP},
	{"g", K_G},
	{"image", K_UNSUPPORTED},
	{"line", K_LINE},
	{"linearGradient", K_SKIP},
	{"marker", K_SKIP},
	{"mask", K_SKIP},
	{"metadata", K_SKIP},
	{"path", K_PATH},
	{"pattern", K_SKIP},
	{"polygon", K_POLYGON},
	{"polyline", K_POLYLINE},
	{"radialGradient", K_SKIP},
	{"rect", K_RECT},
	{"script", K_SKIP},
	{"set", K_SKIP},
	{"style", K_SKIP},
	{"svg", K_SVG},
	{"switch", K_UNSUPPORTED},
	{"symbol", K_SKIP},
	{"text", K_UNSUPPORTED},
	{"title", K_SKIP},
	{"use", K_UNSUPPORTED},
	{"view", K_SKIP},
};

/* What an element passes down to its children. */
struct frame {
	struct pk_xform ctm;	/* its user space to page mm */
	uint32_t stroke, fill, color;
	double sw;		/* stroke-width, user units */
	double vw, vh;		/* the viewport, user units (percentages) */
	int layer;
	int hidden;		/* display:none here or above */
	int invisible;		/* visibility:hidden (children may undo it) */
	int leaf;		/* a shape: its children are skipped */
};

struct svgst {
	xmlParserCtxtPtr ctxt;
	const struct pk_svg_opts *o;
	struct pk_drawing *d;
	struct pk_err *err;
	struct frame *stack;
	size_t depth, cap;
	size_t skip;		/* > 0: inside a skipped element, its depth */
	int failed;
	uint32_t pen_rgb;	/* the last pen looked up, and its index */
	int pen_idx;
};

static int
line_now(struct svgst *s)
{
	int line = xmlSAX2GetLineNumber(s->ctxt);

	return line > 0 ? line : 1;
}

/* Record the first error and stop the parser. */
static int
fail(struct svgst *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail(struct svgst *s, const char *fmt, ...)
{
	va_list ap;

	if (s->failed)
		return -1;
	s->failed = 1;
	if (s->err) {
		s->err->line = line_now(s);
		va_start(ap, fmt);
		vsnprintf(s->err->reason, sizeof(s->err->reason), fmt, ap);
		va_end(ap);
	}
	xmlStopParser(s->ctxt);
	return -1;
}

/* A value for a message: at most 32 bytes of it. */
#define SHOW(v) (int)((v)->e - (v)->s > 32 ? 32 : (v)->e - (v)->s), (v)->s

static int
attr_index(const char *n)
{
	int k = -1;

	switch (n[0]) {
	case 'c':
		k = !strcmp(n, "cx") ? A_CX : !strcmp(n, "cy") ? A_CY :
		    !strcmp(n, "color") ? A_COLOR : -1;
		break;
	case 'd':
		k = !strcmp(n, "d") ? A_D : !strcmp(n, "display") ? A_DISPLAY :
								  -1;
		break;
	case 'f':
		k = !strcmp(n, "fill") ? A_FILL : -1;
		break;
	case 'h':
		k = !strcmp(n, "height") ? A_HEIGHT : -1;
		break;
	case 'i':
		k = !strcmp(n, "id") ? A_ID : -1;
		break;
	case 'p':
		k = !strcmp(n, "points") ? A_POINTS :
		    !strcmp(n, "preserveAspectRatio") ? A_PAR : -1;
		break;
	case 'r':
		k = !strcmp(n, "r") ? A_R : !strcmp(n, "rx") ? A_RX :
		    !strcmp(n, "ry") ? A_RY : -1;
		break;
	case 's':
		k = !strcmp(n, "stroke") ? A_STROKE :
		    !strcmp(n, "stroke-width") ? A_STROKE_WIDTH :
		    !strcmp(n, "style") ? A_STYLE : -1;
		break;
	case 't':
		k = !strcmp(n, "transform") ? A_TRANSFORM : -1;
		break;
	case 'v':
		k = !strcmp(n, "viewBox") ? A_VIEWBOX :
		    !strcmp(n, "visibility") ? A_VISIBILITY : -1;
		break;
	case 'w':
		k = !strcmp(n, "width") ? A_WIDTH : -1;
		break;
	case 'x':
		k = !strcmp(n, "x") ? A_X : !strcmp(n, "x1") ? A_X1 :
		    !strcmp(n, "x2") ? A_X2 : -1;
		break;
	case 'y':
		k = !strcmp(n, "y") ? A_Y : !strcmp(n, "y1") ? A_Y1 :
		    !strcmp(n, "y2") ? A_Y2 : -1;
		break;
	}
	return k;
}

static void
collect(int n, const xmlChar **attrs, struct val *v)
{
	int i;

	memset(v, 0, A_COUNT * sizeof(*v));
	for (i = 0; i < n; i++) {
		const char *name = (const char *)attrs[5 * i];
		const xmlChar *prefix = attrs[5 * i + 1];
		int k;

		if (prefix)
			k = !strcmp(name, "label") ? A_LABEL : -1;
		else
			k = attr_index(name);
		if (k < 0)
			continue;
		v[k].s = (const char *)attrs[5 * i + 3];
		v[k].e = (const char *)attrs[5 * i + 4];
	}
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* [s, e) without surrounding white space. */
static void
trim(const char **s, const char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

/*
 * style="stroke: red; stroke-width: 2": the presentation properties in
 * it override the attributes of the same name.
 */
static void
read_style(struct val *v)
{
	const char *p = v[A_STYLE].s, *end = v[A_STYLE].e;
	int k;

	while (p && p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *decl_end = semi ? semi : end;
		const char *colon = memchr(p, ':', (size_t)(decl_end - p));

		if (colon) {
			const char *ns = p, *ne = colon;
			const char *vs = colon + 1, *ve = decl_end;
			const char *bang;

			trim(&ns, &ne);
			trim(&vs, &ve);
			bang = memchr(vs, '!', (size_t)(ve - vs));
			if (bang) {
				ve = bang;
				trim(&vs, &ve);
			}
			for (k = A_STROKE; k < A_COUNT; k++)
				if (strlen(attr_names[k]) ==
					(size_t)(ne - ns) &&
				    !strncmp(attr_names[k], ns,
					     (size_t)(ne - ns))) {
					v[k].s = vs;
					v[k].e = ve;
				}
		}
		p = decl_end + 1;
	}
}

static int
is_word(const struct val *v, const char *word)
{
	const char *s = v->s, *e = v->e;
	size_t n = strlen(word);

	trim(&s, &e);
	return (size_t)(e - s) == n && !strncmp(s, word, n);
}

static int
paint(struct svgst *s, int k, const struct val *v, uint32_t *out)
{
	if (!v[k].s || is_word(&v[k], "inherit"))
		return 0;
	if (pk_color_parse(v[k].s, v[k].e, out) < 0)
		return fail(s, "bad colour '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	return 0;
}

enum axis { AX_X, AX_Y, AX_DIAG };

/* A length attribute in the user units of frame f. */
static int
length(struct svgst *s, const struct frame *f, const struct val *v, int k,
       enum axis axis, double dflt, double *out)
{
	enum pk_unit unit;
	double x;

	if (!v[k].s) {
		*out = dflt;
		return 0;
	}
	if (pk_length_parse(v[k].s, v[k].e, &x, &unit) < 0)
		return fail(s, "bad length '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	if (unit != PK_UNIT_PERCENT)
		*out = x * pk_unit_px(unit);
	else if (axis == AX_X)
		*out = x / 100 * f->vw;
	else if (axis == AX_Y)
		*out = x / 100 * f->vh;
	else
		*out = x / 100 * sqrt((f->vw * f->vw + f->vh * f->vh) / 2);
	if (!isfinite(*out))
		return fail(s, "length out of range '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	return 0;
}

/* Like length(), and negative values are errors. */
static int
size(struct svgst *s, const struct frame *f, const struct val *v, int k,
     enum axis axis, double dflt, double *out)
{
	if (length(s, f, v, k, axis, dflt, out) < 0)
		return -1;
	if (v[k].s && *out < 0)
		return fail(s, "negative value '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	return 0;
}

/* Inherited properties of f from its attributes and style. */
static int
presentation(struct svgst *s, struct frame *f, struct val *v)
{
	if (v[A_STYLE].s)
		read_style(v);
	if (paint(s, A_COLOR, v, &f->color) < 0 ||
	    paint(s, A_STROKE, v, &f->stroke) < 0 ||
	    paint(s, A_FILL, v, &f->fill) < 0)
		return -1;
	if (f->color == PK_COLOR_CURRENT)
		f->color = s->depth > 1 ? s->stack[s->depth - 2].color : 0;
	if (v[A_STROKE_WIDTH].s && !is_word(&v[A_STROKE_WIDTH], "inherit") &&
	    size(s, f, v, A_STROKE_WIDTH, AX_DIAG, f->sw, &f->sw) < 0)
		return -1;
	if (v[A_DISPLAY].s && is_word(&v[A_DISPLAY], "none"))
		f->hidden = 1;
	if (v[A_VISIBILITY].s) {
		if (is_word(&v[A_VISIBILITY], "hidden") ||
		    is_word(&v[A_VISIBILITY], "collapse"))
			f->invisible = 1;
		else if (is_word(&v[A_VISIBILITY], "visible"))
			f->invisible = 0;
	}
	return 0;
}

static int
transform(struct svgst *s, struct frame *f, const struct val *v)
{
	struct pk_xform t;
	const char *at = NULL;
	int rc;

	if (!v[A_TRANSFORM].s)
		return 0;
	rc = pk_xform_parse(v[A_TRANSFORM].s, v[A_TRANSFORM].e, &t, &at);
	if (rc == -1)
		return fail(s, "bad transform '%.*s'", SHOW(&v[A_TRANSFORM]));
	if (rc == 0)
		pk_xform_then(&f->ctm, &t);
	if (rc < 0 || !pk_xform_finite(&f->ctm))
		return fail(s, "transform out of range '%.*s'",
			    SHOW(&v[A_TRANSFORM]));
	return 0;
}

/* viewBox="x y w h": 1 when present, 0 when absent, -1 when bad. */
static int
viewbox(struct svgst *s, const struct val *v, double vb[4])
{
	const char *p = v[A_VIEWBOX].s, *end = v[A_VIEWBOX].e;
	int i;

	if (!p)
		return 0;
	p = pk_num_ws(p, end);
	for (i = 0; i < 4; i++) {
		if (i)
			p = pk_num_sep(p, end);
		if (pk_num_scan(&p, end, &vb[i]) < 0)
			break;
	}
	if (i < 4 || pk_num_ws(p, end) != end || vb[2] <= 0 || vb[3] <= 0)
		return fail(s, "bad viewBox '%.*s'", SHOW(&v[A_VIEWBOX]));
	return 1;
}

/*
 * The map of viewBox vb onto a w x h viewport at the origin, as
 * preserveAspectRatio says (default xMidYMid meet).
 */
static int
viewbox_map(struct svgst *s, const double vb[4], double w, double h,
	    const struct val *v, struct pk_xform *m)
{
	double sx = w / vb[2], sy = h / vb[3], ax = 0.5, ay = 0.5;
	int slice = 0, none = 0;

	if (v[A_PAR].s) {
		const char *p = v[A_PAR].s, *e = v[A_PAR].e;
		char word[16];
		int n = 0;

		while (p < e) {
			const char *q;

			p = pk_num_ws(p, e);
			for (q = p; q < e && !is_space(*q); q++)
				;
			if (q == p)
				break;
			if (q - p >= (long)sizeof(word))
				goto bad;
			memcpy(word, p, (size_t)(q - p));
			word[q - p] = '\0';
			p = q;
			if (n == 0 && !strcmp(word, "defer"))
				continue;
			if (n == 0 && !strcmp(word, "none")) {
				none = 1;
			} else if (n == 0 && strlen(word) == 8 &&
				   word[0] == 'x' && word[4] == 'Y') {
				const char *xs = word + 1, *ys = word + 5;

				ax = !strncmp(xs, "Min", 3) ? 0 :
				     !strncmp(xs, "Mid", 3) ? 0.5 :
				     !strncmp(xs, "Max", 3) ? 1 : -1;
				ay = !strcmp(ys, "Min") ? 0 :
				     !strcmp(ys, "Mid") ? 0.5 :
				     !strcmp(ys, "Max") ? 1 : -1;
				if (ax < 0 || ay < 0)
					goto bad;
			} else if (n == 1 && !strcmp(word, "slice")) {
				slice = 1;
			} else if (!(n == 1 && !strcmp(word, "meet"))) {
				goto bad;
			}
			n++;
		}
	}
	if (!none) {
		double k = slice ? (sx > sy ? sx : sy) : (sx < sy ? sx : sy);

		sx = sy = k;
	}
	m->a = sx;
	m->b = 0;
	m->c = 0;
	m->d = sy;
	m->e = -vb[0] * sx + (none ? 0 : ax * (w - vb[2] * sx));
	m->f = -vb[1] * sy + (none ? 0 : ay * (h - vb[3] * sy));
	return 0;
bad:
	return fail(s, "bad preserveAspectRatio '%.*s'", SHOW(&v[A_PAR]));
}

/* A root width or height in mm; -1 when absent or a percentage. */
static int
page_length(struct svgst *s, const struct val *v, int k, double *mm)
{
	enum pk_unit unit;
	double x;

	*mm = -1;
	if (!v[k].s)
		return 0;
	if (pk_length_parse(v[k].s, v[k].e, &x, &unit) < 0)
		return fail(s, "bad length '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	if (x < 0)
		return fail(s, "negative value '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	if (unit != PK_UNIT_PERCENT)
		*mm = x * pk_unit_mm(unit);
	if (!pk_mm_ok(*mm))
		return fail(s, "length out of range '%.*s' in attribute '%s'",
			    SHOW(&v[k]), attr_names[k]);
	return 0;
}

/* The outermost <svg>: the page and the map of user units onto it. */
static int
root(struct svgst *s, struct frame *f, const struct val *v)
{
	double w, h, vb[4];
	int has_vb;

	if (page_length(s, v, A_WIDTH, &w) < 0 ||
	    page_length(s, v, A_HEIGHT, &h) < 0)
		return -1;
	has_vb = viewbox(s, v, vb);
	if (has_vb < 0)
		return -1;
	if (has_vb) {
		if (w < 0 && h < 0) {
			w = vb[2] * PK_MM_PER_PX;
			h = vb[3] * PK_MM_PER_PX;
		} else if (w < 0) {
			w = h * vb[2] / vb[3];
		} else if (h < 0) {
			h = w * vb[3] / vb[2];
		}
		if (viewbox_map(s, vb, w, h, v, &f->ctm) < 0)
			return -1;
		f->vw = vb[2];
		f->vh = vb[3];
		/* Page sides from the viewBox's ratio, or its map, overflow. */
		if (!pk_mm_ok(w) || !pk_mm_ok(h) || !pk_xform_finite(&f->ctm))
			return fail(s, "viewBox out of range '%.*s'",
				    SHOW(&v[A_VIEWBOX]));
	} else {
		pk_xform_scale(&f->ctm, PK_MM_PER_PX, PK_MM_PER_PX);
		f->vw = w > 0 ? w / PK_MM_PER_PX : 0;
		f->vh = h > 0 ? h / PK_MM_PER_PX : 0;
	}
	s->d->width_mm = w > 0 ? w : 0;
	s->d->height_mm = h > 0 ? h : 0;
	return 0;
}

/* A nested <svg>: a new viewport inside the parent's user space. */
static int
viewport(struct svgst *s, const struct frame *parent, struct frame *f,
	 const struct val *v)
{
	struct pk_xform t;
	double x, y, w, h, vb[4];
	int has_vb;

	if (length(s, parent, v, A_X, AX_X, 0, &x) < 0 ||
	    length(s, parent, v, A_Y, AX_Y, 0, &y) < 0 ||
	    size(s, parent, v, A_WIDTH, AX_X, parent->vw, &w) < 0 ||
	    size(s, parent, v, A_HEIGHT, AX_Y, parent->vh, &h) < 0)
		return -1;
	has_vb = viewbox(s, v, vb);
	if (has_vb < 0)
		return -1;
	pk_xform_translate(&t, x, y);
	pk_xform_then(&f->ctm, &t);
	f->vw = w;
	f->vh = h;
	if (has_vb && w > 0 && h > 0) {
		if (viewbox_map(s, vb, w, h, v, &t) < 0)
			return -1;
		pk_xform_then(&f->ctm, &t);
		f->vw = vb[2];
		f->vh = vb[3];
	}
	if (!pk_xform_finite(&f->ctm))
		return fail(s, "viewport out of range in element 'svg'");
	return 0;
}

/*
 * The style of the paths of a shape; 0 when it is not drawn at all. The
 * pen is the stroke, or else the fill of shapes that have an inside (a
 * <line> has none: without a stroke it is invisible).
 */
static int
shape_style(struct svgst *s, enum kind k, const struct frame *f,
	    struct pk_style *st)
{
	uint32_t rgb = f->stroke == PK_COLOR_CURRENT ? f->color : f->stroke;
	int hidden = f->hidden || f->invisible;

	if (rgb == PK_COLOR_NONE && k != K_LINE)
		rgb = f->fill == PK_COLOR_CURRENT ? f->color : f->fill;
	if (rgb == PK_COLOR_NONE)
		return 0;
	if (hidden && !(s->o->flags & PK_SVG_KEEP_HIDDEN))
		return 0;
	if (rgb != s->pen_rgb || s->pen_idx < 0) {
		s->pen_idx = pk_drawing_pen(s->d, rgb);
		s->pen_rgb = rgb;
		if (s->pen_idx < 0)
			return 0;
	}
	st->pen = s->pen_idx;
	st->layer = f->layer;
	st->flags = hidden ? PK_PATH_HIDDEN : 0;
	st->width_mm = f->sw * sqrt(fabs(pk_xform_det(&f->ctm)));
	return 1;
}

/* A circle or an ellipse: the unit circle mapped by m. */
static void
ellipse_path(struct svgst *s, const struct frame *f,
	     const struct pk_style *st, double cx, double cy, double rx,
	     double ry)
{
	struct pk_xform e = {rx, 0, 0, ry, cx, cy}, m;
	double scale, px, py;
	unsigned flags = PK_PATH_CLOSED;

	pk_xform_mul(&m, &f->ctm, &e);
	pk_drawing_begin(s->d, st);
	pk_xform_apply(&m, 1, 0, &px, &py);
	pk_drawing_point(s->d, px, py);
	pk_flatten_ellipse(s->d, &m, 0, 2 * M_PI, NULL, &s->o->flatten);
	if (rx == ry && pk_xform_similar(&f->ctm, &scale)) {
		flags |= PK_PATH_CIRCLE;
		pk_xform_apply(&f->ctm, cx, cy, &px, &py);
		pk_drawing_end(s->d, flags, px, py, rx * scale);
	} else {
		pk_drawing_end(s->d, flags, 0, 0, 0);
	}
}

static void
point(struct svgst *s, const struct frame *f, double x, double y)
{
	double px, py;

	pk_xform_apply(&f->ctm, x, y, &px, &py);
	pk_drawing_point(s->d, px, py);
}

/* A quarter of the ellipse round (cx, cy) from angle t0, ending at end. */
static void
corner(struct svgst *s, const struct frame *f, double cx, double cy,
       double rx, double ry, double t0, double ex, double ey)
{
	struct pk_xform e = {rx, 0, 0, ry, cx, cy}, m;
	double end[2];

	pk_xform_mul(&m, &f->ctm, &e);
	pk_xform_apply(&f->ctm, ex, ey, &end[0], &end[1]);
	pk_flatten_ellipse(s->d, &m, t0, M_PI / 2, end, &s->o->flatten);
}

static int
rect(struct svgst *s, const struct frame *f, const struct pk_style *st,
     const struct val *v)
{
	double x, y, w, h, rx, ry;

	if (length(s, f, v, A_X, AX_X, 0, &x) < 0 ||
	    length(s, f, v, A_Y, AX_Y, 0, &y) < 0 ||
	    size(s, f, v, A_WIDTH, AX_X, 0, &w) < 0 ||
	    size(s, f, v, A_HEIGHT, AX_Y, 0, &h) < 0 ||
	    size(s, f, v, A_RX, AX_X, -1, &rx) < 0 ||
	    size(s, f, v, A_RY, AX_Y, -1, &ry) < 0)
		return -1;
	if (w == 0 || h == 0)
		return 0;
	/* One radius given stands for both; each is at most half a side. */
	if (rx < 0)
		rx = ry < 0 ? 0 : ry;
	if (ry < 0)
		ry = rx;
	if (rx > w / 2)
		rx = w / 2;
	if (ry > h / 2)
		ry = h / 2;
	pk_drawing_begin(s->d, st);
	if (rx == 0 || ry == 0) {
		point(s, f, x, y);
		point(s, f, x + w, y);
		point(s, f, x + w, y + h);
		point(s, f, x, y + h);
		point(s, f, x, y);
	} else {
		/* As SVG defines it: clockwise from the top edge. */
		point(s, f, x + rx, y);
		if (w > 2 * rx)
			point(s, f, x + w - rx, y);
		corner(s, f, x + w - rx, y + ry, rx, ry, -M_PI / 2, x + w,
		       y + ry);
		if (h > 2 * ry)
			point(s, f, x + w, y + h - ry);
		corner(s, f, x + w - rx, y + h - ry, rx, ry, 0, x + w - rx,
		       y + h);
		if (w > 2 * rx)
			point(s, f, x + rx, y + h);
		corner(s, f, x + rx, y + h - ry, rx, ry, M_PI / 2, x,
		       y + h - ry);
		if (h > 2 * ry)
			point(s, f, x, y + ry);
		corner(s, f, x + rx, y + ry, rx, ry, M_PI, x + rx, y);
	}
	pk_drawing_end(s->d, PK_PATH_CLOSED, 0, 0, 0);
	return 0;
}

static int
points(struct svgst *s, const struct frame *f, const struct pk_style *st,
       const struct val *v, int closed)
{
	const char *p = v[A_POINTS].s, *end = v[A_POINTS].e;
	double x, y, x0 = 0, y0 = 0;
	size_t n = 0;

	if (!p)
		return 0;
	pk_drawing_begin(s->d, st);
	p = pk_num_ws(p, end);
	while (p < end) {
		if (pk_num_scan(&p, end, &x) < 0)
			goto bad;
		p = pk_num_sep(p, end);
		if (p == end) {
			pk_drawing_end(s->d, 0, 0, 0, 0);
			return fail(s, "odd number of coordinates in "
				       "attribute 'points'");
		}
		if (pk_num_scan(&p, end, &y) < 0)
			goto bad;
		p = pk_num_sep(p, end);
		if (n++ == 0) {
			x0 = x;
			y0 = y;
		}
		point(s, f, x, y);
	}
	if (closed && n > 1)
		point(s, f, x0, y0);
	pk_drawing_end(s->d, closed ? PK_PATH_CLOSED : 0, 0, 0, 0);
	return 0;
bad:
	pk_drawing_end(s->d, 0, 0, 0, 0);
	return fail(s, "bad number at '%.*s' in attribute 'points'",
		    (int)(end - p > 12 ? 12 : end - p), p);
}

static int
geometry(struct svgst *s, enum kind k, const struct frame *f,
	 const struct pk_style *stp, const struct val *v)
{
	const struct pk_style st = *stp;
	double a, b, c, e;
	char why[160];

	switch (k) {
	case K_CIRCLE:
		if (length(s, f, v, A_CX, AX_X, 0, &a) < 0 ||
		    length(s, f, v, A_CY, AX_Y, 0, &b) < 0 ||
		    size(s, f, v, A_R, AX_DIAG, 0, &c) < 0)
			return -1;
		if (c > 0)
			ellipse_path(s, f, &st, a, b, c, c);
		break;
	case K_ELLIPSE:
		if (length(s, f, v, A_CX, AX_X, 0, &a) < 0 ||
		    length(s, f, v, A_CY, AX_Y, 0, &b) < 0 ||
		    size(s, f, v, A_RX, AX_X, -1, &c) < 0 ||
		    size(s, f, v, A_RY, AX_Y, -1, &e) < 0)
			return -1;
		/* SVG 2: a missing radius is the other one (auto). */
		if (c < 0)
			c = e;
		if (e < 0)
			e = c;
		if (c > 0 && e > 0)
			ellipse_path(s, f, &st, a, b, c, e);
		break;
	case K_RECT:
		return rect(s, f, &st, v);
	case K_LINE:
		if (length(s, f, v, A_X1, AX_X, 0, &a) < 0 ||
		    length(s, f, v, A_Y1, AX_Y, 0, &b) < 0 ||
		    length(s, f, v, A_X2, AX_X, 0, &c) < 0 ||
		    length(s, f, v, A_Y2, AX_Y, 0, &e) < 0)
			return -1;
		pk_drawing_begin(s->d, &st);
		point(s, f, a, b);
		point(s, f, c, e);
		pk_drawing_end(s->d, 0, 0, 0, 0);
		break;
	case K_POLYLINE:
	case K_POLYGON:
		return points(s, f, &st, v, k == K_POLYGON);
	case K_PATH:
		if (v[A_D].s && pk_path_parse(v[A_D].s, v[A_D].e, &f->ctm, &st,
					      &s->o->flatten, s->d, why,
					      sizeof(why)) < 0)
			return fail(s, "bad path data: %s", why);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * A shape: its geometry is read (and its errors reported) even when it is
 * not drawn, so that a file is as good or as bad whatever its paint.
 */
static int
shape(struct svgst *s, enum kind k, const char *name, const struct frame *f,
      const struct val *v)
{
	struct pk_style st = {0, 0, 0, 0};
	size_t npts = s->d->npts, npaths = s->d->npaths;
	int draw, rc;

	draw = shape_style(s, k, f, &st);
	if (s->d->oom)
		return fail(s, "out of memory");
	rc = geometry(s, k, f, &st, v);
	/* Drawn or not, a shape out of range is refused. */
	if (rc == 0 && !s->d->oom &&
	    !pk_drawing_in_range(s->d, npts, npaths))
		rc = fail(s, "element '%s' is out of range (coordinates or "
			     "sizes beyond " PK_DRAWING_MAX_MM_TEXT " mm)",
			  name);
	if (!draw) {
		s->d->npts = npts;
		s->d->npaths = npaths;
	}
	if (rc == 0 && s->d->oom)
		return fail(s, "out of memory");
	return rc;
}

static enum kind
kind_of(const char *name)
{
	size_t lo = 0, hi = sizeof(kinds) / sizeof(kinds[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, kinds[mid].name);

		if (c == 0)
			return kinds[mid].kind;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return K_UNKNOWN;
}

static struct frame *
push(struct svgst *s)
{
	if (s->depth == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct frame *p = realloc(s->stack, cap * sizeof(*p));

		if (!p) {
			fail(s, "out of memory");
			return NULL;
		}
		s->stack = p;
		s->cap = cap;
	}
	if (s->depth > 0)
		s->stack[s->depth] = s->stack[s->depth - 1];
	s->stack[s->depth].leaf = 0;
	return &s->stack[s->depth++];
}

/*
 * A layer's name: inkscape:label, else id, as a NUL-terminated copy.
 * Without entity replacement libxml2 hands '&' over as "&#38;" (for its
 * own reparsing); that is undone here.
 */
static int
new_layer(struct svgst *s, const struct frame *f, const struct val *v)
{
	const struct val *name = v[A_LABEL].s ? &v[A_LABEL] :
				 v[A_ID].s    ? &v[A_ID] :
						NULL;
	char buf[128];
	size_t n = 0;
	int idx;

	if (name) {
		const char *p = name->s;

		while (p < name->e && n + 1 < sizeof(buf)) {
			if (name->e - p >= 5 && !memcmp(p, "&#38;", 5)) {
				buf[n++] = '&';
				p += 5;
			} else {
				buf[n++] = *p++;
			}
		}
		buf[n] = '\0';
	}
	idx = pk_drawing_layer(s->d, name ? buf : NULL,
			       f->hidden || f->invisible);
	if (idx < 0)
		return fail(s, "out of memory");
	return idx;
}

static void
on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
	 const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
	 int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	struct svgst *s = ctx;
	const char *name = (const char *)localname;
	struct val v[A_COUNT];
	struct frame *f;
	enum kind k;

	(void)prefix;
	(void)nb_namespaces;
	(void)namespaces;
	(void)nb_defaulted;
	if (s->failed)
		return;
	if (s->skip) {
		s->skip++;
		return;
	}
	if (s->depth == 0 && strcmp(name, "svg")) {
		fail(s, "root element is '%s', not 'svg'", name);
		return;
	}
	if (s->depth == 0 && uri && strcmp((const char *)uri, SVG_NS)) {
		fail(s, "root element 'svg' is in namespace '%s', not SVG's",
		     (const char *)uri);
		return;
	}
	if (uri && strcmp((const char *)uri, SVG_NS)) {
		s->skip = 1;
		return;
	}
	k = s->depth == 0 ? K_SVG : kind_of(name);
	if (k == K_UNKNOWN || k == K_UNSUPPORTED) {
		fail(s, "%s element '%s'",
		     k == K_UNKNOWN ? "unknown" : "unsupported", name);
		return;
	}
	if (k == K_SKIP || (s->depth > 0 && s->stack[s->depth - 1].leaf)) {
		s->skip = 1;
		return;
	}
	f = push(s);
	if (!f)
		return;
	if (s->depth == 1) {
		pk_xform_identity(&f->ctm);
		f->stroke = PK_COLOR_NONE;
		f->fill = 0x000000;
		f->color = 0x000000;
		f->sw = 1;
		f->hidden = 0;
		f->invisible = 0;
		f->layer = pk_drawing_layer(s->d, NULL, 0);
		if (f->layer < 0) {
			fail(s, "out of memory");
			return;
		}
	}
	collect(nb_attributes, attributes, v);
	if (presentation(s, f, v) < 0)
		return;
	if (s->depth == 1) {
		if (root(s, f, v) < 0)
			return;
	} else {
		if (transform(s, f, v) < 0)
			return;
		if (k == K_SVG &&
		    viewport(s, &s->stack[s->depth - 2], f, v) < 0)
			return;
	}
	if (k == K_G && s->depth == 2) {
		f->layer = new_layer(s, f, v);
		if (f->layer < 0)
			return;
	}
	if (f->hidden && !(s->o->flags & PK_SVG_KEEP_HIDDEN)) {
		/* Nothing under display:none is drawn: skip it whole. */
		s->depth--;
		s->skip = 1;
		return;
	}
	if (k >= K_CIRCLE) {
		f->leaf = 1;
		shape(s, k, name, f, v);
	}
}

static void
on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
       const xmlChar *uri)
{
	struct svgst *s = ctx;

	(void)localname;
	(void)prefix;
	(void)uri;
	if (s->failed)
		return;
	if (s->skip) {
		s->skip--;
		return;
	}
	if (s->depth)
		s->depth--;
}

/*
 * libxml2's errors: an unclosed element is named with the line it was
 * opened on; anything else is libxml2's own message, in our wording
 * (lowercase first letter, no full stop, one line).
 */
static void
on_error(void *ctx, xmlErrorPtr e)
{
	struct svgst *s = ctx;
	char msg[256];
	size_t n;

	if (s->failed || !e || e->level < XML_ERR_ERROR)
		return;
	s->failed = 1;
	if (!s->err)
		return;
	if ((e->code == XML_ERR_TAG_NAME_MISMATCH ||
	     e->code == XML_ERR_TAG_NOT_FINISHED) &&
	    e->str1) {
		pk_err_set(s->err, e->int1 > 0 ? e->int1 : e->line,
			   "unclosed element '%s'", e->str1);
		return;
	}
	snprintf(msg, sizeof(msg), "%s", e->message ? e->message : "bad XML");
	n = strcspn(msg, "\n");
	msg[n] = '\0';
	while (n > 0 && (msg[n - 1] == '.' || is_space(msg[n - 1])))
		msg[--n] = '\0';
	if (isupper((unsigned char)msg[0]) && !isupper((unsigned char)msg[1]))
		msg[0] = (char)tolower((unsigned char)msg[0]);
	pk_err_set(s->err, e->line > 0 ? e->line : 1, "%s", msg);
}

int
pk_svg_parse(const char *buf, size_t len, const struct pk_svg_opts *o,
	     struct pk_drawing *d, struct pk_err *err)
{
	static const struct pk_svg_opts defaults = {
		{PK_FLATTEN_STEP, PK_FLATTEN_TOL}, 0};
	struct svgst s;
	xmlSAXHandler sax;
	xmlParserCtxtPtr ctxt = NULL;
	int rc = -1;

	pk_err_clear(err);
	pk_drawing_clear(d);
	if (!o)
		o = &defaults;
	if (!(o->flatten.step > 0) || !(o->flatten.tol > 0) ||
	    !isfinite(o->flatten.step) || !isfinite(o->flatten.tol))
		return pk_err_set(err, 0, "the step and tolerance must be "
					  "positive");
	if (len > INT_MAX / 2)
		return pk_err_set(err, 0, "file too large (%zu bytes)", len);
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.d = d;
	s.err = err;
	s.pen_idx = -1;
	if (len == 0)
		return pk_err_set(err, 1, "document is empty");
	xmlInitParser();
	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.serror = on_error;
	/*
	 * A memory parser with our handler in place of the default one (what
	 * xmlSAXUserParseMemory() does, keeping the context for xmlStopParser
	 * and line numbers); the push parser names fewer errors well.
	 */
	ctxt = xmlCreateMemoryParserCtxt(buf, (int)len);
	if (!ctxt) {
		pk_err_set(err, 0, "out of memory");
		goto out;
	}
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
	memcpy(ctxt->sax, &sax, sizeof(sax));
	ctxt->userData = &s;
	s.ctxt = ctxt;
	xmlParseDocument(ctxt);
	if (s.failed)
		goto out;
	if (!ctxt->wellFormed) {
		pk_err_set(err, line_now(&s), "not well-formed XML");
		goto out;
	}
	if (d->oom) {
		pk_err_set(err, 0, "out of memory");
		goto out;
	}
	rc = 0;
out:
	if (ctxt)
		xmlFreeParserCtxt(ctxt);
	free(s.stack);
	if (rc < 0)
		pk_drawing_clear(d);
	return rc;
}
