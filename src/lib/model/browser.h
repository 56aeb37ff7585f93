/* browser.h: browser rows (Playwright stories) read as samples. */
#ifndef PROF_BROWSER_H
#define PROF_BROWSER_H

#include <stddef.h>

#include "base/err.h"

struct json_object;

/* Slowdowns of a browser row under this are never warnings, by default. */
#define PROF_BROWSER_FLOOR_MS 50.0

/*
 * Parse JSON lines of browser rows and append one "browser" sample per row
 * to arr. Two forms are read:
 *
 *   {workload, duration_ms, metrics?, fixture?, fixture_checksum?,
 *    backend?, env?: {browser?, viewport?}, index?, kind?, outcome?,
 *    reason?, warning_floor_ms?, workload_version?}
 *       what workloads/browser/stories.mjs writes; backend defaults to
 *       chromium, the viewport is the segment's problem size;
 *   {story, duration_ms, pfm?, shapes?}
 *       the seed's older rows: workload browser.<story>, fixture
 *       playwright-existing, the other numbers as metrics.
 *
 * duration_ms must be a number >= 0 (null only on an error row); metrics
 * must be scalars. Errors are "name:line: reason" or "name:line: .path:
 * reason". Returns the number of rows, or -1 with err filled.
 */
long prof_browser_parse_lines(const char *buf, size_t len, const char *name,
			      struct json_object *arr, struct prof_err *err);

#endif /* PROF_BROWSER_H */
