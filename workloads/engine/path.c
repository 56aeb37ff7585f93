/* path.c: path data to flattened subpaths in page millimetres. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "num.h"
#include "path.h"

struct pathst {
	struct pk_drawing *d;
	const struct pk_xform *m;
	const struct pk_style *st;
	const struct pk_flatten *f;
	double x, y;		/* current point, user space */
	double sx, sy;		/* start of the subpath */
	double qx, qy;		/* last control point, for S and T */
	int open;		/* a subpath is being built in d */
};

static void
emit(struct pathst *ps, double x, double y)
{
	double px, py;

	pk_xform_apply(ps->m, x, y, &px, &py);
	pk_drawing_point(ps->d, px, py);
}

static void
finish(struct pathst *ps, unsigned flags)
{
	if (ps->open)
		pk_drawing_end(ps->d, flags, 0, 0, 0);
	ps->open = 0;
}

/* Start a subpath at the current point unless one is open. */
static void
ensure_open(struct pathst *ps)
{
	if (ps->open)
		return;
	pk_drawing_begin(ps->d, ps->st);
	emit(ps, ps->x, ps->y);
	ps->open = 1;
}

static void
lineto(struct pathst *ps, double x, double y)
{
	ensure_open(ps);
	emit(ps, x, y);
	ps->x = x;
	ps->y = y;
}

static void
cubicto(struct pathst *ps, double x1, double y1, double x2, double y2,
	double x, double y)
{
	double p[8];

	ensure_open(ps);
	pk_xform_apply(ps->m, ps->x, ps->y, &p[0], &p[1]);
	pk_xform_apply(ps->m, x1, y1, &p[2], &p[3]);
	pk_xform_apply(ps->m, x2, y2, &p[4], &p[5]);
	pk_xform_apply(ps->m, x, y, &p[6], &p[7]);
	pk_flatten_cubic(ps->d, p, ps->f);
	ps->qx = x2;
	ps->qy = y2;
	ps->x = x;
	ps->y = y;
}

static void
quadto(struct pathst *ps, double x1, double y1, double x, double y)
{
	double p[6];

	ensure_open(ps);
	pk_xform_apply(ps->m, ps->x, ps->y, &p[0], &p[1]);
	pk_xform_apply(ps->m, x1, y1, &p[2], &p[3]);
	pk_xform_apply(ps->m, x, y, &p[4], &p[5]);
	pk_flatten_quad(ps->d, p, ps->f);
	ps->qx = x1;
	ps->qy = y1;
	ps->x = x;
	ps->y = y;
}

static void
arcto(struct pathst *ps, double rx, double ry, double phi, int large,
      int sweep, double x, double y)
{
	struct pk_arc a;
	struct pk_xform m;
	double end[2];

	switch (pk_arc_center(ps->x, ps->y, rx, ry, phi, large, sweep, x, y,
			      &a)) {
	case PK_ARC_NONE:
		return;
	case PK_ARC_LINE:
		lineto(ps, x, y);
		return;
	}
	ensure_open(ps);
	pk_arc_xform(&a, ps->m, &m);
	pk_xform_apply(ps->m, x, y, &end[0], &end[1]);
	pk_flatten_ellipse(ps->d, &m, a.t1, a.dt, end, ps->f);
	ps->x = x;
	ps->y = y;
}

/* Where the text at p is, for an error: 'M 1 x' or "the end". */
static void
place(char *why, size_t n, const char *what, const char *p,
      const char *end)
{
	int len = (int)(end - p);

	if (len <= 0) {
		snprintf(why, n, "%s at the end", what);
		return;
	}
	if (len > 12)
		len = 12;
	snprintf(why, n, "%s at '%.*s'", what, len, p);
}

/* Read count numbers (arc flags where flags[i]) into v. */
static int
numbers(const char **pp, const char *end, double *v, int count,
	const char *flags)
{
	const char *p = *pp;
	int i;

	for (i = 0; i < count; i++) {
		if (i > 0)
			p = pk_num_sep(p, end);
		*pp = p;
		if (flags && flags[i]) {
			if (p >= end || (*p != '0' && *p != '1'))
				return -1;
			v[i] = *p++ - '0';
		} else if (pk_num_scan(&p, end, &v[i]) < 0) {
			return -1;
		}
		*pp = p;
	}
	return 0;
}

int
pk_path_parse(const char *s, const char *end, const struct pk_xform *ctm,
	      const struct pk_style *st, const struct pk_flatten *f,
	      struct pk_drawing *d, char *why, size_t n)
{
	static const char arc_flags[7] = {0, 0, 0, 1, 1, 0, 0};
	struct pathst ps = {.d = d, .m = ctm, .st = st, .f = f};
	const char *p = pk_num_ws(s, end);
	char cmd = 0, prev = 0;
	double v[7];
	int rc = -1;
	size_t first_pt = d->npts, first_path = d->npaths;

	if (p < end && *p != 'M' && *p != 'm') {
		place(why, n, "expected 'M' or 'm'", p, end);
		goto out;
	}
	/* Out of memory: stop, the caller says so (a path can be long). */
	while (p < end && !d->oom) {
		const char *at = p;
		int rel, argc, i;
		char up;

		if (isalpha((unsigned char)*p)) {
			cmd = *p++;
			p = pk_num_ws(p, end);
		} else if (cmd == 'Z' || cmd == 'z') {
			place(why, n, "expected a command", p, end);
			goto out;
		}
		/* A command's arguments repeat it; after M they are lines. */
		up = (char)toupper((unsigned char)cmd);
		rel = cmd != up;
		switch (up) {
		case 'Z':
			argc = 0;
			break;
		case 'H':
		case 'V':
			argc = 1;
			break;
		case 'M':
		case 'L':
		case 'T':
			argc = 2;
			break;
		case 'S':
		case 'Q':
			argc = 4;
			break;
		case 'C':
			argc = 6;
			break;
		case 'A':
			argc = 7;
			break;
		default:
			place(why, n, "unknown command", at, end);
			goto out;
		}
		if (numbers(&p, end, v, argc, up == 'A' ? arc_flags : NULL) <
		    0) {
			place(why, n,
			      up == 'A' ? "expected a number or an arc flag" :
					  "expected a number",
			      p, end);
			goto out;
		}
		if (rel && up != 'A' && up != 'Z') {
			for (i = 0; i < argc; i++)
				if (up == 'V')
					v[i] += ps.y;
				else
					v[i] += i % 2 ? ps.y : ps.x;
		} else if (rel && up == 'A') {
			v[5] += ps.x;
			v[6] += ps.y;
		}
		/* Relative steps that add up past a double's range. */
		for (i = 0; i < argc; i++)
			if (!isfinite(v[i])) {
				place(why, n, "number out of range", at, end);
				goto out;
			}
		switch (up) {
		case 'M':
			finish(&ps, 0);
			ps.x = ps.sx = v[0];
			ps.y = ps.sy = v[1];
			ensure_open(&ps);
			cmd = rel ? 'l' : 'L';
			break;
		case 'L':
			lineto(&ps, v[0], v[1]);
			break;
		case 'H':
			lineto(&ps, v[0], ps.y);
			break;
		case 'V':
			lineto(&ps, ps.x, v[0]);
			break;
		case 'C':
			cubicto(&ps, v[0], v[1], v[2], v[3], v[4], v[5]);
			break;
		case 'S':
			if (prev == 'C' || prev == 'S')
				cubicto(&ps, 2 * ps.x - ps.qx, 2 * ps.y - ps.qy,
					v[0], v[1], v[2], v[3]);
			else
				cubicto(&ps, ps.x, ps.y, v[0], v[1], v[2],
					v[3]);
			break;
		case 'Q':
			quadto(&ps, v[0], v[1], v[2], v[3]);
			break;
		case 'T':
			if (prev == 'Q' || prev == 'T')
				quadto(&ps, 2 * ps.x - ps.qx, 2 * ps.y - ps.qy,
				       v[0], v[1]);
			else
				quadto(&ps, ps.x, ps.y, v[0], v[1]);
			break;
		case 'A':
			arcto(&ps, v[0], v[1], v[2], v[3] != 0, v[4] != 0,
			      v[5], v[6]);
			break;
		case 'Z':
			if (ps.open) {
				emit(&ps, ps.sx, ps.sy);
				finish(&ps, PK_PATH_CLOSED);
			}
			ps.x = ps.sx;
			ps.y = ps.sy;
			break;
		}
		prev = up;
		p = pk_num_sep(p, end);
	}
	rc = 0;
out:
	finish(&ps, 0);
	if (rc == 0 && !d->oom &&
	    !pk_drawing_in_range(d, first_pt, first_path)) {
		snprintf(why, n, "coordinates out of range (beyond "
				 PK_DRAWING_MAX_MM_TEXT " mm)");
		rc = -1;
	}
	return rc;
}
