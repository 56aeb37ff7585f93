/* report.c: the JSON answers of plotkit flatten and the server's API. */
#include <stdlib.h>

#include "engine/color.h"
#include "report.h"

void
pk_report_num(struct pk_buf *b, const char *key, double v)
{
	pk_buf_printf(b, "\"%s\":", key);
	pk_buf_num(b, v, 6);
}

void
pk_report_str(struct pk_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	pk_buf_add(b, "\"", 1);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			pk_buf_str(b, "\\\"");
			break;
		case '\\':
			pk_buf_str(b, "\\\\");
			break;
		case '\n':
			pk_buf_str(b, "\\n");
			break;
		case '\r':
			pk_buf_str(b, "\\r");
			break;
		case '\t':
			pk_buf_str(b, "\\t");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				pk_buf_printf(b, "\\u%04x", *p);
			else
				pk_buf_add(b, p, 1);
		}
	}
	pk_buf_add(b, "\"", 1);
}

int
pk_report_error(struct pk_buf *b, const char *msg)
{
	pk_buf_str(b, "{\"error\":");
	pk_report_str(b, msg);
	pk_buf_str(b, "}\n");
	return b->oom ? -1 : 0;
}

int
pk_report_flatten(const struct pk_drawing *d, const struct pk_flatten *f,
		  struct pk_buf *b)
{
	struct pk_stats st;
	size_t *counts, i;
	int first = 1;

	counts = calloc(d->npens ? d->npens : 1, sizeof(*counts));
	if (!counts)
		return -1;
	pk_drawing_stats(d, &st);
	pk_drawing_pen_counts(d, counts);
	pk_buf_printf(b, "{\"paths\":%zu,\"points\":%zu,\"circles\":%zu,",
		      st.paths, st.points, st.circles);
	pk_report_num(b, "length_mm", st.length_mm);
	pk_buf_str(b, ",\"bounds_mm\":");
	if (st.paths) {
		for (i = 0; i < 4; i++) {
			pk_buf_str(b, i ? "," : "[");
			pk_buf_num(b, st.bounds[i], 6);
		}
		pk_buf_str(b, "]");
	} else {
		pk_buf_str(b, "null");
	}
	pk_buf_str(b, ",\"page_mm\":[");
	pk_buf_num(b, d->width_mm, 6);
	pk_buf_str(b, ",");
	pk_buf_num(b, d->height_mm, 6);
	pk_buf_str(b, "],\"pens\":{");
	for (i = 0; i < d->npens; i++) {
		char name[8];

		if (!counts[i])
			continue;
		pk_color_name(d->pens[i], name);
		pk_buf_printf(b, "%s\"%s\":%zu", first ? "" : ",", name,
			      counts[i]);
		first = 0;
	}
	pk_buf_str(b, "},");
	pk_report_num(b, "step_mm", f->step);
	pk_buf_str(b, ",");
	pk_report_num(b, "tolerance_mm", f->tol);
	pk_buf_str(b, "}\n");
	free(counts);
	return b->oom ? -1 : 0;
}
