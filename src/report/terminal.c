/* terminal.c: prof-history's list, trend and changes as tables on a
 * terminal (terminal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "base/json.h"
#include "base/prof.h"
#include "cli/cli.h"
#include "kit/page.h"
#include "terminal.h"

/*
 * On a terminal, list, trend and changes print a table (JSON with
 * --json, and whenever stdout is not a terminal: a pipe, a file, as
 * before). A table is built whole, its columns as wide as their widest
 * cell, numbers to the right; a column marked sparse is left out when
 * none of its cells holds anything ("-"). Text from the history is made
 * safe for a terminal (cli_safe()).
 */
enum { COL_LEFT = 0, COL_RIGHT = 1, COL_SPARSE = 2 };

struct table {
	size_t ncol, nrow, cap;
	const char *const *head;
	const int *flags;
	char **cell;		/* nrow x ncol, row by row */
};

/* The columns a cell takes on a terminal: its bytes but for UTF-8's
 * continuation bytes (the units' "µs"). */
static size_t
cell_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Append a row of t->ncol cells (copied); 0, or -1 out of memory. */
static int
table_add(struct table *t, char *const *cells)
{
	size_t i;

	/* Room for one more row: the array grows by rows of ncol cells. */
	if (prof_grow(&t->cell, &t->cap, t->nrow + 1,
		      t->ncol * sizeof(*t->cell)) < 0)
		return -1;
	for (i = 0; i < t->ncol; i++) {
		char *s = strdup(cells[i] ? cells[i] : "-");

		if (!s) {
			while (i--)
				free(t->cell[t->nrow * t->ncol + i]);
			return -1;
		}
		t->cell[t->nrow * t->ncol + i] = s;
	}
	t->nrow++;
	return 0;
}

static void
table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrow * t->ncol; i++)
		free(t->cell[i]);
	free(t->cell);
}

static void
put_cell(const char *s, size_t width, int right, int last)
{
	size_t pad = width - cell_width(s);

	if (right)
		printf("%*s", (int)pad, "");
	fputs(s, stdout);
	if (!right && !last)
		printf("%*s", (int)pad, "");
}

/* The header and the rows, two spaces between columns, none after the
 * last. */
static void
table_print(const struct table *t)
{
	size_t w[32] = {0}, r, c, last = 0;
	int shown[32] = {0};

	for (c = 0; c < t->ncol && c < 32; c++) {
		w[c] = cell_width(t->head[c]);
		shown[c] = !(t->flags[c] & COL_SPARSE);
		for (r = 0; r < t->nrow; r++) {
			const char *s = t->cell[r * t->ncol + c];

			if (cell_width(s) > w[c])
				w[c] = cell_width(s);
			if (strcmp(s, "-"))
				shown[c] = 1;
		}
		if (shown[c])
			last = c;
	}
	for (r = 0; r <= t->nrow; r++) {
		const char *sep = "";

		for (c = 0; c < t->ncol && c < 32; c++) {
			if (!shown[c])
				continue;
			fputs(sep, stdout);
			sep = "  ";
			put_cell(r ? t->cell[(r - 1) * t->ncol + c] :
				     t->head[c],
				 w[c], t->flags[c] & COL_RIGHT, c == last);
		}
		putchar('\n');
	}
}

/* A member of o as a cell: its text made safe (NULL or null: NULL, "-"
 * in the table), at most max bytes of it (0: all). */
static char *
text_cell(struct json_object *o, const char *key, size_t max, char *buf,
	  size_t n)
{
	const char *s = prof_json_str(o, key);

	if (!s)
		return NULL;
	cli_safe(s, buf, n);
	if (max && strlen(buf) > max)
		buf[max] = '\0';
	return buf;
}

/* A member of o as a number (NAN: null or missing). */
static double
num_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NAN;
	return json_object_get_double(v);
}

/* A value in the unit a change point names: ms as every page writes a
 * time (prof_page_time()), bytes as summary.md writes a peak, counts
 * grouped. */
static void
unit_cell(char *buf, size_t n, double v, const char *unit)
{
	if (unit && !strcmp(unit, "ms"))
		prof_page_time(buf, n, v, 0);
	else if (unit && !strcmp(unit, "bytes"))
		prof_page_bytes(buf, n, v);
	else
		prof_page_count(buf, n, v, 0);
}

static const char *const list_head[] = {
	"run", "commit", "timestamp (UTC)", "rows", "command"};
static const int list_flags[] = {0, 0, 0, COL_RIGHT, 0};

static int
list_row(struct json_object *r, struct table *t)
{
	char run[256], commit[64], ts[64], rows[32], cmd[512];
	char *cells[] = {
		text_cell(r, "run_id", 0, run, sizeof(run)),
		text_cell(r, "commit", 12, commit, sizeof(commit)),
		text_cell(r, "timestamp_utc", 0, ts, sizeof(ts)),
		rows,
		text_cell(r, "command", 0, cmd, sizeof(cmd)),
	};

	prof_page_count(rows, sizeof(rows), num_of(r, "rows"), 0);
	return table_add(t, cells);
}

static const char *const trend_head[] = {
	"run", "commit", "workload", "backend", "segment", "n",
	"median", "p90", "instructions", "heap peak", "status"};
static const int trend_flags[] = {
	0, 0, 0, 0, 0, COL_RIGHT, COL_RIGHT, COL_RIGHT,
	COL_RIGHT | COL_SPARSE, COL_RIGHT | COL_SPARSE, COL_SPARSE};

static int
trend_row(struct json_object *r, struct table *t)
{
	char run[256], commit[64], w[512], b[64], seg[64], nn[32];
	char med[32], p90[32], ins[32], heap[32], st[64];
	char *cells[] = {
		text_cell(r, "run_id", 0, run, sizeof(run)),
		text_cell(r, "commit", 12, commit, sizeof(commit)),
		text_cell(r, "workload", 0, w, sizeof(w)),
		text_cell(r, "backend", 0, b, sizeof(b)),
		text_cell(r, "segment_id", 8, seg, sizeof(seg)),
		nn, med, p90, ins, heap,
		text_cell(r, "status", 0, st, sizeof(st)),
	};

	prof_page_count(nn, sizeof(nn), num_of(r, "n"), 0);
	prof_page_time(med, sizeof(med), num_of(r, "median"), 0);
	prof_page_time(p90, sizeof(p90), num_of(r, "p90"), 0);
	prof_page_count(ins, sizeof(ins), num_of(r, "instructions"), 0);
	prof_page_bytes(heap, sizeof(heap),
			num_of(r, "host_peak_bytes"));
	return table_add(t, cells);
}

static const char *const changes_head[] = {
	"workload", "backend", "segment", "metric", "commits",
	"before", "after", "change", "runs", "status"};
static const int changes_flags[] = {
	0, 0, 0, 0, 0, COL_RIGHT, COL_RIGHT, COL_RIGHT, COL_RIGHT,
	COL_SPARSE};

static int
changes_row(struct json_object *r, struct table *t)
{
	const char *unit = prof_json_str(r, "unit");
	const char *sb = prof_json_str(r, "status_before");
	const char *sa = prof_json_str(r, "status_after");
	char w[512], b[64], seg[64], m[64], c1[64], c2[64], cs[160];
	char was[32], now[32], pct[32], runs[64], st[160];
	char s1[64], s2[64];
	char *cells[] = {
		text_cell(r, "workload", 0, w, sizeof(w)),
		text_cell(r, "backend", 0, b, sizeof(b)),
		text_cell(r, "segment_id", 8, seg, sizeof(seg)),
		text_cell(r, "metric", 0, m, sizeof(m)),
		cs, was, now, pct, runs,
		sb || sa ? st : NULL,
	};

	if (!cells[3])
		cells[3] = "time";
	snprintf(cs, sizeof(cs), "%s..%s",
		 text_cell(r, "commit_before", 12, c1, sizeof(c1)) ?
			 c1 : "?",
		 text_cell(r, "commit_after", 12, c2, sizeof(c2)) ?
			 c2 : "?");
	unit_cell(was, sizeof(was), num_of(r, "median_before"),
		  unit);
	unit_cell(now, sizeof(now), num_of(r, "median_after"), unit);
	if (isfinite(num_of(r, "change_pct")))
		snprintf(pct, sizeof(pct), "%+.1f%%",
			 num_of(r, "change_pct"));
	else
		snprintf(pct, sizeof(pct), "-");
	snprintf(runs, sizeof(runs), "%.0f + %.0f",
		 num_of(r, "runs_before"), num_of(r, "runs_after"));
	snprintf(st, sizeof(st), "%s -> %s",
		 sb ? cli_safe(sb, s1, sizeof(s1)) : "-",
		 sa ? cli_safe(sa, s2, sizeof(s2)) : "-");
	return table_add(t, cells);
}

/* A verb's table: its columns, how a row of its JSON fills one, and the
 * words for none. */
struct kind {
	const char *cmd;
	int ncol;
	const char *const *head;
	const int *flags;
	int (*row)(struct json_object *r, struct table *t);
	const char *none;
};

static const struct kind kinds[] = {
	{"list", 5, list_head, list_flags, list_row, "no runs"},
	{"trend", 11, trend_head, trend_flags, trend_row, "no rows"},
	{"changes", 10, changes_head, changes_flags, changes_row,
	 "no change points"},
};

/* The rows of a into t, as kind k: 0, or -1 out of memory. */
static int
fill(const struct kind *k, struct json_object *a, struct table *t)
{
	size_t i, n = json_object_array_length(a);

	t->ncol = k->ncol;
	t->head = k->head;
	t->flags = k->flags;
	for (i = 0; i < n; i++)
		if (k->row(json_object_array_get_idx(a, i), t) < 0)
			return -1;
	return 0;
}

/* Under changes' table, the line that finds each change's commit. */
static void
bisect_lines(struct json_object *a)
{
	size_t i, n = json_object_array_length(a), any = 0;

	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(a, i);
		char w[512], m[64], line[1024];

		if (!text_cell(r, "bisect", 0, line, sizeof(line)))
			continue;
		if (!any++)
			printf("\nto find the commit:\n");
		printf("  %s (%s): %s\n",
		       text_cell(r, "workload", 0, w, sizeof(w)) ? w : "-",
		       text_cell(r, "metric", 0, m, sizeof(m)) ? m : "time",
		       line);
	}
}

int
prof_terminal_table(const char *cmd, struct json_object *a)
{
	const struct kind *k = &kinds[!strcmp(cmd, "list")    ? 0 :
				      !strcmp(cmd, "trend")   ? 1 :
								2];
	struct table t = {0};
	int rc;

	rc = fill(k, a, &t);
	if (rc < 0) {
		cli_say("out of memory");
		rc = PROF_EXIT_FAILURE;
	} else if (!t.nrow) {
		printf("%s\n", k->none);
		rc = PROF_EXIT_OK;
	} else {
		table_print(&t);
		if (!strcmp(cmd, "changes"))
			bisect_lines(a);
		rc = PROF_EXIT_OK;
	}
	table_free(&t);
	json_object_put(a);
	return rc;
}
