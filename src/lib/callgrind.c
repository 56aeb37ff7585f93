/* callgrind.c: the instruction count of callgrind dumps. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

/* The value after "key:" when line starts with it, else NULL. */
static const char *
header(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* Copy a header value without its newline. */
static void
copy_value(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%.*s", (int)strcspn(v, "\r\n"), v);
}

/* Which column of the cost lines holds Ir, or -1. */
static int
ir_column(const char *events)
{
	int col = 0;

	while (*events && *events != '\n') {
		size_t len;

		events += strspn(events, " \t");
		len = strcspn(events, " \t\r\n");
		if (len == 2 && !strncmp(events, "Ir", 2))
			return col;
		if (!len)
			break;
		events += len;
		col++;
	}
	return -1;
}

/* Column col of a list of counts; -1 when missing or out of range. */
static long long
count_at(const char *v, int col)
{
	unsigned long long x = 0;
	char *end;
	int i;

	for (i = 0; i <= col; i++) {
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v < '0' || *v > '9')
			return -1;
		errno = 0;
		x = strtoull(v, &end, 10);
		if (errno || x > (unsigned long long)LLONG_MAX)
			return -1;
		v = end;
	}
	return (long long)x;
}

int
prof_callgrind_read(const char *path, struct prof_callgrind_dump *d,
		    struct prof_err *err)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, col = -1, rc = -1, first = 1;
	long long summary = -1, totals = -1;
	int summary_line = 0, totals_line = 0;
	const char *v;

	memset(d, 0, sizeof(*d));
	d->pid = -1;
	d->ir = -1;
	if (!fp) {
		prof_err_file(err, path);
		return prof_err_set(err, "cannot read the callgrind dump: %s",
				    strerror(errno));
	}
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		if (first) {
			first = 0;
			/* "# callgrind format" opens every file since 3.5;
			 * "version: 1" the older ones. */
			if (strncmp(line, "# callgrind format", 18) &&
			    !header(line, "version")) {
				prof_err_at(err, path, 1, 0,
					    "not a callgrind output file");
				goto out;
			}
		}
		if ((v = header(line, "pid")))
			d->pid = strtoll(v, NULL, 10);
		else if ((v = header(line, "part")))
			d->part = atoi(v);
		else if ((v = header(line, "cmd")))
			copy_value(d->cmd, sizeof(d->cmd), v);
		else if ((v = header(line, "desc")) &&
			 !strncmp(v, "Trigger:", 8)) {
			v += 8;
			while (*v == ' ')
				v++;
			copy_value(d->trigger, sizeof(d->trigger), v);
		} else if ((v = header(line, "events"))) {
			col = ir_column(v);
			if (col < 0) {
				prof_err_at(err, path, lineno, 0,
					    "no Ir event (run callgrind "
					    "without --toggle-collect options "
					    "that drop it)");
				goto out;
			}
		} else if ((v = header(line, "summary"))) {
			summary = count_at(v, col < 0 ? 0 : col);
			summary_line = lineno;
		} else if ((v = header(line, "totals"))) {
			totals = count_at(v, col < 0 ? 0 : col);
			totals_line = lineno;
		}
	}
	if (ferror(fp)) {
		prof_err_file(err, path);
		prof_err_set(err, "cannot read the callgrind dump: %s",
			     strerror(errno));
		goto out;
	}
	if (first) {
		prof_err_file(err, path);
		prof_err_set(err, "empty callgrind dump");
		goto out;
	}
	if (col < 0) {
		prof_err_file(err, path);
		prof_err_set(err, "no events: line");
		goto out;
	}
	/* totals: is the sum of what the file holds; summary: a counter
	 * that callgrind may leave wrapped around in a final dump. */
	if (totals_line) {
		if (totals < 0) {
			prof_err_at(err, path, totals_line, 0,
				    "totals: has no Ir count");
			goto out;
		}
		d->ir = totals;
	} else if (summary_line) {
		if (summary < 0) {
			prof_err_at(err, path, summary_line, 0,
				    "summary: has no Ir count");
			goto out;
		}
		d->ir = summary;
	} else {
		prof_err_file(err, path);
		prof_err_set(err, "no totals: or summary: line (a dump cut "
				  "short?)");
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(fp);
	return rc;
}

static int
cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int
prof_callgrind_sum(const char *dir, const char *prefix, long long *ir,
		   int *files, int *pids, struct prof_err *err)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	size_t plen = strlen(prefix), n = 0, cap = 0, i;
	long long total = 0, *seen = NULL;
	char path[PATH_MAX];
	int rc = -1;

	*ir = 0;
	*files = *pids = 0;
	if (!dp) {
		prof_err_file(err, dir);
		return prof_err_set(err, "cannot read the folder: %s",
				    strerror(errno));
	}
	while ((e = readdir(dp))) {
		struct prof_callgrind_dump d;

		if (strncmp(e->d_name, prefix, plen))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (prof_callgrind_read(path, &d, err) < 0)
			goto out;
		if (total > LLONG_MAX - d.ir) {
			prof_err_file(err, path);
			prof_err_set(err, "the sum of the counts overflows");
			goto out;
		}
		total += d.ir;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			long long *ns = realloc(seen, ncap * sizeof(*ns));

			if (!ns) {
				prof_err_set(err, "out of memory");
				goto out;
			}
			seen = ns;
			cap = ncap;
		}
		seen[n++] = d.pid;
	}
	if (!n) {
		prof_err_file(err, dir);
		prof_err_set(err, "no callgrind dump '%s*' was written", prefix);
		goto out;
	}
	qsort(seen, n, sizeof(*seen), cmp_ll);
	for (i = 0; i < n; i++)
		if (!i || seen[i] != seen[i - 1])
			(*pids)++;
	*files = (int)n;
	*ir = total;
	rc = 0;
out:
	free(seen);
	closedir(dp);
	return rc;
}
