/* lib-channels.c: time read beside instructions and memory (channels.h):
 * when two judged rows disagree, the two facts in words, status words
 * between the caller's emphasis; and counts with their digits grouped.
 * The rows are read as verdicts (verdict/read.h), as the pages read them. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "verdict/channels.h"
#include "verdict/read.h"
#include "tap.h"

/* A row as prof-diff writes it, read as a verdict, which borrows the
 * object's strings: both are kept, and rows_free() lets both go. */
struct row {
	struct json_object *o;
	struct prof_verdict v;
};

static const struct prof_verdict *
row(struct row *r, const char *status, double ratio, const char *metric)
{
	r->o = json_object_new_object();
	json_object_object_add(r->o, "status", json_object_new_string(status));
	json_object_object_add(r->o, "ratio", json_object_new_double(ratio));
	/* A memory row says its phase, as prof-diff writes it. */
	if (metric) {
		json_object_object_add(r->o, "phase",
				       json_object_new_string("memory"));
		json_object_object_add(r->o, "metric",
				       json_object_new_string(metric));
	}
	prof_verdict_read(r->o, &r->v);
	return &r->v;
}

static void
rows_free(struct row *r, size_t n)
{
	while (n--)
		json_object_put(r[n].o);
}

/* Whether s starts with prefix; prints s when not. */
static int
starts(const char *s, const char *prefix, const char *name)
{
	int c = !strncmp(s, prefix, strlen(prefix));

	if (!ok(c, name))
		fprintf(stderr, "#   got '%s'\n#  want '%s...'\n", s, prefix);
	return c;
}

static void
test_disagree(void)
{
	struct row k[4];
	const struct prof_verdict *t = row(&k[0], "improved", 0.44, NULL);
	const struct prof_verdict *c = row(&k[1], "warning", 1.82, NULL);
	const struct prof_verdict *same = row(&k[2], "improved", 0.9, NULL);
	const struct prof_verdict *fresh = row(&k[3], "new", 1, NULL);
	char buf[512];

	ok(prof_channels_time_count(t, c, "**", buf, sizeof(buf)) == 1,
	   "time improved, instructions warning: they disagree");
	starts(buf,
	       "time **improved** 56%, instructions +82% (**warning**): more "
	       "instructions per cycle",
	       "the two facts, then what they can mean");
	ok(strstr(buf, "; trust time for speed, counts for the amount of "
		       "work") != NULL,
	   "and which channel to trust for what");
	prof_channels_time_count(t, c, "", buf, sizeof(buf));
	starts(buf, "time improved 56%, instructions +82% (warning)",
	       "plain text without emphasis");
	ok(prof_channels_time_count(t, same, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "the same status: no text");
	ok(prof_channels_time_count(t, fresh, "**", buf, sizeof(buf)) == 0 &&
	       prof_channels_time_count(NULL, c, "**", buf, sizeof(buf)) == 0,
	   "a row not judged, or missing: no text");
	rows_free(k, 4);
}

static void
test_memory(void)
{
	struct row k[3];
	const struct prof_verdict *t = row(&k[0], "stable", 1.029, NULL);
	const struct prof_verdict *m = row(&k[1], "warning", 2,
					   "host_peak_bytes");
	const struct prof_verdict *mt = row(&k[2], "stable", 1.5,
					    "host_peak_bytes");
	char buf[512];

	ok(prof_channels_time_memory(t, m, "**", buf, sizeof(buf)) == 1,
	   "time stable, heap peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, heap peak +100% (**warning**): more "
	       "memory in the same time, which another machine, allocator or "
	       "a larger input may not forgive",
	       "the memory row under its reader's name");
	ok(prof_channels_time_memory(t, mt, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "memory stable: nothing to say");
	ok(prof_channels_time_memory(t, NULL, "**", buf, sizeof(buf)) == 0 &&
	       prof_channels_time_memory(NULL, m, "**", buf, sizeof(buf)) ==
		   0,
	   "a memory or time row missing: no text");
	rows_free(k, 3);
}

/* Each metric in the words of the table's row (verdict/table.h). */
static void
test_metric_words(void)
{
	struct row k[3];
	const struct prof_verdict *t = row(&k[0], "stable", 1.029, NULL);
	const struct prof_verdict *d = row(&k[1], "warning", 2,
					   "device_peak_allocated_bytes");
	const struct prof_verdict *f = row(&k[2], "improved", 0.5, NULL);
	char buf[512];

	ok(prof_channels_time_memory(t, d, "**", buf, sizeof(buf)) == 1,
	   "time stable, device peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, device peak +100% (**warning**): more "
	       "device memory in the same time, which another machine, "
	       "allocator or a larger input may not forgive",
	       "the device peak in its own words");
	prof_channels_time_memory(f, d, "", buf, sizeof(buf));
	is_str(buf,
	       "time improved 50%, device peak +100% (warning): faster but "
	       "with more device memory: time bought with device memory",
	       "faster with more device memory");
	ok(prof_channels_time_memory(t, f, "", buf, sizeof(buf)) == 0,
	   "a time row is no memory row");
	rows_free(k, 3);
}

static void
test_count(void)
{
	char buf[64], tiny[4];

	is_str(prof_fmt_count(buf, sizeof(buf), 1234567, 0), "1,234,567",
	       "digits grouped by commas");
	is_str(prof_fmt_count(buf, sizeof(buf), 1234567, 1), "+1,234,567",
	       "with sign, a positive count has its +");
	is_str(prof_fmt_count(buf, sizeof(buf), 0, 1), "0", "0 has no sign");
	is_str(prof_fmt_count(buf, sizeof(buf), -999, 0), "-999",
	       "a negative count always has its -");
	is_str(prof_fmt_count(buf, sizeof(buf), LLONG_MIN, 0),
	       "-9,223,372,036,854,775,808", "the most negative count whole");
	is_str(prof_fmt_count(tiny, sizeof(tiny), 123456, 0), "12",
	       "cut to the buffer, never past it");
}

int
main(void)
{
	plan(20);
	test_disagree();
	test_memory();
	test_metric_words();
	test_count();
	return done();
}
