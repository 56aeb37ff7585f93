/* report.h: the JSON answers of plotkit flatten and the server's API. */
#ifndef PK_REPORT_H
#define PK_REPORT_H

#include "engine/buf.h"
#include "engine/drawing.h"
#include "engine/flatten.h"

/*
 * What `plotkit flatten` prints and POST /api/flatten answers, one line
 * and a newline: {"paths", "points", "circles", "length_mm", "bounds_mm"
 * [x0, y0, x1, y1] (null when no paths), "page_mm" [w, h], "pens" (visible
 * paths per "#rrggbb"), "step_mm", "tolerance_mm"}. Numbers have at most
 * six decimals, so the same drawing gives the same bytes everywhere. b is
 * appended to. Returns 0, or -1 when out of memory.
 */
int pk_report_flatten(const struct pk_drawing *d, const struct pk_flatten *f,
		      struct pk_buf *b);

/* {"error":"msg"} and a newline, appended to b. Returns 0 or -1 (OOM). */
int pk_report_error(struct pk_buf *b, const char *msg);

/* s as a JSON string, quotes included (control bytes as \u00XX). */
void pk_report_str(struct pk_buf *b, const char *s);

/* "key": and v with six decimals, as the reports write numbers. */
void pk_report_num(struct pk_buf *b, const char *key, double v);

#endif /* PK_REPORT_H */
