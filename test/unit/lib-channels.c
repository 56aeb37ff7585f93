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

static struct json_object *
row(const char *status, double ratio, const char *metric)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "status", json_object_new_string(status));
	json_object_object_add(r, "ratio", json_object_new_double(ratio));
	/* A memory row says its phase, as prof-diff writes it. */
	if (metric) {
		json_object_object_add(r, "phase",
				       json_object_new_string("memory"));
		json_object_object_add(r, "metric",
				       json_object_new_string(metric));
	}
	return r;
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

/* o read as a verdict into *v: v, or NULL with o. */
static const struct prof_verdict *
verdict(struct json_object *o, struct prof_verdict *v)
{
	if (!o)
		return NULL;
	prof_verdict_read(o, v);
	return v;
}

static void
test_disagree(void)
{
	struct json_object *t = row("improved", 0.44, NULL);
	struct json_object *c = row("warning", 1.82, NULL);
	struct json_object *same = row("improved", 0.9, NULL);
	struct json_object *fresh = row("new", 1, NULL);
	struct prof_verdict tv, cv, sv, fv;
	char buf[512];

	verdict(t, &tv);
	verdict(c, &cv);
	verdict(same, &sv);
	verdict(fresh, &fv);
	ok(prof_channels_time_count(&tv, &cv, "**", buf, sizeof(buf)) == 1,
	   "time improved, instructions warning: they disagree");
	starts(buf,
	       "time **improved** 56%, instructions +82% (**warning**): more "
	       "instructions per cycle",
	       "the two facts, then what they can mean");
	ok(strstr(buf, "; trust time for speed, counts for the amount of "
		       "work") != NULL,
	   "and which channel to trust for what");
	prof_channels_time_count(&tv, &cv, "", buf, sizeof(buf));
	starts(buf, "time improved 56%, instructions +82% (warning)",
	       "plain text without emphasis");
	ok(prof_channels_time_count(&tv, &sv, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "the same status: no text");
	ok(prof_channels_time_count(&tv, &fv, "**", buf, sizeof(buf)) == 0 &&
	       prof_channels_time_count(NULL, &cv, "**", buf, sizeof(buf)) == 0,
	   "a row not judged, or missing: no text");
	json_object_put(t);
	json_object_put(c);
	json_object_put(same);
	json_object_put(fresh);
}

static void
test_memory(void)
{
	struct json_object *t = row("stable", 1.029, NULL);
	struct json_object *m = row("warning", 2, "host_peak_bytes");
	struct json_object *mt = row("stable", 1.5, "host_peak_bytes");
	struct prof_verdict tv, mv, mtv;
	char buf[512];

	verdict(t, &tv);
	verdict(m, &mv);
	verdict(mt, &mtv);
	ok(prof_channels_time_memory(&tv, &mv, "**", buf, sizeof(buf)) == 1,
	   "time stable, heap peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, heap peak +100% (**warning**): more "
	       "memory in the same time, which another machine, allocator or "
	       "a larger input may not forgive",
	       "the memory row under its reader's name");
	ok(prof_channels_time_memory(&tv, &mtv, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "memory stable: nothing to say");
	ok(prof_channels_time_memory(&tv, NULL, "**", buf, sizeof(buf)) == 0 &&
	       prof_channels_time_memory(NULL, &mv, "**", buf, sizeof(buf)) ==
		   0,
	   "a memory or time row missing: no text");
	json_object_put(t);
	json_object_put(m);
	json_object_put(mt);
}

/* Each metric in the words of the table's row (verdict/table.h). */
static void
test_metric_words(void)
{
	struct json_object *t = row("stable", 1.029, NULL);
	struct json_object *d =
	    row("warning", 2, "device_peak_allocated_bytes");
	struct json_object *f = row("improved", 0.5, NULL);
	struct prof_verdict tv, dv, fv;
	char buf[512];

	verdict(t, &tv);
	verdict(d, &dv);
	verdict(f, &fv);
	ok(prof_channels_time_memory(&tv, &dv, "**", buf, sizeof(buf)) == 1,
	   "time stable, device peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, device peak +100% (**warning**): more "
	       "device memory in the same time, which another machine, "
	       "allocator or a larger input may not forgive",
	       "the device peak in its own words");
	prof_channels_time_memory(&fv, &dv, "", buf, sizeof(buf));
	is_str(buf,
	       "time improved 50%, device peak +100% (warning): faster but "
	       "with more device memory: time bought with device memory",
	       "faster with more device memory");
	ok(prof_channels_time_memory(&tv, &fv, "", buf, sizeof(buf)) == 0,
	   "a time row is no memory row");
	json_object_put(t);
	json_object_put(d);
	json_object_put(f);
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
