/* table.c: the channels and metrics rows are judged on, and the statuses
 * of a verdict with their words. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/table.h"

const struct prof_cmp_metric prof_cmp_metrics[PROF_CMP_MEM_N] = {
	[PROF_CMP_MEM_PEAK] = {
		.key = "host_peak_bytes",
		.name = "heap peak",
		.more = "more memory",
		.less = "less memory",
		.noun = "memory",
		.unit = "bytes",
		.exact = 1,
		.threshold_pct = PROF_CMP_MEM_THRESHOLD,
		.floor = PROF_CMP_MEM_FLOOR_BYTES,
		.history = "host_peak_bytes",
		.bmf = "heap-peak-bytes",
		.gbench = "max_bytes_used",
	},
	[PROF_CMP_MEM_ALLOCS] = {
		.key = "host_allocs",
		.name = "allocations",
		.more = "more allocations",
		.less = "fewer allocations",
		.noun = "allocations",
		.unit = "allocations",
		.exact = 1,
		.threshold_pct = PROF_CMP_MEM_THRESHOLD,
		.floor = PROF_CMP_MEM_FLOOR_ALLOCS,
		.history = "host_allocs",
		.bmf = "allocations",
		.gbench = "allocs_per_iter",
	},
	[PROF_CMP_MEM_BYTES] = {
		.key = "host_allocated_bytes",
		.name = "bytes allocated",
		.more = "more bytes allocated",
		.less = "fewer bytes allocated",
		.noun = "allocated bytes",
		.unit = "bytes",
		.exact = 1,
		.threshold_pct = PROF_CMP_MEM_THRESHOLD,
		.floor = PROF_CMP_MEM_FLOOR_BYTES,
		.history = "host_allocated_bytes",
		.bmf = "bytes-allocated",
		.gbench = "total_allocated_bytes",
	},
	[PROF_CMP_MEM_RSS] = {
		.key = "rss_peak_bytes",
		.name = "RSS peak",
		.more = "more memory",
		.less = "less memory",
		.noun = "memory",
		.unit = "bytes",
		.exact = 0,
		.threshold_pct = 0,
		.floor = PROF_CMP_MEM_FLOOR_RSS,
		.history = "rss_peak_bytes",
		.bmf = "rss-peak-bytes",
		.gbench = "rss_peak_bytes",
	},
	[PROF_CMP_MEM_DEVICE] = {
		.key = "device_peak_allocated_bytes",
		.name = "device peak",
		.more = "more device memory",
		.less = "less device memory",
		.noun = "device memory",
		.unit = "bytes",
		.exact = 1,
		.threshold_pct = PROF_CMP_MEM_THRESHOLD,
		.floor = PROF_CMP_MEM_FLOOR_DEVICE,
		.history = "device_peak_bytes",
		.bmf = "device-peak-bytes",
		.gbench = "device_peak_allocated_bytes",
	},
};

enum prof_cmp_mem
prof_cmp_metric_find(const char *key)
{
	int m;

	for (m = 1; key && m < PROF_CMP_MEM_N; m++)
		if (!strcmp(key, prof_cmp_metrics[m].key))
			return (enum prof_cmp_mem)m;
	return PROF_CMP_MEM_NONE;
}

/* Whether s's key holds the text value (prof_sample_is(), which is the
 * model's: the table stands below it). */
static int
is(struct json_object *s, const char *key, const char *value)
{
	const char *v = prof_json_str(s, key);

	return v && !strcmp(v, value);
}

/* Whether s gives memory rows: a memory sample, or a timing sample with
 * a "memory" of its own (a command's RSS peak, cmdsample.c). */
static int
mem_sample(struct json_object *s)
{
	return is(s, "phase", "memory") ||
	       (is(s, "phase", "timing") &&
		json_object_object_get_ex(s, "memory", NULL));
}

/* Whether s is a sample that memory rows aggregate, with metric m a
 * number (into *v). */
static int
mem_value(struct json_object *s, enum prof_cmp_mem m, double *v)
{
	struct json_object *mem = NULL, *x = NULL;

	if (!mem_sample(s) ||
	    !is(s, "kind", "warm") ||
	    !is(s, "outcome", "success") ||
	    !json_object_object_get_ex(s, "memory", &mem) ||
	    !json_object_object_get_ex(mem, prof_cmp_metrics[m].key, &x) ||
	    !prof_json_is_number(x))
		return 0;
	*v = prof_json_number(x);
	return isfinite(*v);
}

int
prof_cmp_mem_value(struct json_object *s, enum prof_cmp_mem m, double *v)
{
	return m > PROF_CMP_MEM_NONE && m < PROF_CMP_MEM_N &&
	       mem_value(s, m, v);
}

const char *
prof_cmp_status_name(enum prof_cmp_status s)
{
	switch (s) {
	case PROF_CMP_NEW:
		return "new";
	case PROF_CMP_INCOMPARABLE:
		return "incomparable";
	case PROF_CMP_STABLE:
		return "stable";
	case PROF_CMP_WARNING:
		return "warning";
	case PROF_CMP_IMPROVED:
		return "improved";
	case PROF_CMP_UNSETTLED:
		return "unsettled";
	case PROF_CMP_UNJUDGED:
		break;
	}
	return "unjudged";
}

/* cmd with every " NAME=..." word left out (a value in double quotes,
 * as the make targets record one with spaces, whole). */
static void
drop_var(char *cmd, const char *name)
{
	size_t len = strlen(name);
	char *at = cmd;

	while ((at = strstr(at, name)) != NULL) {
		char *end;

		if (at == cmd || at[-1] != ' ' || at[len] != '=') {
			at += len;
			continue;
		}
		end = at[len + 1] == '"' ? strchr(at + len + 2, '"') : at;
		end = end ? strchr(end, ' ') : NULL;
		if (end)
			memmove(at - 1, end, strlen(end) + 1);
		else
			at[-1] = '\0';
	}
}

void
prof_cmp_settle_command(const char *cmd, long repeat, long max,
			const char *w, char *buf, size_t n)
{
	char c[2048];

	w = w ? w : "";
	if (max <= 0) {
		snprintf(buf, n,
			 "judge it interleaved with the baseline's build "
			 "(make compare REF=its commit), or run it again "
			 "where the calls wait less for a core");
		return;
	}
	if (cmd && !strncmp(cmd, "make compare", 12) &&
	    strlen(cmd) < sizeof(c)) {
		int full = strstr(cmd, " MODE=full") != NULL;

		snprintf(c, sizeof(c), "%s", cmd);
		drop_var(c, "MODE");
		drop_var(c, "REPEAT");
		/* A new run gets a new folder. */
		drop_var(c, "OUTPUT");
		if (w[0])
			drop_var(c, "W");
		if (!full && 4 * 10 > max)
			snprintf(buf, n, "%s MODE=full%s", c, w);
		else
			snprintf(buf, n, "%s MODE=full REPEAT=%ld%s", c,
				 2 * repeat, w);
		return;
	}
	if (cmd && !strncmp(cmd, "prof-time ", 10) &&
	    strlen(cmd) < sizeof(c)) {
		char *at;

		snprintf(c, sizeof(c), "%s", cmd);
		at = strstr(c, " --max-repeat ");
		if (at) {
			char *end = strchr(at + 14, ' ');

			memmove(at, end ? end : at + strlen(at),
				strlen(end ? end : at + strlen(at)) + 1);
		}
		at = strstr(c, " -- ");
		if (at) {
			snprintf(buf, n, "%.*s --max-repeat %ld%s",
				 (int)(at - c), c, 2 * max, at);
			return;
		}
		snprintf(buf, n, "%s --max-repeat %ld", c, 2 * max);
		return;
	}
	snprintf(buf, n,
		 "a larger budget: prof-time --max-repeat %ld (it was %ld), or "
		 "make compare with MODE=full or a larger REPEAT",
		 2 * max, max);
}

int
prof_cmp_status_of(const char *name, enum prof_cmp_status *out)
{
	int s;

	for (s = PROF_CMP_UNJUDGED; name && s <= PROF_CMP_UNSETTLED; s++)
		if (!strcmp(name, prof_cmp_status_name(
					  (enum prof_cmp_status)s))) {
			*out = (enum prof_cmp_status)s;
			return 0;
		}
	return -1;
}

int
prof_cmp_status_known(const char *name)
{
	enum prof_cmp_status s;

	return prof_cmp_status_of(name, &s) == 0;
}
